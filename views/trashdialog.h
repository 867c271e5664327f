// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

#include <functional>

class QPushButton;
class QTreeWidget;

namespace weft
{

class NoticeBar;
class SessionService;

/// The trash of Weft's own sessions: the deleted sessions of the last 30 days (title, folder,
/// when), to restore or delete for good, and Empty Trash. Follows SessionService::trashChanged.
class TrashDialog : public QDialog
{
    Q_OBJECT

public:
    /// @p confirm asks before what cannot be undone (deleting for good): title, text, whether to
    /// go ahead.
    TrashDialog(SessionService *service, std::function<bool(const QString &, const QString &)> confirm,
                QWidget *parent = nullptr);
    ~TrashDialog() override;

    [[nodiscard]] QTreeWidget *list() const { return m_list; }
    /// The trash entry of the current row, or empty.
    [[nodiscard]] QString currentEntry() const;
    /// Makes the row of @p entryID current; false when it is not listed.
    bool selectEntry(const QString &entryID);

    void restoreCurrent();
    void deleteCurrent();
    void emptyTrash();

Q_SIGNALS:
    /// A session was restored (the window opens it).
    void restored(const QString &sessionID);

private:
    void reload();
    void updateButtons();
    void showError(const QString &text);

    SessionService *m_service;
    std::function<bool(const QString &, const QString &)> m_confirm;
    QTreeWidget *m_list;
    NoticeBar *m_notices;
    QPushButton *m_restore;
    QPushButton *m_delete;
    QPushButton *m_empty;
};

} // namespace weft
