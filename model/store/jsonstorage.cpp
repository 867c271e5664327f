// SPDX-License-Identifier: GPL-3.0-or-later
#include "jsonstorage.h"

#include "core/identifier.h"
#include "core/logging.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <cerrno>
#include <fcntl.h>
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
        return Error{u"empty storage key"_s, {}};
    for (const QString &component : key) {
        if (!Identifier::isSafeKeyComponent(component)) {
            QString shown = component;
            shown.replace(QChar(0), u"\\0"_s);
            return Error{u"refusing unsafe storage key component \"%1\" (empty, \".\", \"..\", a path separator, "
                         u"NUL or control characters)"_s.arg(shown.left(80)),
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
Result<QByteArray> readFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (!file.exists())
            return Error{u"not found"_s, path};
        return Error{u"cannot open: %1"_s.arg(file.errorString()), path};
    }
    if (file.size() > MaxFileSize)
        return Error{u"file is %1 MB, larger than any OpenCode record; skipped"_s.arg(file.size() >> 20), path};
    QByteArray bytes = file.readAll();
    if (file.error() != QFileDevice::NoError)
        return Error{u"read error: %1"_s.arg(file.errorString()), path};
    return bytes;
}

Result<JsonValue> parseFileBytes(const QByteArray &bytes, const QString &path)
{
    if (bytes.isEmpty())
        return Error{u"the file is empty"_s, path};
    bool allNul = true;
    for (char c : bytes) {
        if (c != 0) {
            allNul = false;
            break;
        }
    }
    if (allNul)
        return Error{u"the file holds only NUL bytes (%1 bytes; typically left by a crash during a write)"_s.arg(bytes.size()), path};
    JsonParseError error;
    std::optional<JsonValue> value = parseJson(bytes, &error);
    if (!value)
        return Error{u"not valid JSON (%1)"_s.arg(error.toString()), path};
    return *value;
}
} // namespace

Result<QByteArray> JsonStorage::readRaw(const Key &key) const
{
    const Result<QString> p = path(key);
    if (!p)
        return p.error();
    auto lock = lockFor(*p);
    QReadLocker locker(lock.get());
    return readFile(*p);
}

Result<JsonValue> JsonStorage::read(const Key &key) const
{
    const Result<QString> p = path(key);
    if (!p)
        return p.error();
    auto lock = lockFor(*p);
    QReadLocker locker(lock.get());
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
Result<void> writeFileQuickly(const QString &path, const QByteArray &bytes)
{
    // Same folder, then rename(2): readers see the old or the new file, never a mix. The
    // temporary name is fixed per file: the key's write lock makes this the only writer, and
    // plain POSIX calls keep a streamed delta at a few microseconds of overhead.
    const QByteArray target = QFile::encodeName(path);
    const QByteArray temp = target + ".weft-tmp";
    int fd = ::open(temp.constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0 && errno == ENOENT && QDir().mkpath(QFileInfo(path).path()))
        fd = ::open(temp.constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return Error{u"cannot write: %1"_s.arg(QString::fromLocal8Bit(std::strerror(errno))), path};
    qsizetype written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.constData() + written, size_t(bytes.size() - written));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            const QString reason = QString::fromLocal8Bit(std::strerror(errno));
            ::close(fd);
            ::unlink(temp.constData());
            return Error{u"write failed: %1"_s.arg(reason), path};
        }
        written += n;
    }
    ::close(fd);
    if (::rename(temp.constData(), target.constData()) != 0) {
        const QString reason = QString::fromLocal8Bit(std::strerror(errno));
        ::unlink(temp.constData());
        return Error{u"cannot save: %1"_s.arg(reason), path};
    }
    return {};
}

Result<void> writeFileAtomically(const QString &path, const QByteArray &bytes, JsonStorage::Sync sync)
{
    if (sync == JsonStorage::Sync::Streaming)
        return writeFileQuickly(path, bytes);
    const QString dir = QFileInfo(path).path();
    if (!QFileInfo(dir).isDir() && !QDir().mkpath(dir))
        return Error{u"cannot create the folder %1"_s.arg(dir), path};
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Error{u"cannot write: %1"_s.arg(file.errorString()), path};
    if (file.write(bytes) != bytes.size()) {
        file.cancelWriting();
        return Error{u"write failed: %1"_s.arg(file.errorString()), path};
    }
    // QSaveFile writes a temporary file in the same folder, flushes it to disk and renames it
    // over the target, so a crash leaves either the old or the new file, never a mix.
    if (!file.commit())
        return Error{u"cannot save: %1"_s.arg(file.errorString()), path};
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
    return writeFileAtomically(*p, bytes, sync);
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
        return Error{u"cannot remove: %1"_s.arg(file.errorString()), *p};
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
    // No name filter: QDirIterator compiles one into a regular expression per listing, which
    // cost more than reading the files when a session's 3,000 part folders are listed.
    QStringList paths;
    const qsizetype rootLength = m_root.size() + 1;
    QDirIterator it(dir, QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString file = it.next();
        if (file.endsWith(u".json"))
            paths.append(file.sliced(rootLength, file.size() - rootLength - 5));
    }
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
