// SPDX-License-Identifier: GPL-3.0-or-later
// SessionController: sessions in git worktrees (model/worktree, app/sessionworktree.h).
#include "sessioncontroller.h"

#include "app/serversource.h"
#include "app/sessionworktree.h"
#include "core/async.h"
#include "core/git.h"
#include "core/tr.h"
#include "processor/processor.h"
#include "provider/provider.h"
#include "session/sessionservice.h"

#include <QFileInfo>
#include <QNetworkAccessManager>
#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>

using namespace Qt::StringLiterals;

namespace weft
{

QFuture<Result<Session>> SessionController::createSession(const NewSessionRequest &request)
{
    return QtConcurrent::run(m_servicePool, [service = m_service, request]() -> Result<Session> {
        SessionService::CreateOptions options;
        options.directory = request.directory;
        options.projectID = request.projectID;
        options.title = request.title;
        if (request.worktree) {
            const Result<SessionWorktree::Made> made
                = SessionWorktree::create(request.directory, *request.worktree, request.runSetup);
            if (!made)
                return made.error();
            options.directory = made->directory;
        }
        return service->create(options);
    });
}

QFuture<Result<Worktree>> SessionController::worktreeOf(const QString &sessionID)
{
    if (ServerSource *server = serverOf(sessionID))
        return server->worktreeOf(sessionID);
    return QtConcurrent::run(m_servicePool, [service = sharedServiceOf(sessionID), sessionID]() -> Result<Worktree> {
        const std::optional<Session> session = service->get(sessionID);
        if (!session)
            return Error{SessionTr::tr("no session %1").arg(sessionID), sessionID};
        return SessionWorktree::holding(session->directory());
    });
}

QFuture<Result<SessionController::WorktreeRepository>> SessionController::worktreeRepository(const QString &directory)
{
    return QtConcurrent::run([directory]() -> Result<WorktreeRepository> {
        const Result<Worktrees> trees = Worktrees::open(directory);
        if (!trees)
            return trees.error();
        const QString main = trees->mainPath();
        return WorktreeRepository{main, trees->defaultParent(), SessionWorktree::setupScript(main)};
    });
}

QFuture<QHash<QString, QString>> SessionController::worktreeBranches(const QStringList &directories)
{
    return QtConcurrent::run([directories] {
        QHash<QString, QString> branches;
        for (const QString &directory : directories) {
            if (const Result<Worktree> held = SessionWorktree::holding(directory))
                branches.insert(directory, held->branch);
        }
        return branches;
    });
}

QFuture<Result<SessionController::WorktreeChanges>> SessionController::worktreeChanges(const Worktree &worktree)
{
    return QtConcurrent::run([worktree]() -> Result<WorktreeChanges> {
        const Result<Worktrees> trees = Worktrees::open(worktree.path);
        if (!trees)
            return trees.error();
        WorktreeChanges changes;
        const Result<QList<WorktreeCommit>> commits = trees->commits(worktree);
        if (!commits)
            return commits.error();
        changes.commits = commits.value();
        const Result<QByteArray> diff = trees->diff(worktree);
        if (!diff)
            return diff.error();
        changes.files = SessionWorktree::splitPatch(diff.value());
        const Result<WorktreeStatus> status = trees->status(worktree);
        if (!status)
            return status.error();
        changes.uncommitted = status->uncommitted;
        changes.mainPath = trees->mainPath();
        Git::Options inMain;
        inMain.workingDirectory = trees->mainPath();
        changes.mainBranch = Git::run({u"symbolic-ref"_s, u"--quiet"_s, u"--short"_s, u"HEAD"_s}, inMain).line();
        // As Worktrees::apply() decides it.
        const Git::Output dirty = Git::run({u"status"_s, u"--porcelain"_s, u"--untracked-files=no"_s}, inMain);
        changes.mainDirty = !dirty.ok() || !dirty.out.isEmpty();
        return changes;
    });
}

QFuture<Result<ApplyResult>> SessionController::applyWorktree(const Worktree &worktree, ApplyMode mode)
{
    return QtConcurrent::run([worktree, mode]() -> Result<ApplyResult> {
        const Result<Worktrees> trees = Worktrees::open(worktree.path);
        if (!trees)
            return trees.error();
        return trees->apply(worktree, mode);
    });
}

QFuture<Result<QString>> SessionController::commitWorktree(const Worktree &worktree, const QString &message)
{
    return QtConcurrent::run([worktree, message]() -> Result<QString> {
        const Result<Worktrees> trees = Worktrees::open(worktree.path);
        if (!trees)
            return trees.error();
        return trees->commit(worktree, message);
    });
}

QFuture<Result<void>> SessionController::removeWorktree(const Worktree &worktree, bool force)
{
    return QtConcurrent::run([worktree, force]() -> Result<void> {
        const Result<Worktrees> trees = Worktrees::open(worktree.path);
        if (!trees)
            return trees.error();
        return trees->remove(worktree, force);
    });
}

QFuture<Result<Session>> SessionController::forkWorktree(const QString &sessionID, const Worktree &from,
                                                         const Worktrees::CreateOptions &options)
{
    if (const Result<void> idle = checkIdle(sessionID); !idle)
        return QtFuture::makeReadyValueFuture(Result<Session>(idle.error()));
    return QtConcurrent::run(m_servicePool, [service = sharedServiceOf(sessionID), sessionID, from, options]() -> Result<Session> {
        const Result<Worktree> made = SessionWorktree::fork(from, options);
        if (!made)
            return made.error();
        return service->update(sessionID, [&made](Session &s) { s.setDirectory(made->path); });
    });
}

QFuture<Result<QString>> SessionController::proposeCommitMessage(const QString &sessionID, const Worktree &worktree)
{
    using Answer = Result<QString>;
    if (!m_processor || !m_processor->config().resolveModel)
        return QtFuture::makeReadyValueFuture(Answer(Error{SessionTr::tr("no model is configured"), sessionID}));
    struct Asked {
        QString model; // "provider/model" of the session's last reply, empty: the default
        QByteArray diff;
        QList<WorktreeCommit> commits;
    };
    const std::shared_ptr<SessionService> service = sharedServiceOf(sessionID);
    QFuture<Result<Asked>> read = QtConcurrent::run(m_servicePool, [service, sessionID, worktree]() -> Result<Asked> {
        Asked asked;
        const QList<MessageWithParts> messages = service->messages(sessionID);
        for (auto it = messages.crbegin(); it != messages.crend(); ++it) {
            if (it->info.isAssistant() && !it->info.providerID().isEmpty()) {
                asked.model = it->info.providerID() + u'/' + it->info.modelID();
                break;
            }
        }
        const Result<Worktrees> trees = Worktrees::open(worktree.path);
        if (!trees)
            return trees.error();
        const Result<QByteArray> diff = trees->diff(worktree);
        if (!diff)
            return diff.error();
        if (diff->isEmpty())
            return Error{WorktreeTr::tr("%1 has nothing to commit").arg(worktree.path), worktree.path};
        asked.diff = diff.value();
        if (const Result<QList<WorktreeCommit>> commits = trees->commits(worktree))
            asked.commits = commits.value();
        return asked;
    });
    auto promise = std::make_shared<QPromise<Answer>>();
    QFuture<Answer> answer = promise->future();
    promise->start();
    whenFinished(read, this, [this, promise](const Result<Asked> &asked) {
        const auto finish = [promise](const Answer &a) {
            if (promise->future().isFinished())
                return;
            promise->addResult(a);
            promise->finish();
        };
        if (!asked)
            return finish(asked.error());
        const auto &resolve = m_processor->config().resolveModel;
        Result<ResolvedModel> model = resolve(asked->model);
        if (!model)
            model = resolve(QString());
        if (!model)
            return finish(model.error());
        // The changes as the model reads them: which files, then as much of the diff as is sensible.
        QString summary;
        for (const FileDiff &file : SessionWorktree::splitPatch(asked->diff))
            summary
                += u"%1 %2 (+%3 -%4)\n"_s.arg(file.status(), file.file()).arg(file.additions()).arg(file.deletions());
        QString commits;
        for (const WorktreeCommit &c : asked->commits)
            commits += u"- "_s + c.subject + u'\n';
        const QString prompt = u"Write a git commit message for these changes: a subject line of at most 72 "
                               u"characters in the imperative mood, a blank line, then a short body saying what "
                               u"changed and why. Answer with the message alone, no code fences.\n\nFiles:\n"_s
            + summary + (commits.isEmpty() ? QString() : u"\nCommits already on the branch:\n"_s + commits)
            + u"\nDiff:\n"_s + QString::fromUtf8(asked->diff.left(12000));
        LlmRequest request;
        request.providerID = model->providerID;
        request.modelID = model->apiModelID.isEmpty() ? model->modelID : model->apiModelID;
        request.messages = {LlmMessage::user(prompt)};
        request.maxOutputTokens = 400;
        request.small = true;
        // The network manager is the provider's: deleted after it (the provider lets go of its
        // reply first), when it answered or with the controller.
        auto *network = new QNetworkAccessManager;
        Provider *provider = Provider::create(model->settings, network, this);
        network->setParent(provider);
        const auto release = [provider] { provider->deleteLater(); };
        auto text = std::make_shared<QString>();
        connect(provider, &Provider::event, provider, [text](const LlmEvent &e) {
            if (e.type == LlmEvent::Type::TextDelta)
                *text += e.text;
        });
        connect(provider, &Provider::finished, provider, [text, finish, release] {
            QString message = text->trimmed();
            // Some models fence it all the same.
            if (message.startsWith(u"```"_s)) {
                message = message.section(u'\n', 1);
                if (message.endsWith(u"```"_s))
                    message.chop(3);
                message = message.trimmed();
            }
            finish(message.isEmpty() ? Answer(Error{SessionTr::tr("the model proposed no message"), {}})
                                     : Answer(message));
            release();
        });
        connect(provider, &Provider::failed, provider,
                [finish, release](const MessageError &error, std::optional<qint64>) {
                    finish(Error{error.message(), {}});
                    release();
                });
        provider->start(request);
    });
    return answer;
}

} // namespace weft
