// SPDX-License-Identifier: GPL-3.0-or-later
// SessionController: sessions in git worktrees (model/worktree, app/sessionworktree.h).
#include "sessioncontroller.h"

#include "app/sessionworktree.h"
#include "core/tr.h"
#include "session/sessionservice.h"

#include <QtConcurrent/QtConcurrentRun>

using namespace Qt::StringLiterals;

namespace weft
{

QFuture<Result<Session>> SessionController::createSession(const NewSessionRequest &request)
{
    return QtConcurrent::run([service = m_service, request]() -> Result<Session> {
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
    if (serverOf(sessionID))
        return QtFuture::makeReadyValueFuture(
            Result<Worktree>(Error{SessionTr::tr("an OpenCode server's session works in the server's folders"), sessionID}));
    return QtConcurrent::run([service = sharedServiceOf(sessionID), sessionID]() -> Result<Worktree> {
        const std::optional<Session> session = service->get(sessionID);
        if (!session)
            return Error{SessionTr::tr("no session %1").arg(sessionID), sessionID};
        return SessionWorktree::holding(session->directory());
    });
}

} // namespace weft
