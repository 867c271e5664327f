// SPDX-License-Identifier: GPL-3.0-or-later
#include "desktopnotifier.h"

#include "appearance.h"
#ifdef WEFT_HAVE_DBUS
#include "dbusnotifier.h"
#endif

#include <QSettings>
#include <QSystemTrayIcon>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
QString enabledKey()
{
    return u"Notifications/desktop"_s;
}
} // namespace

bool DesktopNotifier::isEnabled()
{
    return QSettings().value(enabledKey(), true).toBool();
}

void DesktopNotifier::setEnabled(bool enabled)
{
    QSettings().setValue(enabledKey(), enabled);
}

// ---- the tray

TrayNotifier::TrayNotifier(QObject *parent)
    : DesktopNotifier(parent)
{
}

TrayNotifier::~TrayNotifier() = default;

bool TrayNotifier::isAvailable()
{
    return QSystemTrayIcon::isSystemTrayAvailable() && QSystemTrayIcon::supportsMessages();
}

bool TrayNotifier::notify(const DesktopNotification &notification)
{
    if (!isAvailable())
        return false;
    if (!m_tray) {
        // A balloon needs an icon in the tray; it stays there while Weft runs.
        m_tray = new QSystemTrayIcon(Appearance::applicationIcon(), this);
        m_tray->setToolTip(u"Weft"_s);
        connect(m_tray, &QSystemTrayIcon::messageClicked, this,
                [this] { Q_EMIT activated(m_last.sessionID, m_last.source); });
        connect(m_tray, &QSystemTrayIcon::activated, this, [this](QSystemTrayIcon::ActivationReason reason) {
            if (reason == QSystemTrayIcon::Trigger && !m_last.sessionID.isEmpty())
                Q_EMIT activated(m_last.sessionID, m_last.source);
        });
        m_tray->show();
    }
    m_last = notification;
    m_tray->showMessage(notification.summary, notification.body, Appearance::applicationIcon());
    return true;
}

// ---- the desktop's

SystemNotifier::SystemNotifier(QObject *parent)
    : DesktopNotifier(parent)
{
}

SystemNotifier::~SystemNotifier() = default;

bool SystemNotifier::notify(const DesktopNotification &notification)
{
#ifdef WEFT_HAVE_DBUS
    // The session bus is reached the first time there is something to say, not at every start.
    if (!m_dbus) {
        m_dbus = new DBusNotifier(QDBusConnection::sessionBus(), this);
        connect(m_dbus, &DesktopNotifier::activated, this, &DesktopNotifier::activated);
    }
    if (m_dbus->isAvailable() && m_dbus->notify(notification))
        return true;
#endif
    if (!TrayNotifier::isAvailable())
        return false;
    if (!m_tray) {
        m_tray = new TrayNotifier(this);
        connect(m_tray, &DesktopNotifier::activated, this, &DesktopNotifier::activated);
    }
    return m_tray->notify(notification);
}

} // namespace weft
