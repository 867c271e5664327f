// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/json.h"
#include "core/searchhit.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <optional>

class QMainWindow;

namespace weft
{

class NoticeBar;
class OpencodeSource;
class SearchPanel;
class ServerSource;
class SessionController;
class SessionTreeModel;
class SessionsModel;
class UserQuestions;

/// The window's sources besides Weft's own store, and the search across all of them: OpenCode's
/// data folder (offered once, shown or hidden, remembered), OpenCode servers (connected,
/// reconnecting, disconnected, remembered for the next start) and their agents' questions,
/// copying OpenCode's sessions into Weft, and the search panel. It adds and removes the sources
/// of the sidebar's tree; the window opens sessions and follows what this says changed.
class SourcesPresenter : public QObject
{
    Q_OBJECT

public:
    /// @p window parents the dialogs and shows the status messages; @p questions asks the user.
    SourcesPresenter(QMainWindow *window, SessionController *controller, SessionTreeModel *tree, NoticeBar *notices,
                     std::function<UserQuestions &()> questions);

    /// Opens the controller's sources (the search index, OpenCode's folder), connects the servers
    /// shown when Weft last quit, and shows OpenCode's folder as remembered, or offers it once;
    /// not when Weft's store (@p dataDir, read-only when @p readOnly) is that folder itself.
    void setup(const QString &dataDir, bool readOnly);
    /// Ends what uses the sources' services (the search panel's query), then closes the sources.
    void shutdown();
    /// The session the window shows, of @p source (empty: Weft's own).
    void setCurrent(const QString &sessionID, const QString &source);

    [[nodiscard]] OpencodeSource *opencodeSource() const;
    /// Shows (or hides) OpenCode's sessions of @p dataDir (empty: the remembered folder, else
    /// ~/.local/share/opencode) as a source in the sidebar, and remembers the choice.
    bool setOpencodeShown(bool shown, const QString &dataDir = {});
    /// View › Choose OpenCode Folder…
    void chooseOpencodeDir();
    /// On the open session of OpenCode's folder: offers to copy it into Weft instead of @p what
    /// (forking, compacting) and returns true (the caller stops there).
    bool offerImportInstead(const QString &sessionID, const QString &what);
    /// Copies @p sessionID of OpenCode's folder into Weft's store (the controller's imported()).
    void importSession(const QString &sessionID);

    /// The search panel (made on first use), its sources named.
    [[nodiscard]] SearchPanel *searchPanel();
    void showSearchPanel();
    void hideSearchPanel();
    /// The source @p hit is in, as the window opens it (empty: Weft's own); none when no source
    /// shown holds it.
    [[nodiscard]] std::optional<QString> sourceOf(const SearchHit &hit) const;

    /// Connects to the OpenCode server at @p address and remembers it for the next start (its
    /// password only when @p rememberPassword); null (after a warning) for an address that is
    /// not one.
    ServerSource *connectServer(const QString &address, const QString &password, bool rememberPassword);
    /// File › Connect to OpenCode Server…
    void showConnectServer();
    /// Closes server source @p key and forgets to connect it at the next start.
    void disconnectServer(const QString &key);

Q_SIGNALS:
    /// The open session changed in its source (a title, a summary, a revert), or its server's
    /// connection did: what the window shows of it follows.
    void currentChanged();
    /// Source @p key closes: its sessions leave the sidebar.
    void sourceClosing(const QString &key);
    /// OpenCode's folder is shown, or not.
    void opencodeShownChanged(bool shown);
    /// The user chose a result of the search panel.
    void searchHitActivated(const weft::SearchHit &hit);

private:
    void offerOpencode(const QString &dir);
    void onOpencodeReady();
    void onOpencodeClosing();
    /// currentChanged() follows changes of the open session in @p model (source @p key).
    void followSourceModel(const QString &key, SessionsModel *model);
    void setupServers();
    void onServerAdded(weft::ServerSource *server);
    /// A server's agent asks the user (OpenCode's `question` tool): a notice with the options,
    /// or a dialog for several questions.
    void onQuestionAsked(const weft::JsonObject &request);
    void showStatus(const QString &text, int timeout = 0);

    QMainWindow *m_window;
    SessionController *m_controller;
    SessionTreeModel *m_tree;
    NoticeBar *m_notices;
    std::function<UserQuestions &()> m_questions;
    bool m_readOnly = false;
    QString m_current;
    QString m_currentSource;
    QPointer<SearchPanel> m_searchPanel;
};

} // namespace weft
