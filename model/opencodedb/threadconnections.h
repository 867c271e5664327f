// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/result.h"

#include <QSqlDatabase>
#include <QString>

#include <functional>
#include <memory>

namespace weft
{

/// One QSqlDatabase connection per thread to one SQLite file (a QSqlDatabase belongs to the
/// thread that opened it). A thread's connection is opened on its first use and closed when the
/// thread finishes (QThread::finished) or when this object is destroyed, whichever comes first.
/// Thread-safe.
class ThreadConnections
{
public:
    /// @p connectOptions are QSQLITE's (QSQLITE_OPEN_READONLY, QSQLITE_BUSY_TIMEOUT, ...);
    /// @p setUp runs once on every new connection (pragmas, FTS5 tokenizers).
    ThreadConnections(const QString &file, const QString &connectOptions,
                      std::function<Result<void>(QSqlDatabase &)> setUp = {});
    ~ThreadConnections();
    ThreadConnections(const ThreadConnections &) = delete;
    ThreadConnections &operator=(const ThreadConnections &) = delete;

    [[nodiscard]] QString file() const { return m_file; }
    /// The calling thread's connection, opened when needed.
    [[nodiscard]] Result<QSqlDatabase> get();
    /// Closes the calling thread's connection.
    void closeCurrent();
    /// Closes every connection (no thread may be using one).
    void closeAll();

private:
    struct State;
    QString m_file;
    QString m_options;
    std::function<Result<void>(QSqlDatabase &)> m_setUp;
    std::shared_ptr<State> m_state;
};

} // namespace weft
