// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/result.h"

#include "qt/sessionsmodel.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <memory>

namespace weft
{

class SessionService;

/// OpenCode's own data dir (normally ~/.local/share/opencode) shown beside Weft's store: its
/// sessions, read-only, followed live while OpenCode writes them.
///
/// open() opens the folder's database (or the JSON `storage/` of OpenCode 1.1) and a
/// SessionService over it that follows what OpenCode writes (SessionService::startWatching()).
/// The SessionsModel is made once the watcher has taken the store's state as known (ready()), so
/// that no commit falls between the first load and the live changes.
///
/// Lives on the GUI thread.
class OpencodeSource : public QObject
{
    Q_OBJECT

public:
    explicit OpencodeSource(QObject *parent = nullptr);
    ~OpencodeSource() override;

    /// True when @p dir holds an OpenCode database or a `storage/` folder.
    [[nodiscard]] static bool looksLikeDataDir(const QString &dir);

    /// Opens @p dataDir (closing what was open). ready() follows, on the event loop.
    Result<void> open(const QString &dataDir);
    void close();
    [[nodiscard]] bool isOpen() const { return m_service != nullptr; }
    /// The sessions model is there and the watcher follows the database.
    [[nodiscard]] bool isReady() const { return m_ready; }

    [[nodiscard]] QString dataDir() const { return m_dataDir; }
    /// The source's key: the store's location (the database file or the folder), as the search
    /// index keys its documents (SearchIndex::sourceKey).
    [[nodiscard]] QString key() const { return m_key; }
    /// "OpenCode (~/.local/share/opencode)".
    [[nodiscard]] QString label() const;
    /// Why the database was not used (the JSON sessions beside it are shown), or empty.
    [[nodiscard]] QString warning() const { return m_warning; }

    [[nodiscard]] SessionService *service() const { return m_service.get(); }
    [[nodiscard]] std::shared_ptr<SessionService> sharedService() const { return m_service; }
    /// Null until ready().
    [[nodiscard]] SessionsModel *sessions() const { return m_sessions; }

Q_SIGNALS:
    /// The sessions model exists and live changes are followed.
    void ready();
    /// Before the service, model and watcher go (close(), open() of another folder).
    void aboutToClose();

private:
    void makeModel();

    QString m_dataDir;
    QString m_key;
    QString m_warning;
    std::shared_ptr<SessionService> m_service;
    QPointer<SessionsModel> m_sessions;
    bool m_ready = false;
    int m_generation = 0;
};

} // namespace weft
