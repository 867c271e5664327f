// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a store is and can do, as values a view may hold (the store's interface itself is
// model/store/, which views do not see): its capabilities, the runs it closed, the entries of its
// trash and who runs one of its sessions.

#include <QFlags>
#include <QString>
#include <QStringList>

namespace weft
{

/// What a backend can do. Models, views and the command line ask for a capability, never for a
/// backend's type.
enum class StoreCapability {
    /// Weft writes the sessions itself: create, rename, archive, delete, fork, import, and the
    /// agent loop and compaction record their steps in it.
    Writable = 0x1,
    /// Changes made by other processes are reported while a session is open (SessionService
    /// follows them and announces them with its usual signals).
    Live = 0x2,
    /// Each session has a file of its own on disk (sessionFile()): "reveal the data file".
    SessionFiles = 0x4,
    /// Sessions can be copied into a writable store (DbImport) to be forked, compacted and
    /// continued there.
    Importable = 0x8,
    /// The sessions are run by the server that holds them (an OpenCode server, ServerStore):
    /// prompts, Stop, fork, compaction, revert and permission answers are requests to it, and
    /// what it records arrives through the watcher. Weft's own agent loop does not run them.
    RunsOnServer = 0x10,
    /// Deleting a session moves it to a trash (trash()) it can be restored from, for 30 days.
    Trash = 0x20,
    /// Runs whose process died (killed, crashed) are closed: opening the store closes them
    /// (recovery() says what it closed), closeInterruptedRuns() closes them again later. Such a
    /// store keeps Weft's own files beside the sessions (weftDataDir(): session locks, notes).
    RunRecovery = 0x40,
};
Q_DECLARE_FLAGS(StoreCapabilities, StoreCapability)
Q_DECLARE_OPERATORS_FOR_FLAGS(StoreCapabilities)

/// What closing the runs that died found (StoreCapability::RunRecovery).
struct InterruptedRuns
{
    int streams = 0; ///< streamed parts completed from their journals
    int runs = 0; ///< assistant messages closed as interrupted
    int tools = 0; ///< tool calls closed as interrupted
    QStringList sessions; ///< the sessions they were in
    int live = 0; ///< sessions left alone: another process is running them
};

/// One deleted session in the trash (SessionTrash), with the child (subagent) sessions that went
/// with it.
struct TrashEntry {
    QString id;          ///< the entry's folder name: "<deleted ms>-<sessionID>"
    QString sessionID;   ///< the session the user deleted
    QString title;
    QString directory;
    qint64 deleted = 0;  ///< when, ms since the epoch
    QStringList children; ///< the IDs of the child sessions deleted with it
    int files = 0;       ///< how many files it holds
    /// Why it cannot be restored (a damaged or foreign entry), empty when it can. Such an entry
    /// is still listed, so that it can be deleted and purged.
    QString problem;
    bool operator==(const TrashEntry &) const = default;
};

/// The process that runs a session: holds its lock (SessionLock).
struct RunHolder {
    qint64 pid = 0;
    QString host;
    QString command; ///< "weft run", "the Weft window", ...
    qint64 since = 0; ///< ms since the epoch
    /// Whether it is this process (another of its runs).
    [[nodiscard]] bool isThisProcess() const;
    /// "weft run (process 1234 on host, since 14:02)", for messages.
    [[nodiscard]] QString describe() const;
    bool operator==(const RunHolder &) const = default;
};

} // namespace weft
