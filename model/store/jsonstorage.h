// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/json.h"
#include "core/result.h"

#include <QHash>
#include <QMutex>
#include <QReadWriteLock>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

namespace weft
{

/// OpenCode's key-value Storage over the JSON file layout: key `["session", projectID, id]` is
/// the file `<root>/session/<projectID>/<id>.json`.
///
/// Thread-safe: writes of one key are serialised by a per-key lock, so that two threads can write
/// different keys at once; every write renames a complete file over the old one, so a reader,
/// which takes no lock, never sees a half-written file.
/// Writes are atomic (QSaveFile: temporary file, fsync, rename) and pretty-printed exactly like
/// OpenCode's JSON.stringify(value, null, 2). Every key component is validated before it becomes
/// part of a path.
class JsonStorage
{
public:
    using Key = QStringList;

    /// @p root is the `storage/` folder of a data dir.
    explicit JsonStorage(const QString &root);

    [[nodiscard]] QString root() const { return m_root; }
    /// The file of @p key, or an error when a component is not a safe name.
    [[nodiscard]] Result<QString> path(const Key &key) const;

    /// Reads and parses @p key. Damaged files (empty, truncated, NUL bytes, not JSON) give an
    /// error that names the file and the reason; the file is left as it is.
    [[nodiscard]] Result<JsonValue> read(const Key &key) const;
    /// The raw bytes of @p key (for exact round-trip checks and plain-text files).
    [[nodiscard]] Result<QByteArray> readRaw(const Key &key) const;
    /// How hard a write tries to reach the disk.
    enum class Sync {
        Durable,   ///< temporary file, fsync, rename: survives a power loss
        Streaming, ///< temporary file and rename without fsync: survives a crash of the process,
                   ///< for the many small updates of a streaming reply (fsync per delta would
                   ///< cap a stream at a few hundred deltas per second)
    };
    [[nodiscard]] Result<void> write(const Key &key, const JsonValue &value, Sync sync = Sync::Durable);
    [[nodiscard]] Result<void> writeRaw(const Key &key, const QByteArray &bytes, Sync sync = Sync::Durable);
    /// Writes a file that normally does not exist yet (a fork's copy, an import): created under its
    /// own name with O_EXCL, its folder made when missing, without a temporary file or a flush.
    /// Where the file exists after all, it is replaced atomically as write() does. A crash can
    /// leave such a file incomplete: callers write new files in a NewFiles batch, finish() it, and
    /// only then the file that makes them visible (the session's).
    [[nodiscard]] Result<void> create(const Key &key, const QByteArray &bytes);
    /// Makes the folder of the keys under @p prefix (its parent must exist); an existing folder is
    /// fine. Saves create() a failed open and a path walk per new folder.
    [[nodiscard]] Result<void> makeFolder(const Key &prefix);

    /// A batch of new files made durable together (a fork's copies, an import): each is written
    /// with create(), and a thread of the batch flushes the storage's file system (syncfs(2))
    /// each time another FlushStepBytes have been written, so that the disk writes the first
    /// files while the later ones are made. finish() flushes the rest and reports the first
    /// error of any flush; only then may the file that makes the batch visible be written.
    class NewFiles
    {
    public:
        /// Bytes written between two flushes: a few flushes for a fork of thousands of messages
        /// (each one also commits the file system's journal), none for a small one.
        static constexpr qint64 FlushStepBytes = 4 << 20;

        explicit NewFiles(JsonStorage &storage);
        /// Stops the flushing thread; files not finish()ed may not be on the disk yet.
        ~NewFiles();
        NewFiles(const NewFiles &) = delete;
        NewFiles &operator=(const NewFiles &) = delete;

        /// JsonStorage::create(), counted towards the next flush; thread-safe.
        [[nodiscard]] Result<void> create(const Key &key, const QByteArray &bytes);
        /// Flushes every file created so far. The batch takes no files after this.
        [[nodiscard]] Result<void> finish();
        /// The flushes made while files were still being written; thread-safe.
        [[nodiscard]] int earlyFlushes() const;

    private:
        struct Flusher;
        JsonStorage &m_storage;
        std::unique_ptr<Flusher> m_flusher;
    };
    /// Read-modify-write under the key's write lock.
    [[nodiscard]] Result<JsonValue> update(const Key &key, const std::function<void(JsonValue &)> &editor);
    /// Removes @p key; removing a missing key is not an error.
    [[nodiscard]] Result<void> remove(const Key &key);
    [[nodiscard]] bool exists(const Key &key) const;
    /// Moves the file of @p key to @p target, a path outside the storage on the same file system
    /// (the trash): one rename(2), which never replaces an existing file and never falls back to
    /// a copy, so the file is either here or there. The target's folder must exist.
    [[nodiscard]] Result<void> moveOut(const Key &key, const QString &target);
    /// Moves @p source back to the file of @p key (making its folder), the same way; refuses
    /// when that file exists.
    [[nodiscard]] Result<void> moveIn(const QString &source, const Key &key);
    /// rename(2) of @p from to @p to that fails rather than replace @p to or copy across file
    /// systems; an error names the reason.
    [[nodiscard]] static Result<void> renameNoReplace(const QString &from, const QString &to);
    /// The keys of the files under @p prefix, sorted, like OpenCode's Storage.list().
    [[nodiscard]] QList<Key> list(const Key &prefix) const;
    /// The names of the sub-folders of @p prefix (for example the project IDs under `session`).
    [[nodiscard]] QStringList listFolders(const Key &prefix) const;

    /// Serialises @p value as OpenCode writes its files.
    [[nodiscard]] static QByteArray serialize(const JsonValue &value);

    /// One version of a file: a file replaced by a rename gets a new inode, one rewritten in
    /// place a new modification time. A missing file has size -1.
    struct FileStamp {
        quint64 inode = 0;
        qint64 modifiedNs = 0;
        qint64 size = -1;
        bool operator==(const FileStamp &) const = default;
    };
    [[nodiscard]] static FileStamp stampOf(const QString &path);
    /// Whether @p stamp of @p path is the version this storage itself last wrote there (or, for
    /// a missing file, that this storage removed it): what a watcher sees of Weft's own writes.
    /// Remembered for write(), writeRaw(), update() and remove(), not for create() (the files of
    /// a fork or an import, new to every watcher).
    [[nodiscard]] bool isOwnVersion(const QString &path, const FileStamp &stamp) const;

private:
    std::shared_ptr<QReadWriteLock> lockFor(const QString &path) const;
    /// Records the current version of @p path as the storage's own (under the key's lock).
    void rememberOwn(const QString &path);

    QString m_root;
    mutable QMutex m_locksMutex;
    mutable QHash<QString, std::weak_ptr<QReadWriteLock>> m_locks;
    mutable QMutex m_ownMutex;
    QHash<QString, FileStamp> m_own; // path -> the version this storage wrote last
};

} // namespace weft
