// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "tool.h"

#include <QObject>
#include <QThreadPool>

#include <functional>
#include <memory>

namespace weft
{

/// The tool calls of a run: each call of a step on a thread of the runner's pool, in parallel,
/// the outcomes handed back in the order of the calls on the runner's thread (its event loop;
/// nothing waits there). Checks each call first (aborted, unknown tool, invalid input, a doom
/// loop the user refuses), writes its running, completed or error state, and says whether the
/// user dismissed the question tool's questions.
class ToolRunner : public QObject
{
    Q_OBJECT

public:
    /// What a call needs from its run (called from the tools' threads: thread-safe).
    struct Host {
        /// Stores and announces @p part (its state changed).
        std::function<void(const Part &part)> writePart;
        /// Announces the deltas a tool streamed (its progress).
        std::function<void()> flush;
        /// The context of call @p part of @p messageID; @p part lives while the call runs.
        std::function<ToolContext(const QString &messageID, Part &part, const JsonObject &input, qint64 start)> context;
        /// Asks a permission (the doom loop's) for call @p callID.
        std::function<PermissionDecision(const PermissionAsk &ask, const QString &messageID, const QString &callID)> ask;
        std::shared_ptr<std::atomic_bool> abortFlag;
    };
    /// How one call ended, for the step.
    struct Outcome {
        QString doomLoop;       ///< the error when a doom loop was refused
        bool dismissed = false; ///< the user dismissed the question tool's questions
    };

    ToolRunner(QString sessionID, Host host, QObject *parent = nullptr);
    ~ToolRunner() override;

    void setTools(const QList<std::shared_ptr<Tool>> &tools) { m_tools = tools; }
    [[nodiscard]] const QList<std::shared_ptr<Tool>> &tools() const { return m_tools; }

    /// Runs @p calls (tool parts of @p messageID) in parallel; @p done follows on the runner's
    /// thread once all have ended, with their outcomes in the order of the calls.
    void run(const QString &messageID, const QList<Part> &calls, std::function<void(const QList<Outcome> &)> done);
    /// Runs @p work on a thread of the pool; @p done gets its result on the runner's thread.
    template<typename T>
    void offThread(std::function<T()> work, std::function<void(T)> done)
    {
        pool()->start([this, work = std::move(work), done = std::move(done)]() mutable {
            T result = work();
            // The runner outlives its jobs: its destructor waits for them.
            QMetaObject::invokeMethod(
                this, [done = std::move(done), result = std::move(result)]() mutable { done(std::move(result)); },
                Qt::QueuedConnection);
        });
    }

private:
    QThreadPool *pool();
    /// One call, on its thread; @p repeated: the third identical call in a row.
    Outcome execute(const QString &messageID, Part part, bool repeated);
    /// Records the call; true when it is the third identical call in a row.
    bool isDoomLoop(const QString &tool, const JsonObject &input);
    [[nodiscard]] bool aborted() const { return m_host.abortFlag && m_host.abortFlag->load(); }

    QString m_sessionID;
    Host m_host;
    QList<std::shared_ptr<Tool>> m_tools;
    QList<QByteArray> m_recentCalls; ///< tool + input of the last calls, for doom-loop detection
    /// The threads of tool calls (made for the first call).
    std::unique_ptr<QThreadPool> m_pool;
};

} // namespace weft
