// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/result.h"
#include "core/types.h"

#include <QAbstractListModel>
#include <QFuture>
#include <QHash>
#include <QSet>

#include <functional>
#include <memory>

namespace weft
{

class SessionService;
class Store;

/// Every session of the data dir as a flat list, one row per session, kept current from the
/// SessionService's signals (from any thread, queued to the GUI thread). The sidebar groups it
/// with SessionTreeModel; other views can filter it as they like.
///
/// Lives on the GUI thread. The first load runs off the GUI thread (loaded() when done).
class SessionsModel : public QAbstractListModel
{
    Q_OBJECT

public:
    enum Roles {
        IdRole = Qt::UserRole + 1, ///< QString: the session ID
        TitleRole, ///< QString: the title
        ProjectIDRole, ///< QString: the project ID ("global" for sessions outside a repository)
        ProjectNameRole, ///< QString: a readable project name (the worktree's folder name)
        DirectoryRole, ///< QString: the working directory
        ParentIDRole, ///< QString: the parent session of a child (subagent) session, or empty
        CreatedRole, ///< qint64: time.created in ms since the epoch
        UpdatedRole, ///< qint64: time.updated in ms since the epoch
        ArchivedRole, ///< bool: time.archived is set
        AdditionsRole, ///< qint64: lines added (summary.additions)
        DeletionsRole, ///< qint64: lines removed (summary.deletions)
        FilesRole, ///< qint64: files changed (summary.files)
        RunningRole, ///< bool: an assistant reply is in progress (or set with setRunning())
        CompactingRole, ///< bool: a compaction is in progress (time.compacting)
        IsForkRole, ///< bool: the title ends in "(fork #n)"
        ForkNumberRole, ///< int: n of "(fork #n)", 0 for a session that is not a fork
        ForkBaseTitleRole, ///< QString: the title without " (fork #n)"
        DepthRole, ///< int: how many parentID links lead to a root session (0 for roots)
        VersionRole, ///< QString: the version of the program that wrote the session (OpenCode's or Weft's)
        NotMigratedRole, ///< bool: a V1 session OpenCode 2's V1→V2 migration skipped (Session::isNotMigrated())
        SessionRole, ///< weft::Session: the whole session value
        /// QString: the git branch of the worktree the session works in (setBranches()), or empty
        BranchRole,
    };
    Q_ENUM(Roles)

    explicit SessionsModel(SessionService *service, QObject *parent = nullptr);
    ~SessionsModel() override;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    /// A title edited in a view: renamed by the renamer (see setRenamer()); the row follows the
    /// service's sessionUpdated. Refused without a renamer.
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    /// How an edited title is applied, off the GUI thread: a window routes it through its
    /// SessionController (which refuses a session that runs).
    void setRenamer(std::function<QFuture<Result<Session>>(const QString &sessionID, const QString &title)> renamer)
    {
        m_renamer = std::move(renamer);
    }
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QHash<int, QByteArray> roleNames() const override;

    /// Loads every session off the GUI thread, in two steps where the store can page
    /// (Store::newestListedSessions()): the newest root families first (newestLoaded()), then
    /// the rest (Store::listedSessions()), appended in one insertion; loaded() when all are in.
    /// Rows already present are updated in place (no reset); changes announced between the steps
    /// stay (a session removed meanwhile does not come back, a newer row is not replaced).
    void reload();
    [[nodiscard]] bool isLoaded() const { return m_loaded; }

    [[nodiscard]] QModelIndex indexForId(const QString &sessionID) const;
    [[nodiscard]] std::optional<Session> session(const QString &sessionID) const;
    [[nodiscard]] const QList<Session> &sessions() const { return m_sessions; }
    [[nodiscard]] QString projectName(const QString &projectID) const;
    [[nodiscard]] bool isRunning(const QString &sessionID) const;

    /// Marks a session as running or not (the processor calls this while it works on one).
    void setRunning(const QString &sessionID, bool running);
    /// The branches of the linked worktrees that hold these folders (others: none): the sessions
    /// in them show it (BranchRole). Read by the controller off the GUI thread (worktreeBranches()).
    void setBranches(const QHash<QString, QString> &branchByDirectory);
    /// Re-reads one session from the store (after another process changed its file), off the GUI
    /// thread: the row follows when it is read.
    void refreshSession(const QString &sessionID);
    /// Takes @p session as it is now (a value read off the GUI thread, e.g. from a server).
    void refreshSession(const Session &session);

    /// "(fork #n)" at the end of @p title: n, or 0 when the title is not a fork's.
    [[nodiscard]] static int forkNumber(const QString &title, QString *baseTitle = nullptr);

Q_SIGNALS:
    /// The newest sessions are in (the first step; with a store that cannot page, all of them,
    /// right before loaded()).
    void newestLoaded();
    void loaded();

private:
    void assertGuiThread() const;
    void loadRest(int generation, const std::shared_ptr<Store> &store);
    void applySession(const Session &session);
    void removeSession(const QString &sessionID);
    void onMessageUpdated(const Message &message);
    void rebuildIndex();
    void updateProjects(const QList<Project> &projects);
    [[nodiscard]] int depthOf(const Session &session) const;
    [[nodiscard]] QVariant roleValue(const Session &session, int role) const;
    void emitRowChanged(qsizetype row, const QList<int> &roles);

    SessionService *m_service;
    std::function<QFuture<Result<Session>>(const QString &, const QString &)> m_renamer;
    QList<Session> m_sessions;
    QHash<QString, qsizetype> m_rowById;
    QHash<QString, QString> m_projectNames; // projectID -> name
    QSet<QString> m_projectsReading; // projects not known yet whose names are being read
    QSet<QString> m_runningExplicit;
    QHash<QString, QString> m_branches; // directory -> the branch of the worktree holding it
    QHash<QString, QSet<QString>> m_openReplies; // sessionID -> assistant messages not completed
    bool m_loaded = false;
    bool m_restPending = false; // the second step is being read
    QSet<QString> m_removedMeanwhile; // sessions removed while it is
    int m_generation = 0;
};

} // namespace weft
