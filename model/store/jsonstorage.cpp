// SPDX-License-Identifier: GPL-3.0-or-later
#include "jsonstorage.h"

#include "core/identifier.h"
#include "core/logging.h"
#include "core/tr.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QWaitCondition>

#include <cerrno>
#include <functional>
#include <thread>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cstdio>
#include <cstring>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
// A single file larger than this is not data OpenCode writes; refuse it rather than exhaust memory.
constexpr qint64 MaxFileSize = qint64(1) << 30;

QString describeKey(const JsonStorage::Key &key)
{
    return key.join(u'/');
}
} // namespace

JsonStorage::JsonStorage(const QString &root)
    : m_root(QDir::cleanPath(root))
{
}

Result<QString> JsonStorage::path(const Key &key) const
{
    if (key.isEmpty())
        return Error{StoreTr::tr("empty storage key"), {}};
    for (const QString &component : key) {
        if (!Identifier::isSafeKeyComponent(component)) {
            QString shown = component;
            shown.replace(QChar(0), u"\\0"_s);
            return Error{
                StoreTr::tr("refusing unsafe storage key component \"%1\" (empty, \".\", \"..\", a path separator, "
                            "NUL or control characters)")
                    .arg(shown.left(80)),
                {}};
        }
    }
    return QString(m_root + u'/' + key.join(u'/') + u".json"_s);
}

std::shared_ptr<QReadWriteLock> JsonStorage::lockFor(const QString &path) const
{
    QMutexLocker locker(&m_locksMutex);
    auto &slot = m_locks[path];
    std::shared_ptr<QReadWriteLock> lock = slot.lock();
    if (!lock) {
        lock = std::make_shared<QReadWriteLock>();
        slot = lock;
    }
    // Drop entries of locks nobody holds any more, now and then, so the table stays small.
    if (m_locks.size() > 4096) {
        for (auto it = m_locks.begin(); it != m_locks.end();) {
            if (it.value().expired())
                it = m_locks.erase(it);
            else
                ++it;
        }
    }
    return lock;
}

namespace
{
/// Whether readFile() could leave the parser's padding (JsonPadding bytes) behind @p bytes.
bool hasParserPadding(const QByteArray &bytes)
{
    return bytes.capacity() - bytes.size() >= JsonPadding;
}

Result<QByteArray> readFile(const QString &path)
{
    // Plain POSIX calls: open, fstat, read, close. QFile took three more system calls per file
    // (statx), which on a session of 15,000 files cost more than parsing them.
    const QByteArray name = QFile::encodeName(path);
    int fd;
    do {
        fd = ::open(name.constData(), O_RDONLY | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            return Error{u"not found"_s, path}; // not translated: the stores tell a missing record by this text
        return Error{StoreTr::tr("cannot open: %1").arg(QString::fromLocal8Bit(std::strerror(errno))), path};
    }
    struct stat st;
    if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        const int error = S_ISDIR(st.st_mode) ? EISDIR : errno;
        ::close(fd);
        return Error{StoreTr::tr("cannot open: %1").arg(QString::fromLocal8Bit(std::strerror(error))), path};
    }
    if (st.st_size > MaxFileSize) {
        ::close(fd);
        return Error{
            StoreTr::tr("file is %1 MB, larger than any OpenCode record; skipped").arg(qint64(st.st_size) >> 20), path};
    }
    // One byte more than the size: a short read is the end of the file, without another call.
    // Room for the parser's padding (JsonPadding) is reserved behind it.
    QByteArray bytes;
    bytes.reserve(qsizetype(st.st_size) + 1 + JsonPadding);
    bytes.resize(qsizetype(st.st_size) + 1);
    qsizetype total = 0;
    while (true) {
        if (total == bytes.size()) {
            if (total > MaxFileSize) {
                ::close(fd);
                return Error{StoreTr::tr("file is larger than any OpenCode record; skipped"), path};
            }
            bytes.resize(total * 2 + 4096); // the file grew while read
        }
        const ssize_t n = ::read(fd, bytes.data() + total, size_t(bytes.size() - total));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            const QString reason = QString::fromLocal8Bit(std::strerror(errno));
            ::close(fd);
            return Error{StoreTr::tr("read error: %1").arg(reason), path};
        }
        if (n == 0)
            break;
        total += n;
        if (total < bytes.size() && qint64(total) >= qint64(st.st_size))
            break; // short read at (or past) the size fstat gave: the end of a regular file
    }
    ::close(fd);
    bytes.truncate(total);
    // The padding's bytes are read by the parser: give them a value.
    if (hasParserPadding(bytes))
        std::memset(bytes.data() + bytes.size(), 0, size_t(JsonPadding));
    return bytes;
}

Result<JsonValue> parseFileBytes(const QByteArray &bytes, const QString &path)
{
    if (bytes.isEmpty())
        return Error{StoreTr::tr("the file is empty"), path};
    bool allNul = true;
    for (char c : bytes) {
        if (c != 0) {
            allNul = false;
            break;
        }
    }
    if (allNul)
        return Error{StoreTr::tr("the file holds only NUL bytes (%1 bytes; typically left by a crash during a write)")
                         .arg(bytes.size()),
                     path};
    JsonParseError error;
    std::optional<JsonValue> value = hasParserPadding(bytes) ? parseJsonPadded(bytes, &error) : parseJson(bytes, &error);
    if (!value)
        return Error{StoreTr::tr("not valid JSON (%1)").arg(error.toString()), path};
    return *value;
}
} // namespace

// Reads take no lock: every write replaces its file with rename(2), so a reader sees the old or
// the new file, never a part of either. The per-key locks serialise writers (and update()'s
// read-modify-write) only; a reader of the 15,000 files of a long session would otherwise pay a
// mutex, a hash lookup and an allocation per file.
Result<QByteArray> JsonStorage::readRaw(const Key &key) const
{
    const Result<QString> p = path(key);
    if (!p)
        return p.error();
    return readFile(*p);
}

Result<JsonValue> JsonStorage::read(const Key &key) const
{
    const Result<QString> p = path(key);
    if (!p)
        return p.error();
    Result<QByteArray> bytes = readFile(*p);
    if (!bytes)
        return bytes.error();
    return parseFileBytes(bytes.value(), *p);
}

QByteArray JsonStorage::serialize(const JsonValue &value)
{
    // JSON.stringify(value, null, 2), no trailing newline: byte for byte what OpenCode writes.
    return toJson(value, 2);
}

namespace
{
/// open(2) of @p file (the file of @p path) for writing with @p flags, making its folder when
/// it is missing. Gives the descriptor, or -errno.
int openForWriting(const QByteArray &file, const QString &path, int flags)
{
    int fd = ::open(file.constData(), flags, 0644);
    if (fd < 0 && errno == ENOENT && QDir().mkpath(QFileInfo(path).path()))
        fd = ::open(file.constData(), flags, 0644);
    return fd < 0 ? -errno : fd;
}

Error cannotWrite(int error, const QString &path)
{
    return Error{StoreTr::tr("cannot write: %1").arg(QString::fromLocal8Bit(std::strerror(error))), path};
}

/// Writes all of @p bytes to @p fd and closes it. On failure @p file, which nobody else knows
/// yet, is removed.
Result<void> writeAllAndClose(int fd, const QByteArray &bytes, const QByteArray &file, const QString &path)
{
    qsizetype written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.constData() + written, size_t(bytes.size() - written));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            const QString reason = QString::fromLocal8Bit(std::strerror(errno));
            ::close(fd);
            ::unlink(file.constData());
            return Error{StoreTr::tr("write failed: %1").arg(reason), path};
        }
        written += n;
    }
    if (::close(fd) != 0) {
        const QString reason = QString::fromLocal8Bit(std::strerror(errno));
        ::unlink(file.constData());
        return Error{StoreTr::tr("write failed: %1").arg(reason), path};
    }
    return {};
}

Result<void> writeFileQuickly(const QString &path, const QByteArray &bytes)
{
    // Same folder, then rename(2): readers see the old or the new file, never a mix. The
    // temporary name is fixed per file: the key's write lock makes this the only writer, and
    // plain POSIX calls keep a streamed delta at a few microseconds of overhead.
    const QByteArray target = QFile::encodeName(path);
    const QByteArray temp = target + ".weft-tmp";
    const int fd = openForWriting(temp, path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC);
    if (fd < 0)
        return cannotWrite(-fd, path);
    if (Result<void> r = writeAllAndClose(fd, bytes, temp, path); !r)
        return r;
    if (::rename(temp.constData(), target.constData()) != 0) {
        const QString reason = QString::fromLocal8Bit(std::strerror(errno));
        ::unlink(temp.constData());
        return Error{StoreTr::tr("cannot save: %1").arg(reason), path};
    }
    return {};
}

Result<void> writeFileAtomically(const QString &path, const QByteArray &bytes, JsonStorage::Sync sync)
{
    if (sync == JsonStorage::Sync::Streaming)
        return writeFileQuickly(path, bytes);
    const QString dir = QFileInfo(path).path();
    if (!QFileInfo(dir).isDir() && !QDir().mkpath(dir))
        return Error{StoreTr::tr("cannot create the folder %1").arg(dir), path};
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Error{StoreTr::tr("cannot write: %1").arg(file.errorString()), path};
    if (file.write(bytes) != bytes.size()) {
        file.cancelWriting();
        return Error{StoreTr::tr("write failed: %1").arg(file.errorString()), path};
    }
    // QSaveFile writes a temporary file in the same folder, flushes it to disk and renames it
    // over the target, so a crash leaves either the old or the new file, never a mix.
    if (!file.commit())
        return Error{StoreTr::tr("cannot save: %1").arg(file.errorString()), path};
    return {};
}
} // namespace

Result<void> JsonStorage::write(const Key &key, const JsonValue &value, Sync sync)
{
    return writeRaw(key, serialize(value), sync);
}

Result<void> JsonStorage::writeRaw(const Key &key, const QByteArray &bytes, Sync sync)
{
    const Result<QString> p = path(key);
    if (!p)
        return p.error();
    auto lock = lockFor(*p);
    QWriteLocker locker(lock.get());
    const Result<void> written = writeFileAtomically(*p, bytes, sync);
    if (written)
        rememberOwn(*p);
    return written;
}

JsonStorage::FileStamp JsonStorage::stampOf(const QString &path)
{
    struct stat st {};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return {};
    return {quint64(st.st_ino), qint64(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec, qint64(st.st_size)};
}

void JsonStorage::rememberOwn(const QString &path)
{
    const FileStamp stamp = stampOf(path);
    QMutexLocker locker(&m_ownMutex);
    // A bound on memory for a long-lived process: forgetting only means that a later change
    // event for an old file is read once more.
    if (m_own.size() >= 50000)
        m_own.clear();
    m_own.insert(path, stamp);
}

bool JsonStorage::isOwnVersion(const QString &path, const FileStamp &stamp) const
{
    QMutexLocker locker(&m_ownMutex);
    const auto it = m_own.constFind(path);
    return it != m_own.constEnd() && it.value() == stamp;
}

Result<void> JsonStorage::create(const Key &key, const QByteArray &bytes)
{
    const Result<QString> p = path(key);
    if (!p)
        return p.error();
    const QByteArray name = QFile::encodeName(*p);
    const int fd = openForWriting(name, *p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC);
    if (fd == -EEXIST)
        return writeRaw(key, bytes, Sync::Streaming);
    if (fd < 0)
        return cannotWrite(-fd, *p);
    return writeAllAndClose(fd, bytes, name, *p);
}

Result<void> JsonStorage::makeFolder(const Key &prefix)
{
    QString dir = m_root;
    for (const QString &component : prefix) {
        if (!Identifier::isSafeKeyComponent(component))
            return Error{StoreTr::tr("refusing unsafe storage key component \"%1\"").arg(component.left(80)), {}};
        dir += u'/' + component;
    }
    const QByteArray name = QFile::encodeName(dir);
    if (::mkdir(name.constData(), 0755) != 0 && errno != EEXIST && !QDir().mkpath(dir))
        return Error{StoreTr::tr("cannot create the folder: %1").arg(QString::fromLocal8Bit(std::strerror(errno))),
                     dir};
    return {};
}

/// The thread that flushes a NewFiles batch, and what it shares with the writers. One descriptor
/// of the storage folder serves every syncfs(2): each call reports the write-back errors since
/// the previous one on the same descriptor, so none is missed between two flushes.
struct JsonStorage::NewFiles::Flusher {
    explicit Flusher(const QString &root)
        : root(root)
        , fd(::open(QFile::encodeName(root).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC))
    {
        if (fd < 0)
            error = Error{StoreTr::tr("cannot open the storage folder to flush it"), root};
        else
            thread = std::thread([this] { run(); });
    }

    ~Flusher()
    {
        stop();
        if (fd >= 0)
            ::close(fd);
    }

    void stop()
    {
        {
            QMutexLocker locker(&mutex);
            stopping = true;
        }
        wake.wakeOne();
        if (thread.joinable())
            thread.join();
    }

    void written(qint64 bytes)
    {
        QMutexLocker locker(&mutex);
        pending += bytes;
        if (pending >= FlushStepBytes)
            wake.wakeOne();
    }

    void run()
    {
        QMutexLocker locker(&mutex);
        for (;;) {
            while (!stopping && pending < FlushStepBytes)
                wake.wait(&mutex);
            if (stopping)
                return;
            pending = 0;
            locker.unlock();
            Result<void> flushed = flush();
            locker.relock();
            ++flushes;
            if (!flushed && error)
                error = flushed;
        }
    }

    Result<void> flush() const
    {
        if (::syncfs(fd) == 0)
            return {};
        return Error{StoreTr::tr("cannot flush the written files: %1").arg(QString::fromLocal8Bit(std::strerror(errno))),
                     root};
    }

    const QString root;
    const int fd;
    QMutex mutex;
    QWaitCondition wake;
    qint64 pending = 0;   // bytes written since the last flush began
    int flushes = 0;      // made by the thread
    bool stopping = false;
    Result<void> error;   // the first failed flush, or no descriptor
    std::thread thread;
};

JsonStorage::NewFiles::NewFiles(JsonStorage &storage)
    : m_storage(storage)
    , m_flusher(std::make_unique<Flusher>(storage.root()))
{
}

JsonStorage::NewFiles::~NewFiles() = default;

Result<void> JsonStorage::NewFiles::create(const Key &key, const QByteArray &bytes)
{
    Result<void> r = m_storage.create(key, bytes);
    if (r)
        m_flusher->written(bytes.size());
    return r;
}

int JsonStorage::NewFiles::earlyFlushes() const
{
    QMutexLocker locker(&m_flusher->mutex);
    return m_flusher->flushes;
}

Result<void> JsonStorage::NewFiles::finish()
{
    m_flusher->stop();
    // The flusher has stopped: its error is read without the lock.
    if (!m_flusher->error)
        return m_flusher->error;
    return m_flusher->flush();
}

Result<JsonValue> JsonStorage::update(const Key &key, const std::function<void(JsonValue &)> &editor)
{
    const Result<QString> p = path(key);
    if (!p)
        return p.error();
    auto lock = lockFor(*p);
    QWriteLocker locker(lock.get());
    Result<QByteArray> bytes = readFile(*p);
    if (!bytes)
        return bytes.error();
    Result<JsonValue> value = parseFileBytes(bytes.value(), *p);
    if (!value)
        return value.error();
    JsonValue edited = value.value();
    editor(edited);
    const Result<void> written = writeFileAtomically(*p, serialize(edited), Sync::Durable);
    if (!written)
        return written.error();
    rememberOwn(*p);
    return edited;
}

Result<void> JsonStorage::remove(const Key &key)
{
    const Result<QString> p = path(key);
    if (!p)
        return p.error();
    auto lock = lockFor(*p);
    QWriteLocker locker(lock.get());
    QFile file(*p);
    if (file.exists() && !file.remove())
        return Error{StoreTr::tr("cannot remove: %1").arg(file.errorString()), *p};
    rememberOwn(*p);
    return {};
}

Result<void> JsonStorage::renameNoReplace(const QString &from, const QString &to)
{
    const QByteArray source = QFile::encodeName(from);
    const QByteArray target = QFile::encodeName(to);
#ifdef RENAME_NOREPLACE
    if (::renameat2(AT_FDCWD, source.constData(), AT_FDCWD, target.constData(), RENAME_NOREPLACE) == 0)
        return {};
    // File systems without RENAME_NOREPLACE say EINVAL: check, then rename, as below.
    if (errno != EINVAL)
        return Error{StoreTr::tr("cannot move to %1: %2").arg(to, QString::fromLocal8Bit(std::strerror(errno))), from};
#endif
    // QFile::rename() would copy across file systems: a half-copied file is what a move must
    // never leave, so this is rename(2) itself, after a check for an existing target.
    struct stat st {};
    if (::lstat(target.constData(), &st) == 0)
        return Error{StoreTr::tr("cannot move to %1: %2").arg(to, QString::fromLocal8Bit(std::strerror(EEXIST))), from};
    if (::rename(source.constData(), target.constData()) != 0)
        return Error{StoreTr::tr("cannot move to %1: %2").arg(to, QString::fromLocal8Bit(std::strerror(errno))), from};
    return {};
}

Result<void> JsonStorage::moveOut(const Key &key, const QString &target)
{
    const Result<QString> p = path(key);
    if (!p)
        return p.error();
    auto lock = lockFor(*p);
    QWriteLocker locker(lock.get());
    if (Result<void> moved = renameNoReplace(*p, target); !moved)
        return moved;
    // What the watcher then sees missing is Weft's own doing, as after remove().
    rememberOwn(*p);
    return {};
}

Result<void> JsonStorage::moveIn(const QString &source, const Key &key)
{
    const Result<QString> p = path(key);
    if (!p)
        return p.error();
    const QString folder = QFileInfo(*p).path();
    if (!QDir().mkpath(folder))
        return Error{StoreTr::tr("cannot create the folder"), folder};
    auto lock = lockFor(*p);
    QWriteLocker locker(lock.get());
    if (Result<void> moved = renameNoReplace(source, *p); !moved)
        return moved;
    rememberOwn(*p);
    return {};
}

bool JsonStorage::exists(const Key &key) const
{
    const Result<QString> p = path(key);
    return p && QFileInfo::exists(*p);
}

QList<JsonStorage::Key> JsonStorage::list(const Key &prefix) const
{
    QString dir = m_root;
    for (const QString &component : prefix) {
        if (!Identifier::isSafeKeyComponent(component)) {
            qCWarning(lcStore) << "refusing to list unsafe key" << describeKey(prefix);
            return {};
        }
        dir += u'/' + component;
    }
    // readdir(3) with the entry types it reports: QDirIterator took a stat call per entry, as
    // much as reading the file, on the 15,000 files of a large session. Like QDir::Files without
    // QDir::Hidden: regular files (or symbolic links to them), no hidden names, no links followed
    // into folders.
    QStringList paths;
    const qsizetype rootLength = m_root.size() + 1;
    const std::function<void(const QString &)> walk = [&](const QString &folder) {
        const QByteArray encoded = QFile::encodeName(folder);
        DIR *d = ::opendir(encoded.constData());
        if (!d)
            return;
        QStringList subfolders;
        while (const dirent *entry = ::readdir(d)) {
            const char *name = entry->d_name;
            if (name[0] == '.')
                continue;
            unsigned char type = entry->d_type;
            if (type == DT_UNKNOWN || type == DT_LNK) {
                struct stat st;
                const QByteArray full = encoded + '/' + name;
                const int r = type == DT_LNK ? ::stat(full.constData(), &st) : ::lstat(full.constData(), &st);
                if (r != 0)
                    continue;
                if (S_ISREG(st.st_mode))
                    type = DT_REG;
                else if (S_ISDIR(st.st_mode) && entry->d_type != DT_LNK)
                    type = DT_DIR;
                else
                    continue;
            }
            const size_t length = std::strlen(name);
            if (type == DT_DIR) {
                subfolders.append(folder + u'/' + QFile::decodeName(QByteArray(name, qsizetype(length))));
            } else if (type == DT_REG && length > 5 && std::memcmp(name + length - 5, ".json", 5) == 0) {
                const QString file = folder + u'/' + QFile::decodeName(QByteArray(name, qsizetype(length) - 5));
                paths.append(file.sliced(rootLength));
            }
        }
        ::closedir(d);
        for (const QString &sub : std::as_const(subfolders))
            walk(sub);
    };
    walk(dir);
    // The same order as comparing the keys joined by '/'.
    std::sort(paths.begin(), paths.end());
    QList<Key> keys;
    keys.reserve(paths.size());
    for (const QString &rel : std::as_const(paths))
        keys.append(rel.split(u'/'));
    return keys;
}

QStringList JsonStorage::listFolders(const Key &prefix) const
{
    QString dir = m_root;
    for (const QString &component : prefix) {
        if (!Identifier::isSafeKeyComponent(component))
            return {};
        dir += u'/' + component;
    }
    QStringList names = QDir(dir).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    return names;
}

} // namespace weft
