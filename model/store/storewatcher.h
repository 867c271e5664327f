// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

namespace weft
{

/// One change that another process made to a store, as a backend's watcher found it.
struct StoreChange {
    enum class Kind {
        SessionCreated,
        SessionUpdated,
        SessionDeleted, ///< session: the one that went (a database's watcher names only its ID)
        MessageUpdated,
        MessageRemoved, ///< sessionID, messageID
        PartUpdated,    ///< part, text: the delta when the part's text grew
        PartRemoved,    ///< sessionID, messageID, partID
        SessionChanged, ///< sessionID: rows went that cannot be named one by one; reload it
        Problem,        ///< location, text: the reason
    };
    Kind kind = Kind::SessionUpdated;
    Session session;
    Message message;
    Part part;
    QString sessionID;
    QString messageID;
    QString partID;
    QString text;
    QString location;
};

/// Follows what other processes write to a store (StoreCapability::Live): OpenCode streaming
/// into its database, or into the JSON files of a data dir that Weft shares with it.
///
/// A store makes its watcher (Store::createWatcher()); SessionService owns it and announces what
/// it reports with the same signals as its own changes, so that models and the search index
/// follow one route whoever changed the data. A watcher never reports what its store itself
/// wrote. It lives on the thread of the service (normally the GUI thread).
class StoreWatcher : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;
    ~StoreWatcher() override;

    /// Takes the current state as known and starts following; started() says when it does.
    virtual void start() = 0;
    virtual void stop() = 0;
    /// The session a view shows, and its newest messages (which a running session changes).
    /// A backend that cannot follow a whole store cheaply (JSON files: a watch per folder)
    /// follows only these; others may ignore it. An empty @p sessionID follows none.
    virtual void follow(const QString &sessionID, const QStringList &recentMessageIDs)
    {
        Q_UNUSED(sessionID)
        Q_UNUSED(recentMessageIDs)
    }

Q_SIGNALS:
    /// The state at start() is known: changes from now on are reported.
    void started();
    /// Changes found by one read, in the order they happened.
    void changed(const QList<weft::StoreChange> &changes);
};

} // namespace weft
