// SPDX-License-Identifier: GPL-3.0-or-later
#include "dbusnotifier.h"

#include "appearance.h"

#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QVariantMap>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
const QString service = u"org.freedesktop.Notifications"_s;
const QString path = u"/org/freedesktop/Notifications"_s;
const QString interface = u"org.freedesktop.Notifications"_s;

QString sessionKey(const DesktopNotification &n)
{
    return n.source + u'\n' + n.sessionID;
}
} // namespace

DBusNotifier::DBusNotifier(const QDBusConnection &connection, QObject *parent)
    : DesktopNotifier(parent)
    , m_connection(connection)
{
    // On a peer connection there is no bus to name the sender: its signals come without one.
    const QString sender = m_connection.interface() ? service : QString();
    m_connection.connect(sender, path, interface, u"ActionInvoked"_s, this, SLOT(onActionInvoked(uint, QString)));
    m_connection.connect(sender, path, interface, u"NotificationClosed"_s, this,
                         SLOT(onNotificationClosed(uint, uint)));
}

DBusNotifier::~DBusNotifier() = default;

bool DBusNotifier::isAvailable() const
{
    if (!m_connection.isConnected())
        return false;
    const QDBusConnectionInterface *bus = m_connection.interface();
    if (!bus)
        return true; // a peer plays the service itself
    // A notification daemon that is not running yet can be started by the bus on the first call.
    return bus->isServiceRegistered(service).value() || bus->activatableServiceNames().value().contains(service);
}

bool DBusNotifier::notify(const DesktopNotification &notification)
{
    if (!m_connection.isConnected())
        return false;
    QDBusMessage call = QDBusMessage::createMethodCall(service, path, interface, u"Notify"_s);
    // desktop-entry lets the desktop group the notifications under Weft and use its settings.
    const QVariantMap hints{{u"desktop-entry"_s, Appearance::applicationId()}};
    call << u"Weft"_s // app_name
         << m_lastOfSession.value(sessionKey(notification), 0u) // replaces_id
         << Appearance::applicationId() // app_icon: the icon of the same name as the desktop entry
         << notification.summary << notification.body << QStringList{u"default"_s, tr("Open")} // actions: key, label
         << hints << -1; // expire_timeout: the server's default
    auto *watcher = new QDBusPendingCallWatcher(m_connection.asyncCall(call), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this, [this, notification](QDBusPendingCallWatcher *w) {
        w->deleteLater();
        const QDBusPendingReply<uint> reply = *w;
        if (reply.isError()) {
            qWarning("Weft: the desktop notification was not shown: %s", qPrintable(reply.error().message()));
            return;
        }
        m_shown.insert(reply.value(), notification);
        m_lastOfSession.insert(sessionKey(notification), reply.value());
    });
    return true;
}

void DBusNotifier::onActionInvoked(uint id, const QString &action)
{
    const auto it = m_shown.constFind(id);
    if (it == m_shown.cend() || action != u"default")
        return; // another application's notification (the signal goes to every client)
    Q_EMIT activated(it->sessionID, it->source);
}

void DBusNotifier::onNotificationClosed(uint id, uint reason)
{
    Q_UNUSED(reason)
    const auto it = m_shown.constFind(id);
    if (it == m_shown.cend())
        return;
    if (m_lastOfSession.value(sessionKey(*it)) == id)
        m_lastOfSession.remove(sessionKey(*it));
    m_shown.erase(it);
}

} // namespace weft
