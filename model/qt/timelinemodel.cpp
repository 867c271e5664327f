// SPDX-License-Identifier: GPL-3.0-or-later
#include "timelinemodel.h"

#include "session/sessionstore.h"
#include "core/async.h"
#include "session/sessionservice.h"

#include <QSet>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
// The newest messages whose files a backend that watches files follows: only the tail of a
// session changes.
constexpr int WatchedTail = 8;

// The roles a change can touch, by what changed. Each change emits its list as it is, without
// comparing the old and the new row role by role.
const QList<int> &textRoles()
{
    // A text or reasoning part grew (a streamed delta): the same parts, a longer text.
    static const QList<int> roles{Qt::DisplayRole, TimelineModel::TextRole, TimelineModel::MarkdownRole,
                                  TimelineModel::PartsRole, TimelineModel::RevisionRole};
    return roles;
}

const QList<int> &partRoles()
{
    // Parts added, removed or changed in any way (a tool's state, a compaction marker).
    static const QList<int> roles{Qt::DisplayRole,
                                  TimelineModel::TextRole,
                                  TimelineModel::MarkdownRole,
                                  TimelineModel::PartsRole,
                                  TimelineModel::PartTypesRole,
                                  TimelineModel::ToolStatusesRole,
                                  TimelineModel::CompactionRole,
                                  TimelineModel::RevisionRole};
    return roles;
}

const QList<int> &infoRoles()
{
    // The message's own fields (completion, tokens, cost, error, summary, model, ...).
    static const QList<int> roles{
        TimelineModel::AuthorRole,    TimelineModel::CreatedRole,      TimelineModel::CompletedRole,
        TimelineModel::MarkdownRole,  TimelineModel::TokensRole,       TimelineModel::CostRole,
        TimelineModel::ErrorRole,     TimelineModel::ErrorTextRole,    TimelineModel::IsSummaryRole,
        TimelineModel::RunningRole,   TimelineModel::AgentRole,        TimelineModel::ModelRole,
        TimelineModel::FinishRole,    TimelineModel::ChangedFilesRole, TimelineModel::MessageRole,
        TimelineModel::RevisionRole};
    return roles;
}
} // namespace

TimelineModel::TimelineModel(SessionService *service, QObject *parent)
    : QAbstractListModel(parent)
    , m_service(service)
{
    Q_ASSERT(m_service);
    connectService();
}

TimelineModel::~TimelineModel() = default;

void TimelineModel::connectService()
{
    for (const QMetaObject::Connection &c : std::as_const(m_serviceConnections))
        disconnect(c);
    m_serviceConnections.clear();
    // `this` as context: queued from the processor's thread, direct on the GUI thread.
    m_serviceConnections.append(connect(m_service, &SessionService::messageUpdated, this, [this](const Message &m) {
        if (m.sessionID() == m_sessionID)
            whenLoaded([this, m] { applyMessage(m); });
    }));
    m_serviceConnections.append(
        connect(m_service, &SessionService::messageRemoved, this, [this](const QString &sid, const QString &mid) {
            if (sid == m_sessionID)
                whenLoaded([this, sid, mid] { removeMessage(sid, mid); });
        }));
    m_serviceConnections.append(
        connect(m_service, &SessionService::partUpdated, this, [this](const Part &p, const QString &delta) {
            if (p.sessionID() == m_sessionID)
                whenLoaded([this, p, grew = !delta.isEmpty()] { applyPart(p, grew); });
        }));
    m_serviceConnections.append(connect(m_service, &SessionService::partRemoved, this,
                                        [this](const QString &sid, const QString &mid, const QString &pid) {
                                            if (sid == m_sessionID)
                                                whenLoaded([this, sid, mid, pid] { removePart(sid, mid, pid); });
                                        }));
    m_serviceConnections.append(
        connect(m_service, &SessionService::sessionChangedExternally, this, [this](const QString &sid) {
            if (sid == m_sessionID)
                refresh();
        }));
    m_serviceConnections.append(connect(m_service, &SessionService::sessionCompacted, this, [this](const QString &sid) {
        if (sid == m_sessionID)
            updateContextBoundary();
    }));
}

void TimelineModel::setSession(SessionService *service, const QString &sessionID)
{
    assertGuiThread();
    Q_ASSERT(service);
    if (!service || service == m_service) {
        setSessionID(sessionID);
        return;
    }
    // Another source: nothing of the shown session stays (the old service follows none), and no
    // event of the old service may reach the new session's rows.
    setSessionID(QString());
    m_service = service;
    connectService();
    setSessionID(sessionID);
}

bool TimelineModel::containsMessage(const QString &messageID) const
{
    return m_rowById.contains(messageID)
        || std::any_of(m_older.cbegin(), m_older.cend(), [&](const Message &m) { return m.id() == messageID; })
        || m_restIds.contains(messageID) || !m_olderListed;
}

bool TimelineModel::fetchThrough(const QString &messageID)
{
    assertGuiThread();
    if (m_loading || m_fetching || m_rowById.contains(messageID))
        return false;
    if (isIndexing()) {
        if (m_olderListed && !m_restIds.contains(messageID))
            return false;
        m_fetching = true;
        m_afterIndex = [this, messageID] {
            if (!fetchThrough(messageID)) {
                replayQueued();
                Q_EMIT olderLoaded(0);
            }
        };
        return true;
    }
    const auto it = std::find_if(m_older.cbegin(), m_older.cend(), [&](const Message &m) { return m.id() == messageID; });
    if (it == m_older.cend())
        return false;
    fetchOlder(m_older.cend() - it);
    return true;
}
void TimelineModel::assertGuiThread() const
{
    Q_ASSERT_X(QThread::currentThread() == thread(), "TimelineModel", "used from a thread other than its own");
}

int TimelineModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QHash<int, QByteArray> TimelineModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert({{IdRole, "id"},
                  {SessionIdRole, "sessionID"},
                  {AuthorRole, "author"},
                  {CreatedRole, "created"},
                  {CompletedRole, "completed"},
                  {TextRole, "text"},
                  {MarkdownRole, "markdown"},
                  {PartsRole, "parts"},
                  {PartTypesRole, "partTypes"},
                  {ToolStatusesRole, "toolStatuses"},
                  {TokensRole, "tokens"},
                  {CostRole, "cost"},
                  {ErrorRole, "error"},
                  {ErrorTextRole, "errorText"},
                  {IsSummaryRole, "isSummary"},
                  {CompactionRole, "compaction"},
                  {InContextRole, "inContext"},
                  {RunningRole, "running"},
                  {AgentRole, "agent"},
                  {ModelRole, "model"},
                  {FinishRole, "finish"},
                  {ChangedFilesRole, "changedFiles"},
                  {RevisionRole, "revision"},
                  {MessageRole, "message"}});
    return names;
}

QString TimelineModel::visibleText(const QList<Part> &parts)
{
    QStringList texts;
    for (const Part &p : parts) {
        if (p.type() == PartType::Text && !p.isSynthetic() && !p.isIgnored() && !p.text().isEmpty())
            texts.append(p.text());
    }
    return texts.join(u"\n\n"_s);
}

QString TimelineModel::markdown(const Message &info, const QList<Part> &parts)
{
    QStringList blocks;
    for (const Part &p : parts) {
        switch (p.type()) {
        case PartType::Text:
            if (!p.isSynthetic() && !p.isIgnored() && !p.text().isEmpty())
                blocks.append(p.text());
            break;
        case PartType::Reasoning:
            if (!p.text().isEmpty()) {
                QString quoted = p.text();
                quoted.replace(u'\n', u"\n> "_s);
                blocks.append(u"> "_s + quoted);
            }
            break;
        case PartType::Tool: {
            const ToolState state = p.state();
            QString line = u"**"_s + p.tool() + u"**"_s;
            if (!state.title().isEmpty())
                line += u" `"_s + state.title() + u'`';
            line += u" ("_s + toolStatusName(state.status()) + u')';
            blocks.append(line);
            break;
        }
        case PartType::File:
            // A data: URL (an image, megabytes of base64) is no link to copy: the name stands alone.
            if (p.url().startsWith(u"data:"))
                blocks.append(u"[%1]"_s.arg(p.filename().isEmpty() ? p.mime() : p.filename()));
            else
                blocks.append(u"[%1](%2)"_s.arg(p.filename().isEmpty() ? p.url() : p.filename(), p.url()));
            break;
        default:
            break;
        }
    }
    if (info.hasError())
        blocks.append(u"**Error:** "_s + info.error().message());
    return blocks.join(u"\n\n"_s);
}

QVariant TimelineModel::roleValue(const Row &row, int role) const
{
    const Message &m = row.info;
    switch (role) {
    case Qt::DisplayRole:
    case TextRole:
        return visibleText(row.parts);
    case IdRole:
        return m.id();
    case SessionIdRole:
        return m.sessionID();
    case AuthorRole:
        return QVariant::fromValue(m.role());
    case CreatedRole:
        return m.created();
    case CompletedRole:
        return m.completed();
    case MarkdownRole:
        return markdown(m, row.parts);
    case PartsRole:
        return QVariant::fromValue(row.parts);
    case PartTypesRole: {
        QList<PartType> types;
        types.reserve(row.parts.size());
        for (const Part &p : row.parts)
            types.append(p.type());
        return QVariant::fromValue(types);
    }
    case ToolStatusesRole: {
        QList<ToolStatus> statuses;
        for (const Part &p : row.parts) {
            if (p.type() == PartType::Tool)
                statuses.append(p.state().status());
        }
        return QVariant::fromValue(statuses);
    }
    case TokensRole:
        return QVariant::fromValue(m.tokens());
    case CostRole:
        return m.cost();
    case ErrorRole:
        return QVariant::fromValue(m.error());
    case ErrorTextRole:
        return m.hasError() ? m.error().message() : QString();
    case IsSummaryRole:
        return m.isAssistant() && m.isSummary();
    case CompactionRole: {
        for (const Part &p : row.parts) {
            if (p.type() == PartType::Compaction)
                return QVariant::fromValue(p.isAuto() ? CompactionKind::Auto : CompactionKind::Manual);
        }
        return QVariant::fromValue(CompactionKind::None);
    }
    case InContextRole:
        return row.inContext;
    case RunningRole:
        return m.isAssistant() && !m.isCompleted() && !m.hasError();
    case AgentRole:
        return m.agent();
    case ModelRole: {
        const QString provider = m.isUser() ? m.modelProviderID() : m.providerID();
        const QString model = m.isUser() ? m.modelModelID() : m.modelID();
        return model.isEmpty() ? QString() : provider + u'/' + model;
    }
    case FinishRole:
        return m.finish();
    case ChangedFilesRole:
        return m.isUser() ? int(m.summaryDiffs().size()) : 0;
    case RevisionRole:
        return row.revision;
    case MessageRole:
        return QVariant::fromValue(m);
    default:
        return {};
    }
}

QModelIndex TimelineModel::index(int row, int column, const QModelIndex &parent) const
{
    if (parent.isValid() || column != 0 || row < 0 || row >= m_rows.size())
        return {};
    return createIndex(row, column, quintptr(m_rows.at(row).key));
}

QVariant TimelineModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (role == Qt::AccessibleTextRole)
        return m_accessibleText ? QVariant(m_accessibleText(index)) : QVariant();
    return roleValue(m_rows.at(index.row()), role);
}

void TimelineModel::rebuildIndex()
{
    m_rowById.clear();
    m_rowById.reserve(m_rows.size());
    m_rowBase = 0;
    for (qsizetype i = 0; i < m_rows.size(); ++i)
        m_rowById.insert(m_rows.at(i).info.id(), i);
}

qsizetype TimelineModel::rowOf(const QString &messageID) const
{
    const auto it = m_rowById.constFind(messageID);
    return it == m_rowById.constEnd() ? -1 : it.value() - m_rowBase;
}

QModelIndex TimelineModel::indexForId(const QString &messageID) const
{
    const qsizetype row = rowOf(messageID);
    return row < 0 ? QModelIndex() : index(int(row));
}

QString TimelineModel::forkPoint(const QModelIndex &index) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    if (row.info.isUser())
        return row.info.id();
    // Rows are the newest messages, contiguous: the next row is the next message.
    const int next = index.row() + 1;
    return next < m_rows.size() ? m_rows.at(next).info.id() : QString();
}

QString TimelineModel::lastModel() const
{
    for (qsizetype i = m_rows.size() - 1; i >= 0; --i) {
        const QString model = roleValue(m_rows.at(i), ModelRole).toString();
        if (!model.isEmpty())
            return model;
    }
    return {};
}

QString TimelineModel::lastAgent() const
{
    for (qsizetype i = m_rows.size() - 1; i >= 0; --i) {
        if (m_rows.at(i).info.isUser() && !m_rows.at(i).info.agent().isEmpty())
            return m_rows.at(i).info.agent();
    }
    return {};
}

void TimelineModel::setSessionID(const QString &sessionID)
{
    assertGuiThread();
    if (sessionID == m_sessionID && !sessionID.isEmpty())
        return;
    const int generation = ++m_generation;
    // Another session is not a live change: this is the one reset the model does.
    beginResetModel();
    m_sessionID = sessionID;
    m_rows.clear();
    m_older.clear();
    m_olderSummary.reset();
    m_rowById.clear();
    m_rowBase = 0;
    m_queued.clear();
    m_boundaryId.clear();
    m_fetching = false;
    m_restIds.clear();
    m_olderListed = true;
    m_afterIndex = {};
    m_loading = !sessionID.isEmpty();
    endResetModel();
    updateStats();
    m_service->followSession(sessionID);
    if (sessionID.isEmpty())
        return;

    std::shared_ptr<Store> store = storeOf(*m_service);
    const int pageSize = m_pageSize;
    // Only the newest page is read before the first frame (Store::newestMessages()); the others'
    // infos are read next (readOlderInfos()), without delaying the first frame of a long session.
    whenFinished(QtConcurrent::run([store, sessionID, pageSize] { return store->newestMessages(sessionID, pageSize); }),
                 this, [this, generation](const NewestMessages &page) {
                     if (generation != m_generation)
                         return;
                     if (!page.messages.isEmpty()) {
                         beginInsertRows({}, 0, int(page.messages.size()) - 1);
                         m_rows.reserve(page.messages.size());
                         for (const MessageWithParts &m : page.messages)
                             m_rows.append({m.info, m.parts, 0, true, m_nextKey++});
                         rebuildIndex();
                         endInsertRows();
                     }
                     m_loading = false;
                     m_restIds = QSet<QString>(page.olderIDs.cbegin(), page.olderIDs.cend());
                     m_olderListed = page.olderListed;
                     updateContextBoundary();
                     updateStats();
                     watchTail();
                     if (isIndexing())
                         readOlderInfos(page.olderIDs);
                     else
                         replayQueued();
                     Q_EMIT loaded();
                 });
}

void TimelineModel::readOlderInfos(const QStringList &rest)
{
    // The infos of every other message (for the session's cost, the context boundary and the
    // pages fetched as the user scrolls up). Events meanwhile wait, as during a page fetch.
    const int generation = m_generation;
    std::shared_ptr<Store> store = storeOf(*m_service);
    const QString sessionID = m_sessionID;
    const std::optional<Message> first = m_rows.isEmpty() ? std::nullopt : std::optional<Message>(m_rows.first().info);
    // The rows shown are taken out of the older messages here, not on the GUI thread (at 20,000
    // messages that cost it 6 ms): rows do not change meanwhile, as events wait while indexing.
    // Not listed (a server's paged answer), the older messages are all of the session's.
    QSet<QString> shown;
    for (const Row &row : std::as_const(m_rows))
        shown.insert(row.info.id());
    whenFinished(QtConcurrent::run([store, sessionID, rest, first, shown, listed = m_olderListed] {
                     Index result;
                     result.older = listed ? store->messagesByID(sessionID, rest) : store->messages(sessionID);
                     result.older.removeIf([&](const Message &m) { return shown.contains(m.id()); });
                     // A message whose ID time disagrees with its time.created can belong among
                     // the rows already shown: it becomes a row, with its parts.
                     const auto after = first ? std::upper_bound(result.older.begin(), result.older.end(), *first, messageLessThan)
                                              : result.older.end();
                     result.between = store->withParts(sessionID, QList<Message>(after, result.older.end()));
                     result.older.erase(after, result.older.end());
                     result.olderSummary = summarize(result.older);
                     return result;
                 }),
                 this, [this, generation](const Index &result) {
                     if (generation != m_generation)
                         return;
                     // Every listed message is read now. Fetches and events wait until the rows
                     // below are in (as during a page fetch), then the one asked for meanwhile
                     // runs, or the queued events replay.
                     m_restIds.clear();
                     m_olderListed = true;
                     m_fetching = true;
                     m_older = result.older;
                     m_olderSummary = result.olderSummary;
                     // Room for every message's row: a rehash of 16,384 IDs as a page comes in
                     // took 8 ms.
                     m_rowById.reserve(totalMessageCount());
                     for (const MessageWithParts &m : result.between) {
                         if (m_rowById.contains(m.info.id()))
                             continue;
                         const auto pos = std::upper_bound(m_rows.cbegin(), m_rows.cend(), m.info,
                                                           [](const Message &a, const Row &r) { return messageLessThan(a, r.info); });
                         const int row = int(pos - m_rows.cbegin());
                         beginInsertRows({}, row, row);
                         m_rows.insert(row, {m.info, m.parts, 0, true, m_nextKey++});
                         rebuildIndex();
                         endInsertRows();
                     }
                     updateContextBoundary();
                     updateStats();
                     watchTail();
                     Q_EMIT statsChanged(); // totalMessageCount() counts read messages only now
                     m_fetching = false;
                     if (const auto deferred = std::exchange(m_afterIndex, {}))
                         deferred(); // its page replays the queued events
                     else
                         replayQueued();
                 });
}

bool TimelineModel::canLoadOlder() const
{
    return (isIndexing() || !m_older.isEmpty()) && !m_loading && !m_fetching;
}

void TimelineModel::loadOlder()
{
    assertGuiThread();
    if (!canLoadOlder())
        return;
    if (isIndexing()) {
        // The older messages are being listed: the page follows as soon as they are.
        m_fetching = true;
        m_afterIndex = [this] {
            if (m_older.isEmpty()) {
                replayQueued();
                Q_EMIT olderLoaded(0);
            } else {
                fetchOlder(m_pageSize);
            }
        };
        return;
    }
    fetchOlder(m_pageSize);
}

void TimelineModel::fetchOlder(qsizetype count)
{
    m_fetching = true;
    const int generation = m_generation;
    const qsizetype split = std::max<qsizetype>(0, m_older.size() - count);
    const QList<Message> infos = m_older.mid(split);
    std::shared_ptr<Store> store = storeOf(*m_service);
    const QString sessionID = m_sessionID;
    const auto read = [store, sessionID, infos] { return store->withParts(sessionID, infos); };
    whenFinished(QtConcurrent::run(read), this, [this, generation](const QList<MessageWithParts> &messages) {
        if (generation != m_generation)
            return;
        // Messages that arrived live meanwhile may have changed m_older: take exactly the
        // loaded ones out of it, by ID. Normally they are its tail, in order (checked in
        // O(page), not O(messages): at 20,000 messages this ran at every page).
        QList<Message> infos;
        const qsizetype tail = m_older.size() - messages.size();
        const bool isTail = tail >= 0 && std::equal(messages.cbegin(), messages.cend(), m_older.cbegin() + tail,
                                                    [](const MessageWithParts &m, const Message &info) {
                                                        return m.info.id() == info.id();
                                                    });
        if (isTail) {
            infos = m_older.sliced(tail);
            m_older.resize(tail);
        } else {
            QSet<QString> ids;
            for (const MessageWithParts &m : messages)
                ids.insert(m.info.id());
            m_older.removeIf([&](const Message &info) {
                if (!ids.contains(info.id()))
                    return false;
                infos.append(info);
                return true;
            });
        }
        m_olderSummary.reset();
        QHash<QString, QList<Part>> partsOf;
        for (const MessageWithParts &m : messages)
            partsOf.insert(m.info.id(), m.parts);
        if (!infos.isEmpty()) {
            beginInsertRows({}, 0, int(infos.size()) - 1);
            // Prepended in place, the last first: QList keeps room at its front for prepends, so
            // a page costs O(page). A new list with the old rows appended copied every row's
            // message and parts and freed the old ones: 1.7 ms a page on average up XL.
            for (qsizetype i = infos.size() - 1; i >= 0; --i) {
                const Message &info = infos.at(i);
                m_rows.prepend({info, partsOf.value(info.id()), 0, true, m_nextKey + quint64(i)});
            }
            m_nextKey += infos.size();
            // The rows below move down: one change of the base, not an update per row.
            m_rowBase -= infos.size();
            for (qsizetype i = 0; i < infos.size(); ++i)
                m_rowById.insert(m_rows.at(i).info.id(), i + m_rowBase);
            // The new rows get their context flag before anyone can see them.
            const qsizetype boundary = m_boundaryId.isEmpty() ? -1 : rowOf(m_boundaryId);
            for (qsizetype i = 0; i < infos.size(); ++i)
                m_rows[i].inContext = boundary < 0 || i >= boundary;
            endInsertRows();
        }
        m_fetching = false;
        replayQueued();
        Q_EMIT olderLoaded(int(infos.size()));
    });
}

void TimelineModel::whenLoaded(std::function<void()> event)
{
    assertGuiThread();
    if (m_loading || m_fetching || isIndexing())
        m_queued.append(std::move(event));
    else
        event();
}

void TimelineModel::replayQueued()
{
    const QList<std::function<void()>> queued = std::exchange(m_queued, {});
    for (const auto &event : queued)
        event();
}

void TimelineModel::replaceRow(qsizetype row, Row updated, const QList<int> &roles)
{
    updated.revision = m_rows.at(row).revision + 1;
    m_rows[row] = std::move(updated);
    const QModelIndex idx = index(int(row));
    Q_EMIT dataChanged(idx, idx, roles);
}

void TimelineModel::applyMessage(const Message &message)
{
    assertGuiThread();
    if (const qsizetype existing = rowOf(message.id()); existing >= 0) {
        if (m_rows.at(existing).info == message)
            return;
        Row updated = m_rows.at(existing);
        updated.info = message;
        replaceRow(existing, std::move(updated), infoRoles());
    } else {
        for (Message &older : m_older) {
            if (older.id() == message.id()) {
                older = message;
                m_olderSummary.reset();
                updateStats();
                return;
            }
        }
        // New message: normally the last; a message older than every row waits in m_older.
        const auto pos = std::upper_bound(m_rows.cbegin(), m_rows.cend(), message,
                                          [](const Message &m, const Row &r) { return messageLessThan(m, r.info); });
        const qsizetype row = pos - m_rows.cbegin();
        if (row == 0 && !m_older.isEmpty()) {
            const auto opos = std::upper_bound(m_older.begin(), m_older.end(), message, messageLessThan);
            m_older.insert(opos, message);
            m_olderSummary.reset();
            updateStats();
            return;
        }
        beginInsertRows({}, int(row), int(row));
        m_rows.insert(row, {message, {}, 0, true, m_nextKey++});
        // Normally the last: one entry, not the whole index again (20,000 rows: milliseconds).
        if (row == m_rows.size() - 1)
            m_rowById.insert(message.id(), row + m_rowBase);
        else
            rebuildIndex();
        endInsertRows();
        watchTail();
    }
    if (message.isAssistant() && message.isSummary())
        updateContextBoundary();
    updateStats();
}

void TimelineModel::applyPart(const Part &part, bool grew)
{
    assertGuiThread();
    const qsizetype row = rowOf(part.messageID());
    if (row < 0)
        return; // an older message not loaded yet: its page reads the part from the store
    Row updated = m_rows.at(row);
    auto existing
        = std::find_if(updated.parts.begin(), updated.parts.end(), [&](const Part &q) { return q.id() == part.id(); });
    const bool textOnly = grew && existing != updated.parts.end();
    if (existing != updated.parts.end()) {
        if (*existing == part)
            return;
        *existing = part;
    } else {
        updated.parts.insert(std::upper_bound(updated.parts.begin(), updated.parts.end(), part, partLessThan), part);
    }
    replaceRow(row, std::move(updated), textOnly ? textRoles() : partRoles());
    updateStats();
}

void TimelineModel::removePart(const QString &, const QString &messageID, const QString &partID)
{
    assertGuiThread();
    const qsizetype row = rowOf(messageID);
    if (row < 0)
        return;
    Row updated = m_rows.at(row);
    if (updated.parts.removeIf([&](const Part &p) { return p.id() == partID; }) == 0)
        return;
    replaceRow(row, std::move(updated), partRoles());
    updateStats();
}

void TimelineModel::removeMessage(const QString &, const QString &messageID)
{
    assertGuiThread();
    const int row = int(rowOf(messageID));
    if (row < 0) {
        if (m_older.removeIf([&](const Message &m) { return m.id() == messageID; }) > 0) {
            m_olderSummary.reset();
            updateStats();
        }
        return;
    }
    beginRemoveRows({}, row, row);
    m_rows.removeAt(row);
    rebuildIndex();
    endRemoveRows();
    if (messageID == m_boundaryId)
        updateContextBoundary();
    updateStats();
    watchTail();
}

namespace
{
/// A summary that sets the context boundary (OpenCode's filterCompacted()).
bool isFinishedSummary(const Message &m)
{
    return m.isAssistant() && m.isSummary() && !m.finish().isEmpty() && !m.hasError();
}
} // namespace

TimelineModel::OlderSummary TimelineModel::summarize(const QList<Message> &older)
{
    OlderSummary summary;
    for (const Message &m : older) {
        summary.cost += m.cost();
        summary.hasSummary = summary.hasSummary || isFinishedSummary(m);
    }
    return summary;
}

const TimelineModel::OlderSummary &TimelineModel::olderSummary() const
{
    if (!m_olderSummary)
        m_olderSummary = summarize(m_older);
    return *m_olderSummary;
}

void TimelineModel::updateContextBoundary()
{
    // OpenCode's filterCompacted(): walking back from the newest message, the first user message
    // answered by a finished summary is where the context starts; everything before it is out.
    QSet<QString> summarised;
    QString boundary;
    const auto visit = [&](const Message &m) {
        if (isFinishedSummary(m))
            summarised.insert(m.parentID());
        if (m.isUser() && summarised.contains(m.id()))
            boundary = m.id();
        return boundary.isEmpty();
    };
    bool searching = true;
    for (qsizetype i = m_rows.size() - 1; i >= 0 && searching; --i)
        searching = visit(m_rows.at(i).info);
    // The boundary is a user message a finished summary answers: with none named yet and none
    // among the older messages (most sessions), the walk through them would find nothing.
    if (searching && (!summarised.isEmpty() || olderSummary().hasSummary)) {
        for (qsizetype i = m_older.size() - 1; i >= 0 && searching; --i)
            searching = visit(m_older.at(i));
    }
    m_boundaryId = boundary;

    const qsizetype boundaryRow = boundary.isEmpty() ? -1 : rowOf(boundary);
    qsizetype first = -1, last = -1;
    for (qsizetype i = 0; i < m_rows.size(); ++i) {
        const bool inContext = boundaryRow < 0 || i >= boundaryRow;
        if (m_rows.at(i).inContext != inContext) {
            m_rows[i].inContext = inContext;
            ++m_rows[i].revision;
            if (first < 0)
                first = i;
            last = i;
        }
    }
    if (first >= 0)
        Q_EMIT dataChanged(index(int(first)), index(int(last)), {InContextRole, RevisionRole});
}

void TimelineModel::updateStats()
{
    qint64 context = 0;
    for (qsizetype i = m_rows.size() - 1; i >= 0; --i) {
        const Message &m = m_rows.at(i).info;
        if (m.isAssistant() && m.tokens().total() > 0) {
            // A summary's request read the whole old context; what the next request reads of
            // it is the summary it wrote.
            context = m.isSummary() && m.isCompleted() && !m.hasError() ? m.tokens().output : m.tokens().total();
            break;
        }
    }
    double cost = olderSummary().cost;
    bool running = false;
    for (const Row &r : std::as_const(m_rows)) {
        cost += r.info.cost();
        running = running || (r.info.isAssistant() && !r.info.isCompleted() && !r.info.hasError());
    }
    if (context != m_contextTokens || !qFuzzyCompare(cost + 1, m_totalCost + 1)) {
        m_contextTokens = context;
        m_totalCost = cost;
        Q_EMIT statsChanged();
    }
    if (running != m_running) {
        m_running = running;
        Q_EMIT runningChanged(running);
    }
}

void TimelineModel::watchTail()
{
    QStringList ids;
    for (qsizetype i = std::max<qsizetype>(0, m_rows.size() - WatchedTail); i < m_rows.size(); ++i)
        ids.append(m_rows.at(i).info.id());
    m_service->followSession(m_sessionID, ids);
}

void TimelineModel::refresh()
{
    assertGuiThread();
    if (m_sessionID.isEmpty() || m_loading)
        return;
    // Another process changed the session: re-read what is shown, off the GUI thread, and apply
    // only the differences (rows keep their identity, the view its scroll position).
    const int generation = m_generation;
    const int loaded = int(m_rows.size());
    std::shared_ptr<Store> store = storeOf(*m_service);
    const QString sessionID = m_sessionID;
    whenFinished(QtConcurrent::run([store, sessionID, loaded] {
                     Page page;
                     page.older = store->messages(sessionID);
                     const qsizetype split = std::max<qsizetype>(0, page.older.size() - std::max(loaded, 1));
                     const QList<Message> newest = page.older.mid(split);
                     page.older.resize(split);
                     page.messages = store->withParts(sessionID, newest);
                     return page;
                 }),
                 this, [this, generation](const Page &page) {
                     if (generation != m_generation)
                         return;
                     whenLoaded([this, page] {
                         QSet<QString> present;
                         for (const Message &m : page.older)
                             present.insert(m.id());
                         for (const MessageWithParts &m : page.messages)
                             present.insert(m.info.id());
                         const QList<Row> rows = m_rows;
                         for (const Row &r : rows) {
                             if (!present.contains(r.info.id()))
                                 removeMessage(m_sessionID, r.info.id());
                         }
                         if (m_older.removeIf([&](const Message &m) { return !present.contains(m.id()); }) > 0)
                             m_olderSummary.reset();
                         for (const MessageWithParts &m : page.messages) {
                             applyMessage(m.info);
                             const qsizetype row = rowOf(m.info.id());
                             if (row < 0 || m_rows.at(row).parts == m.parts)
                                 continue;
                             Row updated = m_rows.at(row);
                             updated.parts = m.parts;
                             replaceRow(row, std::move(updated), partRoles());
                         }
                         updateContextBoundary();
                         updateStats();
                     });
                 });
}

} // namespace weft
