// SPDX-License-Identifier: GPL-3.0-or-later
#include "jsonstorewatcher.h"

#include "core/async.h"
#include "jsonstore.h"

#include <QDir>
#include <QFileInfo>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
QString idOf(const QString &fileName)
{
    return fileName.chopped(5); // ".json"
}

// Whether the file of @p key is as the store itself last wrote it (or removed it).
bool isOwn(const JsonStorage &storage, const JsonStorage::Key &key)
{
    const Result<QString> path = storage.path(key);
    return !path || storage.isOwnVersion(*path, JsonStorage::stampOf(*path));
}

// The files of @p keys that another process wrote, read as T values that belong where they lie,
// ordered by @p lessThan. A file caught half-written fails to parse and is skipped: its next write
// brings another change.
template<typename T, typename Belongs, typename LessThan>
QList<T> readForeign(const JsonStorage &storage, const QList<JsonStorage::Key> &keys, Belongs belongs, LessThan lessThan)
{
    QList<T> values;
    for (const JsonStorage::Key &key : keys) {
        if (isOwn(storage, key))
            continue;
        const Result<JsonValue> value = storage.read(key);
        if (!value)
            continue;
        if (Result<T> v = T::fromJson(value.value()); v && belongs(v.value(), key))
            values.append(v.value());
    }
    std::sort(values.begin(), values.end(), lessThan);
    return values;
}
} // namespace

JsonStoreWatcher::JsonStoreWatcher(std::shared_ptr<JsonStore> store, QObject *parent)
    : StoreWatcher(parent)
    , m_store(std::move(store))
    , m_root(m_store->storage().root())
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(40);
    connect(&m_timer, &QTimer::timeout, this, &JsonStoreWatcher::flush);
    connect(&m_fs, &QFileSystemWatcher::directoryChanged, this, &JsonStoreWatcher::markDirty);
    connect(&m_fs, &QFileSystemWatcher::fileChanged, this, &JsonStoreWatcher::markDirty);
}

JsonStoreWatcher::~JsonStoreWatcher() = default;

void JsonStoreWatcher::start()
{
    m_running = true;
    // Nothing is read up front: a followed session's folder is listed when it is followed.
    QTimer::singleShot(0, this, &JsonStoreWatcher::started);
}

void JsonStoreWatcher::stop()
{
    m_running = false;
    setSession({});
}

void JsonStoreWatcher::follow(const QString &sessionID, const QStringList &recentMessageIDs)
{
    const QString wanted = m_running ? sessionID : QString();
    if (wanted != m_sessionID)
        setSession(wanted);
    setWatchedMessages(recentMessageIDs);
}

JsonStoreWatcher::Snapshot JsonStoreWatcher::scan(const QString &dir)
{
    Snapshot snapshot;
    const QStringList names = QDir(dir).entryList({u"*.json"_s}, QDir::Files);
    snapshot.reserve(names.size());
    for (const QString &name : names)
        snapshot.insert(name, JsonStorage::stampOf(dir + u'/' + name));
    return snapshot;
}

void JsonStoreWatcher::setSession(const QString &sessionID)
{
    Q_ASSERT(QThread::currentThread() == thread());
    ++m_generation;
    if (!m_fs.files().isEmpty())
        m_fs.removePaths(m_fs.files());
    if (!m_fs.directories().isEmpty())
        m_fs.removePaths(m_fs.directories());
    m_snapshots.clear();
    m_watchedMessages.clear();
    m_dirty.clear();
    m_timer.stop();
    m_scanning = false;
    m_sessionID = sessionID;
    m_sessionFile.clear();
    m_sessionDir.clear();
    m_sessionStamp = {};
    if (sessionID.isEmpty())
        return;
    m_sessionFile = m_store->sessionFile(sessionID);
    if (!m_sessionFile.isEmpty()) {
        m_sessionDir = QFileInfo(m_sessionFile).absolutePath();
        m_sessionStamp = JsonStorage::stampOf(m_sessionFile);
    }
    // The folder is watched first and then listed, off the GUI thread (a session of 20,000
    // messages takes a stat per file): a change from now on is seen, and compared with the
    // listing once it is in.
    rewatch();
    scanLater({m_root + u"/message/"_s + sessionID}, {}, {});
}

void JsonStoreWatcher::scanLater(const QStringList &dirs, const QSet<QString> &changedMessageFiles,
                               const QSet<QString> &changedPartFiles)
{
    m_scanning = true;
    const int generation = m_generation;
    whenFinished(QtConcurrent::run([dirs] {
                     QHash<QString, Snapshot> scanned;
                     for (const QString &dir : dirs)
                         scanned.insert(dir, scan(dir));
                     return scanned;
                 }),
                 this, [this, generation, changedMessageFiles, changedPartFiles](const QHash<QString, Snapshot> &scanned) {
                     if (generation != m_generation)
                         return;
                     m_scanning = false;
                     apply(scanned, changedMessageFiles, changedPartFiles);
                     // Changes seen while the folders were listed.
                     if (!m_dirty.isEmpty() && !m_timer.isActive())
                         m_timer.start();
                 });
}

void JsonStoreWatcher::setWatchedMessages(const QStringList &messageIDs)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_sessionID.isEmpty())
        return;
    const QSet<QString> wanted(messageIDs.cbegin(), messageIDs.cend());
    const QSet<QString> current = m_watchedMessages;
    for (const QString &id : current) {
        if (!wanted.contains(id)) {
            m_watchedMessages.remove(id);
            m_snapshots.remove(m_root + u"/part/"_s + id);
        }
    }
    for (const QString &id : wanted) {
        if (!m_watchedMessages.contains(id))
            watchMessage(id, false);
    }
    rewatch();
}

void JsonStoreWatcher::watchMessage(const QString &messageID, bool reportExisting)
{
    m_watchedMessages.insert(messageID);
    const QString partDir = m_root + u"/part/"_s + messageID;
    if (reportExisting) {
        // A message another process just created: whatever parts it already has are news.
        m_snapshots.insert(partDir, {});
        m_dirty.insert(partDir);
        if (!m_timer.isActive())
            m_timer.start();
    } else {
        m_snapshots.insert(partDir, scan(partDir));
    }
}

void JsonStoreWatcher::rewatch()
{
    // QFileSystemWatcher forgets a file that is replaced by a rename (an atomic write), and a
    // folder can appear after we looked: recompute what should be watched after every change.
    QStringList wanted;
    const QString messageDir = m_root + u"/message/"_s + m_sessionID;
    wanted.append(QFileInfo::exists(messageDir) ? messageDir : m_root + u"/message"_s);
    // The session's file itself for writers that rewrite it in place (OpenCode), and its folder
    // for those that replace it by a rename (Weft): a watch on a replaced file is lost, and
    // re-adding it races with the rename.
    if (!m_sessionFile.isEmpty() && QFileInfo::exists(m_sessionFile))
        wanted.append(m_sessionFile);
    if (!m_sessionDir.isEmpty() && QFileInfo::exists(m_sessionDir))
        wanted.append(m_sessionDir);
    bool partRootNeeded = false;
    for (const QString &id : std::as_const(m_watchedMessages)) {
        const QString file = messageDir + u'/' + id + u".json"_s;
        if (QFileInfo::exists(file))
            wanted.append(file);
        const QString partDir = m_root + u"/part/"_s + id;
        if (QFileInfo::exists(partDir)) {
            wanted.append(partDir);
            // Part files themselves: OpenCode rewrites them in place, which a folder watch misses.
            const Snapshot &snapshot = m_snapshots[partDir];
            for (auto it = snapshot.cbegin(); it != snapshot.cend(); ++it)
                wanted.append(partDir + u'/' + it.key());
        } else {
            partRootNeeded = true;
        }
    }
    if (partRootNeeded && QFileInfo::exists(m_root + u"/part"_s))
        wanted.append(m_root + u"/part"_s);

    const QSet<QString> want(wanted.cbegin(), wanted.cend());
    QStringList watched = m_fs.files() + m_fs.directories();
    QStringList stale;
    for (const QString &p : std::as_const(watched)) {
        if (!want.contains(p))
            stale.append(p);
    }
    if (!stale.isEmpty())
        m_fs.removePaths(stale);
    const QSet<QString> have(watched.cbegin(), watched.cend());
    QStringList missing;
    for (const QString &p : want) {
        if (!have.contains(p))
            missing.append(p);
    }
    if (!missing.isEmpty())
        m_fs.addPaths(missing);
}

void JsonStoreWatcher::markDirty(const QString &path)
{
    m_dirty.insert(path);
    if (!m_timer.isActive())
        m_timer.start();
}

void JsonStoreWatcher::flush()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_sessionID.isEmpty())
        return;
    if (m_scanning) {
        // A listing is on its way: these changes are compared with it when it is in.
        m_timer.start();
        return;
    }
    const QSet<QString> dirty = std::exchange(m_dirty, {});
    const QString messageDir = m_root + u"/message/"_s + m_sessionID;
    const QString messagePrefix = messageDir + u'/';
    const QString partPrefix = m_root + u"/part/"_s;

    QSet<QString> dirs;
    QSet<QString> changedMessageFiles;
    QSet<QString> changedPartFiles;
    for (const QString &path : dirty) {
        if (path == m_sessionFile || path == m_sessionDir) {
            // The folder holds the project's other sessions too: only a new version of this
            // session's file is news.
            const JsonStorage::FileStamp now = JsonStorage::stampOf(m_sessionFile);
            if (now != m_sessionStamp || path == m_sessionFile) {
                m_sessionStamp = now;
                read({}, {}, true, {});
            }
        } else if (path == m_root + u"/message"_s || path == messageDir) {
            dirs.insert(messageDir);
        } else if (path == m_root + u"/part"_s) {
            for (const QString &id : std::as_const(m_watchedMessages))
                dirs.insert(partPrefix + id);
        } else if (path.startsWith(messagePrefix)) {
            changedMessageFiles.insert(path);
        } else if (path.startsWith(partPrefix)) {
            const QString rest = path.mid(partPrefix.size());
            if (rest.contains(u'/'))
                changedPartFiles.insert(path);
            else
                dirs.insert(path);
        }
    }

    if (!dirs.isEmpty()) {
        // Folders are listed off the GUI thread; the rest follows when they are in.
        scanLater(QStringList(dirs.cbegin(), dirs.cend()), changedMessageFiles, changedPartFiles);
        return;
    }
    apply({}, changedMessageFiles, changedPartFiles);
}

void JsonStoreWatcher::apply(const QHash<QString, Snapshot> &scanned, const QSet<QString> &changedMessageFiles,
                             const QSet<QString> &changedPartFiles)
{
    const QString messageDir = m_root + u"/message/"_s + m_sessionID;
    const QString partPrefix = m_root + u"/part/"_s;
    QStringList readMessages; // message IDs
    QList<std::pair<QString, QString>> readParts; // message ID, part ID
    QList<std::pair<QString, QString>> removed; // message ID, part ID (empty for the message)
    for (auto scan = scanned.cbegin(); scan != scanned.cend(); ++scan) {
        const QString &dir = scan.key();
        const Snapshot &now = scan.value();
        if (!m_snapshots.contains(dir) && dir == messageDir) {
            // The first listing of the session's folder: what is there is known, not news.
            m_snapshots.insert(dir, now);
            continue;
        }
        const Snapshot before = m_snapshots.value(dir);
        const bool isMessageDir = dir == messageDir;
        const QString messageID = isMessageDir ? QString() : dir.mid(partPrefix.size());
        for (auto it = now.cbegin(); it != now.cend(); ++it) {
            const auto old = before.constFind(it.key());
            if (old != before.constEnd() && old.value() == it.value())
                continue;
            if (isMessageDir) {
                readMessages.append(idOf(it.key()));
                if (!m_watchedMessages.contains(idOf(it.key())))
                    watchMessage(idOf(it.key()), true);
            } else {
                readParts.append({messageID, idOf(it.key())});
            }
        }
        for (auto it = before.cbegin(); it != before.cend(); ++it) {
            if (now.contains(it.key()))
                continue;
            if (isMessageDir) {
                m_watchedMessages.remove(idOf(it.key()));
                removed.append({idOf(it.key()), QString()});
            } else {
                removed.append({messageID, idOf(it.key())});
            }
        }
        m_snapshots.insert(dir, now);
    }
    // A file reported as changed is read even when its stamp looks the same: two writes within
    // the clock's resolution keep the size and the time.
    for (const QString &file : std::as_const(changedMessageFiles)) {
        const QString name = QFileInfo(file).fileName();
        if (!name.endsWith(u".json"_s))
            continue;
        m_snapshots[messageDir].insert(name, JsonStorage::stampOf(file));
        if (!readMessages.contains(idOf(name)) && QFileInfo::exists(file))
            readMessages.append(idOf(name));
    }
    for (const QString &file : std::as_const(changedPartFiles)) {
        const QFileInfo info(file);
        if (!info.fileName().endsWith(u".json"_s))
            continue;
        const QString messageID = info.dir().dirName();
        m_snapshots[info.path()].insert(info.fileName(), JsonStorage::stampOf(file));
        const std::pair<QString, QString> key{messageID, idOf(info.fileName())};
        if (!readParts.contains(key) && info.exists())
            readParts.append(key);
    }
    rewatch();
    if (!readMessages.isEmpty() || !readParts.isEmpty() || !removed.isEmpty())
        read(readMessages, readParts, false, removed);
}

void JsonStoreWatcher::read(const QStringList &messageIDs, const QList<std::pair<QString, QString>> &parts,
                            bool sessionInfo, const QList<std::pair<QString, QString>> &removed)
{
    const int generation = m_generation;
    std::shared_ptr<JsonStore> store = m_store;
    const QString sessionID = m_sessionID;
    const QString sessionFile = m_sessionFile;
    whenFinished(QtConcurrent::run([store, sessionID, sessionFile, messageIDs, parts, sessionInfo, removed] {
                     // A file whose stamp is the one the store gave it (or a removal the store
                     // made) is Weft's own: not news.
                     const JsonStorage &storage = store->storage();
                     QList<StoreChange> changes;
                     if (sessionInfo && !storage.isOwnVersion(sessionFile, JsonStorage::stampOf(sessionFile))) {
                         if (std::optional<Session> s = store->session(sessionID))
                             changes.append({.kind = StoreChange::Kind::SessionUpdated, .session = *s});
                     }
                     QList<JsonStorage::Key> messageKeys, partKeys;
                     for (const QString &id : messageIDs)
                         messageKeys.append({u"message"_s, sessionID, id});
                     for (const auto &[messageID, partID] : parts)
                         partKeys.append({u"part"_s, messageID, partID});
                     const QList<Message> messages = readForeign<Message>(
                         storage, messageKeys, [&](const Message &m, const JsonStorage::Key &) { return m.sessionID() == sessionID; },
                         messageLessThan);
                     for (const Message &m : messages)
                         changes.append({.kind = StoreChange::Kind::MessageUpdated, .message = m});
                     const QList<Part> changedParts = readForeign<Part>(
                         storage, partKeys, [](const Part &p, const JsonStorage::Key &key) { return p.messageID() == key.at(1); },
                         partLessThan);
                     for (const Part &p : changedParts)
                         changes.append({.kind = StoreChange::Kind::PartUpdated, .part = p});
                     for (const auto &[messageID, partID] : removed) {
                         const bool message = partID.isEmpty();
                         if (isOwn(storage, message ? JsonStorage::Key{u"message"_s, sessionID, messageID}
                                                    : JsonStorage::Key{u"part"_s, messageID, partID}))
                             continue;
                         StoreChange change;
                         change.kind = message ? StoreChange::Kind::MessageRemoved : StoreChange::Kind::PartRemoved;
                         change.sessionID = sessionID;
                         change.messageID = messageID;
                         change.partID = partID;
                         changes.append(change);
                     }
                     return changes;
                 }),
                 this, [this, generation](const QList<StoreChange> &changes) {
                     if (generation != m_generation || changes.isEmpty())
                         return;
                     Q_EMIT changed(changes);
                 });
}

} // namespace weft
