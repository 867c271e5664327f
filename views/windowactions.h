// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QList>
#include <QObject>
#include <QString>

class QAction;
class QKeySequence;
class QMainWindow;

namespace weft
{

/// The main window's actions: their names, texts, icons, shortcuts and tool tips, the menus and
/// the tool bar that show them, and which of them the open session allows (update()). What an
/// action does is the window's: it connects each one's triggered().
class WindowActions : public QObject
{
    Q_OBJECT

public:
    /// What the actions follow: the open session, what may be done with it, and the store.
    struct State
    {
        bool session = false; ///< a session is open
        bool archived = false; ///< the open session is archived
        bool writable = false; ///< it is one of Weft's own, in a writable store
        bool importable = false; ///< it is one of OpenCode's folder, which can be copied into Weft
        bool server = false; ///< it is an OpenCode server's
        bool runsHere = false; ///< it runs here, or on its server, which is connected
        bool busy = false; ///< it runs now
        bool runnable = false; ///< a prompt or a compaction may run it
        bool readOnly = false; ///< Weft's store is read-only
        bool trash = false; ///< Weft's store keeps deleted sessions in a trash
        bool sessionFiles = false; ///< Weft's store keeps a file per session
    };

    /// Makes the actions (@p window shows them in its menus: createMenus()).
    explicit WindowActions(QMainWindow *window);

    /// The action named @p name: "newSession", "forkSession", "renameSession", "archiveSession",
    /// "deleteSession", "exportSession", "importSession", "revealDataFile", "find", "findNext",
    /// "findPrevious", "searchAll", "filterSessions", "compact", "undoCompaction", "stop",
    /// "jumpToLatest", "showSidebar", "showChanges", "showOpencode", "chooseOpencodeDir",
    /// "connectServer", "disconnectServer", "undoDelete", "showTrash", "quit", "configure",
    /// "keyboardShortcuts", "about", "aboutQt"; null for another name.
    [[nodiscard]] QAction *action(const QString &name) const { return m_actions.value(name); }
    /// Every action by name.
    [[nodiscard]] const QHash<QString, QAction *> &actions() const { return m_actions; }
    /// Adds @p action, made by a widget (the find bar's), as @p name.
    void add(const QString &name, QAction *action);
    /// The menu bar and the tool bar of @p window; the Edit menu shows @p copyActions (the
    /// timeline's) after Undo Delete.
    void createMenus(QMainWindow *window, const QList<QAction *> &copyActions) const;
    /// The sidebar's context menu (null: a separator).
    [[nodiscard]] QList<QAction *> sessionContextActions() const;
    /// Enables, names and shows the actions as @p state allows.
    void update(const State &state);

private:
    QAction *make(const QString &name, const QString &text, const QString &icon, const QKeySequence &shortcut);

    QHash<QString, QAction *> m_actions;
};

} // namespace weft
