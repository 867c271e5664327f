// SPDX-License-Identifier: GPL-3.0-or-later
#include "migrations.h"

#include "core/identifier.h"
#include "core/logging.h"
#include "core/project.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace weft::Migrations
{

namespace
{

/// Reads a JSON object from a file outside the storage root (the old layout).
std::optional<JsonObject> readObject(const QString &path, const ProblemReporter &problem)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        problem(path, file.errorString());
        return std::nullopt;
    }
    JsonParseError error;
    const std::optional<JsonValue> value = parseJson(file.readAll(), &error);
    if (!value) {
        problem(path, u"not JSON: "_s + error.toString());
        return std::nullopt;
    }
    if (!value->isObject()) {
        problem(path, u"not a JSON object"_s);
        return std::nullopt;
    }
    return value->toObject();
}

QStringList jsonFiles(const QString &dir)
{
    QStringList names = QDir(dir).entryList({u"*.json"_s}, QDir::Files, QDir::Name);
    for (QString &name : names)
        name.chop(5);
    return names;
}

void write(JsonStorage &storage, const JsonStorage::Key &key, const JsonValue &value, const ProblemReporter &problem)
{
    if (const Result<void> written = storage.write(key, value); !written)
        problem(written.error().where.isEmpty() ? key.join(u'/') : written.error().where, written.error().message);
}

/// Migration 0: the per-project layout of OpenCode before 0.4 into the global one.
void migrateProjectLayout(JsonStorage &storage, const QString &dataDir, const ProblemReporter &problem)
{
    const QString projects = dataDir + u"/project"_s;
    if (!QFileInfo(projects).isDir())
        return;
    const QStringList projectDirs = QDir(projects).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    for (const QString &projectDir : projectDirs) {
        const QString legacy = projects + u'/' + projectDir + u"/storage/session"_s;
        QString projectID = projectDir;
        if (projectID != u"global") {
            // The worktree is the `path.root` of the first message that names one.
            QString worktree;
            const QString messages = legacy + u"/message"_s;
            for (const QString &session : QDir(messages).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
                for (const QString &name : jsonFiles(messages + u'/' + session)) {
                    const std::optional<JsonObject> message = readObject(messages + u'/' + session + u'/' + name + u".json"_s, problem);
                    worktree = message ? message->object(u"path").string(u"root"_s) : QString();
                    if (!worktree.isEmpty())
                        break;
                }
                if (!worktree.isEmpty())
                    break;
            }
            if (worktree.isEmpty() || !QFileInfo(worktree).isDir())
                continue;
            const ProjectIdentity identity = identifyProject(worktree);
            if (identity.id.isEmpty() || identity.id == u"global")
                continue;
            projectID = identity.id;
            const qint64 now = QDateTime::currentMSecsSinceEpoch();
            write(storage, {u"project"_s, projectID},
                  JsonObject{{u"id"_s, projectID},
                             {u"worktree"_s, worktree},
                             {u"vcs"_s, u"git"_s},
                             {u"sandboxes"_s, JsonArray{}},
                             {u"time"_s, JsonObject{{u"created"_s, now}, {u"updated"_s, now}}}},
                  problem);
        }
        qCInfo(lcStore).noquote() << "migrating sessions of the old project layout" << projectDir << "to" << projectID;
        const QString info = legacy + u"/info"_s;
        for (const QString &sessionName : jsonFiles(info)) {
            const std::optional<JsonObject> session = readObject(info + u'/' + sessionName + u".json"_s, problem);
            if (!session)
                continue;
            const QString sessionID = session->string(u"id"_s);
            if (!Identifier::isSafeKeyComponent(sessionID)) {
                problem(info + u'/' + sessionName + u".json"_s, u"unsafe session ID \"%1\""_s.arg(sessionID));
                continue;
            }
            write(storage, {u"session"_s, projectID, sessionName}, *session, problem);
            const QString messageDir = legacy + u"/message/"_s + sessionID;
            for (const QString &messageName : jsonFiles(messageDir)) {
                const std::optional<JsonObject> message = readObject(messageDir + u'/' + messageName + u".json"_s, problem);
                if (!message)
                    continue;
                write(storage, {u"message"_s, sessionID, messageName}, *message, problem);
                const QString messageID = message->string(u"id"_s);
                if (!Identifier::isSafeKeyComponent(messageID)) {
                    problem(messageDir + u'/' + messageName + u".json"_s, u"unsafe message ID \"%1\""_s.arg(messageID));
                    continue;
                }
                const QString partDir = legacy + u"/part/"_s + sessionID + u'/' + messageID;
                for (const QString &partName : jsonFiles(partDir)) {
                    if (const std::optional<JsonObject> part = readObject(partDir + u'/' + partName + u".json"_s, problem))
                        write(storage, {u"part"_s, messageID, partName}, *part, problem);
                }
            }
        }
    }
}

/// Migration 1: session diffs out of the session files.
void migrateSessionDiffs(JsonStorage &storage, const ProblemReporter &problem)
{
    for (const QString &folder : storage.listFolders({u"session"_s})) {
        for (const JsonStorage::Key &key : storage.list({u"session"_s, folder})) {
            if (key.size() != 3)
                continue;
            const Result<JsonValue> value = storage.read(key);
            if (!value) {
                problem(value.error().where.isEmpty() ? key.join(u'/') : value.error().where, value.error().message);
                continue;
            }
            JsonObject session = value->toObject();
            const QString projectID = session.string(u"projectID"_s);
            const JsonValue diffs = session.object(u"summary").value(u"diffs");
            if (projectID.isEmpty() || !diffs.isArray())
                continue;
            if (!Identifier::isSafeKeyComponent(projectID) || !Identifier::isSafeKeyComponent(session.string(u"id"_s))) {
                problem(storage.path(key).value(), u"unsafe project or session ID"_s);
                continue;
            }
            qint64 additions = 0;
            qint64 deletions = 0;
            for (const JsonValue &diff : diffs.toArray()) {
                additions += diff.toObject().integer(u"additions"_s);
                deletions += diff.toObject().integer(u"deletions"_s);
            }
            write(storage, {u"session_diff"_s, session.string(u"id"_s)}, diffs, problem);
            session.insert(u"summary"_s, JsonObject{{u"additions"_s, additions}, {u"deletions"_s, deletions}});
            write(storage, {u"session"_s, projectID, session.string(u"id"_s)}, session, problem);
        }
    }
}

} // namespace

int run(JsonStorage &storage, const QString &dataDir, int fromVersion, const ProblemReporter &problem)
{
    for (int index = qMax(0, fromVersion); index < Count; ++index) {
        qCInfo(lcStore) << "running storage migration" << index;
        if (index == 0)
            migrateProjectLayout(storage, dataDir, problem);
        else
            migrateSessionDiffs(storage, problem);
    }
    return Count;
}

} // namespace weft::Migrations
