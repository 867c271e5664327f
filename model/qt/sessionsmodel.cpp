// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessionsmodel.h"

#include "session/sessionstore.h"
#include "core/async.h"
#include "core/logging.h"
#include "session/sessionservice.h"

#include <QDir>
#include <QFuture>
#include <QRegularExpression>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
struct LoadResult
{
    QList<Session> sessions;
    QList<Project> projects;
    bool complete = true; ///< every session, not only the newest
};

/// How many root families the first step of the list reads (the sidebar shows 100 per project).
constexpr int FirstStepRoots = 200;

const QList<int> &allRoles()
{
    static const QList<int> roles = [] {
        QList<int> r{Qt::DisplayRole, Qt::EditRole, Qt::ToolTipRole};
        for (int role = SessionsModel::IdRole; role <= SessionsModel::SessionRole; ++role)
            r.append(role);
        return r;
    }();
    return roles;
}
} // namespace

SessionsModel::SessionsModel(SessionService *service, QObject *parent)
    : QAbstractListModel(parent)
    , m_service(service)
{
    Q_ASSERT(m_service);
    // The service emits on whatever thread changed the data; `this` as context makes these
    // connections queued from other threads, so every slot below runs on the GUI thread.
    connect(m_service, &SessionService::sessionCreated, this, &SessionsModel::applySession);
    connect(m_service, &SessionService::sessionUpdated, this, &SessionsModel::applySession);
    connect(m_service, &SessionService::sessionDeleted, this, [this](const Session &s) { removeSession(s.id()); });
    connect(m_service, &SessionService::messageUpdated, this, &SessionsModel::onMessageUpdated);
    connect(m_service, &SessionService::sessionChangedExternally, this, qOverload<const QString &>(&SessionsModel::refreshSession));
    reload();
}

SessionsModel::~SessionsModel() = default;

void SessionsModel::assertGuiThread() const
{
    Q_ASSERT_X(QThread::currentThread() == thread(), "SessionsModel", "used from a thread other than its own");
}

void SessionsModel::reload()
{
    assertGuiThread();
    const int generation = ++m_generation;
    m_restPending = false;
    m_removedMeanwhile.clear();
    std::shared_ptr<Store> store = storeOf(*m_service);
    // The first step: the newest root families where the store can page them (the window opens
    // and paints from them), else every session.
    whenFinished(QtConcurrent::run([store] {
                     LoadResult result;
                     result.projects = store->projects();
                     if (std::optional<QList<Session>> newest = store->newestListedSessions(FirstStepRoots)) {
                         result.sessions = *std::move(newest);
                         result.complete = false;
                     } else {
                         result.sessions = store->listedSessions();
                     }
                     std::stable_sort(result.sessions.begin(), result.sessions.end(), sessionNewerThan);
                     return result;
                 }),
                 this, [this, generation, store](const LoadResult &result) {
                     if (generation != m_generation)
                         return;
                     updateProjects(result.projects);
                     // Sessions that vanished since the last load go; the others are applied one by one so
                     // that an already filled model changes in place.
                     QSet<QString> present;
                     for (const Session &s : result.sessions)
                         present.insert(s.id());
                     const QList<Session> current = m_sessions;
                     for (const Session &s : current) {
                         if (result.complete && !present.contains(s.id()))
                             removeSession(s.id());
                     }
                     if (m_sessions.isEmpty() && !result.sessions.isEmpty()) {
                         beginInsertRows({}, 0, int(result.sessions.size()) - 1);
                         m_sessions = result.sessions;
                         rebuildIndex();
                         endInsertRows();
                     } else {
                         for (const Session &s : result.sessions)
                             applySession(s);
                     }
                     if (result.complete) {
                         m_loaded = true;
                         Q_EMIT newestLoaded();
                         Q_EMIT loaded();
                         return;
                     }
                     Q_EMIT newestLoaded();
                     loadRest(generation, store);
                 });
}

void SessionsModel::loadRest(int generation, const std::shared_ptr<Store> &store)
{
    // Changes the service announces from now on are applied as they come: the rest's read must
    // not undo them (a session removed meanwhile stays removed, a row newer than the read stays).
    m_restPending = true;
    whenFinished(QtConcurrent::run([store] {
                     QList<Session> sessions = store->listedSessions();
                     std::stable_sort(sessions.begin(), sessions.end(), sessionNewerThan);
                     return sessions;
                 }),
                 this, [this, generation](const QList<Session> &sessions) {
                     if (generation != m_generation)
                         return;
                     m_restPending = false;
                     const QSet<QString> removed = std::exchange(m_removedMeanwhile, {});
                     QList<Session> added;
                     for (const Session &s : sessions) {
                         if (removed.contains(s.id()))
                             continue;
                         const auto it = m_rowById.constFind(s.id());
                         if (it == m_rowById.constEnd())
                             added.append(s);
                         else if (s.updated() > m_sessions.at(it.value()).updated())
                             applySession(s);
                     }
                     // The older sessions after the newest ones, in one insertion (one rebuild of the tree).
                     if (!added.isEmpty()) {
                         const int first = int(m_sessions.size());
                         beginInsertRows({}, first, first + int(added.size()) - 1);
                         m_sessions.append(added);
                         rebuildIndex();
                         endInsertRows();
                     }
                     m_loaded = true;
                     Q_EMIT loaded();
                 });
}

// The rows of a project whose name changed say so.
void SessionsModel::updateProjects(const QList<Project> &projects)
{
    QSet<QString> renamed;
    for (const Project &p : projects) {
        QString name = p.name();
        if (name.isEmpty() && p.id() != u"global")
            name = QDir(p.worktree()).dirName();
        if (name.isEmpty())
            name = tr("Global");
        if (m_projectNames.value(p.id()) != name)
            renamed.insert(p.id());
        m_projectNames.insert(p.id(), name);
    }
    if (renamed.isEmpty())
        return;
    for (qsizetype row = 0; row < m_sessions.size(); ++row) {
        if (renamed.contains(m_sessions.at(row).projectID()))
            emitRowChanged(row, {ProjectNameRole});
    }
}

QString SessionsModel::projectName(const QString &projectID) const
{
    const QString name = m_projectNames.value(projectID);
    if (!name.isEmpty())
        return name;
    return projectID == u"global" ? tr("Global") : projectID.left(12);
}

void SessionsModel::rebuildIndex()
{
    m_rowById.clear();
    m_rowById.reserve(m_sessions.size());
    for (qsizetype i = 0; i < m_sessions.size(); ++i)
        m_rowById.insert(m_sessions.at(i).id(), i);
}

int SessionsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_sessions.size());
}

int SessionsModel::forkNumber(const QString &title, QString *baseTitle)
{
    static const QRegularExpression re(u"^(.*) \\(fork #(\\d+)\\)$"_s);
    const QRegularExpressionMatch match = re.match(title);
    if (!match.hasMatch()) {
        if (baseTitle)
            *baseTitle = title;
        return 0;
    }
    if (baseTitle)
        *baseTitle = match.captured(1);
    return match.captured(2).toInt();
}

int SessionsModel::depthOf(const Session &session) const
{
    int depth = 0;
    QString parent = session.parentID();
    // Bounded: a parentID cycle in damaged data must not hang the GUI.
    while (!parent.isEmpty() && depth < 64) {
        const auto it = m_rowById.constFind(parent);
        if (it == m_rowById.constEnd())
            break;
        ++depth;
        parent = m_sessions.at(it.value()).parentID();
    }
    return depth;
}

bool SessionsModel::isRunning(const QString &sessionID) const
{
    return m_runningExplicit.contains(sessionID) || !m_openReplies.value(sessionID).isEmpty();
}

QVariant SessionsModel::roleValue(const Session &s, int role) const
{
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
    case TitleRole:
        return s.title();
    case Qt::ToolTipRole: {
        QString tip = s.directory().isEmpty() ? s.title() : s.title() + u'\n' + s.directory();
        if (s.isNotMigrated())
            tip += u'\n' + tr("Not migrated: OpenCode 2 skipped this OpenCode 1 session and does not list it. "
                               "Import it into Weft to keep working on it.");
        return tip;
    }
    case NotMigratedRole:
        return s.isNotMigrated();
    case IdRole:
        return s.id();
    case ProjectIDRole:
        return s.projectID();
    case ProjectNameRole:
        return projectName(s.projectID());
    case DirectoryRole:
        return s.directory();
    case ParentIDRole:
        return s.parentID();
    case CreatedRole:
        return s.created();
    case UpdatedRole:
        return s.updated();
    case ArchivedRole:
        return s.isArchived();
    case AdditionsRole:
        return s.additions();
    case DeletionsRole:
        return s.deletions();
    case FilesRole:
        return s.filesChanged();
    case RunningRole:
        return isRunning(s.id());
    case CompactingRole:
        return s.compacting() > 0;
    case IsForkRole:
        return forkNumber(s.title()) > 0;
    case ForkNumberRole:
        return forkNumber(s.title());
    case ForkBaseTitleRole: {
        QString base;
        (void)forkNumber(s.title(), &base);
        return base;
    }
    case DepthRole:
        return depthOf(s);
    case VersionRole:
        return s.version();
    case SessionRole:
        return QVariant::fromValue(s);
    case BranchRole:
        return m_branches.value(s.directory());
    default:
        return {};
    }
}

QVariant SessionsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    return roleValue(m_sessions.at(index.row()), role);
}

bool SessionsModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    assertGuiThread();
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    if ((role != Qt::EditRole && role != TitleRole) || !m_renamer)
        return false;
    const QString title = value.toString().trimmed();
    const Session &s = m_sessions.at(index.row());
    if (title.isEmpty() || title == s.title())
        return false;
    // The service writes the file and announces the change; applySession() updates the row.
    whenFinished(m_renamer(s.id(), title), this, [](const Result<Session> &renamed) {
        if (!renamed)
            qCWarning(lcUi) << "rename failed:" << renamed.error().toString();
    });
    return true;
}

Qt::ItemFlags SessionsModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
    if (!m_service->isReadOnly())
        f |= Qt::ItemIsEditable;
    return f;
}

QHash<int, QByteArray> SessionsModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert({{IdRole, "id"},
                  {TitleRole, "title"},
                  {ProjectIDRole, "projectID"},
                  {ProjectNameRole, "projectName"},
                  {DirectoryRole, "directory"},
                  {ParentIDRole, "parentID"},
                  {CreatedRole, "created"},
                  {UpdatedRole, "updated"},
                  {ArchivedRole, "archived"},
                  {AdditionsRole, "additions"},
                  {DeletionsRole, "deletions"},
                  {FilesRole, "files"},
                  {RunningRole, "running"},
                  {CompactingRole, "compacting"},
                  {IsForkRole, "isFork"},
                  {ForkNumberRole, "forkNumber"},
                  {ForkBaseTitleRole, "forkBaseTitle"},
                  {DepthRole, "depth"},
                  {VersionRole, "version"},
                  {SessionRole, "session"},
                  {BranchRole, "branch"}});
    return names;
}

QModelIndex SessionsModel::indexForId(const QString &sessionID) const
{
    const auto it = m_rowById.constFind(sessionID);
    return it == m_rowById.constEnd() ? QModelIndex() : index(int(it.value()));
}

std::optional<Session> SessionsModel::session(const QString &sessionID) const
{
    const auto it = m_rowById.constFind(sessionID);
    if (it == m_rowById.constEnd())
        return std::nullopt;
    return m_sessions.at(it.value());
}

void SessionsModel::emitRowChanged(qsizetype row, const QList<int> &roles)
{
    if (roles.isEmpty())
        return;
    const QModelIndex idx = index(int(row));
    Q_EMIT dataChanged(idx, idx, roles);
}

void SessionsModel::applySession(const Session &session)
{
    assertGuiThread();
    if (session.id().isEmpty())
        return;
    // A project not known yet: its name is read off the GUI thread, once for all the sessions
    // of it that come meanwhile (an import brings many), and its rows follow.
    const QString projectID = session.projectID();
    if (!m_projectNames.contains(projectID) && !m_projectsReading.contains(projectID)) {
        m_projectsReading.insert(projectID);
        whenFinished(QtConcurrent::run([store = storeOf(*m_service)] { return store->projects(); }), this,
                     [this, projectID](const QList<Project> &projects) {
                         m_projectsReading.remove(projectID);
                         updateProjects(projects);
                     });
    }
    const auto it = m_rowById.constFind(session.id());
    if (it == m_rowById.constEnd()) {
        // New sessions are the newest: they go first, where a fresh load would put them.
        beginInsertRows({}, 0, 0);
        m_sessions.prepend(session);
        rebuildIndex();
        endInsertRows();
        // A child's depth depends on its parent being present; a parent arriving late changes it.
        for (qsizetype i = 1; i < m_sessions.size(); ++i) {
            if (m_sessions.at(i).parentID() == session.id())
                emitRowChanged(i, {DepthRole});
        }
        return;
    }
    const qsizetype row = it.value();
    const Session old = m_sessions.at(row);
    if (old == session)
        return;
    m_sessions[row] = session;
    // Precise roles: only those whose value differs.
    QList<int> changed;
    for (int role : allRoles()) {
        if (role == SessionRole)
            continue;
        if (roleValue(old, role) != roleValue(session, role))
            changed.append(role);
    }
    changed.append(SessionRole);
    emitRowChanged(row, changed);
}

void SessionsModel::removeSession(const QString &sessionID)
{
    assertGuiThread();
    if (m_restPending)
        m_removedMeanwhile.insert(sessionID);
    const auto it = m_rowById.constFind(sessionID);
    if (it == m_rowById.constEnd())
        return;
    const int row = int(it.value());
    beginRemoveRows({}, row, row);
    m_sessions.removeAt(row);
    rebuildIndex();
    endRemoveRows();
    m_openReplies.remove(sessionID);
    m_runningExplicit.remove(sessionID);
}

void SessionsModel::refreshSession(const QString &sessionID)
{
    assertGuiThread();
    // Read off the GUI thread; applied when it is in.
    whenFinished(QtConcurrent::run([store = storeOf(*m_service), sessionID] { return store->session(sessionID); }), this,
                 [this, sessionID](const std::optional<Session> &s) {
                     if (s)
                         applySession(*s);
                     else
                         removeSession(sessionID);
                 });
}

void SessionsModel::refreshSession(const Session &session)
{
    assertGuiThread();
    applySession(session);
}

void SessionsModel::setBranches(const QHash<QString, QString> &branchByDirectory)
{
    assertGuiThread();
    QSet<QString> changed;
    for (auto it = branchByDirectory.cbegin(); it != branchByDirectory.cend(); ++it) {
        if (m_branches.value(it.key()) != it.value()) {
            changed.insert(it.key());
            if (it.value().isEmpty())
                m_branches.remove(it.key());
            else
                m_branches.insert(it.key(), it.value());
        }
    }
    for (qsizetype row = 0; row < m_sessions.size(); ++row) {
        if (changed.contains(m_sessions.at(row).directory()))
            emitRowChanged(row, {BranchRole});
    }
}

void SessionsModel::setRunning(const QString &sessionID, bool running)
{
    assertGuiThread();
    const bool before = isRunning(sessionID);
    if (running)
        m_runningExplicit.insert(sessionID);
    else
        m_runningExplicit.remove(sessionID);
    if (before != isRunning(sessionID)) {
        if (const auto it = m_rowById.constFind(sessionID); it != m_rowById.constEnd())
            emitRowChanged(it.value(), {RunningRole});
    }
}

void SessionsModel::onMessageUpdated(const Message &message)
{
    assertGuiThread();
    if (!message.isAssistant())
        return;
    const QString sessionID = message.sessionID();
    const bool before = isRunning(sessionID);
    // A reply is in progress from its first write until time.completed (or an error) is set.
    if (message.isCompleted() || message.hasError()) {
        auto it = m_openReplies.find(sessionID);
        if (it != m_openReplies.end()) {
            it->remove(message.id());
            if (it->isEmpty())
                m_openReplies.erase(it);
        }
    } else {
        m_openReplies[sessionID].insert(message.id());
    }
    if (before != isRunning(sessionID)) {
        if (const auto it = m_rowById.constFind(sessionID); it != m_rowById.constEnd())
            emitRowChanged(it.value(), {RunningRole});
    }
}

} // namespace weft
