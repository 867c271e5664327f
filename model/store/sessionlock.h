// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Who runs a session. A process that runs a session (a prompt, a compaction, a sub-agent's
// child session) holds an exclusive flock(2) on `<dataDir>/run/<sessionID>.lock`; the kernel
// releases it when the process ends, however it ends, so a lock file nobody holds is the trace
// of a run that died (RunRecovery closes it). The file names its holder (PID, host, command,
// since when) for the message another process shows.

#include "core/result.h"
#include "core/storeinfo.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace weft
{

class SessionLock
{
public:
    /// The process that holds a session's lock.
    using Holder = RunHolder;

    /// Takes the lock of @p sessionID in @p dataDir for @p command, trying for at most
    /// @p waitMs. Fails, naming the holder, when another process or another run of this one
    /// holds it; fails too when the lock file cannot be made (the message says why).
    [[nodiscard]] static Result<std::unique_ptr<SessionLock>> acquire(const QString &dataDir, const QString &sessionID,
                                                                      const QString &command, int waitMs = 200);
    /// Who holds the lock of @p sessionID now; nullopt when nobody does.
    [[nodiscard]] static std::optional<Holder> holder(const QString &dataDir, const QString &sessionID);
    /// The sessions that have a lock file: those being run, and those whose run died.
    [[nodiscard]] static QStringList lockFiles(const QString &dataDir);
    /// The folder of the lock files.
    [[nodiscard]] static QString folder(const QString &dataDir);
    /// The lock file of @p sessionID (there or not).
    [[nodiscard]] static QString path(const QString &dataDir, const QString &sessionID);

    /// The command that describes this process in lock files: set once at start ("weft run",
    /// "the Weft window"); the default is the program's name.
    static void setProcessCommand(const QString &command);

    ~SessionLock(); ///< removes the lock file, then releases the lock
    SessionLock(const SessionLock &) = delete;
    SessionLock &operator=(const SessionLock &) = delete;

    [[nodiscard]] QString sessionID() const { return m_sessionID; }
    /// Leaves the lock file when released: the run may have left its session unfinished (its
    /// writes failed), and the file tells the next start to close it.
    void keepFile() { m_keepFile = true; }

private:
    SessionLock(QString path, QString sessionID, int fd);

    QString m_path;
    QString m_sessionID;
    int m_fd = -1;
    bool m_keepFile = false;
};

} // namespace weft
