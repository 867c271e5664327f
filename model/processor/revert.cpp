// SPDX-License-Identifier: GPL-3.0-or-later
#include "revert.h"

#include "core/logging.h"
#include "core/project.h"
#include "core/tr.h"
#include "diff/diffdocument.h"
#include "session/sessionservice.h"
#include "snapshot.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace weft::Revert
{

namespace
{
Snapshot snapshotFor(const QString &dataDir, const Session &session)
{
    const ProjectIdentity identity = identifyProject(session.directory());
    const QString worktree = identity.worktree.isEmpty() || identity.worktree == u"/" ? session.directory() : identity.worktree;
    return Snapshot(dataDir, session.projectID(), worktree, session.directory());
}
} // namespace

namespace
{
/// What a revert of @p sessionID from @p messageID (or @p partID) on restores: the session, the
/// revert state to record and the patches of the later steps.
struct Cut {
    Session session;
    JsonObject state;
    QList<Snapshot::Patch> patches;
};

Result<Cut> cutAt(SessionService &service, const QString &sessionID, const QString &messageID, const QString &partID)
{
    const std::optional<Session> session = service.get(sessionID);
    if (!session)
        return Error{ProcessorTr::tr("no session with ID \"%1\"").arg(sessionID), {}};
    if (auto confirmed = service.checkDirectoryConfirmed(sessionID); !confirmed)
        return confirmed.error();
    const QList<MessageWithParts> messages = service.messages(sessionID);

    QString lastUser;
    std::optional<JsonObject> cut;
    QList<Snapshot::Patch> patches;
    for (const MessageWithParts &m : messages) {
        if (m.info.isUser())
            lastUser = m.info.id();
        QList<Part> remaining;
        for (const Part &part : m.parts) {
            if (cut) {
                if (part.type() == PartType::Patch)
                    patches.append({part.hash(), part.files(), {}});
                continue;
            }
            if ((m.info.id() == messageID && partID.isEmpty()) || part.id() == partID) {
                // A part cut with nothing useful before it in its message reverts the message.
                const bool useful = std::any_of(remaining.cbegin(), remaining.cend(), [](const Part &p) {
                    return p.type() == PartType::Text || p.type() == PartType::Tool;
                });
                const QString keptPart = useful ? partID : QString();
                JsonObject r{{u"messageID"_s, keptPart.isEmpty() && !lastUser.isEmpty() ? lastUser : m.info.id()}};
                if (!keptPart.isEmpty())
                    r.insert(u"partID"_s, keptPart);
                cut = r;
                if (part.type() == PartType::Patch)
                    patches.append({part.hash(), part.files(), {}});
                continue;
            }
            remaining.append(part);
        }
    }
    if (!cut)
        return Error{ProcessorTr::tr("session \"%1\" has no message \"%2\"%3")
                         .arg(sessionID, messageID,
                              partID.isEmpty() ? QString() : ProcessorTr::tr(" with part \"%1\"").arg(partID)),
                     {}};
    return Cut{*session, *cut, patches};
}
} // namespace

Result<Snapshot::RevertPlan> plan(SessionService &service, const QString &dataDir, const QString &sessionID,
                                  const QString &messageID, const QString &partID)
{
    const Result<Cut> cut = cutAt(service, sessionID, messageID, partID);
    if (!cut)
        return cut.error();
    Snapshot snapshot = snapshotFor(dataDir, cut->session);
    return snapshot.planRevert(cut->patches);
}

Result<Session> revert(SessionService &service, const QString &dataDir, const QString &sessionID, const QString &messageID,
                       const QString &partID)
{
    const Result<Cut> cutResult = cutAt(service, sessionID, messageID, partID);
    if (!cutResult)
        return cutResult.error();
    const std::optional<Session> session = cutResult->session;
    const std::optional<JsonObject> cut = cutResult->state;
    const QList<Snapshot::Patch> &patches = cutResult->patches;

    Snapshot snapshot = snapshotFor(dataDir, *session);
    QString saved = session->revert().string(u"snapshot");
    // A pending revert's state is what an unrevert restores: only a snapshot made here.
    if (!saved.isEmpty() && !snapshot.madeHere(saved))
        return Error{ProcessorTr::tr("the session's pending revert names the snapshot %1, which Weft did not make on this "
                                     "machine for %2; refusing to revert from it")
                         .arg(saved, snapshot.workTree()),
                     {}};
    if (saved.isEmpty()) {
        Result<QString> tracked = snapshot.track();
        if (!tracked)
            return Error{
                ProcessorTr::tr("cannot save the current files before reverting: %1").arg(tracked.error().toString()),
                {}};
        saved = tracked.value();
    }
    if (auto r = snapshot.revert(patches); !r)
        return Error{ProcessorTr::tr("cannot restore the files: %1").arg(r.error().toString()), {}};
    JsonObject state = *cut;
    state.insert(u"snapshot"_s, saved);
    const Result<QString> diff = snapshot.diff(saved);
    state.insert(u"diff"_s, diff ? diff.value() : QString());
    qCInfo(lcSession) << "reverted" << sessionID << "at" << state.string(u"messageID") << "restoring" << patches.size() << "patches";
    return service.update(sessionID, [&](Session &s) { s.setRevert(state); });
}

Result<Session> unrevert(SessionService &service, const QString &dataDir, const QString &sessionID)
{
    const std::optional<Session> session = service.get(sessionID);
    if (!session)
        return Error{ProcessorTr::tr("no session with ID \"%1\"").arg(sessionID), {}};
    if (!session->hasRevert())
        return *session;
    if (auto confirmed = service.checkDirectoryConfirmed(sessionID); !confirmed)
        return confirmed.error();
    const QString saved = session->revert().string(u"snapshot");
    if (!saved.isEmpty()) {
        Snapshot snapshot = snapshotFor(dataDir, *session);
        if (auto r = snapshot.restore(saved); !r)
            return Error{ProcessorTr::tr("cannot restore the files: %1").arg(r.error().toString()), {}};
    }
    return service.update(sessionID, [](Session &s) { s.clearRevert(); });
}

Result<void> cleanup(SessionService &service, const QString &sessionID)
{
    const std::optional<Session> session = service.get(sessionID);
    if (!session || !session->hasRevert())
        return {};
    const QString messageID = session->revert().string(u"messageID");
    const QString partID = session->revert().string(u"partID");
    bool removing = false;
    for (const MessageWithParts &m : service.messages(sessionID)) {
        if (m.info.id() == messageID) {
            removing = true;
            if (!partID.isEmpty()) {
                // Keep the message up to the cut part; remove the cut part and what follows.
                bool cutting = false;
                for (const Part &p : m.parts) {
                    cutting = cutting || p.id() == partID;
                    if (cutting) {
                        if (auto r = service.removePart(sessionID, m.info.id(), p.id()); !r)
                            return r;
                    }
                }
                continue;
            }
        }
        if (removing) {
            if (auto r = service.removeMessage(sessionID, m.info.id()); !r)
                return r;
        }
    }
    Result<Session> updated = service.update(sessionID, [](Session &s) { s.clearRevert(); });
    if (!updated)
        return updated.error();
    return {};
}

QList<MessageWithParts> visibleMessages(const Session &session, const QList<MessageWithParts> &messages)
{
    if (!session.hasRevert())
        return messages;
    const QString messageID = session.revert().string(u"messageID");
    const QString partID = session.revert().string(u"partID");
    QList<MessageWithParts> visible;
    for (const MessageWithParts &m : messages) {
        if (m.info.id() == messageID) {
            if (!partID.isEmpty()) {
                MessageWithParts kept{m.info, {}};
                for (const Part &p : m.parts) {
                    if (p.id() == partID)
                        break;
                    kept.parts.append(p);
                }
                visible.append(kept);
            }
            break;
        }
        visible.append(m);
    }
    return visible;
}

} // namespace weft::Revert

// ---- FileRevert

namespace weft::FileRevert
{

Result<QString> resolve(const QString &base, const QString &directory, const QString &file)
{
    if (file.isEmpty())
        return Error{ProcessorTr::tr("the diff names no file"), {}};
    if (file.contains(QChar(0)))
        return Error{ProcessorTr::tr("the path \"%1\" is not a valid file name").arg(file), {}};
    const QString root = QFileInfo(directory).canonicalFilePath();
    if (directory.isEmpty() || root.isEmpty())
        return Error{ProcessorTr::tr("the session's directory \"%1\" does not exist").arg(directory), {}};
    const QString from = base.isEmpty() ? directory : base;
    QString path = QDir::cleanPath(QDir::isAbsolutePath(file) ? file : QDir(from).filePath(file));

    // Resolve symbolic links through the deepest part of the path that exists.
    QString rest;
    QString probe = path;
    while (true) {
        const QFileInfo info(probe);
        if (info.isSymLink() && !info.exists())
            return Error{ProcessorTr::tr("\"%1\" goes through a broken symbolic link").arg(file), {}};
        if (info.exists())
            break;
        const QString parent = info.path();
        if (parent == probe)
            break;
        rest = rest.isEmpty() ? info.fileName() : info.fileName() + u'/' + rest;
        probe = parent;
    }
    const QString existing = QFileInfo(probe).canonicalFilePath();
    if (existing.isEmpty())
        return Error{ProcessorTr::tr("cannot resolve \"%1\"").arg(file), {}};
    path = rest.isEmpty() ? existing : QDir::cleanPath(existing + u'/' + rest);
    const QString prefix = root.endsWith(u'/') ? root : root + u'/';
    if (!path.startsWith(prefix) || path.size() == prefix.size())
        return Error{
            ProcessorTr::tr("\"%1\" is outside the session's directory %2; not touching it").arg(file, directory), {}};
    return path;
}

Result<void> revert(const DiffDocument &document, const QString &absolutePath)
{
    if (document.revertAction() == DiffDocument::RevertAction::Delete) {
        const QFileInfo info(absolutePath);
        if (!info.exists() && !info.isSymLink())
            return {};
        if (info.isDir())
            return Error{ProcessorTr::tr("\"%1\" is a folder now; not deleting it").arg(absolutePath), {}};
        if (!QFile::remove(absolutePath))
            return Error{ProcessorTr::tr("cannot delete \"%1\"").arg(absolutePath), {}};
        return {};
    }
    if (document.isEmpty())
        return Error{ProcessorTr::tr("the change of \"%1\" has no text to restore (a binary or very large file)")
                         .arg(document.path()),
                     {}};
    QString current;
    if (QFileInfo(absolutePath).isDir())
        return Error{ProcessorTr::tr("\"%1\" is a folder now; not replacing it").arg(absolutePath), {}};
    if (QFile file(absolutePath); file.exists()) {
        if (!file.open(QIODevice::ReadOnly))
            return Error{ProcessorTr::tr("cannot read \"%1\": %2").arg(absolutePath, file.errorString()), {}};
        current = QString::fromUtf8(file.readAll());
    }
    const Result<QString> before = document.reverse(current);
    if (!before)
        return before.error();
    if (!QDir().mkpath(QFileInfo(absolutePath).absolutePath()))
        return Error{ProcessorTr::tr("cannot create the folder of \"%1\"").arg(absolutePath), {}};
    QSaveFile out(absolutePath);
    if (!out.open(QIODevice::WriteOnly))
        return Error{ProcessorTr::tr("cannot write \"%1\": %2").arg(absolutePath, out.errorString()), {}};
    const QByteArray bytes = before.value().toUtf8();
    if (out.write(bytes) != bytes.size() || !out.commit())
        return Error{ProcessorTr::tr("cannot write \"%1\": %2").arg(absolutePath, out.errorString()), {}};
    return {};
}

} // namespace weft::FileRevert

