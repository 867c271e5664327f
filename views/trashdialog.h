// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

#include <functional>
#include <memory>

class QPushButton;
class QTreeView;

namespace weft
{

class NoticeBar;
class SessionService;
class TrashModel;

/// The trash of Weft's own sessions: the deleted sessions of the last 30 days (title, folder,
/// when), to restore or delete for good, and Empty Trash. Reads through a TrashModel, which lists
/// the trash and runs the operations off the GUI thread.
class TrashDialog : public QDialog
{
    Q_OBJECT

public:
    /// @p confirm asks before what cannot be undone (deleting for good): title, text, whether to
    /// go ahead.
    TrashDialog(const std::shared_ptr<SessionService> &service,
                std::function<bool(const QString &, const QString &)> confirm, QWidget *parent = nullptr);
    ~TrashDialog() override;

    [[nodiscard]] QTreeView *list() const { return m_list; }
    [[nodiscard]] TrashModel *model() const { return m_model; }
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
    void selectFirstUnlessCurrent();
    void updateButtons();
    void showError(const QString &text);
    /// Runs while an operation is under way: the buttons wait for it.
    void setBusy(bool busy);

    std::function<bool(const QString &, const QString &)> m_confirm;
    TrashModel *m_model;
    QTreeView *m_list;
    NoticeBar *m_notices;
    QPushButton *m_restore;
    QPushButton *m_delete;
    QPushButton *m_empty;
    bool m_busy = false;
};

} // namespace weft
