// SPDX-License-Identifier: GPL-3.0-or-later
#include "dbimport.h"

#include "session/sessionstore.h"
#include "core/logging.h"
#include "core/tr.h"
#include "session/sessionservice.h"
#include "session/transfer.h"
#include "store/store.h"

#include <QHash>
#include <QSet>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace weft::DbImport
{

Result<QList<Imported>> importSessions(Store &source, SessionService &target, const QStringList &sessionIDs,
                                       const std::function<void(int, int)> &progress)
{
    if (target.isReadOnly())
        return Error{OpencodeDbTr::tr("the target store is read-only"), storeOf(target)->location()};
    const QList<Session> all = source.sessions();
    QHash<QString, Session> byID;
    QHash<QString, QStringList> children;
    for (const Session &s : all) {
        byID.insert(s.id(), s);
        if (!s.parentID().isEmpty())
            children[s.parentID()].append(s.id());
    }
    QStringList wanted = sessionIDs;
    if (wanted.isEmpty()) {
        for (const Session &s : all)
            wanted.append(s.id());
    }
    for (const QString &id : std::as_const(wanted)) {
        if (!byID.contains(id))
            return Error{OpencodeDbTr::tr("no session %1 in %2").arg(id, source.location()), {}};
    }
    // The sessions with their children, recursively (a cycle of parent IDs cannot loop).
    QSet<QString> selected;
    QStringList queue = wanted;
    while (!queue.isEmpty()) {
        const QString id = queue.takeFirst();
        if (selected.contains(id))
            continue;
        selected.insert(id);
        queue += children.value(id);
    }
    auto depth = [&](const QString &id) {
        int d = 0;
        QSet<QString> visited;
        QString parent = byID.value(id).parentID();
        while (!parent.isEmpty() && selected.contains(parent) && !visited.contains(parent)) {
            visited.insert(parent);
            ++d;
            parent = byID.value(parent).parentID();
        }
        return d;
    };
    QList<Session> ordered;
    for (const QString &id : std::as_const(selected))
        ordered.append(byID.value(id));
    QHash<QString, int> depths;
    for (const Session &s : std::as_const(ordered))
        depths.insert(s.id(), depth(s.id()));
    std::sort(ordered.begin(), ordered.end(), [&](const Session &a, const Session &b) {
        if (depths.value(a.id()) != depths.value(b.id()))
            return depths.value(a.id()) < depths.value(b.id());
        if (a.created() != b.created())
            return a.created() < b.created();
        return a.id() < b.id();
    });

    // Projects first: Weft's store lists sessions by project.
    QSet<QString> haveProjects;
    for (const Project &p : storeOf(target)->projects())
        haveProjects.insert(p.id());
    QSet<QString> neededProjects;
    for (const Session &s : std::as_const(ordered))
        neededProjects.insert(s.projectID());
    for (const Project &p : source.projects()) {
        if (neededProjects.contains(p.id()) && !haveProjects.contains(p.id())) {
            if (Result<void> r = storeOf(target)->writeProject(p); !r)
                qCWarning(lcSession) << "could not write project" << p.id() << ":" << r.error().toString();
        }
    }

    QList<Imported> result;
    QHash<QString, QString> newIDs;
    int done = 0;
    for (Session session : std::as_const(ordered)) {
        Imported entry;
        entry.sourceID = session.id();
        if (const QString parent = session.parentID(); newIDs.contains(parent) && newIDs.value(parent) != parent)
            session.setParentID(newIDs.value(parent));
        // Where the copy came from is no longer a fact about the imported session.
        session.json().remove(Session::NotMigratedKey);
        JsonArray messages;
        const QList<MessageWithParts> list = source.messagesWithParts(entry.sourceID);
        for (const MessageWithParts &m : list)
            messages.append(m.toJson());
        const JsonObject document{{u"info"_s, session.json()}, {u"messages"_s, messages}};
        Result<Transfer::ImportResult> imported = Transfer::importSession(target, document);
        if (imported) {
            entry.session = imported->session;
            entry.idsChanged = imported->idsChanged;
            entry.droppedPermissions = imported->droppedPermissions;
            newIDs.insert(entry.sourceID, entry.session.id());
        } else {
            entry.error = imported.error().toString();
            qCWarning(lcSession).noquote() << "could not copy" << entry.sourceID << ":" << entry.error;
        }
        result.append(entry);
        if (progress)
            progress(++done, int(ordered.size()));
    }
    return result;
}

} // namespace weft::DbImport
