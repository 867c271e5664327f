// SPDX-License-Identifier: GPL-3.0-or-later
#include "boardmodel.h"

#include "attentionmodel.h"
#include "core/async.h"
#include "core/git.h"
#include "core/toolnames.h"
#include "session/sessionservice.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QTimer>
#include <QtConcurrent>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
/// The last line of @p text with something on it, cut to a tile's length.
QString lastLine(const QString &text)
{
    qsizetype end = text.size();
    while (end > 0) {
        const qsizetype nl = text.lastIndexOf(u'\n', end - 1);
        const QString line = text.mid(nl + 1, end - nl - 1).trimmed();
        if (!line.isEmpty())
            return line.left(300);
        end = nl < 0 ? 0 : nl;
    }
    return {};
}

/// What a tool call works on: its command, its title, or the first of its usual inputs.
QString toolSubject(const Part &part)
{
    const ToolState state = part.state();
    const JsonObject input = state.input();
    QString subject = ToolNames::command(part.tool(), input);
    if (subject.isEmpty())
        subject = state.title();
    if (subject.isEmpty()) {
        for (const auto key : {u"description", u"path", u"pattern", u"url", u"query"}) {
            subject = key == QStringView(u"path") ? ToolNames::filePath(input) : input.string(key);
            if (!subject.isEmpty())
                break;
        }
    }
    return lastLine(subject);
}

QFuture<QString> gitBranch(const QString &directory)
{
    return QtConcurrent::run([directory] {
        if (!QFileInfo(directory).isDir() || !Git::available())
            return QString();
        Git::Options options;
        options.workingDirectory = directory;
        options.timeoutMs = 10000;
        const Git::Output out = Git::run({u"symbolic-ref"_s, u"--quiet"_s, u"--short"_s, u"HEAD"_s}, options);
        return out.ok() ? out.line().left(200) : QString();
    });
}
} // namespace

BoardModel::BoardModel(QObject *parent)
    : QAbstractListModel(parent)
    , m_branches(gitBranch)
    , m_ticker(new QTimer(this))
{
    m_ticker->setInterval(1000);
    connect(m_ticker, &QTimer::timeout, this, &BoardModel::tick);
}

BoardModel::~BoardModel() = default;

int BoardModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_tiles.size());
}

QVariant BoardModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Tile &t = m_tiles.at(index.row());
    const auto session = [&] {
        std::optional<Session> s = m_lookup ? m_lookup(t.source, t.sessionID) : std::nullopt;
        return s ? s : t.session;
    };
    switch (role) {
    case Qt::DisplayRole:
    case TitleRole: {
        const std::optional<Session> s = session();
        return s && !s->title().isEmpty() ? s->title() : t.sessionID;
    }
    case SessionIdRole:
        return t.sessionID;
    case SourceRole:
        return t.source;
    case ProjectRole: {
        const std::optional<Session> s = session();
        return s ? QFileInfo(QDir::cleanPath(s->directory())).fileName() : QString();
    }
    case DirectoryRole: {
        const std::optional<Session> s = session();
        return s ? s->directory() : QString();
    }
    case BranchRole:
        return t.branch;
    case StateRole:
        return QVariant::fromValue(stateOf(t));
    case ActivityRole:
        return QVariant::fromValue(t.activity);
    case ActivityTextRole:
        return t.activityText;
    case ToolRole:
        return t.tool;
    case ToolStatusRole:
        return QVariant::fromValue(t.toolStatus);
    case StartedRole:
        return t.started;
    case ElapsedRole: {
        if (t.started <= 0)
            return qint64(0);
        const qint64 end = t.running ? QDateTime::currentMSecsSinceEpoch() : t.finished;
        return std::max<qint64>(0, end - t.started);
    }
    case TokensRole:
        return contextOf(t);
    case CostRole:
        return costOf(t);
    case QueuedRole:
        return t.queued;
    case ErrorRole:
        return t.error;
    case RequestIdRole:
        return t.requests.isEmpty() ? QString() : t.requests.constFirst().id;
    case RequestKindRole:
        return t.requests.isEmpty() ? QVariant()
                                    : QVariant::fromValue(AttentionModel::Kind(t.requests.constFirst().kind));
    case RequestDetailRole:
        return t.requests.isEmpty() ? QString() : t.requests.constFirst().detail;
    case RequestCountRole:
        return int(t.requests.size());
    case ElsewhereRole:
        return t.elsewhere;
    default:
        return {};
    }
}

QHash<int, QByteArray> BoardModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert({{SessionIdRole, "sessionID"},
                  {SourceRole, "source"},
                  {TitleRole, "title"},
                  {ProjectRole, "project"},
                  {DirectoryRole, "directory"},
                  {BranchRole, "branch"},
                  {StateRole, "state"},
                  {ActivityRole, "activity"},
                  {ActivityTextRole, "activityText"},
                  {ToolRole, "tool"},
                  {ToolStatusRole, "toolStatus"},
                  {StartedRole, "started"},
                  {ElapsedRole, "elapsed"},
                  {TokensRole, "tokens"},
                  {CostRole, "cost"},
                  {QueuedRole, "queued"},
                  {ErrorRole, "error"},
                  {RequestIdRole, "requestID"},
                  {RequestKindRole, "requestKind"},
                  {RequestDetailRole, "requestDetail"},
                  {RequestCountRole, "requestCount"},
                  {ElsewhereRole, "elsewhere"}});
    return names;
}

void BoardModel::setSessionLookup(SessionLookup lookup)
{
    m_lookup = std::move(lookup);
    for (int row = 0; row < rowCount(); ++row) {
        Tile &t = m_tiles[row];
        if (std::optional<Session> s = m_lookup ? m_lookup(t.source, t.sessionID) : std::nullopt)
            t.session = std::move(s);
        resolveBranch(row);
    }
    if (!m_tiles.isEmpty())
        Q_EMIT dataChanged(index(0), index(rowCount() - 1), {Qt::DisplayRole, TitleRole, ProjectRole, DirectoryRole});
}

void BoardModel::setBranchResolver(BranchResolver resolver)
{
    m_branches = std::move(resolver);
}

void BoardModel::followService(const QString &source, SessionService *service)
{
    if (const QPointer<SessionService> old = m_services.value(source))
        disconnect(old, nullptr, this, nullptr);
    m_services.insert(source, service);
    if (!service)
        return;
    connect(service, &SessionService::partUpdated, this,
            [this, source](const Part &part) { onPartUpdated(source, part); });
    connect(service, &SessionService::messageUpdated, this,
            [this, source](const Message &message) { onMessageUpdated(source, message); });
    connect(service, &SessionService::sessionUpdated, this,
            [this, source](const Session &session) { onSessionUpdated(source, session); });
    connect(service, &SessionService::sessionCreated, this,
            [this, source](const Session &session) { onSessionUpdated(source, session); });
    connect(service, &SessionService::sessionDeleted, this, [this, source](const Session &session) {
        if (const int row = rowOf(session.id(), source); row >= 0)
            removeRow(row);
    });
    for (int row = 0; row < rowCount(); ++row) {
        if (m_tiles.at(row).source == source && !m_tiles.at(row).read)
            readMessages(row);
    }
}

void BoardModel::setAttentionModel(AttentionModel *attention)
{
    if (m_attention)
        disconnect(m_attention, nullptr, this, nullptr);
    m_attention = attention;
    if (attention) {
        connect(attention, &QAbstractItemModel::rowsInserted, this, &BoardModel::updateRequests);
        connect(attention, &QAbstractItemModel::rowsRemoved, this, &BoardModel::updateRequests);
        connect(attention, &QAbstractItemModel::dataChanged, this, &BoardModel::updateRequests);
        connect(attention, &QAbstractItemModel::modelReset, this, &BoardModel::updateRequests);
        connect(attention, &QAbstractItemModel::layoutChanged, this, &BoardModel::updateRequests);
    }
    updateRequests();
}

void BoardModel::setRunning(const QString &sessionID, const QString &source, bool running)
{
    int row = rowOf(sessionID, source);
    if (row < 0) {
        if (!running)
            return;
        row = ensureTile(sessionID, source);
    }
    Tile &t = m_tiles[row];
    if (t.running == running)
        return;
    t.running = running;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (running) {
        t.ended = false;
        t.error.clear();
        t.started = now;
        t.finished = 0;
        t.activity = Activity::None;
        t.activityText.clear();
        t.tool.clear();
        t.toolStatus = ToolStatus::Unknown;
        t.activityPart.clear();
    } else {
        t.finished = now;
    }
    emitChanged(row,
                {StateRole, StartedRole, ElapsedRole, ErrorRole, ActivityRole, ActivityTextRole, ToolRole,
                 ToolStatusRole});
    updateTicking();
}

void BoardModel::setRunningElsewhere(const QString &sessionID, const QString &source, bool running)
{
    setRunning(sessionID, source, running);
    const int row = rowOf(sessionID, source);
    if (row < 0)
        return;
    if (m_tiles.at(row).elsewhere != running) {
        m_tiles[row].elsewhere = running;
        emitChanged(row, {ElsewhereRole});
    }
    if (!running)
        setFinished(sessionID, source, State::Finished);
}

void BoardModel::setFinished(const QString &sessionID, const QString &source, State outcome, const QString &error)
{
    Q_ASSERT(hasEnded(outcome));
    const int row = rowOf(sessionID, source);
    if (row < 0)
        return;
    Tile &t = m_tiles[row];
    if (t.running) {
        t.running = false;
        t.finished = QDateTime::currentMSecsSinceEpoch();
    }
    t.ended = true;
    t.outcome = outcome;
    t.error = error;
    emitChanged(row, {StateRole, ElapsedRole, ErrorRole});
    updateTicking();
}

void BoardModel::setQueued(const QString &sessionID, const QString &source, int count)
{
    int row = rowOf(sessionID, source);
    if (row < 0) {
        if (count <= 0)
            return;
        row = ensureTile(sessionID, source);
    }
    Tile &t = m_tiles[row];
    if (t.queued == count)
        return;
    t.queued = std::max(0, count);
    // A tile that only waited and never ran here goes with its queue.
    if (t.queued == 0 && !t.running && t.started == 0 && t.requests.isEmpty()) {
        removeRow(row);
        return;
    }
    emitChanged(row, {StateRole, QueuedRole});
}

void BoardModel::dismiss(const QString &sessionID, const QString &source)
{
    const int row = rowOf(sessionID, source);
    if (row < 0)
        return;
    const Tile &t = m_tiles.at(row);
    if (t.running || t.queued > 0 || !t.requests.isEmpty())
        return;
    removeRow(row);
}

void BoardModel::dismissEnded()
{
    for (int row = rowCount() - 1; row >= 0; --row) {
        const Tile &t = m_tiles.at(row);
        if (!t.running && t.queued == 0 && t.requests.isEmpty())
            removeRow(row);
    }
}

void BoardModel::removeSource(const QString &source)
{
    for (int row = rowCount() - 1; row >= 0; --row) {
        if (m_tiles.at(row).source == source)
            removeRow(row);
    }
    if (const QPointer<SessionService> old = m_services.take(source))
        disconnect(old, nullptr, this, nullptr);
    updateTicking();
}

QModelIndex BoardModel::indexFor(const QString &sessionID, const QString &source) const
{
    const int row = rowOf(sessionID, source);
    return row >= 0 ? index(row) : QModelIndex();
}

bool BoardModel::hasEnded(State state)
{
    return state == State::Failed || state == State::Finished || state == State::Stopped;
}

BoardModel::State BoardModel::stateOf(const Tile &tile)
{
    if (!tile.requests.isEmpty())
        return State::Waiting;
    if (tile.running)
        return State::Running;
    if (tile.queued > 0)
        return State::Queued;
    return tile.ended ? tile.outcome : State::Finished;
}

int BoardModel::rowOf(const QString &sessionID, const QString &source) const
{
    for (qsizetype row = 0; row < m_tiles.size(); ++row) {
        const Tile &t = m_tiles.at(row);
        if (t.sessionID == sessionID && t.source == source)
            return int(row);
    }
    return -1;
}

int BoardModel::ensureTile(const QString &sessionID, const QString &source)
{
    if (const int row = rowOf(sessionID, source); row >= 0)
        return row;
    Tile t;
    t.sessionID = sessionID;
    t.source = source;
    t.session = m_lookup ? m_lookup(source, sessionID) : std::nullopt;
    const int row = rowCount();
    beginInsertRows({}, row, row);
    m_tiles.append(std::move(t));
    endInsertRows();
    readMessages(row);
    resolveBranch(row);
    updateRequests();
    return row;
}

void BoardModel::removeRow(int row)
{
    beginRemoveRows({}, row, row);
    m_tiles.removeAt(row);
    endRemoveRows();
}

void BoardModel::emitChanged(int row, const QList<int> &roles)
{
    const QModelIndex i = index(row);
    Q_EMIT dataChanged(i, i, roles);
}

void BoardModel::readMessages(int row)
{
    Tile &t = m_tiles[row];
    const QPointer<SessionService> service = m_services.value(t.source);
    if (!service)
        return;
    t.read = true;
    const QString sessionID = t.sessionID;
    const QString source = t.source;
    whenFinished(service->messagesLater(sessionID), this,
                 [this, sessionID, source](const QList<MessageWithParts> &messages) {
                     const int row = rowOf(sessionID, source);
                     if (row < 0)
                         return;
                     Tile &t = m_tiles[row];
                     // What came live meanwhile is newer than what was read.
                     for (const MessageWithParts &m : messages) {
                         if (m.info.isAssistant() && !t.usage.contains(m.info.id()))
                             count(t, m.info);
                     }
                     bool activity = false;
                     if (t.activity == Activity::None) {
                         for (auto m = messages.crbegin(); m != messages.crend() && !activity; ++m) {
                             if (!m->info.isAssistant())
                                 continue;
                             for (auto p = m->parts.crbegin(); p != m->parts.crend() && !activity; ++p)
                                 activity = takeActivity(t, *p);
                             break;
                         }
                     }
                     // A run that started before the board saw it (a server's, followed from
                     // the middle of its run): it started with the prompt of its open reply.
                     bool started = false;
                     if (t.running) {
                         QHash<QString, qint64> prompts;
                         for (const MessageWithParts &m : messages) {
                             if (m.info.isUser())
                                 prompts.insert(m.info.id(), m.info.created());
                             else if (m.isUnfinished() && prompts.value(m.info.parentID()) > 0
                                      && prompts.value(m.info.parentID()) < t.started) {
                                 t.started = prompts.value(m.info.parentID());
                                 started = true;
                             }
                         }
                     }
                     QList<int> roles{TokensRole, CostRole};
                     if (started)
                         roles += {StartedRole, ElapsedRole};
                     if (activity)
                         roles += {ActivityRole, ActivityTextRole, ToolRole, ToolStatusRole};
                     emitChanged(row, roles);
                 });
}

void BoardModel::resolveBranch(int row)
{
    const Tile &t = m_tiles.at(row);
    if (!m_branches || !t.session || t.session->directory().isEmpty())
        return;
    const QString sessionID = t.sessionID;
    const QString source = t.source;
    const QString directory = t.session->directory();
    whenFinished(m_branches(directory), this, [this, sessionID, source, directory](const QString &branch) {
        const int row = rowOf(sessionID, source);
        if (row < 0)
            return;
        Tile &t = m_tiles[row];
        // The answer for the folder the session is in now.
        if (!t.session || t.session->directory() != directory || t.branch == branch)
            return;
        t.branch = branch;
        emitChanged(row, {BranchRole});
    });
}

void BoardModel::onPartUpdated(const QString &source, const Part &part)
{
    const int row = rowOf(part.sessionID(), source);
    if (row < 0 || !takeActivity(m_tiles[row], part))
        return;
    emitChanged(row, {ActivityRole, ActivityTextRole, ToolRole, ToolStatusRole});
}

void BoardModel::onMessageUpdated(const QString &source, const Message &message)
{
    if (!message.isAssistant())
        return;
    const int row = rowOf(message.sessionID(), source);
    if (row < 0)
        return;
    Tile &t = m_tiles[row];
    const qint64 context = contextOf(t);
    const double cost = costOf(t);
    count(t, message);
    if (context != contextOf(t) || cost != costOf(t))
        emitChanged(row, {TokensRole, CostRole});
}

void BoardModel::onSessionUpdated(const QString &source, const Session &session)
{
    const int row = rowOf(session.id(), source);
    if (row < 0)
        return;
    Tile &t = m_tiles[row];
    const bool moved = !t.session || t.session->directory() != session.directory();
    t.session = session;
    emitChanged(row, {Qt::DisplayRole, TitleRole, ProjectRole, DirectoryRole});
    if (moved)
        resolveBranch(row);
}

void BoardModel::count(Tile &tile, const Message &message)
{
    const Tokens tokens = message.tokens();
    Usage usage;
    usage.created = message.created();
    usage.cost = message.cost();
    // As the context meter counts: a summary's request read the whole old context; what the
    // next request reads of it is the summary it wrote.
    usage.context = message.isSummary() && message.isCompleted() && !message.hasError() ? tokens.output
                                                                                         : tokens.total();
    tile.usage.insert(message.id(), usage);
}

bool BoardModel::takeActivity(Tile &tile, const Part &part)
{
    Activity activity = Activity::None;
    QString text;
    QString tool;
    ToolStatus status = ToolStatus::Unknown;
    switch (part.type()) {
    case PartType::Text:
        if (part.isSynthetic() || part.isIgnored())
            return false;
        activity = Activity::Text;
        text = lastLine(part.text());
        break;
    case PartType::Reasoning:
        activity = Activity::Thinking;
        text = lastLine(part.text());
        break;
    case PartType::Tool:
        activity = Activity::Tool;
        tool = part.tool();
        status = part.state().status();
        text = toolSubject(part);
        break;
    default:
        return false;
    }
    // A reply's text that has not started yet says nothing; a tool call does (it is named).
    if (activity != Activity::Tool && text.isEmpty())
        return false;
    if (tile.activity == activity && tile.activityText == text && tile.tool == tool && tile.toolStatus == status
        && tile.activityPart == part.id())
        return false;
    tile.activity = activity;
    tile.activityText = text;
    tile.tool = tool;
    tile.toolStatus = status;
    tile.activityPart = part.id();
    return true;
}

qint64 BoardModel::contextOf(const Tile &tile)
{
    qint64 newest = -1;
    qint64 context = 0;
    for (const Usage &u : tile.usage) {
        if (u.context > 0 && u.created > newest) {
            newest = u.created;
            context = u.context;
        }
    }
    return context;
}

double BoardModel::costOf(const Tile &tile)
{
    double cost = 0;
    for (const Usage &u : tile.usage)
        cost += u.cost;
    return cost;
}

void BoardModel::updateRequests()
{
    QHash<int, QList<Request>> byRow;
    if (m_attention) {
        for (int i = 0; i < m_attention->rowCount(); ++i) {
            const QModelIndex a = m_attention->index(i);
            const QString requestID = a.data(AttentionModel::RequestIdRole).toString();
            if (requestID.isEmpty())
                continue; // a run's outcome: the tile has its own
            const QString source = a.data(AttentionModel::SourceRole).toString();
            // A sub-agent's question goes on the tile of the run it is part of: its own, or the
            // nearest ancestor's.
            int row = rowOf(a.data(AttentionModel::SessionIdRole).toString(), source);
            QString parent = a.data(AttentionModel::ParentIdRole).toString();
            for (int depth = 0; row < 0 && !parent.isEmpty() && depth < 16; ++depth) {
                row = rowOf(parent, source);
                const std::optional<Session> s = m_lookup ? m_lookup(source, parent) : std::nullopt;
                parent = s ? s->parentID() : QString();
            }
            if (row >= 0)
                byRow[row].append({requestID, int(a.data(AttentionModel::KindRole).value<AttentionModel::Kind>()),
                                   a.data(AttentionModel::DetailRole).toString()});
        }
    }
    for (int row = 0; row < rowCount(); ++row) {
        Tile &t = m_tiles[row];
        const QList<Request> requests = byRow.value(row);
        const auto same = [](const Request &a, const Request &b) {
            return a.id == b.id && a.kind == b.kind && a.detail == b.detail;
        };
        if (std::equal(requests.cbegin(), requests.cend(), t.requests.cbegin(), t.requests.cend(), same))
            continue;
        t.requests = requests;
        emitChanged(row, {StateRole, RequestIdRole, RequestKindRole, RequestDetailRole, RequestCountRole});
    }
}

void BoardModel::updateTicking()
{
    const bool running = std::any_of(m_tiles.cbegin(), m_tiles.cend(), [](const Tile &t) { return t.running; });
    if (running && !m_ticker->isActive())
        m_ticker->start();
    else if (!running)
        m_ticker->stop();
}

void BoardModel::tick()
{
    // One change per run of neighbouring running tiles.
    int first = -1;
    for (int row = 0; row <= rowCount(); ++row) {
        const bool running = row < rowCount() && m_tiles.at(row).running;
        if (running && first < 0) {
            first = row;
        } else if (!running && first >= 0) {
            Q_EMIT dataChanged(index(first), index(row - 1), {ElapsedRole});
            first = -1;
        }
    }
}

// ---- BoardSortModel

BoardSortModel::BoardSortModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setDynamicSortFilter(true);
    sort(0);
}

void BoardSortModel::setSortKey(SortKey key)
{
    if (key == m_key)
        return;
    m_key = key;
    invalidate();
    sort(0);
}

void BoardSortModel::setSessionFilter(const QSet<QString> &sessionIDs)
{
    if (sessionIDs == m_filter)
        return;
    m_filter = sessionIDs;
    invalidateRowsFilter();
}

bool BoardSortModel::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const auto number = [&](int role) {
        return std::pair(left.data(role).toDouble(), right.data(role).toDouble());
    };
    const auto [leftElapsed, rightElapsed] = number(BoardModel::ElapsedRole);
    switch (m_key) {
    case SortKey::State: {
        const int l = int(left.data(BoardModel::StateRole).value<BoardModel::State>());
        const int r = int(right.data(BoardModel::StateRole).value<BoardModel::State>());
        if (l != r)
            return l < r;
        if (leftElapsed != rightElapsed)
            return leftElapsed > rightElapsed;
        break;
    }
    case SortKey::Elapsed:
        if (leftElapsed != rightElapsed)
            return leftElapsed > rightElapsed;
        break;
    case SortKey::Cost: {
        const auto [l, r] = number(BoardModel::CostRole);
        if (l != r)
            return l > r;
        break;
    }
    case SortKey::Title:
        break;
    }
    const int byTitle = QString::localeAwareCompare(left.data(BoardModel::TitleRole).toString(),
                                                    right.data(BoardModel::TitleRole).toString());
    if (byTitle != 0)
        return byTitle < 0;
    return left.data(BoardModel::SessionIdRole).toString() < right.data(BoardModel::SessionIdRole).toString();
}

bool BoardSortModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (m_filter.isEmpty())
        return true;
    const QModelIndex i = sourceModel()->index(sourceRow, 0, sourceParent);
    return m_filter.contains(i.data(BoardModel::SessionIdRole).toString());
}

} // namespace weft
