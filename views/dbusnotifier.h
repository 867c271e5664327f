// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Built only where Qt has its D-Bus module (WEFT_HAVE_DBUS).

#include "desktopnotifier.h"

#include <QDBusConnection>
#include <QHash>

namespace weft
{

/// Freedesktop notifications (org.freedesktop.Notifications.Notify) on a D-Bus connection: the
/// session bus, or (tests) a peer that plays the notification service. Each notification offers
/// the "default" action, which opens its session (activated()); a session's next notification
/// replaces its last one rather than piling up.
class DBusNotifier : public DesktopNotifier
{
    Q_OBJECT

public:
    /// On @p connection: a bus (the service is looked for there) or a peer (it is the service).
    explicit DBusNotifier(const QDBusConnection &connection = QDBusConnection::sessionBus(), QObject *parent = nullptr);
    ~DBusNotifier() override;

    /// Whether the notification service is there, or can be started by the bus.
    [[nodiscard]] bool isAvailable() const;
    /// Sends Notify without waiting for its answer (the notification's ID comes later).
    bool notify(const DesktopNotification &notification) override;

private Q_SLOTS:
    void onActionInvoked(uint id, const QString &action);
    void onNotificationClosed(uint id, uint reason);

private:
    QDBusConnection m_connection;
    QHash<uint, DesktopNotification> m_shown; // notification ID → what it is about
    QHash<QString, uint> m_lastOfSession; // source + session → its last notification's ID
};

} // namespace weft
