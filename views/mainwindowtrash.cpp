// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow: deleting Weft's own sessions into the trash, Undo, and the trash dialog.
#include "mainwindow.h"

#include "app/sessioncontroller.h"
#include "core/async.h"
#include "noticebar.h"
#include "session/sessionservice.h"
#include "sessionsidebar.h"
#include "style.h"
#include "trashdialog.h"

#include <QAction>
#include <QMessageBox>
#include <QStatusBar>

#include <algorithm>
#include <utility>

using namespace Qt::StringLiterals;

namespace weft
{

void MainWindow::createTrashActions()
{
    connect(action(u"undoDelete"_s), &QAction::triggered, this, [this] { undoDelete(); });
    connect(action(u"showTrash"_s), &QAction::triggered, this, [this] { showTrash(); });
    m_sidebar->addFooterAction(action(u"showTrash"_s));

    connect(m_service.get(), &SessionService::trashChanged, this, &MainWindow::onTrashChanged);
}

void MainWindow::moveToTrash(const Session &session)
{
    whenFinished(
        m_controller->moveToTrash(session.id()), this,
        [this, title = session.title()](const Result<TrashEntry> &entry) {
            if (!entry) {
                QMessageBox::warning(this, tr("Delete Session"),
                                     tr("The session could not be deleted:\n%1").arg(entry.error().toString()));
                return;
            }
            m_lastTrashed = entry->id;
            action(u"undoDelete"_s)->setEnabled(true);
            QString text = tr("Deleted “%1”").arg(title);
            if (const qsizetype children = entry->children.size(); children > 0)
                text += u' ' + Style::plural(tr("with %n subagent session(s)", nullptr, int(children)), children);
            m_notices->showNotice(u"trash"_s, NoticeBar::Kind::Information, text,
                                  {{tr("&Undo"), u"edit-undo"_s, u"undoDelete"_s, [this] { undoDelete(); }},
                                   {tr("Show &Trash"), u"user-trash"_s, u"showTrash"_s, [this] { showTrash(); }}},
                                  true);
        });
}

bool MainWindow::undoDelete()
{
    if (m_lastTrashed.isEmpty())
        return false;
    const QString entry = std::exchange(m_lastTrashed, QString());
    action(u"undoDelete"_s)->setEnabled(false);
    m_notices->removeNotice(u"trash"_s);
    return restoreFromTrash(entry);
}

bool MainWindow::restoreFromTrash(const QString &entryID)
{
    // Moves the files back and reads the restored session: off the GUI thread.
    whenFinished(m_service->restoreFromTrashLater(entryID), this, [this](const Result<Session> &session) {
        if (!session) {
            m_notices->showNotice(u"trash"_s, NoticeBar::Kind::Error,
                                  tr("The session could not be restored:\n%1").arg(session.error().toString()), {},
                                  true);
            return;
        }
        statusBar()->showMessage(tr("Restored “%1”").arg(session->title()), 5000);
        openSession(session->id());
    });
    return true;
}

void MainWindow::onTrashChanged()
{
    if (m_lastTrashed.isEmpty())
        return;
    // Listed off the GUI thread: the entry deleted last may have been restored or deleted since.
    const QString entry = m_lastTrashed;
    whenFinished(m_service->trashEntriesLater(), this, [this, entry](const QList<TrashEntry> &entries) {
        const bool stillThere
            = std::any_of(entries.cbegin(), entries.cend(), [&entry](const TrashEntry &e) { return e.id == entry; });
        if (stillThere || m_lastTrashed != entry)
            return;
        m_lastTrashed.clear();
        action(u"undoDelete"_s)->setEnabled(false);
        m_notices->removeNotice(u"trash"_s);
    });
}

TrashDialog *MainWindow::trashDialog() const
{
    return m_trashDialog;
}

TrashDialog *MainWindow::showTrash()
{
    if (!m_service->has(StoreCapability::Trash))
        return nullptr;
    if (!m_trashDialog) {
        m_trashDialog = new TrashDialog(
            m_service, [this](const QString &title, const QString &text) { return confirm(title, text); }, this);
        connect(m_trashDialog, &TrashDialog::restored, this,
                [this](const QString &sessionID) { openSession(sessionID); });
    }
    m_trashDialog->show();
    m_trashDialog->raise();
    m_trashDialog->activateWindow();
    return m_trashDialog;
}

} // namespace weft
