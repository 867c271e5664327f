// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The configuration as OpenCode finds it for a directory: its global config, the project's
// opencode.json(c) files and .opencode/ folders up to the worktree root, markdown agents and
// commands, the OPENCODE_* variables; Weft's own file last.

#include "config.h"

#include <QProcessEnvironment>
#include <QString>

namespace weft
{

class ConfigDiscovery
{
public:
    struct Search {
        /// The directory a session works in.
        QString directory;
        /// The project's root, where the search upwards stops; empty: the git top level of
        /// @p directory, or "/" outside git (OpenCode's "global" project).
        QString worktree;
        /// Weft's own config (--config); empty: Config::defaultPath(). It is the last layer.
        QString weftFile;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    };

    /// Loads and merges, lowest precedence first (OpenCode's Config.state):
    ///  1. `~/.config/opencode/{config.json, opencode.json, opencode.jsonc}`;
    ///  2. the file named by OPENCODE_CONFIG;
    ///  3. every `opencode.jsonc`, then every `opencode.json`, from the worktree root down to
    ///     @p directory (unless OPENCODE_DISABLE_PROJECT_CONFIG);
    ///  4. OPENCODE_CONFIG_CONTENT;
    ///  5. the configuration folders, in order: `~/.config/opencode`, the `.opencode` folders from
    ///     @p directory up to the worktree, `~/.opencode`, OPENCODE_CONFIG_DIR. A `.opencode`
    ///     folder (and OPENCODE_CONFIG_DIR) adds its `opencode.jsonc` and `opencode.json`; every
    ///     folder adds its markdown commands (`command/**/*.md`, `commands/`), agents
    ///     (`agent/**/*.md`, `agents/`) and modes (`mode/*.md`, primary agents);
    ///  6. Weft's own file (weft.json or --config).
    /// Then the deprecated `mode` key becomes primary agents, OPENCODE_PERMISSION and the legacy
    /// top-level `tools` map become permission rules. A missing file is no layer; a damaged one is
    /// an error naming the file and line. Nothing is written (OpenCode adds `$schema` to files it
    /// reads; Weft leaves the user's files alone).
    [[nodiscard]] static Result<Config> load(const Search &search);

    /// Whether the OpenCode flag variable @p name is on ("1" or "true", as OpenCode reads its
    /// OPENCODE_* flags).
    [[nodiscard]] static bool flag(const QProcessEnvironment &env, const QString &name);
    /// `$XDG_CONFIG_HOME/opencode` (default `~/.config/opencode`): OpenCode's global config folder.
    [[nodiscard]] static QString globalConfigDir(const QProcessEnvironment &env);
    /// The folders from @p start up to @p stop (both included; up to the file system root when
    /// @p stop is not above @p start), nearest first.
    [[nodiscard]] static QStringList upwards(const QString &start, const QString &stop);
    /// A markdown agent or command: its name is the path below the `agent/`, `agents/`,
    /// `command/` or `commands/` folder without `.md`; the front matter gives the fields and the
    /// body becomes @p bodyKey ("prompt" or "template").
    [[nodiscard]] static Result<JsonObject> loadMarkdown(const QString &folder, const QStringList &subfolders,
                                                         const QString &bodyKey, bool recursive);
};

} // namespace weft
