// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/result.h"
#include "core/storeinfo.h"
#include "core/types.h"
#include "jsonstorage.h"

#include <QMutex>
#include <QString>
#include <QStringList>

#include <functional>

namespace weft
{

class JsonStore;

/// The trash of a JSON data dir: `<dataDir>/weft-trash/<deleted ms>-<sessionID>/`, outside
/// `storage/`, where OpenCode never looks. An entry holds the files of a session and of its
/// children in their layout under `storage/` (`storage/message/<sessionID>/<id>.json`, ...) and
/// a `manifest.json` naming them (title, folder, deletion time, the sessions, the files).
///
/// Every file moves with one rename(2) on the same file system, so each file is at any moment
/// either in the store or in the trash; a move that fails half-way is rolled back. Restoring
/// moves the same bytes back and writes only through JsonStorage keys, so nothing in an entry
/// (a `..` in the manifest, a symbolic link) can make it write outside `storage/`.
///
/// Thread-safe: one operation at a time.
class SessionTrash
{
public:
    /// How long entries stay before purge() removes them.
    static constexpr qint64 RetentionMs = 30LL * 24 * 60 * 60 * 1000;

    explicit SessionTrash(JsonStore &store);

    /// `<dataDir>/weft-trash`.
    [[nodiscard]] QString root() const { return m_root; }
    /// The clock for the deletion time of new entries (ms since the epoch); the default is the
    /// system's. Tests set their own.
    void setClock(std::function<qint64()> clock);
    /// For tests: called before each file is moved (into the trash or back) with its path
    /// relative to `storage/`; returning false makes that move fail as a failed rename would.
    void setMoveHook(std::function<bool(const QString &relativePath)> hook);

    /// Moves the files of @p sessions (the deleted session first, then its descendants) into a
    /// new entry. On failure, what moved is moved back and the error says what failed.
    Result<TrashEntry> moveIn(const QList<Session> &sessions);
    /// The entries, newest first.
    [[nodiscard]] QList<TrashEntry> entries() const;
    [[nodiscard]] std::optional<TrashEntry> entry(const QString &entryID) const;
    /// Moves the files of @p entryID back into the store and removes the entry; gives the IDs of
    /// the sessions restored, the deleted one first. Refuses, without moving anything, when one
    /// of its sessions or files exists in the store again, or when the entry is damaged.
    Result<QStringList> restore(const QString &entryID);
    /// Deletes an entry for good (a symbolic link is removed, never followed).
    Result<void> erase(const QString &entryID);
    /// Deletes every entry for good.
    Result<void> empty();
    /// Deletes the entries deleted more than RetentionMs before @p now; gives how many.
    int purge(qint64 now);

    /// The name of the manifest in an entry.
    static constexpr QLatin1StringView ManifestName{"manifest.json"};

private:
    [[nodiscard]] qint64 now() const;
    [[nodiscard]] TrashEntry readEntry(const QString &entryID) const;
    [[nodiscard]] Result<void> eraseLocked(const QString &entryID);
    /// Moves @p keys from the entry folder @p entryDir back into the store, in order; on
    /// failure moves them out again.
    Result<void> moveBack(const QString &entryDir, const QList<JsonStorage::Key> &keys);

    JsonStore &m_store;
    QString m_root;
    mutable QMutex m_mutex;
    std::function<qint64()> m_clock;
    std::function<bool(const QString &)> m_moveHook;
};

} // namespace weft
