// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>

namespace weft
{

// The messages model/ makes for people (Error::message and the texts built into it) are marked
// for translation where they are made, with the context of their area:
//
//     return Error{StoreTr::tr("cannot open: %1").arg(reason), path};
//
// lupdate finds them (the weft_lupdate target scans model/ with views/ and app/) and the window
// shows them in the language of the installed translator (weft::I18n::installTranslations). With
// no translator installed, as on the command line and in the tests, they stay English.
// Translate the format string, then .arg() the values. Not translated: what is data or protocol
// (JSON keys, OpenCode's error names and texts, tool results the model reads), log lines, and the
// `where` of an Error (paths, JSON locations).

/// model/core: identifiers and the validation of session data.
struct CoreTr
{
    Q_DECLARE_TR_FUNCTIONS(weft::Core)
};
/// model/store: OpenCode's JSON files.
struct StoreTr
{
    Q_DECLARE_TR_FUNCTIONS(weft::Store)
};
/// model/session: the session service, data folders, export and import.
struct SessionTr
{
    Q_DECLARE_TR_FUNCTIONS(weft::Session)
};
/// model/opencodedb: OpenCode's SQLite database.
struct OpencodeDbTr
{
    Q_DECLARE_TR_FUNCTIONS(weft::OpencodeDb)
};
/// model/server: OpenCode servers and ssh tunnels.
struct ServerTr
{
    Q_DECLARE_TR_FUNCTIONS(weft::Server)
};
/// model/provider: config files, providers and models, front matter.
struct ConfigTr
{
    Q_DECLARE_TR_FUNCTIONS(weft::Config)
};
/// model/processor: runs, agents, commands, permissions, attachments, snapshots and revert.
struct ProcessorTr
{
    Q_DECLARE_TR_FUNCTIONS(weft::Processor)
};
/// model/compaction: compaction settings and undo.
struct CompactionTr
{
    Q_DECLARE_TR_FUNCTIONS(weft::Compaction)
};
/// model/search: the search index.
struct SearchTr
{
    Q_DECLARE_TR_FUNCTIONS(weft::Search)
};
/// model/mcp: MCP servers.
struct McpTr
{
    Q_DECLARE_TR_FUNCTIONS(weft::Mcp)
};
/// model/diff: diff documents.
struct DiffTr
{
    Q_DECLARE_TR_FUNCTIONS(weft::Diff)
};
/// model/worktree: git worktrees of sessions.
struct WorktreeTr
{
    Q_DECLARE_TR_FUNCTIONS(weft::Worktree)
};

} // namespace weft
