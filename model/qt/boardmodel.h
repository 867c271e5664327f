// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <QAbstractListModel>
#include <QFuture>
#include <QHash>
#include <QPointer>
#include <QSet>
#include <QSortFilterProxyModel>

#include <functional>
#include <optional>

class QTimer;

namespace weft
{

class AttentionModel;
class SessionService;

/// The board: every session that runs or waits, of every source, one row (a tile) each, with
/// what it does now. Sessions whose run ended stay with their outcome until dismissed or run
/// again.
///
/// Like AttentionModel it is fed by whoever follows the runs (the window's Board, from the
/// SessionController's signals: setRunning(), setFinished(), setQueued()) and says nothing in
/// words. What a session writes, its tokens and cost come from the services it follows
/// (followService(): their partUpdated and messageUpdated, and one read of the session's messages
/// off the GUI thread when its tile appears); its questions are the attention inbox's
/// (setAttentionModel()); its title and folder from the session lookup (a list the window holds:
/// no store read); its branch from the branch resolver (git off the GUI thread by default).
/// Only the elapsed time is ticked by a timer, once a second while something runs.
class BoardModel : public QAbstractListModel
{
    Q_OBJECT

public:
    /// What a tile shows as its state, in the order "by state" sorts them.
    enum class State {
        Waiting, ///< a permission or a question waits for the user
        Failed, ///< the last run ended with an error
        Running, ///< a run is under way
        Queued, ///< prompts wait for the session (setQueued()): not running now
        Finished, ///< the last run ended well
        Stopped, ///< the last run was stopped
    };
    Q_ENUM(State)

    /// What the session did last (ActivityRole).
    enum class Activity {
        None, ///< nothing seen yet
        Text, ///< writes its reply (ActivityTextRole: its last line)
        Thinking, ///< reasons (ActivityTextRole: its last line)
        Tool, ///< calls a tool (ToolRole; ActivityTextRole: what it is about, ToolStatusRole)
    };
    Q_ENUM(Activity)

    enum Roles {
        SessionIdRole = Qt::UserRole + 1, ///< QString
        SourceRole, ///< QString: the source's key (empty for Weft's own store)
        TitleRole, ///< QString: the session's title (its ID while it is not known)
        ProjectRole, ///< QString: the name of the session's folder
        DirectoryRole, ///< QString: the session's folder
        BranchRole, ///< QString: the git branch of that folder, empty when none or not known yet
        StateRole, ///< State
        ActivityRole, ///< Activity
        ActivityTextRole, ///< QString: the last line written, or what the tool works on
        ToolRole, ///< QString: the tool's name (Activity::Tool)
        ToolStatusRole, ///< weft::ToolStatus of that tool call
        StartedRole, ///< qint64: when the run started (ms since the epoch; 0: not known)
        ElapsedRole, ///< qint64: ms the run has taken (so far, or until it ended)
        TokensRole, ///< qint64: the tokens in context, as the context meter counts them
        CostRole, ///< double: the session's cost in US dollars
        QueuedRole, ///< int: prompts waiting for the session
        ErrorRole, ///< QString: why the last run failed
        RequestIdRole, ///< QString: the first question waiting (permission or question tool), or empty
        RequestKindRole, ///< AttentionModel::Kind of that question
        RequestDetailRole, ///< QString: that question in words (the attention inbox's)
        RequestCountRole, ///< int: questions waiting
        ElsewhereRole, ///< bool: another process runs it (a `weft run`, another window): not stopped here
    };
    Q_ENUM(Roles)

    /// How a session is found (title, folder, parent): by source key and ID; nullopt when unknown.
    using SessionLookup = std::function<std::optional<Session>(const QString &source, const QString &sessionID)>;
    /// The git branch checked out in a folder, found off the GUI thread (empty: none).
    using BranchResolver = std::function<QFuture<QString>(const QString &directory)>;

    explicit BoardModel(QObject *parent = nullptr);
    ~BoardModel() override;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    void setSessionLookup(SessionLookup lookup);
    /// Replaces how branches are found (default: `git symbolic-ref` in the folder, on Qt's pool).
    void setBranchResolver(BranchResolver resolver);
    /// Follows @p service, the service of source @p source: what its sessions on the board write,
    /// their usage, renames and deletions. A service followed again replaces the earlier one.
    void followService(const QString &source, SessionService *service);
    /// The questions of @p attention (permissions, the question tool) on their sessions' tiles (a
    /// sub-agent session's on its parent's when the sub-agent has no tile).
    void setAttentionModel(AttentionModel *attention);

    /// @p sessionID of @p source runs (a tile appears, or comes back to Running) or stopped
    /// running; its outcome comes with setFinished().
    void setRunning(const QString &sessionID, const QString &source, bool running);
    /// Another process (a `weft run`, another window) started or stopped running @p sessionID of
    /// @p source; its end counts as Finished (that process knows how it went).
    void setRunningElsewhere(const QString &sessionID, const QString &source, bool running);
    /// The run of @p sessionID ended: @p outcome is Finished, Failed (@p error says why) or
    /// Stopped. The tile stays until dismiss() or the next run.
    void setFinished(const QString &sessionID, const QString &source, State outcome, const QString &error = {});
    /// @p count prompts wait for @p sessionID (its queue; or a run waiting for its turn). A tile
    /// appears for a session that waits.
    void setQueued(const QString &sessionID, const QString &source, int count);
    /// Drops the tile of @p sessionID unless it runs or waits.
    void dismiss(const QString &sessionID, const QString &source);
    /// Drops every tile that neither runs nor waits.
    void dismissEnded();
    /// Drops everything of source @p source (a server that went away).
    void removeSource(const QString &source);

    [[nodiscard]] QModelIndex indexFor(const QString &sessionID, const QString &source = {}) const;
    /// Whether @p state is one of a run that ended (Failed, Finished, Stopped).
    [[nodiscard]] static bool hasEnded(State state);

private:
    struct Usage
    {
        qint64 created = 0;
        double cost = 0;
        qint64 context = 0; // tokens in context after that message (0: none counted)
    };
    struct Request
    {
        QString id;
        int kind = 0;
        QString detail;
    };
    struct Tile
    {
        QString sessionID;
        QString source;
        std::optional<Session> session;
        bool running = false;
        bool elsewhere = false; // run by another process
        State outcome = State::Finished; // once the run ended
        bool ended = false;
        int queued = 0;
        QString error;
        qint64 started = 0;
        qint64 finished = 0;
        Activity activity = Activity::None;
        QString activityText;
        QString tool;
        ToolStatus toolStatus = ToolStatus::Unknown;
        QString activityPart; // the part the activity comes from
        QString branch;
        QHash<QString, Usage> usage; // assistant message ID -> its usage
        QList<Request> requests;
        bool read = false; // the messages were read once
    };

    [[nodiscard]] static State stateOf(const Tile &tile);
    [[nodiscard]] int rowOf(const QString &sessionID, const QString &source) const;
    /// The row of @p sessionID's tile, made (with its first reads) when there is none.
    int ensureTile(const QString &sessionID, const QString &source);
    void removeRow(int row);
    void emitChanged(int row, const QList<int> &roles);
    void readMessages(int row);
    void resolveBranch(int row);
    void onPartUpdated(const QString &source, const Part &part);
    void onMessageUpdated(const QString &source, const Message &message);
    void onSessionUpdated(const QString &source, const Session &session);
    /// A message's usage counted in @p tile (the newer one of the same ID wins).
    static void count(Tile &tile, const Message &message);
    /// Takes what @p part says the session does now; false when it says nothing new.
    static bool takeActivity(Tile &tile, const Part &part);
    [[nodiscard]] static qint64 contextOf(const Tile &tile);
    [[nodiscard]] static double costOf(const Tile &tile);
    void updateRequests();
    void updateTicking();
    void tick();

    QList<Tile> m_tiles;
    SessionLookup m_lookup;
    BranchResolver m_branches;
    QHash<QString, QPointer<SessionService>> m_services; // source -> its service
    QPointer<AttentionModel> m_attention;
    QTimer *m_ticker;
};

/// The board sorted and, for a view of a few of its sessions (a best-of-N group's runs),
/// filtered to a set of session IDs.
class BoardSortModel : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    enum class SortKey {
        State, ///< those that wait first, then failed, running, queued, ended; longest first within
        Elapsed, ///< the longest run first
        Cost, ///< the most expensive first
        Title, ///< by title
    };
    Q_ENUM(SortKey)

    explicit BoardSortModel(QObject *parent = nullptr);

    [[nodiscard]] SortKey sortKey() const { return m_key; }
    void setSortKey(SortKey key);
    /// Shows only the sessions of @p sessionIDs; an empty set shows all (clearSessionFilter()).
    void setSessionFilter(const QSet<QString> &sessionIDs);
    void clearSessionFilter() { setSessionFilter({}); }
    [[nodiscard]] QSet<QString> sessionFilter() const { return m_filter; }

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    SortKey m_key = SortKey::State;
    QSet<QString> m_filter;
};

} // namespace weft
