// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>

class QSystemTrayIcon;

namespace weft
{

class DBusNotifier;

/// One desktop notification: what it says, and the session a click on it opens.
struct DesktopNotification
{
    QString summary;
    QString body;
    QString sessionID;
    QString source; ///< the session's source key (empty: Weft's own store)
};

/// Where Weft's desktop notifications go: the desktop's notification service, the tray, or (in
/// tests) a recorder. activated() asks the window to open a notification's session.
class DesktopNotifier : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    /// Shows @p notification; false when it could not be shown.
    virtual bool notify(const DesktopNotification &notification) = 0;

    /// Whether the user wants desktop notifications (Settings › Notifications): QSettings
    /// "Notifications/desktop", on by default.
    [[nodiscard]] static bool isEnabled();
    static void setEnabled(bool enabled);

Q_SIGNALS:
    /// The user clicked a notification (or its "Open" action).
    void activated(const QString &sessionID, const QString &source);
};

/// A notification in the tray's balloon (QSystemTrayIcon::showMessage), for desktops without a
/// notification service. The tray icon is shown the first time it is needed; clicking the
/// message opens the session of the last one.
class TrayNotifier : public DesktopNotifier
{
    Q_OBJECT

public:
    explicit TrayNotifier(QObject *parent = nullptr);
    ~TrayNotifier() override;

    /// Whether the desktop has a tray.
    [[nodiscard]] static bool isAvailable();
    bool notify(const DesktopNotification &notification) override;

private:
    QSystemTrayIcon *m_tray = nullptr;
    DesktopNotification m_last;
};

/// The notifier of the desktop: freedesktop notifications over D-Bus where the session bus has
/// (or can start) org.freedesktop.Notifications, else the tray where there is one; asked anew for
/// each notification, as a notification service may come and go with the desktop session.
class SystemNotifier : public DesktopNotifier
{
    Q_OBJECT

public:
    explicit SystemNotifier(QObject *parent = nullptr);
    ~SystemNotifier() override;

    bool notify(const DesktopNotification &notification) override;

private:
    DBusNotifier *m_dbus = nullptr; // made on first use; never where Weft is built without QtDBus
    TrayNotifier *m_tray = nullptr; // made on first use
};

} // namespace weft
