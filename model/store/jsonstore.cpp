// SPDX-License-Identifier: GPL-3.0-or-later
#include "jsonstore.h"
#include "sessiontrash.h"

#include "core/identifier.h"
#include "core/logging.h"
#include "core/parallel.h"
#include "core/tr.h"
#include "jsonstorewatcher.h"
#include "migrations.h"
#include "storereads.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace weft
{

JsonStore::JsonStore(const QString &dataDir)
    : m_dataDir(QDir::cleanPath(dataDir))
    , m_storage(m_dataDir + u"/storage"_s)
{
}

QString JsonStore::location() const
{
    return m_storage.root();
}

Result<void> JsonStore::initialize()
{
    if (!QDir().mkpath(m_storage.root()))
        return Error{StoreTr::tr("cannot create the storage folder"), m_storage.root()};
    // OpenCode keeps the migration file without an extension: `storage/migration`.
    const QString migrationPath = m_storage.root() + u"/migration"_s;
    QFile file(migrationPath);
    int version = 0;
    if (file.exists()) {
        if (!file.open(QIODevice::ReadOnly))
            return Error{StoreTr::tr("cannot read the migration file: %1").arg(file.errorString()), migrationPath};
        bool ok = false;
        version = QString::fromUtf8(file.readAll()).trimmed().toInt(&ok);
        file.close();
        if (!ok)
            return Error{StoreTr::tr("the migration file does not hold a number"), migrationPath};
        if (version > MigrationVersion)
            return Error{
                StoreTr::tr("this storage was migrated to version %1 by a newer OpenCode; Weft knows version %2")
                    .arg(version)
                    .arg(MigrationVersion),
                migrationPath};
    }
    if (version < MigrationVersion) {
        // What OpenCode 1.1 does on its start: run the missing migrations, then record them.
        version = Migrations::run(m_storage, m_dataDir, version, [this](const QString &path, const QString &reason) {
            reportProblem(path, reason);
        });
        // The migration file has no extension, so it is not a storage key.
        QSaveFile out(migrationPath);
        if (!out.open(QIODevice::WriteOnly) || out.write(QByteArray::number(version)) < 0 || !out.commit())
            return Error{StoreTr::tr("cannot write the migration file: %1").arg(out.errorString()), migrationPath};
    }
    m_recovery = closeInterruptedRuns();
    return {};
}

template<typename T>
std::optional<T> JsonStore::readTyped(const JsonStorage::Key &key)
{
    const Result<JsonValue> value = m_storage.read(key);
    if (!value) {
        if (value.error().message != u"not found")
            reportProblem(value.error().where.isEmpty() ? key.join(u'/') : value.error().where, value.error().message);
        return std::nullopt;
    }
    const QList<ValidationIssue> issues = T::validate(value.value());
    if (!issues.isEmpty()) {
        QStringList lines;
        for (const ValidationIssue &issue : issues)
            lines.append(issue.toString());
        reportProblem(m_storage.path(key).value(), StoreTr::tr("unexpected shape: %1").arg(lines.join(u"; "_s)));
        return std::nullopt;
    }
    return T(value.value().toObject());
}

QList<Project> JsonStore::projects()
{
    StoreReads::check("projects");
    QList<Project> result;
    for (const JsonStorage::Key &key : m_storage.list({u"project"_s})) {
        if (auto p = readTyped<Project>(key))
            result.append(*p);
    }
    return result;
}

QList<Session> JsonStore::sessions()
{
    StoreReads::check("sessions");
    QList<JsonStorage::Key> keys;
    for (const QString &projectID : m_storage.listFolders({u"session"_s})) {
        for (JsonStorage::Key &key : m_storage.list({u"session"_s, projectID})) {
            if (key.size() == 3)
                keys.append(std::move(key));
        }
    }
    // Thousands of small files: read and parse them on every core.
    QList<std::optional<Session>> read(keys.size());
    parallelFor(keys.size(), [&](qsizetype i) {
        const JsonStorage::Key &key = keys.at(i);
        std::optional<Session> s = readTyped<Session>(key);
        if (s && s->id() != key.at(2)) {
            reportProblem(m_storage.path(key).value(),
                          StoreTr::tr("the file name does not match the session ID \"%1\"").arg(s->id()));
            s.reset();
        }
        read[i] = std::move(s);
    });
    QList<Session> result;
    result.reserve(keys.size());
    QHash<QString, QString> index;
    index.reserve(keys.size());
    for (qsizetype i = 0; i < keys.size(); ++i) {
        if (read.at(i)) {
            index.insert(read.at(i)->id(), keys.at(i).at(1));
            result.append(std::move(*read[i]));
        }
    }
    QMutexLocker locker(&m_indexMutex);
    m_sessionProject.insert(index);
    return result;
}

QString JsonStore::projectOf(const QString &sessionID)
{
    {
        QMutexLocker locker(&m_indexMutex);
        auto it = m_sessionProject.constFind(sessionID);
        if (it != m_sessionProject.constEnd() && m_storage.exists({u"session"_s, it.value(), sessionID}))
            return it.value();
    }
    if (!Identifier::isSafeKeyComponent(sessionID))
        return {};
    for (const QString &projectID : m_storage.listFolders({u"session"_s})) {
        if (m_storage.exists({u"session"_s, projectID, sessionID})) {
            QMutexLocker locker(&m_indexMutex);
            m_sessionProject.insert(sessionID, projectID);
            return projectID;
        }
    }
    return {};
}

QString JsonStore::sessionFile(const QString &sessionID)
{
    const QString projectID = projectOf(sessionID);
    if (projectID.isEmpty())
        return {};
    return m_storage.path({u"session"_s, projectID, sessionID}).value();
}

Result<QHash<QString, qint64>> JsonStore::changeStamps(const QList<Session> &sessions)
{
    StoreReads::check("changeStamps");
    const QString root = m_storage.root() + u"/message/"_s;
    QHash<QString, qint64> stamps;
    stamps.reserve(sessions.size());
    for (const Session &s : sessions)
        stamps.insert(s.id(), qMax(s.updated(), QFileInfo(root + s.id()).lastModified().toMSecsSinceEpoch()));
    return stamps;
}

StoreWatcher *JsonStore::createWatcher(QObject *parent)
{
    return new JsonStoreWatcher(std::static_pointer_cast<JsonStore>(shared_from_this()), parent);
}

std::optional<Session> JsonStore::session(const QString &sessionID)
{
    StoreReads::check("session");
    const QString projectID = projectOf(sessionID);
    if (projectID.isEmpty())
        return std::nullopt;
    return readTyped<Session>({u"session"_s, projectID, sessionID});
}

QStringList JsonStore::messageIDs(const QString &sessionID)
{
    StoreReads::check("messageIDs");
    QStringList ids;
    if (!Identifier::isSafeKeyComponent(sessionID))
        return ids;
    const QList<JsonStorage::Key> keys = m_storage.list({u"message"_s, sessionID});
    ids.reserve(keys.size());
    for (const JsonStorage::Key &key : keys) {
        if (key.size() == 3)
            ids.append(key.last());
    }
    return ids;
}

QSet<QString> JsonStore::takenIDs(const QSet<QString> &messageIDs, const QSet<QString> &partIDs)
{
    StoreReads::check("takenIDs");
    QSet<QString> taken;
    if (messageIDs.isEmpty() && partIDs.isEmpty())
        return taken;
    if (!messageIDs.isEmpty()) {
        for (const JsonStorage::Key &key : m_storage.list({u"message"_s})) {
            if (key.size() == 3 && messageIDs.contains(key.last()))
                taken.insert(key.last());
        }
        for (const QString &folder : m_storage.listFolders({u"part"_s})) {
            if (messageIDs.contains(folder))
                taken.insert(folder);
        }
    }
    if (!partIDs.isEmpty()) {
        for (const JsonStorage::Key &key : m_storage.list({u"part"_s})) {
            if (key.size() == 3 && partIDs.contains(key.last()))
                taken.insert(key.last());
        }
    }
    return taken;
}

std::optional<Message> JsonStore::readMessage(const QString &sessionID, const QString &messageID)
{
    const JsonStorage::Key key{u"message"_s, sessionID, messageID};
    std::optional<Message> m = readTyped<Message>(key);
    if (m && (m->id() != messageID || m->sessionID() != sessionID)) {
        reportProblem(m_storage.path(key).value(),
                      StoreTr::tr("the message's id or sessionID does not match its file"));
        return std::nullopt;
    }
    return m;
}

QList<Message> JsonStore::messages(const QString &sessionID)
{
    StoreReads::check("messages");
    return messagesByID(sessionID, messageIDs(sessionID));
}

QList<Message> JsonStore::messagesByID(const QString &sessionID, const QStringList &messageIDs)
{
    StoreReads::check("messagesByID");
    QList<Message> result;
    if (!Identifier::isSafeKeyComponent(sessionID))
        return result;
    QList<std::optional<Message>> read(messageIDs.size());
    parallelFor(messageIDs.size(), [&](qsizetype i) {
        if (Identifier::isSafeKeyComponent(messageIDs.at(i)))
            read[i] = readMessage(sessionID, messageIDs.at(i));
    });
    result.reserve(read.size());
    for (std::optional<Message> &m : read) {
        if (m)
            result.append(std::move(*m));
    }
    std::stable_sort(result.begin(), result.end(), messageLessThan);
    return result;
}

QList<MessageWithParts> JsonStore::withParts(const QString &sessionID, const QList<Message> &infos)
{
    StoreReads::check("withParts");
    QList<MessageWithParts> result(infos.size());
    parallelFor(infos.size(), [&](qsizetype i) {
        result[i].info = infos.at(i);
        result[i].parts = parts(sessionID, infos.at(i).id());
    });
    return result;
}

std::optional<Message> JsonStore::message(const QString &sessionID, const QString &messageID)
{
    StoreReads::check("message");
    // An unsafe ID names no file: nothing to read, and no damaged data to report.
    if (!Identifier::isSafeKeyComponent(sessionID) || !Identifier::isSafeKeyComponent(messageID))
        return std::nullopt;
    return readTyped<Message>({u"message"_s, sessionID, messageID});
}

QList<Part> JsonStore::parts(const QString &sessionID, const QString &messageID)
{
    StoreReads::check("parts");
    Q_UNUSED(sessionID)
    QList<Part> result;
    if (!Identifier::isSafeKeyComponent(messageID))
        return result;
    for (const JsonStorage::Key &key : m_storage.list({u"part"_s, messageID})) {
        if (auto p = readTyped<Part>(key)) {
            if (p->id() != key.last() || p->messageID() != messageID) {
                reportProblem(m_storage.path(key).value(),
                              StoreTr::tr("the part's id or messageID does not match its file"));
                continue;
            }
            result.append(*p);
        }
    }
    {
        // A part this process is streaming is ahead of its file (the journal holds the rest until
        // the next full write): readers in this process, such as a file watcher, see the newest.
        QMutexLocker locker(&m_streamMutex);
        if (!m_streams.isEmpty()) {
            for (Part &p : result) {
                const auto it = m_streams.constFind(p.id());
                if (it != m_streams.constEnd() && it->latest.messageID() == messageID)
                    p = it->latest;
            }
        }
    }
    std::stable_sort(result.begin(), result.end(), partLessThan);
    return result;
}

QList<MessageWithParts> JsonStore::messagesWithParts(const QString &sessionID)
{
    StoreReads::check("messagesWithParts");
    // One pass over every core: each message file, then its parts.
    const QStringList ids = messageIDs(sessionID);
    QList<std::optional<MessageWithParts>> read(ids.size());
    parallelFor(ids.size(), [&](qsizetype i) {
        if (!Identifier::isSafeKeyComponent(ids.at(i)))
            return;
        std::optional<Message> info = readMessage(sessionID, ids.at(i));
        if (info)
            read[i] = MessageWithParts{*info, parts(sessionID, info->id())};
    });
    QList<MessageWithParts> result;
    result.reserve(read.size());
    for (std::optional<MessageWithParts> &m : read) {
        if (m)
            result.append(std::move(*m));
    }
    std::stable_sort(result.begin(), result.end(),
                     [](const MessageWithParts &a, const MessageWithParts &b) { return messageLessThan(a.info, b.info); });
    return result;
}

QList<FileDiff> JsonStore::sessionDiff(const QString &sessionID)
{
    StoreReads::check("sessionDiff");
    QList<FileDiff> result;
    if (!Identifier::isSafeKeyComponent(sessionID))
        return result;
    const Result<JsonValue> value = m_storage.read({u"session_diff"_s, sessionID});
    if (!value) {
        if (value.error().message != u"not found")
            reportProblem(value.error().where, value.error().message);
        return result;
    }
    if (!value->isArray()) {
        reportProblem(m_storage.path({u"session_diff"_s, sessionID}).value(),
                      StoreTr::tr("expected an array of file diffs"));
        return result;
    }
    const JsonArray array = value->toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QList<ValidationIssue> issues = FileDiff::validate(array.at(i), u"$[%1]"_s.arg(i));
        if (!issues.isEmpty()) {
            reportProblem(m_storage.path({u"session_diff"_s, sessionID}).value(), issues.first().toString());
            continue;
        }
        result.append(FileDiff(array.at(i).toObject()));
    }
    return result;
}

namespace
{
/// The first error that the tasks of a parallelFor() report; the others are dropped, and the
/// tasks not started yet can skip their work once one has failed.
class FirstError
{
public:
    void report(const Result<void> &result)
    {
        if (result)
            return;
        QMutexLocker locker(&m_mutex);
        if (!m_error)
            m_error = result.error();
        m_failed = true;
    }
    [[nodiscard]] bool failed() const { return m_failed.load(std::memory_order_relaxed); }
    /// Success, or the first error reported.
    [[nodiscard]] Result<void> result() const
    {
        if (m_error)
            return *m_error;
        return {};
    }

private:
    QMutex m_mutex;
    std::optional<Error> m_error;
    std::atomic_bool m_failed = false;
};

Result<void> checkIds(std::initializer_list<std::pair<QString, Identifier::Kind>> ids)
{
    for (const auto &[id, kind] : ids) {
        const QString why = Identifier::whyInvalid(id, kind);
        if (!why.isEmpty())
            return Error{why, {}};
    }
    return {};
}
} // namespace

Result<void> JsonStore::writeProject(const Project &project)
{
    return m_storage.write({u"project"_s, project.id()}, project.json());
}

Result<void> JsonStore::writeSession(const Session &session)
{
    if (auto r = checkIds({{session.id(), Identifier::Kind::Session}}); !r)
        return r;
    const Result<void> r = m_storage.write({u"session"_s, session.projectID(), session.id()}, session.json());
    if (r) {
        QMutexLocker locker(&m_indexMutex);
        m_sessionProject.insert(session.id(), session.projectID());
    }
    return r;
}

Result<void> JsonStore::writeMessage(const Message &message)
{
    if (auto r = checkIds({{message.sessionID(), Identifier::Kind::Session}, {message.id(), Identifier::Kind::Message}}); !r)
        return r;
    return m_storage.write({u"message"_s, message.sessionID(), message.id()}, message.json());
}

Result<void> JsonStore::writePart(const Part &part)
{
    if (auto r = checkIds({{part.messageID(), Identifier::Kind::Message}, {part.id(), Identifier::Kind::Part}}); !r)
        return r;
    const Result<void> r = m_storage.write({u"part"_s, part.messageID(), part.id()}, part.json());
    if (r) {
        // A durable write ends a stream: its journal is no longer needed.
        bool streaming;
        {
            QMutexLocker locker(&m_streamMutex);
            streaming = m_streams.remove(part.id()) > 0;
        }
        if (streaming)
            QFile::remove(journalPath(part.messageID(), part.id()));
    }
    return r;
}

Result<void> JsonStore::writeMessages(const QList<MessageWithParts> &messages)
{
    // New files (a fork's copies): each created straight under its name on every core, without
    // a temporary file, a rename or an fsync of its own; the batch flushes them while they are
    // written and makes them all durable before this returns. Creating a file is the cost here
    // (0.2 to 0.5 ms each on some virtual disks, most of a 15,000-file fork), so two cores
    // create about twice as many.
    for (const MessageWithParts &m : messages) {
        if (auto r = checkIds({{m.info.sessionID(), Identifier::Kind::Session}, {m.info.id(), Identifier::Kind::Message}}); !r)
            return r;
        for (const Part &p : m.parts) {
            if (auto r = checkIds({{p.messageID(), Identifier::Kind::Message}, {p.id(), Identifier::Kind::Part}}); !r)
                return r;
        }
    }
    if (!messages.isEmpty()) {
        if (auto r = m_storage.makeFolder({u"message"_s, messages.first().info.sessionID()}); !r)
            return r;
    }
    JsonStorage::NewFiles files(m_storage);
    FirstError error;
    parallelFor(messages.size(), [&](qsizetype i) {
        if (error.failed())
            return;
        const MessageWithParts &m = messages.at(i);
        // The part folder of a copied message is new: made at once, not after a failed open.
        Result<void> r = m.parts.isEmpty() ? Result<void>() : m_storage.makeFolder({u"part"_s, m.info.id()});
        for (const Part &p : m.parts) {
            if (!r)
                break;
            r = files.create({u"part"_s, p.messageID(), p.id()}, JsonStorage::serialize(p.json()));
        }
        // Each message after its parts, as OpenCode writes them.
        if (r)
            r = files.create({u"message"_s, m.info.sessionID(), m.info.id()}, JsonStorage::serialize(m.info.json()));
        error.report(r);
    });
    if (Result<void> r = error.result(); !r)
        return r;
    return files.finish();
}

QString JsonStore::journalPath(const QString &messageID, const QString &partID) const
{
    return m_dataDir + u"/stream/"_s + messageID + u'.' + partID + u".jsonl"_s;
}

Result<void> JsonStore::writeStreamFull(const Part &part, StreamState &state)
{
    const Result<void> r = m_storage.write({u"part"_s, part.messageID(), part.id()}, part.json(), JsonStorage::Sync::Streaming);
    if (!r)
        return r;
    state.lastFullWrite = QDateTime::currentMSecsSinceEpoch();
    state.writtenTextLength = part.text().size();
    state.dirty = false;
    // The file now holds everything the journal did.
    QFile::resize(journalPath(part.messageID(), part.id()), 0);
    return {};
}

Result<void> JsonStore::writePartStreaming(const Part &part, const QString &delta)
{
    if (auto r = checkIds({{part.messageID(), Identifier::Kind::Message}, {part.id(), Identifier::Kind::Part}}); !r)
        return r;
    QMutexLocker locker(&m_streamMutex);
    auto it = m_streams.find(part.id());
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (it == m_streams.end())
        it = m_streams.insert(part.id(), {});
    it->latest = part;
    if (now - it->lastFullWrite >= StreamRewriteMs)
        return writeStreamFull(part, *it);
    if (delta.isEmpty() || it->dirty) {
        // Not a text delta (a tool's raw input, metadata): the next full write carries it.
        it->dirty = true;
        return {};
    }
    // Append `{"at": <text length before>, "delta": ...}`: replay applies a record only when the
    // text has exactly that length, so a record already contained in the file is skipped.
    const qsizetype before = part.text().size() - delta.size();
    const QByteArray line = toJson(JsonObject{{u"at"_s, qint64(before)}, {u"delta"_s, delta}}, 0) + '\n';
    const QString path = journalPath(part.messageID(), part.id());
    QFile journal(path);
    if (!journal.open(QIODevice::Append)) {
        QDir().mkpath(m_dataDir + u"/stream"_s);
        if (!journal.open(QIODevice::Append))
            return writeStreamFull(part, *it);
    }
    if (journal.write(line) != line.size())
        return writeStreamFull(part, *it);
    return {};
}

void JsonStore::endStream(const QString &partID)
{
    QMutexLocker locker(&m_streamMutex);
    m_streams.remove(partID);
}

Result<void> JsonStore::writeSessionDiff(const QString &sessionID, const QList<FileDiff> &diffs)
{
    JsonArray array;
    for (const FileDiff &d : diffs)
        array.append(d.json());
    return m_storage.write({u"session_diff"_s, sessionID}, array);
}

QList<Todo> JsonStore::todos(const QString &sessionID)
{
    StoreReads::check("todos");
    // OpenCode reads a missing or unreadable list as empty; a damaged one is reported too.
    QList<Todo> result;
    if (!Identifier::isSafeKeyComponent(sessionID))
        return result;
    const Result<JsonValue> value = m_storage.read({u"todo"_s, sessionID});
    if (!value) {
        if (value.error().message != u"not found")
            reportProblem(value.error().where, value.error().message);
        return result;
    }
    const QString path = m_storage.path({u"todo"_s, sessionID}).value();
    if (!value->isArray()) {
        reportProblem(path, StoreTr::tr("expected an array of todo items"));
        return result;
    }
    const JsonArray array = value->toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QList<ValidationIssue> issues = Todo::validate(array.at(i), u"$[%1]"_s.arg(i));
        if (!issues.isEmpty()) {
            reportProblem(path, issues.first().toString());
            continue;
        }
        result.append(Todo(array.at(i).toObject()));
    }
    return result;
}

Result<void> JsonStore::writeTodos(const QString &sessionID, const QList<Todo> &todos)
{
    if (auto r = checkIds({{sessionID, Identifier::Kind::Session}}); !r)
        return r;
    JsonArray array;
    for (const Todo &todo : todos)
        array.append(todo.json());
    return m_storage.write({u"todo"_s, sessionID}, array);
}

Result<void> JsonStore::removeSession(const Session &session)
{
    const QString sessionID = session.id();
    if (auto r = checkIds({{sessionID, Identifier::Kind::Session}}); !r)
        return r;
    // Messages and their parts first (on every core), the session file last: an interrupted
    // removal leaves a session that still lists, and can be removed again.
    const QList<JsonStorage::Key> messageKeys = m_storage.list({u"message"_s, sessionID});
    FirstError error;
    parallelFor(messageKeys.size(), [&](qsizetype i) {
        const JsonStorage::Key &key = messageKeys.at(i);
        const QString messageID = key.last();
        Result<void> r;
        for (const JsonStorage::Key &partKey : m_storage.list({u"part"_s, messageID})) {
            if (r = m_storage.remove(partKey); !r)
                break;
        }
        if (r) {
            QDir().rmdir(m_storage.root() + u"/part/"_s + messageID);
            r = m_storage.remove(key);
        }
        error.report(r);
    });
    if (Result<void> r = error.result(); !r)
        return r;
    QDir().rmdir(m_storage.root() + u"/message/"_s + sessionID);
    for (const QString &kind : {u"session_diff"_s, u"share"_s, u"session_share"_s, u"todo"_s}) {
        if (auto r = m_storage.remove({kind, sessionID}); !r)
            return r;
    }
    const QString projectID = session.projectID().isEmpty() ? projectOf(sessionID) : session.projectID();
    if (auto r = m_storage.remove({u"session"_s, projectID, sessionID}); !r)
        return r;
    QMutexLocker locker(&m_indexMutex);
    m_sessionProject.remove(sessionID);
    return {};
}

QList<JsonStorage::Key> JsonStore::sessionKeys(const Session &session)
{
    const QString sessionID = session.id();
    QList<JsonStorage::Key> keys;
    if (!Identifier::isValid(sessionID, Identifier::Kind::Session))
        return keys;
    const QString projectID = session.projectID().isEmpty() ? projectOf(sessionID) : session.projectID();
    // The same files as removeSession(), in the order the trash moves them: the session's info
    // first, so that an interrupted move leaves no half session in the list.
    if (m_storage.exists({u"session"_s, projectID, sessionID}))
        keys.append({u"session"_s, projectID, sessionID});
    for (const QString &kind : {u"session_diff"_s, u"share"_s, u"session_share"_s, u"todo"_s}) {
        if (m_storage.exists({kind, sessionID}))
            keys.append({kind, sessionID});
    }
    for (const JsonStorage::Key &key : m_storage.list({u"message"_s, sessionID})) {
        keys.append(key);
        keys.append(m_storage.list({u"part"_s, key.last()}));
    }
    return keys;
}

JsonStore::~JsonStore() = default;

SessionTrash *JsonStore::trash()
{
    QMutexLocker locker(&m_indexMutex);
    if (!m_trash)
        m_trash = std::make_unique<SessionTrash>(*this);
    return m_trash.get();
}

Result<void> JsonStore::removeMessage(const QString &sessionID, const QString &messageID)
{
    if (auto r = checkIds({{sessionID, Identifier::Kind::Session}, {messageID, Identifier::Kind::Message}}); !r)
        return r;
    for (const JsonStorage::Key &partKey : m_storage.list({u"part"_s, messageID})) {
        if (auto r = m_storage.remove(partKey); !r)
            return r;
    }
    QDir().rmdir(m_storage.root() + u"/part/"_s + messageID);
    return m_storage.remove({u"message"_s, sessionID, messageID});
}

Result<void> JsonStore::removePart(const QString &sessionID, const QString &messageID, const QString &partID)
{
    Q_UNUSED(sessionID)
    if (auto r = checkIds({{messageID, Identifier::Kind::Message}, {partID, Identifier::Kind::Part}}); !r)
        return r;
    return m_storage.remove({u"part"_s, messageID, partID});
}

} // namespace weft
