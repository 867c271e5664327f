// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/sessioncontroller.h"
#include "core/types.h"
#include "worktree/worktrees.h"

#include <QFuture>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>
#include <optional>

namespace weft
{

/// One prompt run on several models (or several times on one), "best of N": each run in a git
/// worktree and a session of its own, at most limit() of them at once and the others waiting
/// their turn; when a run ends, what it changed in its worktree (files, lines added and removed,
/// the diff) and the result of the project's test command there are collected; then the user
/// keeps one (keep()): its work goes to the main checkout and the other worktrees are removed
/// (their branches stay). Git, the test command and the reads of a run's usage happen off the GUI
/// thread; the runs go through the SessionController. Stop all: stopAll().
class BestOfRun : public QObject
{
    Q_OBJECT

public:
    /// At most this many runs in a group.
    static constexpr int MaxRuns = 5;
    /// How many run at once unless the request says: three providers' rate limits and a laptop's
    /// cores (each run's tools, and the test commands, run here) stay comfortable at that.
    static constexpr int DefaultLimit = 3;
    /// How long a test command may run in a worktree before it is killed.
    static constexpr int DefaultTestTimeoutMs = 10 * 60 * 1000;
    /// Lines of a test command's output kept (its last ones).
    static constexpr int TestOutputLines = 40;

    struct Request {
        /// A folder of a git repository (the open session's): the worktrees start from its
        /// checkout's HEAD, beside the repository.
        QString directory;
        QString projectID;
        QString prompt;
        QString agent;
        /// One entry per run, "provider/model"; a model may repeat. 1 to MaxRuns of them.
        QStringList models;
        /// Runs at once; 0: defaultLimit().
        int limit = 0;
        /// Run with `sh -c` in each worktree after its run ended well; none when empty.
        QString testCommand;
        int testTimeoutMs = DefaultTestTimeoutMs;
    };

    enum class State {
        Waiting, ///< for a free place (limit())
        Starting, ///< its worktree and session are being made
        Running,
        Finished, ///< the run ended well
        Failed, ///< its worktree, its session or its run failed (error, refused, setupError)
        Stopped, ///< stopped by the user (stopAll()), or never started
    };
    Q_ENUM(State)

    struct TestResult {
        int exitCode = -1; ///< -1: it did not start, crashed, timed out or was stopped
        bool timedOut = false;
        QString output; ///< its last TestOutputLines lines, standard error and output merged
        [[nodiscard]] bool passed() const { return exitCode == 0 && !timedOut; }
    };

    struct Run {
        QString model;
        /// Its worktree's name, "best-<group>-<n>" (branch weft/best-<group>-<n>).
        QString name;
        State state = State::Waiting;
        QString sessionID;
        /// Its session's folder (in its worktree).
        QString directory;
        /// Its worktree's folder, known once it is checked.
        QString worktreePath;
        QString branch;
        /// Why its worktree or session could not be made (Failed without a session).
        QString setupError;
        /// The prompt was not sent (Failed): the controller's reason.
        std::optional<SessionController::PromptResult> refused;
        /// How its run ended when it failed or was stopped.
        MessageError error;
        /// Its diff, usage and test are collected (after it ended).
        bool checked = false;
        /// What it changed since its worktree's base, a file each, with their patches.
        QList<FileDiff> diffs;
        qint64 additions = 0;
        qint64 deletions = 0;
        Tokens tokens;
        double cost = 0;
        /// The test command's result; none without a test command, or when the run did not end well.
        std::optional<TestResult> test;
        [[nodiscard]] bool ended() const
        {
            return state == State::Finished || state == State::Failed || state == State::Stopped;
        }
    };

    /// What keep() did.
    struct Kept {
        ApplyResult apply;
        /// The worktrees of the other runs that could not be removed, and why.
        QStringList notRemoved;
    };

    /// A group for @p request, run by @p controller. start() starts it. A group that outlives its
    /// controller (a window closing) does nothing more.
    BestOfRun(SessionController *controller, Request request, QObject *parent = nullptr);
    /// Stops what still runs (stopAll()) and waits for the work off the GUI thread.
    ~BestOfRun() override;

    /// Runs at once for @p runs runs when the user does not say.
    [[nodiscard]] static int defaultLimit(int runs) { return std::clamp(runs, 1, DefaultLimit); }
    /// The main checkout's folder of the git repository of @p directory, or why it is none, read
    /// off the GUI thread (what "Run on Several Models…" needs).
    [[nodiscard]] static QFuture<Result<QString>> repositoryOf(const QString &directory);
    /// The runs and failures of a test command in @p directory, off the calling thread (a worker's).
    [[nodiscard]] static TestResult runTest(const QString &command, const QString &directory, int timeoutMs,
                                            const std::atomic_bool *cancelled);

    /// Checks the request (models, a repository) and starts the first limit() runs; false (and
    /// nothing started) when the request is not one that can run: no prompt, no model or too many.
    bool start();
    /// Stops the runs that run, and the waiting ones never start; their test commands are killed.
    void stopAll();
    /// Applies run @p index's worktree to the main checkout with @p mode (its uncommitted work
    /// committed first for Merge and Rebase), then, when that was clean, removes the other
    /// runs' worktrees: kept() or keepFailed(). False when it cannot be kept now (not every run
    /// has ended and been checked, a keep runs, or no worktree).
    bool keep(int index, ApplyMode mode);

    [[nodiscard]] const Request &request() const { return m_request; }
    [[nodiscard]] const QList<Run> &runs() const { return m_runs; }
    [[nodiscard]] int limit() const { return m_limit; }
    [[nodiscard]] int runningCount() const;
    [[nodiscard]] int waitingCount() const;
    /// Every run ended and was checked.
    [[nodiscard]] bool isFinished() const;
    /// Whether keep() runs.
    [[nodiscard]] bool isKeeping() const { return m_keeping; }
    /// The run kept, -1 before.
    [[nodiscard]] int keptIndex() const { return m_kept; }
    /// The sessions of the runs made so far.
    [[nodiscard]] QSet<QString> sessionIDs() const;

Q_SIGNALS:
    /// Run @p index changed (its state, its session, its checks).
    void runChanged(int index);
    /// The numbers of runs running and waiting changed.
    void countsChanged();
    /// Every run ended and was checked.
    void finished();
    void kept(int index, const weft::BestOfRun::Kept &result);
    void keepFailed(int index, const QString &error);

private:
    void startNext();
    void startRun(int index);
    void onSessionMade(int index, const Result<Session> &session);
    void onRunFinished(const QString &sessionID, bool ok, const MessageError &error);
    void end(int index, State state);
    void check(int index);
    [[nodiscard]] int indexOf(const QString &sessionID) const;

    QPointer<SessionController> m_controller;
    Request m_request;
    QList<Run> m_runs;
    int m_limit = DefaultLimit;
    bool m_started = false;
    bool m_stopping = false;
    bool m_keeping = false;
    int m_kept = -1;
    /// Set by stopAll() and the destructor: test commands running off the GUI thread are killed.
    std::shared_ptr<std::atomic_bool> m_cancelled;
    /// The work off the GUI thread (worktrees, checks, keep), waited for by the destructor.
    QList<QFuture<void>> m_work;
};

} // namespace weft

Q_DECLARE_METATYPE(weft::BestOfRun::Kept)
