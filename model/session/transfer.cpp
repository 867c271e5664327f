// SPDX-License-Identifier: GPL-3.0-or-later
#include "transfer.h"

#include "session/sessionstore.h"
#include "core/identifier.h"
#include "core/logging.h"
#include "core/tr.h"
#include "sessionservice.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSet>

using namespace Qt::StringLiterals;

namespace weft::Transfer
{

namespace
{
/// The session to export, or why there is none: OpenCode's keys only (Weft's own marks, such as
/// Session::NotMigratedKey, stay out of the file).
Result<Session> sessionToExport(const SessionService &service, const QString &sessionID)
{
    if (const QString why = Identifier::whyInvalid(sessionID, Identifier::Kind::Session); !why.isEmpty())
        return Error{why, {}};
    std::optional<Session> session = service.get(sessionID);
    if (!session)
        return Error{SessionTr::tr("Session not found: %1").arg(sessionID), {}};
    session->json().remove(Session::NotMigratedKey);
    return std::move(*session);
}

/// The export's indent: `opencode export` prints JSON.stringify(document, null, 2).
constexpr int ExportIndent = 2;
} // namespace

Result<JsonObject> exportSession(const SessionService &service, const QString &sessionID)
{
    const Result<Session> session = sessionToExport(service, sessionID);
    if (!session)
        return session.error();
    JsonArray messages;
    for (const MessageWithParts &m : service.messages(sessionID))
        messages.append(m.toJson());
    return JsonObject{{u"info"_s, session->json()}, {u"messages"_s, messages}};
}

QByteArray formatExport(const JsonObject &document)
{
    return toJson(document, ExportIndent) + '\n';
}

Result<void> writeExport(const SessionService &service, const QString &sessionID,
                         const std::function<void(QByteArrayView)> &write, const ExportedMessageSink &done)
{
    const Result<Session> session = sessionToExport(service, sessionID);
    if (!session)
        return session.error();
    JsonStreamWriter json(ExportIndent, write);
    json.beginObject();
    json.key(u"info");
    json.value(session->json());
    json.key(u"messages");
    json.beginArray();
    const int level = json.level();
    service.mapMessages(
        sessionID,
        [level, &done](MessageWithParts &&m) {
            QByteArray text = toJson(m.toJson(), ExportIndent, level);
            if (done)
                done(std::move(m));
            return text;
        },
        [&json](QByteArray &&message) { json.serializedValue(message); });
    json.end();
    json.end();
    write("\n");
    return {};
}

QList<ValidationIssue> validateExport(const JsonValue &document)
{
    QList<ValidationIssue> issues;
    if (!document.isObject()) {
        issues.append({u"$"_s, u"expected an object with \"info\" and \"messages\""_s});
        return issues;
    }
    const JsonObject root = document.toObject();
    issues += Session::validate(root.value(u"info"), u"$.info"_s);
    // IDs become file names: refuse any that is not a safe one before anything is written.
    auto checkFileName = [&issues](const JsonValue &value, const QString &path) {
        if (value.isString() && !Identifier::isSafeKeyComponent(value.toString()))
            issues.append({path, u"cannot be used as a file name (empty, \".\", \"..\", a path separator, NUL or control characters)"_s});
    };
    checkFileName(root.object(u"info").value(u"id"), u"$.info.id"_s);
    checkFileName(root.object(u"info").value(u"projectID"), u"$.info.projectID"_s);
    const QString sessionID = root.object(u"info").string(u"id");
    const JsonValue messages = root.value(u"messages");
    if (!messages.isArray()) {
        issues.append({u"$.messages"_s, u"expected an array"_s});
        return issues;
    }
    QSet<QString> messageIDs, partIDs;
    const JsonArray array = messages.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString mp = u"$.messages[%1]"_s.arg(i);
        const JsonValue entry = array.at(i);
        if (!entry.isObject()) {
            issues.append({mp, u"expected an object with \"info\" and \"parts\""_s});
            continue;
        }
        const JsonObject m = entry.toObject();
        const QList<ValidationIssue> messageIssues = Message::validate(m.value(u"info"), mp + u".info"_s);
        issues += messageIssues;
        const QString messageID = m.object(u"info").string(u"id");
        checkFileName(m.object(u"info").value(u"id"), mp + u".info.id"_s);
        if (messageIssues.isEmpty()) {
            if (m.object(u"info").string(u"sessionID") != sessionID)
                issues.append({mp + u".info.sessionID"_s, u"belongs to another session"_s});
            if (messageIDs.contains(messageID))
                issues.append({mp + u".info.id"_s, u"duplicate message ID"_s});
            messageIDs.insert(messageID);
        }
        if (!m.value(u"parts").isArray()) {
            issues.append({mp + u".parts"_s, u"expected an array"_s});
            continue;
        }
        const JsonArray parts = m.array(u"parts");
        for (qsizetype j = 0; j < parts.size(); ++j) {
            const QString pp = mp + u".parts[%1]"_s.arg(j);
            const QList<ValidationIssue> partIssues = Part::validate(parts.at(j), pp);
            issues += partIssues;
            if (!partIssues.isEmpty())
                continue;
            const JsonObject p = parts.at(j).toObject();
            checkFileName(p.value(u"id"), pp + u".id"_s);
            if (p.string(u"messageID") != messageID)
                issues.append({pp + u".messageID"_s, u"does not match its message"_s});
            if (p.string(u"sessionID") != sessionID)
                issues.append({pp + u".sessionID"_s, u"belongs to another session"_s});
            if (partIDs.contains(p.string(u"id")))
                issues.append({pp + u".id"_s, u"duplicate part ID"_s});
            partIDs.insert(p.string(u"id"));
        }
    }
    return issues;
}

QString describeDropped(const QList<PermissionRule> &dropped)
{
    if (dropped.isEmpty())
        return {};
    QStringList rules;
    for (const PermissionRule &rule : dropped)
        rules.append(u"%1 %2 %3"_s.arg(rule.permission, rule.pattern, PermissionRule::actionName(rule.action)));
    return SessionTr::tr("permission rules dropped (%1), as they would have granted what your config may not: %2")
        .arg(dropped.size())
        .arg(rules.join(u", "_s));
}

Result<ImportResult> importSession(SessionService &service, const JsonValue &document)
{
    const QList<ValidationIssue> issues = validateExport(document);
    if (!issues.isEmpty()) {
        QStringList lines;
        for (qsizetype i = 0; i < qMin<qsizetype>(issues.size(), 10); ++i)
            lines.append(issues.at(i).toString());
        if (issues.size() > 10)
            lines.append(u"... and %1 more"_s.arg(issues.size() - 10));
        return Error{SessionTr::tr("not a valid session export:\n  %1").arg(lines.join(u"\n  "_s)), {}};
    }
    if (service.isReadOnly())
        return Error{SessionTr::tr("the store is read-only"), {}};
    const JsonObject root = document.toObject();
    Session session(root.object(u"info"));
    const QString originalID = session.id();
    ImportResult result;

    // Only rules that narrow what the user's config allows come in: the session's rules are
    // merged after the config and win over it.
    if (session.json().contains(u"permission")) {
        JsonArray kept;
        for (const JsonValue &v : session.json().array(u"permission")) {
            const std::optional<PermissionRule> rule = PermissionRule::fromJson(v.toObject());
            if (rule && rule->action == PermissionRule::Action::Deny)
                kept.append(v);
            else if (rule)
                result.droppedPermissions.append(*rule);
        }
        if (!result.droppedPermissions.isEmpty()) {
            session.json().insert(u"permission"_s, kept);
            qCWarning(lcSession).noquote() << "import of" << originalID << ":" << describeDropped(result.droppedPermissions);
        }
    }

    // Keep IDs when they are free anywhere in the store; a taken session ID means the session
    // was imported before (or collides), a taken message or part ID that the file reuses IDs of
    // another session: then everything gets new IDs, so nothing of any other session is touched.
    Store *store = storeOf(service).get();
    const bool sessionTaken = service.get(originalID).has_value();
    const JsonArray messages = root.array(u"messages");
    QSet<QString> messageIDs, partIDs;
    for (const JsonValue &m : messages) {
        messageIDs.insert(m.toObject().object(u"info").string(u"id"));
        for (const JsonValue &p : m.toObject().array(u"parts"))
            partIDs.insert(p.toObject().string(u"id"));
    }
    const bool idsTaken = !sessionTaken && !store->takenIDs(messageIDs, partIDs).isEmpty();
    const bool renew = sessionTaken || idsTaken;
    result.idsChanged = renew;
    QHash<QString, QString> messageMap;
    if (renew)
        session.json().insert(u"id"_s, Identifier::descending(Identifier::Kind::Session));
    if (!session.parentID().isEmpty() && !service.get(session.parentID()))
        qCInfo(lcSession) << "imported session" << session.id() << "keeps parentID" << session.parentID() << "which is not in this store";

    QList<MessageWithParts> copies;
    copies.reserve(messages.size());
    for (const JsonValue &entry : messages) {
        const JsonObject m = entry.toObject();
        Message info(m.object(u"info"));
        if (renew) {
            const QString newID = Identifier::ascending(Identifier::Kind::Message);
            messageMap.insert(info.id(), newID);
            info.setId(newID);
            info.setSessionID(session.id());
            if (info.isAssistant() && messageMap.contains(info.parentID()))
                info.setParentID(messageMap.value(info.parentID()));
        }
        MessageWithParts copy{info, {}};
        for (const JsonValue &pv : m.array(u"parts")) {
            Part part(pv.toObject());
            if (renew) {
                part.setId(Identifier::ascending(Identifier::Kind::Part));
                part.setMessageID(info.id());
                part.setSessionID(session.id());
            }
            copy.parts.append(part);
        }
        copies.append(copy);
    }
    // As a fork: the messages in one batch, the session's own file last; a write that fails (a
    // full disk) takes back what was written, so no half-imported session is ever listed.
    // The note that marks it imported comes before the session's own file: an imported session
    // is never listed without it.
    SessionService::ImportNote note;
    note.directory = session.directory();
    note.time = QDateTime::currentMSecsSinceEpoch();
    note.dropped = result.droppedPermissions;
    Result<void> written = store->writeMessages(copies);
    if (written)
        written = service.writeImportNote(session.id(), note);
    if (written)
        written = store->writeSession(session);
    if (!written) {
        (void)store->removeSession(session);
        return written.error();
    }
    result.session = session;
    Q_EMIT service.sessionCreated(session);
    Q_EMIT service.sessionUpdated(session);
    qCInfo(lcSession) << "imported" << originalID << "as" << session.id();
    return result;
}

Result<ImportResult> importFile(SessionService &service, const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error{SessionTr::tr("cannot open: %1").arg(file.errorString()), path};
    if (file.size() > (qint64(2) << 30))
        return Error{SessionTr::tr("the file is larger than 2 GB"), path};
    const QByteArray bytes = file.readAll();
    if (bytes.trimmed().isEmpty())
        return Error{SessionTr::tr("the file is empty"), path};
    JsonParseError error;
    const std::optional<JsonValue> document = parseJson(bytes, &error);
    if (!document)
        return Error{SessionTr::tr("not valid JSON (%1)").arg(error.toString()), path};
    Result<ImportResult> result = importSession(service, *document);
    if (!result)
        return Error{result.error().message, path};
    return result;
}

} // namespace weft::Transfer
