// SPDX-License-Identifier: GPL-3.0-or-later
#include "windowactions.h"

#include "style.h"

#include <QAction>
#include <QKeySequence>
#include <QMainWindow>
#include <QMenuBar>
#include <QToolBar>

using namespace Qt::StringLiterals;

namespace weft
{

WindowActions::WindowActions(QMainWindow *window)
    : QObject(window)
{
    setObjectName(u"windowActions"_s);
    QAction *a = make(u"newSession"_s, tr("&New Session"), u"document-new"_s, QKeySequence::New);
    a->setToolTip(tr("Start a new session in the current session's folder"));
    a->setProperty("weftGlobal", true);

    // Ctrl+Shift+F is "Search All Sessions", as "Search in Files" in Kate.
    a = make(u"forkSession"_s, tr("&Fork"), u"weft-fork"_s, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B));
    a->setToolTip(tr("Copy the whole session into a new one, to try another direction"));

    // Enabled by BestOfLauncher: for a session of Weft's own in a git repository.
    a = make(u"runOnSeveralModels"_s, tr("Run on Several &Models…"), u"view-split-left-right"_s, {});

    a = make(u"renameSession"_s, tr("&Rename…"), u"edit-rename"_s, QKeySequence(Qt::Key_F2));
    a->setPriority(QAction::LowPriority);

    a = make(u"archiveSession"_s, tr("&Archive"), u"archive-insert"_s, {});
    a->setPriority(QAction::LowPriority);

    a = make(u"deleteSession"_s, tr("&Delete…"), u"edit-delete"_s, QKeySequence::Delete);
    a->setPriority(QAction::LowPriority);
    // Delete acts on the sidebar only (the window adds it there): in the composer the key
    // deletes text.
    a->setShortcutContext(Qt::WidgetWithChildrenShortcut);

    a = make(u"exportSession"_s, tr("&Export…"), u"document-export"_s, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    a->setPriority(QAction::LowPriority);
    a->setToolTip(tr("Save the session as an OpenCode export file"));

    a = make(u"importSession"_s, tr("&Import…"), u"document-import"_s, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I));
    a->setToolTip(tr("Add sessions from OpenCode export files (or drop the files on the window)"));

    a = make(u"revealDataFile"_s, tr("Show Data &File"), u"document-open-folder"_s, {});
    a->setToolTip(tr("Open the folder that holds the session's file"));

    // Ctrl+F finds in the open session (the find bar under the timeline); the sidebar's filter
    // has its own shortcut.
    a = make(u"find"_s, tr("&Find in Session…"), u"edit-find"_s, QKeySequence::Find);
    a->setToolTip(tr("Find text in the open session"));

    a = make(u"searchAll"_s, tr("&Search All Sessions…"), u"edit-find"_s, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    a->setToolTip(tr("Search the text of every session: messages, reasoning, tool calls, files, errors"));
    a->setProperty("weftGlobal", true);

    a = make(u"filterSessions"_s, tr("&Go to Session…"), u"view-filter"_s, QKeySequence(Qt::CTRL | Qt::Key_K));
    a->setProperty("weftGlobal", true);
    a->setToolTip(tr("Filter the sessions in the sidebar by title"));

    make(u"compact"_s, tr("&Compact…"), u"weft-compact"_s, {});

    a = make(u"undoCompaction"_s, tr("&Undo Compaction"), u"edit-undo"_s, {});
    a->setToolTip(tr("Remove the last compaction's summary: the model reads the whole conversation again"));

    make(u"stop"_s, tr("&Stop"), u"process-stop"_s, {});

    make(u"jumpToLatest"_s, tr("&Jump to Latest"), u"go-bottom"_s, QKeySequence(Qt::CTRL | Qt::Key_End));

    a = make(u"showSidebar"_s, tr("Show &Sidebar"), u"view-sidebar"_s, QKeySequence(Qt::Key_F9));
    a->setCheckable(true);
    a->setChecked(true);

    a = make(u"showChanges"_s, tr("Show &Changes"), u"view-split-left-right"_s, QKeySequence(Qt::Key_F11));
    a->setCheckable(true);
    a->setChecked(true);

    // Ctrl+Shift+B is Fork's.
    a = make(u"showBoard"_s, tr("Show &Board"), u"view-list-icons"_s, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    a->setCheckable(true);
    a->setToolTip(tr("Every running or waiting session as a tile, live"));

    a = make(u"showOpencode"_s, tr("Show &OpenCode Sessions"), u"network-server"_s, {});
    a->setCheckable(true);
    a->setToolTip(tr("Show the sessions of OpenCode's own data folder in the sidebar, read-only and live"));

    a = make(u"chooseOpencodeDir"_s, tr("Choose OpenCode &Folder…"), u"document-open-folder"_s, {});
    a->setToolTip(tr("Show the OpenCode sessions of another data folder"));

    a = make(u"connectServer"_s, tr("Connect to OpenCode &Server…"), u"network-connect"_s, {});
    a->setToolTip(tr("Show the sessions of a running OpenCode server and run them there"));

    a = make(u"disconnectServer"_s, tr("&Disconnect from Server"), u"network-disconnect"_s, {});
    a->setToolTip(tr("Stop showing the OpenCode server of the selected session"));

    // Ctrl+Z reaches this action only where the focus is not a text field: the composer and the
    // filter box take the key for their own undo first (ShortcutOverride).
    a = make(u"undoDelete"_s, tr("&Undo Delete"), u"edit-undo"_s, QKeySequence::Undo);
    a->setToolTip(tr("Bring back the session deleted last"));
    a->setEnabled(false);

    a = make(u"showTrash"_s, tr("&Trash…"), u"user-trash"_s, {});
    a->setToolTip(tr("The sessions deleted in the last 30 days, to restore them"));

    a = make(u"quit"_s, tr("&Quit"), u"application-exit"_s, QKeySequence::Quit);
    a->setMenuRole(QAction::QuitRole);

    // KDE's standard shortcut for KStandardAction::preferences.
    a = make(u"configure"_s, tr("&Configure Weft…"), u"configure"_s, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Comma));
    a->setMenuRole(QAction::PreferencesRole);
    a->setToolTip(tr("Providers and models, compaction, appearance"));

    make(u"keyboardShortcuts"_s, tr("&Keyboard Shortcuts"), u"preferences-desktop-keyboard"_s,
         QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_Comma));
    a = make(u"about"_s, tr("&About Weft"), u"help-about"_s, {});
    a->setMenuRole(QAction::AboutRole);
    a = make(u"aboutQt"_s, tr("About &Qt"), QString(), {});
    a->setMenuRole(QAction::AboutQtRole);
}

QAction *WindowActions::make(const QString &name, const QString &text, const QString &icon,
                             const QKeySequence &shortcut)
{
    auto *action = new QAction(text, this);
    action->setObjectName(name);
    if (!icon.isEmpty())
        action->setIcon(Style::icon(icon));
    if (!shortcut.isEmpty())
        action->setShortcut(shortcut);
    m_actions.insert(name, action);
    return action;
}

void WindowActions::add(const QString &name, QAction *action)
{
    m_actions.insert(name, action);
}

QList<QAction *> WindowActions::sessionContextActions() const
{
    return {action(u"newSession"_s),    nullptr, action(u"renameSession"_s), action(u"forkSession"_s),
            action(u"archiveSession"_s), nullptr, action(u"exportSession"_s), action(u"revealDataFile"_s),
            nullptr,                     action(u"deleteSession"_s)};
}

void WindowActions::createMenus(QMainWindow *window, const QList<QAction *> &copyActions) const
{
    QMenuBar *bar = window->menuBar();
    QMenu *file = bar->addMenu(tr("&File"));
    file->addAction(action(u"newSession"_s));
    file->addSeparator();
    file->addAction(action(u"connectServer"_s));
    file->addAction(action(u"disconnectServer"_s));
    file->addSeparator();
    file->addAction(action(u"importSession"_s));
    file->addAction(action(u"exportSession"_s));
    file->addAction(action(u"revealDataFile"_s));
    file->addSeparator();
    file->addAction(action(u"quit"_s));

    QMenu *edit = bar->addMenu(tr("&Edit"));
    edit->addAction(action(u"undoDelete"_s));
    edit->addSeparator();
    edit->addActions(copyActions);
    edit->addSeparator();
    edit->addAction(action(u"find"_s));
    edit->addAction(action(u"findNext"_s));
    edit->addAction(action(u"findPrevious"_s));
    edit->addAction(action(u"searchAll"_s));
    edit->addAction(action(u"filterSessions"_s));

    QMenu *view = bar->addMenu(tr("&View"));
    view->addAction(action(u"showSidebar"_s));
    view->addAction(action(u"showChanges"_s));
    view->addAction(action(u"showBoard"_s));
    view->addSeparator();
    view->addAction(action(u"jumpToLatest"_s));
    view->addSeparator();
    view->addAction(action(u"showOpencode"_s));
    view->addAction(action(u"chooseOpencodeDir"_s));

    QMenu *session = bar->addMenu(tr("&Session"));
    session->addAction(action(u"forkSession"_s));
    session->addAction(action(u"runOnSeveralModels"_s));
    session->addAction(action(u"renameSession"_s));
    session->addAction(action(u"archiveSession"_s));
    session->addAction(action(u"deleteSession"_s));
    session->addAction(action(u"showTrash"_s));
    session->addSeparator();
    session->addAction(action(u"compact"_s));
    session->addAction(action(u"undoCompaction"_s));
    session->addAction(action(u"stop"_s));

    QMenu *settings = bar->addMenu(tr("Se&ttings"));
    settings->addAction(action(u"configure"_s));

    QMenu *help = bar->addMenu(tr("&Help"));
    help->addAction(action(u"keyboardShortcuts"_s));
    help->addSeparator();
    help->addAction(action(u"about"_s));
    help->addAction(action(u"aboutQt"_s));

    QToolBar *toolbar = window->addToolBar(tr("Main Toolbar"));
    toolbar->setObjectName(u"mainToolBar"_s);
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->setIconSize(QSize(16, 16));
    toolbar->addAction(action(u"newSession"_s));
    toolbar->addAction(action(u"forkSession"_s));
    toolbar->addSeparator();
    toolbar->addAction(action(u"renameSession"_s));
    toolbar->addAction(action(u"archiveSession"_s));
    toolbar->addAction(action(u"deleteSession"_s));
    toolbar->addSeparator();
    toolbar->addAction(action(u"exportSession"_s));
    view->addSeparator();
    view->addAction(toolbar->toggleViewAction());
}

void WindowActions::update(const State &state)
{
    // OpenCode's folder is read-only here: fork and compact offer to copy its sessions into
    // Weft. A server's sessions are forked, compacted, stopped and deleted there.
    const bool have = state.session;
    action(u"forkSession"_s)->setEnabled(have && (state.runsHere || state.importable));
    action(u"renameSession"_s)->setEnabled(have && state.writable);
    action(u"archiveSession"_s)->setEnabled(have && state.writable);
    action(u"deleteSession"_s)->setEnabled(have && state.runsHere);
    // Into the trash without a question (Undo brings it back); elsewhere after one.
    action(u"deleteSession"_s)->setText(state.writable && state.trash ? tr("&Delete") : tr("&Delete…"));
    action(u"exportSession"_s)->setEnabled(have);
    action(u"revealDataFile"_s)->setEnabled(have && state.writable && state.sessionFiles);
    action(u"newSession"_s)->setEnabled(!state.readOnly);
    action(u"disconnectServer"_s)->setEnabled(state.server);
    const bool busy = have && state.runsHere && state.busy;
    action(u"compact"_s)->setEnabled(have && ((state.runsHere && !busy && state.runnable) || state.importable));
    action(u"stop"_s)->setEnabled(busy);
    action(u"showOpencode"_s)->setEnabled(!state.readOnly);
    action(u"chooseOpencodeDir"_s)->setEnabled(!state.readOnly);
    action(u"undoDelete"_s)->setVisible(state.trash);
    action(u"showTrash"_s)->setVisible(state.trash);
    QAction *archive = action(u"archiveSession"_s);
    const bool archived = have && state.archived;
    archive->setText(archived ? tr("Un&archive") : tr("&Archive"));
    archive->setIcon(Style::icon(archived ? u"archive-extract"_s : u"archive-insert"_s));
    archive->setToolTip(archived ? tr("Move the session back to the list") : tr("Move the session to the Archived group"));
}

} // namespace weft
