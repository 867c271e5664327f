// SPDX-License-Identifier: GPL-3.0-or-later
#include "bestofrun.h"

#include "app/sessionworktree.h"
#include "core/async.h"
#include "session/sessionservice.h"

#include <QDeadlineTimer>
#include <QProcess>
#include <QRandomGenerator>
#include <QtConcurrent>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
/// What a run left behind, collected off the GUI thread.
struct Checked {
    QString worktreePath;
    QList<FileDiff> diffs;
    qint64 additions = 0;
    qint64 deletions = 0;
    Tokens tokens;
    double cost = 0;
    std::optional<BestOfRun::TestResult> test;
};

/// The last @p count lines of @p text.
QString lastLines(const QString &text, int count)
{
    QStringList lines = text.split(u'\n');
    while (!lines.isEmpty() && lines.constLast().trimmed().isEmpty())
        lines.removeLast();
    if (lines.size() > count)
        lines = lines.mid(lines.size() - count);
    return lines.join(u'\n');
}
} // namespace

BestOfRun::BestOfRun(SessionController *controller, Request request, QObject *parent)
    : QObject(parent)
    , m_controller(controller)
    , m_request(std::move(request))
    , m_cancelled(std::make_shared<std::atomic_bool>(false))
{
    qRegisterMetaType<weft::BestOfRun::Kept>();
    m_limit = m_request.limit > 0 ? std::min(m_request.limit, MaxRuns) : defaultLimit(int(m_request.models.size()));
    // Names no other group of this repository has: worktrees are named by folder.
    const QString group = u"%1"_s.arg(QRandomGenerator::global()->bounded(0x1000000), 6, 16, QChar(u'0'));
    for (qsizetype i = 0; i < m_request.models.size(); ++i)
        m_runs.append({.model = m_request.models.at(i), .name = u"best-%1-%2"_s.arg(group).arg(i + 1)});
    connect(m_controller, &SessionController::runFinished, this, &BestOfRun::onRunFinished);
}

BestOfRun::~BestOfRun()
{
    stopAll();
    for (QFuture<void> &work : m_work)
        work.waitForFinished();
}

bool BestOfRun::start()
{
    if (!m_controller || m_started || m_request.prompt.trimmed().isEmpty() || m_runs.isEmpty() || m_runs.size() > MaxRuns)
        return false;
    m_started = true;
    startNext();
    return true;
}

int BestOfRun::runningCount() const
{
    return int(std::count_if(m_runs.cbegin(), m_runs.cend(), [](const Run &run) {
        return run.state == State::Starting || run.state == State::Running;
    }));
}

int BestOfRun::waitingCount() const
{
    return int(std::count_if(m_runs.cbegin(), m_runs.cend(), [](const Run &run) { return run.state == State::Waiting; }));
}

bool BestOfRun::isFinished() const
{
    return std::all_of(m_runs.cbegin(), m_runs.cend(), [](const Run &run) { return run.ended() && run.checked; });
}

QSet<QString> BestOfRun::sessionIDs() const
{
    QSet<QString> ids;
    for (const Run &run : m_runs) {
        if (!run.sessionID.isEmpty())
            ids.insert(run.sessionID);
    }
    return ids;
}

int BestOfRun::indexOf(const QString &sessionID) const
{
    for (qsizetype i = 0; i < m_runs.size(); ++i) {
        if (m_runs.at(i).sessionID == sessionID)
            return int(i);
    }
    return -1;
}

void BestOfRun::startNext()
{
    while (m_controller && !m_stopping && runningCount() < m_limit) {
        const auto waiting = std::find_if(m_runs.cbegin(), m_runs.cend(),
                                          [](const Run &run) { return run.state == State::Waiting; });
        if (waiting == m_runs.cend())
            break;
        startRun(int(waiting - m_runs.cbegin()));
    }
    Q_EMIT countsChanged();
}

void BestOfRun::startRun(int index)
{
    Run &run = m_runs[index];
    run.state = State::Starting;
    NewSessionRequest request;
    request.directory = m_request.directory;
    request.projectID = m_request.projectID;
    const QString firstLine = m_request.prompt.trimmed().section(u'\n', 0, 0);
    // The model first: what tells the group's sessions apart in the sidebar and on the tiles.
    request.title = u"%1 · %2"_s.arg(run.model, firstLine.left(60));
    request.worktree = Worktrees::CreateOptions{.name = run.name};
    QFuture<Result<Session>> made = m_controller->createSession(request);
    m_work.append(QFuture<void>(made));
    whenFinished(made, this, [this, index](const Result<Session> &session) { onSessionMade(index, session); });
    Q_EMIT runChanged(index);
}

void BestOfRun::onSessionMade(int index, const Result<Session> &session)
{
    Run &run = m_runs[index];
    if (!session) {
        run.setupError = session.error().toString();
        end(index, State::Failed);
        return;
    }
    run.sessionID = session->id();
    run.directory = session->directory();
    run.branch = u"weft/"_s + run.name;
    if (m_stopping || !m_controller) {
        end(index, State::Stopped);
        return;
    }
    const SessionController::PromptResult sent = m_controller->prompt(run.sessionID, m_request.prompt, m_request.agent, run.model);
    if (!sent.ok()) {
        run.refused = sent;
        end(index, State::Failed);
        return;
    }
    run.state = State::Running;
    Q_EMIT runChanged(index);
    startNext();
}

void BestOfRun::onRunFinished(const QString &sessionID, bool ok, const MessageError &error)
{
    const int index = indexOf(sessionID);
    if (index < 0 || m_runs.at(index).state != State::Running)
        return;
    m_runs[index].error = error;
    end(index, ok ? State::Finished : error.kind() == MessageError::Kind::Aborted ? State::Stopped : State::Failed);
}

void BestOfRun::end(int index, State state)
{
    m_runs[index].state = state;
    Q_EMIT runChanged(index);
    check(index);
    startNext();
}

void BestOfRun::check(int index)
{
    const Run &run = m_runs.at(index);
    const QString directory = run.directory;
    const QString sessionID = run.sessionID;
    const QString test = run.state == State::Finished ? m_request.testCommand.trimmed() : QString();
    const int timeoutMs = m_request.testTimeoutMs;
    std::shared_ptr<SessionService> service = m_controller ? m_controller->sharedService() : nullptr;
    std::shared_ptr<std::atomic_bool> cancelled = m_cancelled;
    QFuture<Checked> checked = QtConcurrent::run([directory, sessionID, test, timeoutMs, service, cancelled] {
        Checked c;
        if (service && !sessionID.isEmpty()) {
            for (const MessageWithParts &m : service->messages(sessionID)) {
                if (m.info.isAssistant()) {
                    c.tokens += m.info.tokens();
                    c.cost += m.info.cost();
                }
            }
        }
        if (directory.isEmpty())
            return c;
        const Result<Worktree> worktree = SessionWorktree::holding(directory);
        if (!worktree)
            return c;
        c.worktreePath = worktree->path;
        if (const Result<Worktrees> trees = Worktrees::open(worktree->path)) {
            if (const Result<QByteArray> diff = trees->diff(worktree.value()))
                c.diffs = SessionWorktree::splitPatch(diff.value());
        }
        for (const FileDiff &d : std::as_const(c.diffs)) {
            c.additions += d.additions();
            c.deletions += d.deletions();
        }
        if (!test.isEmpty())
            c.test = runTest(test, directory, timeoutMs, cancelled.get());
        return c;
    });
    m_work.append(QFuture<void>(checked));
    whenFinished(checked, this, [this, index](const Checked &c) {
        Run &run = m_runs[index];
        run.worktreePath = c.worktreePath;
        run.diffs = c.diffs;
        run.additions = c.additions;
        run.deletions = c.deletions;
        run.tokens = c.tokens;
        run.cost = c.cost;
        run.test = c.test;
        run.checked = true;
        Q_EMIT runChanged(index);
        if (isFinished())
            Q_EMIT finished();
    });
}

void BestOfRun::stopAll()
{
    if (m_stopping)
        return;
    m_stopping = true;
    m_cancelled->store(true);
    for (qsizetype i = 0; i < m_runs.size(); ++i) {
        Run &run = m_runs[i];
        if (run.state == State::Waiting)
            end(int(i), State::Stopped);
        else if (run.state == State::Running && m_controller)
            m_controller->stop(run.sessionID); // runFinished() follows, aborted
    }
    Q_EMIT countsChanged();
}

bool BestOfRun::keep(int index, ApplyMode mode)
{
    if (m_keeping || index < 0 || index >= m_runs.size() || !isFinished() || m_runs.at(index).worktreePath.isEmpty())
        return false;
    m_keeping = true;
    const QString keptPath = m_runs.at(index).worktreePath;
    QStringList others;
    for (qsizetype i = 0; i < m_runs.size(); ++i) {
        if (i != index && !m_runs.at(i).worktreePath.isEmpty())
            others.append(m_runs.at(i).worktreePath);
    }
    const QString message = u"%1 (%2)"_s.arg(m_request.prompt.trimmed().section(u'\n', 0, 0).left(72),
                                              m_runs.at(index).model);
    QFuture<Result<Kept>> work = QtConcurrent::run([keptPath, others, mode, message]() -> Result<Kept> {
        const Result<Worktrees> trees = Worktrees::open(keptPath);
        if (!trees)
            return trees.error();
        Result<Worktree> kept = trees->find(keptPath);
        if (!kept)
            return kept.error();
        if (mode != ApplyMode::Diff) {
            // Merge and rebase take commits: the agent's work is mostly not committed.
            const Result<WorktreeStatus> status = trees->status(kept.value());
            if (!status)
                return status.error();
            if (!status->uncommitted.isEmpty()) {
                if (const Result<QString> committed = trees->commit(kept.value(), message); !committed)
                    return committed.error();
                kept = trees->find(keptPath);
                if (!kept)
                    return kept.error();
            }
        }
        const Result<ApplyResult> applied = trees->apply(kept.value(), mode);
        if (!applied)
            return applied.error();
        Kept result{.apply = applied.value(), .notRemoved = {}};
        if (!applied->clean())
            return result; // the others stay until the user has resolved it
        for (const QString &path : others) {
            const Result<Worktree> other = trees->find(path);
            // The user agreed to drop their work: uncommitted changes go with them (the branches stay).
            const Result<void> removed = other ? trees->remove(other.value(), true) : Result<void>(other.error());
            if (!removed)
                result.notRemoved.append(path + u": "_s + removed.error().toString());
        }
        return result;
    });
    m_work.append(QFuture<void>(work));
    whenFinished(work, this, [this, index](const Result<Kept> &result) {
        m_keeping = false;
        if (!result) {
            Q_EMIT keepFailed(index, result.error().toString());
            return;
        }
        if (result->apply.clean())
            m_kept = index;
        Q_EMIT kept(index, result.value());
    });
    return true;
}

QFuture<Result<QString>> BestOfRun::repositoryOf(const QString &directory)
{
    return QtConcurrent::run([directory]() -> Result<QString> {
        const Result<Worktrees> trees = Worktrees::open(directory);
        if (!trees)
            return trees.error();
        return trees->mainPath();
    });
}

BestOfRun::TestResult BestOfRun::runTest(const QString &command, const QString &directory, int timeoutMs,
                                         const std::atomic_bool *cancelled)
{
    TestResult result;
    QProcess process;
    process.setWorkingDirectory(directory);
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.setStandardInputFile(QProcess::nullDevice());
    process.start(u"/bin/sh"_s, {u"-c"_s, command});
    QByteArray output;
    if (process.waitForStarted()) {
        const QDeadlineTimer deadline(timeoutMs);
        // Short waits: Stop all (cancelled) and the time limit are noticed within 100 ms.
        while (!process.waitForFinished(100)) {
            output += process.readAll();
            if (process.state() == QProcess::NotRunning)
                break;
            if (deadline.hasExpired() || (cancelled && cancelled->load())) {
                result.timedOut = deadline.hasExpired();
                process.kill();
                process.waitForFinished();
                break;
            }
        }
    }
    output += process.readAll();
    if (process.exitStatus() == QProcess::NormalExit && !result.timedOut && process.error() != QProcess::FailedToStart)
        result.exitCode = process.exitCode();
    result.output = lastLines(QString::fromUtf8(output), TestOutputLines);
    return result;
}

} // namespace weft
