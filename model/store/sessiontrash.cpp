// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessiontrash.h"

#include "core/identifier.h"
#include "core/logging.h"
#include "core/tr.h"
#include "jsonstore.h"
#include "storereads.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QSet>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sys/stat.h>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{

/// A manifest larger than this is not Weft's: a session with a million files has a manifest of
/// about 80 MB.
constexpr qint64 MaxManifestSize = 256LL * 1024 * 1024;

enum class FileType { Missing, Regular, Folder, Other };

/// What is at @p path itself: a symbolic link is Other, never what it points to.
FileType typeOf(const QString &path)
{
    struct stat st {};
    if (::lstat(QFile::encodeName(path).constData(), &st) != 0)
        return FileType::Missing;
    if (S_ISREG(st.st_mode))
        return FileType::Regular;
    if (S_ISDIR(st.st_mode))
        return FileType::Folder;
    return FileType::Other;
}

QString relativePath(const JsonStorage::Key &key)
{
    return key.join(u'/') + u".json"_s;
}

/// The number of components of a key of each kind of file a trash entry may hold: no other file
/// of `storage/` (projects, the migration file) is ever restored from the trash.
int keyLength(const QString &kind)
{
    if (kind == u"session" || kind == u"message" || kind == u"part")
        return 3;
    if (kind == u"session_diff" || kind == u"share" || kind == u"session_share" || kind == u"todo")
        return 2;
    return 0;
}

struct Manifest {
    TrashEntry info;
    QStringList sessionIDs; ///< the deleted session first
    QList<JsonStorage::Key> keys;
};

QByteArray manifestBytes(const TrashEntry &entry, const QList<Session> &sessions, const QList<JsonStorage::Key> &keys)
{
    QJsonArray sessionArray;
    for (const Session &s : sessions)
        sessionArray.append(QJsonObject{{u"id"_s, s.id()}, {u"title"_s, s.title()}, {u"parentID"_s, s.parentID()}});
    QJsonArray files;
    for (const JsonStorage::Key &key : keys)
        files.append(relativePath(key));
    const QJsonObject root{
        {u"weftTrash"_s, 1},
        {u"sessionID"_s, entry.sessionID},
        {u"title"_s, entry.title},
        {u"directory"_s, entry.directory},
        {u"deleted"_s, entry.deleted},
        {u"sessions"_s, sessionArray},
        {u"files"_s, files},
    };
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

/// Reads and checks the manifest of the entry folder @p entryDir: every file it names must be a
/// file of one of its sessions (or of one of their messages), by safe names only.
Result<Manifest> readManifest(const QString &entryDir)
{
    const QString path = entryDir + u'/' + SessionTrash::ManifestName;
    if (typeOf(path) != FileType::Regular)
        return Error{StoreTr::tr("the trash entry has no manifest"), entryDir};
    QFile file(path);
    if (file.size() > MaxManifestSize || !file.open(QIODevice::ReadOnly))
        return Error{StoreTr::tr("cannot read the manifest: %1").arg(file.errorString()), path};
    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (!doc.isObject())
        return Error{StoreTr::tr("the manifest is damaged: %1").arg(parseError.errorString()), path};
    const QJsonObject root = doc.object();
    Manifest m;
    m.info.sessionID = root.value(u"sessionID"_s).toString();
    m.info.title = root.value(u"title"_s).toString();
    m.info.directory = root.value(u"directory"_s).toString();
    m.info.deleted = root.value(u"deleted"_s).toInteger();
    const auto invalid = [&path](const QString &what) {
        return Error{StoreTr::tr("the manifest is damaged: %1").arg(what), path};
    };
    QSet<QString> sessions;
    for (const QJsonValue &v : root.value(u"sessions"_s).toArray()) {
        const QString id = v.toObject().value(u"id"_s).toString();
        if (!Identifier::isValid(id, Identifier::Kind::Session))
            return invalid(StoreTr::tr("invalid session ID \"%1\"").arg(id.left(80)));
        m.sessionIDs.append(id);
        sessions.insert(id);
    }
    if (m.sessionIDs.isEmpty() || m.sessionIDs.first() != m.info.sessionID)
        return invalid(StoreTr::tr("no sessions"));
    m.info.children = m.sessionIDs.mid(1);
    QSet<QString> messages;
    for (const QJsonValue &v : root.value(u"files"_s).toArray()) {
        const QString file = v.toString();
        if (!file.endsWith(u".json"_s))
            return invalid(StoreTr::tr("unexpected file \"%1\"").arg(file.left(200)));
        const JsonStorage::Key key = file.chopped(5).split(u'/');
        const bool safe = std::all_of(key.cbegin(), key.cend(), [](const QString &c) {
            return Identifier::isSafeKeyComponent(c);
        });
        // Whose file it is: session/<project>/<session>, message/<session>/<message>,
        // part/<message>/<part>, <kind>/<session>. Parts follow their message in the list.
        bool ours = safe && keyLength(key.first()) == key.size();
        if (ours && key.first() == u"session")
            ours = sessions.contains(key.at(2));
        else if (ours && key.first() == u"part")
            ours = messages.contains(key.at(1));
        else if (ours)
            ours = sessions.contains(key.at(1));
        if (!ours)
            return invalid(StoreTr::tr("unexpected file \"%1\"").arg(file.left(200)));
        if (key.first() == u"message")
            messages.insert(key.at(2));
        m.keys.append(key);
    }
    m.info.files = int(m.keys.size());
    return m;
}

} // namespace

SessionTrash::SessionTrash(JsonStore &store)
    : m_store(store)
    , m_root(store.dataDir() + u"/weft-trash"_s)
{
}

void SessionTrash::setClock(std::function<qint64()> clock)
{
    QMutexLocker locker(&m_mutex);
    m_clock = std::move(clock);
}

void SessionTrash::setMoveHook(std::function<bool(const QString &)> hook)
{
    QMutexLocker locker(&m_mutex);
    m_moveHook = std::move(hook);
}

qint64 SessionTrash::now() const
{
    return m_clock ? m_clock() : QDateTime::currentMSecsSinceEpoch();
}

Result<TrashEntry> SessionTrash::moveIn(const QList<Session> &sessions)
{
    QMutexLocker locker(&m_mutex);
    if (sessions.isEmpty())
        return Error{StoreTr::tr("no session to move to the trash"), {}};
    const Session &deleted = sessions.first();
    // The sessions' info files first, so that an interrupted move leaves no session listed with
    // half of its messages; restore() moves them back last.
    QList<JsonStorage::Key> infos, rest;
    for (const Session &s : sessions) {
        const QList<JsonStorage::Key> keys = m_store.sessionKeys(s);
        for (const JsonStorage::Key &key : keys)
            (key.first() == u"session" ? infos : rest).append(key);
    }
    const QList<JsonStorage::Key> keys = infos + rest;
    if (infos.isEmpty())
        return Error{StoreTr::tr("the session has no file to move"), deleted.id()};

    TrashEntry entry;
    entry.sessionID = deleted.id();
    entry.title = deleted.title();
    entry.directory = deleted.directory();
    entry.deleted = now();
    for (const Session &s : sessions.mid(1))
        entry.children.append(s.id());
    entry.files = int(keys.size());
    if (!QDir().mkpath(m_root))
        return Error{StoreTr::tr("cannot create the trash folder"), m_root};
    const QString base = QString::number(entry.deleted) + u'-' + entry.sessionID;
    QString entryDir;
    for (int n = 0; n < 100; ++n) {
        entry.id = n == 0 ? base : base + u'-' + QString::number(n);
        entryDir = m_root + u'/' + entry.id;
        if (typeOf(entryDir) == FileType::Missing && QDir().mkdir(entryDir))
            break;
        entryDir.clear();
    }
    if (entryDir.isEmpty())
        return Error{StoreTr::tr("cannot create the trash entry"), m_root + u'/' + base};

    // The manifest before any file: an entry interrupted at any point names everything it
    // may hold, and restore() finds each file in the trash or still in the store.
    QSaveFile manifest(entryDir + u'/' + ManifestName);
    if (!manifest.open(QIODevice::WriteOnly) || manifest.write(manifestBytes(entry, sessions, keys)) < 0
        || !manifest.commit()) {
        const QString reason = manifest.errorString();
        QDir(entryDir).removeRecursively();
        return Error{StoreTr::tr("cannot write the trash manifest: %1").arg(reason), entryDir};
    }

    QList<JsonStorage::Key> moved;
    Error failure;
    for (const JsonStorage::Key &key : keys) {
        const QString relative = relativePath(key);
        const QString target = entryDir + u"/storage/"_s + relative;
        if (!QDir().mkpath(QFileInfo(target).path())) {
            failure = Error{StoreTr::tr("cannot create the folder"), QFileInfo(target).path()};
            break;
        }
        if (m_moveHook && !m_moveHook(relative)) {
            failure = Error{StoreTr::tr("cannot move to %1: %2").arg(target, QString::fromLocal8Bit(std::strerror(EIO))),
                            relative};
            break;
        }
        if (Result<void> r = m_store.storage().moveOut(key, target); !r) {
            failure = r.error();
            break;
        }
        moved.append(key);
    }
    if (moved.size() < keys.size()) {
        // Put back what moved, newest first; what cannot go back stays in the entry, whose
        // manifest still names it, so restore() can bring it back later.
        QStringList stuck;
        for (auto it = moved.crbegin(); it != moved.crend(); ++it) {
            if (!m_store.storage().moveIn(entryDir + u"/storage/"_s + relativePath(*it), *it))
                stuck.append(relativePath(*it));
        }
        qCWarning(lcStore) << "moving" << entry.sessionID << "to the trash failed:" << failure.toString()
                           << "; files left in the trash:" << stuck.size();
        if (!stuck.isEmpty())
            return Error{StoreTr::tr("moving the session to the trash failed (%1), and %n file(s) could not be "
                                     "moved back; they are in %2",
                                     nullptr, int(stuck.size()))
                             .arg(failure.toString(), entryDir),
                         {}};
        QDir(entryDir).removeRecursively();
        return Error{StoreTr::tr("moving the session to the trash failed, nothing was deleted: %1").arg(failure.toString()),
                     {}};
    }
    // The folders the moved files leave empty, as removeSession() removes them.
    const QString storageRoot = m_store.storage().root();
    for (const JsonStorage::Key &key : keys) {
        if (key.first() == u"message") {
            QDir().rmdir(storageRoot + u"/part/"_s + key.at(2));
            QDir().rmdir(storageRoot + u"/message/"_s + key.at(1));
        }
    }
    qCInfo(lcStore) << "moved" << entry.sessionID << "with" << entry.children.size() << "children and"
                    << keys.size() << "files to the trash:" << entry.id;
    return entry;
}

TrashEntry SessionTrash::readEntry(const QString &entryID) const
{
    TrashEntry entry;
    entry.id = entryID;
    entry.title = entryID;
    // The name tells the time when the manifest cannot: a damaged entry is purged too.
    entry.deleted = entryID.section(u'-', 0, 0).toLongLong();
    const QString entryDir = m_root + u'/' + entryID;
    if (typeOf(entryDir) != FileType::Folder) {
        entry.problem = StoreTr::tr("not a folder");
        return entry;
    }
    Result<Manifest> manifest = readManifest(entryDir);
    if (!manifest) {
        entry.problem = manifest.error().message;
        return entry;
    }
    TrashEntry info = manifest->info;
    info.id = entryID;
    if (info.deleted <= 0)
        info.deleted = entry.deleted;
    return info;
}

QList<TrashEntry> SessionTrash::entries() const
{
    StoreReads::check("trash entries");
    QMutexLocker locker(&m_mutex);
    QList<TrashEntry> result;
    const QStringList names
        = QDir(m_root).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System, QDir::Name);
    for (const QString &name : names) {
        if (name.startsWith(u'.'))
            continue; // a QSaveFile's temporary file, or not Weft's
        result.append(readEntry(name));
    }
    std::stable_sort(result.begin(), result.end(),
                     [](const TrashEntry &a, const TrashEntry &b) { return a.deleted > b.deleted; });
    return result;
}

std::optional<TrashEntry> SessionTrash::entry(const QString &entryID) const
{
    QMutexLocker locker(&m_mutex);
    if (!Identifier::isSafeKeyComponent(entryID) || entryID.startsWith(u'.')
        || typeOf(m_root + u'/' + entryID) == FileType::Missing)
        return std::nullopt;
    return readEntry(entryID);
}

Result<void> SessionTrash::moveBack(const QString &entryDir, const QList<JsonStorage::Key> &keys)
{
    QList<JsonStorage::Key> moved;
    Error failure;
    for (const JsonStorage::Key &key : keys) {
        const QString relative = relativePath(key);
        if (m_moveHook && !m_moveHook(relative)) {
            failure = Error{StoreTr::tr("cannot move to %1: %2").arg(relative, QString::fromLocal8Bit(std::strerror(EIO))),
                            entryDir};
            break;
        }
        if (Result<void> r = m_store.storage().moveIn(entryDir + u"/storage/"_s + relative, key); !r) {
            failure = r.error();
            break;
        }
        moved.append(key);
    }
    if (moved.size() == keys.size())
        return {};
    for (auto it = moved.crbegin(); it != moved.crend(); ++it)
        (void)m_store.storage().moveOut(*it, entryDir + u"/storage/"_s + relativePath(*it));
    return failure;
}

Result<QStringList> SessionTrash::restore(const QString &entryID)
{
    QMutexLocker locker(&m_mutex);
    if (!Identifier::isSafeKeyComponent(entryID) || entryID.startsWith(u'.'))
        return Error{StoreTr::tr("no trash entry \"%1\"").arg(entryID.left(80)), {}};
    const QString entryDir = m_root + u'/' + entryID;
    const FileType type = typeOf(entryDir);
    if (type == FileType::Missing)
        return Error{StoreTr::tr("no trash entry \"%1\"").arg(entryID), {}};
    if (type != FileType::Folder)
        return Error{StoreTr::tr("the trash entry is not a folder"), entryDir};
    Result<Manifest> manifest = readManifest(entryDir);
    if (!manifest)
        return manifest.error();
    for (const QString &id : manifest->sessionIDs) {
        if (m_store.session(id))
            return Error{StoreTr::tr("a session with the ID %1 exists again; delete or rename it before restoring "
                                     "this one")
                             .arg(id),
                         {}};
    }
    // The files must be plain files inside the entry's own `storage/` folder: a symbolic link
    // anywhere on the way could bring in a file from elsewhere.
    const QString storageInEntry = entryDir + u"/storage"_s;
    if (typeOf(storageInEntry) != FileType::Folder && !manifest->keys.isEmpty())
        return Error{StoreTr::tr("the trash entry is damaged: %1").arg(StoreTr::tr("no storage folder")), entryDir};
    const QString entryCanonical = QFileInfo(storageInEntry).canonicalFilePath() + u'/';
    const QString storeCanonical = QFileInfo(m_store.storage().root()).canonicalFilePath() + u'/';
    QList<JsonStorage::Key> toMove;
    for (const JsonStorage::Key &key : std::as_const(manifest->keys)) {
        const QString relative = relativePath(key);
        const QString source = storageInEntry + u'/' + relative;
        const Result<QString> target = m_store.storage().path(key);
        if (!target)
            return target.error();
        // The target's folder, or the first one of its folders that exists, must be inside
        // `storage/` (a folder of the store may be a link elsewhere).
        QString folder = QFileInfo(*target).path();
        while (typeOf(folder) == FileType::Missing && folder.size() > storeCanonical.size())
            folder = QFileInfo(folder).path();
        if (!QString(QFileInfo(folder).canonicalFilePath() + u'/').startsWith(storeCanonical))
            return Error{StoreTr::tr("refusing to restore outside the storage folder"), *target};
        const FileType sourceType = typeOf(source);
        const bool targetExists = typeOf(*target) != FileType::Missing;
        if (sourceType == FileType::Missing) {
            if (targetExists)
                continue; // an interrupted move to the trash left it in the store
            return Error{StoreTr::tr("the trash entry is incomplete: %1 is missing").arg(relative), entryDir};
        }
        if (sourceType != FileType::Regular
            || !QString(QFileInfo(QFileInfo(source).path()).canonicalFilePath() + u'/').startsWith(entryCanonical))
            return Error{StoreTr::tr("the trash entry is damaged: %1").arg(StoreTr::tr("%1 is not a plain file").arg(relative)),
                         entryDir};
        if (targetExists)
            return Error{StoreTr::tr("%1 exists in the store again; nothing was restored").arg(relative), *target};
        toMove.prepend(key); // the sessions' info files last
    }
    if (Result<void> moved = moveBack(entryDir, toMove); !moved)
        return Error{StoreTr::tr("restoring failed, the session stays in the trash: %1").arg(moved.error().toString()),
                     {}};
    if (!QDir(entryDir).removeRecursively())
        qCWarning(lcStore) << "could not remove the restored trash entry" << entryDir;
    qCInfo(lcStore) << "restored" << manifest->info.sessionID << "from the trash with" << toMove.size() << "files";
    return manifest->sessionIDs;
}

Result<void> SessionTrash::eraseLocked(const QString &entryID)
{
    if (!Identifier::isSafeKeyComponent(entryID) || entryID.startsWith(u'.'))
        return Error{StoreTr::tr("no trash entry \"%1\"").arg(entryID.left(80)), {}};
    const QString entryDir = m_root + u'/' + entryID;
    switch (typeOf(entryDir)) {
    case FileType::Missing:
        return Error{StoreTr::tr("no trash entry \"%1\"").arg(entryID), {}};
    case FileType::Folder:
        // removeRecursively() removes links inside, never what they point to.
        if (!QDir(entryDir).removeRecursively())
            return Error{StoreTr::tr("cannot delete the trash entry"), entryDir};
        return {};
    case FileType::Regular:
    case FileType::Other:
        if (!QFile::remove(entryDir))
            return Error{StoreTr::tr("cannot delete the trash entry"), entryDir};
        return {};
    }
    return {};
}

Result<void> SessionTrash::erase(const QString &entryID)
{
    QMutexLocker locker(&m_mutex);
    return eraseLocked(entryID);
}

Result<void> SessionTrash::empty()
{
    const QList<TrashEntry> all = entries();
    QMutexLocker locker(&m_mutex);
    for (const TrashEntry &e : all) {
        if (Result<void> r = eraseLocked(e.id); !r)
            return r;
    }
    return {};
}

int SessionTrash::purge(qint64 now)
{
    const QList<TrashEntry> all = entries();
    QMutexLocker locker(&m_mutex);
    int purged = 0;
    for (const TrashEntry &e : all) {
        // An entry of unknown age stays: it can be deleted by hand.
        if (e.deleted <= 0 || now - e.deleted <= RetentionMs)
            continue;
        if (Result<void> r = eraseLocked(e.id); r)
            ++purged;
        else
            qCWarning(lcStore) << "could not purge" << e.id << r.error().toString();
    }
    if (purged > 0)
        qCInfo(lcStore) << "purged" << purged << "trash entries older than 30 days";
    return purged;
}

} // namespace weft
