// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/json.h"
#include "core/permissionrequest.h"
#include "core/types.h"
#include "desktopnotifier.h"

#include <QObject>
#include <QPointer>

#include <functional>

class QModelIndex;
class QToolButton;

namespace weft
{

class AttentionModel;
class AttentionPanel;
class MainWindow;

/// The window's attention inbox: what waits on the user across every session (AttentionModel),
/// its count in the sidebar (a button, hidden at zero, that pops up the AttentionPanel), and
/// desktop notifications when a run finishes, fails or asks while the window is not active.
///
/// It follows the window's SessionController (the same signals the window's notices come
/// from) and the session the window shows; opening an entry opens its session in the window
/// and, for a question, puts the keyboard on the answer's first button in the notice strip.
class AttentionInbox : public QObject
{
    Q_OBJECT

public:
    /// Follows @p window's controller and puts the count into its sidebar.
    explicit AttentionInbox(MainWindow *window);
    ~AttentionInbox() override;

    [[nodiscard]] AttentionModel *model() const { return m_model; }
    /// The count in the sidebar (hidden while nothing waits).
    [[nodiscard]] QToolButton *button() const;
    [[nodiscard]] AttentionPanel *panel() const;
    [[nodiscard]] DesktopNotifier *notifier() const { return m_notifier; }
    /// Replaces the notifier (tests: a recorder, or D-Bus on a private connection); takes it.
    void setNotifier(DesktopNotifier *notifier);
    /// Whether the user is looking at the window (no notification then); default: the window
    /// is the active one.
    void setAttendedCheck(std::function<bool()> attended) { m_attended = std::move(attended); }

    /// Pops up the list under the sidebar's count.
    void showPanel();
    /// Opens the session of @p index (a row of model()) and shows its question.
    void open(const QModelIndex &index);
    /// Brings the window up and opens @p sessionID of @p source (a notification was clicked).
    void openFromNotification(const QString &sessionID, const QString &source);

private:
    void onPermissionRequested(const weft::PermissionRequest &request);
    void onQuestionAsked(const weft::JsonObject &request);
    void onRunFinished(const QString &sessionID, bool ok, const weft::MessageError &error);
    void updateButton();
    /// Sends a notification unless the user looks at the window or turned them off.
    void notify(const QString &sessionID, const QString &source, const QString &summary, const QString &detail);
    [[nodiscard]] std::optional<Session> session(const QString &source, const QString &sessionID) const;
    [[nodiscard]] QString titleOf(const QString &source, const QString &sessionID) const;
    /// The keyboard on the first button of the notice that asks @p requestID.
    void focusQuestion(const QString &requestID);

    MainWindow *m_window;
    AttentionModel *m_model;
    // Widgets of the window: they may go with it before the inbox does.
    QPointer<AttentionPanel> m_panel;
    QPointer<QToolButton> m_button;
    QPointer<DesktopNotifier> m_notifier;
    std::function<bool()> m_attended;
};

} // namespace weft
