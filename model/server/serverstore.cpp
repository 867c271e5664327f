// SPDX-License-Identifier: GPL-3.0-or-later
#include "serverstore.h"

#include "core/tr.h"
#include "servereventwatcher.h"

#include "core/logging.h"
#include "opencodedb/sessionmessagev2.h"
#include "store/storereads.h"

#include <QMutexLocker>
#include <QSet>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{

/// How long a session's messages, once read, answer the next reads.
constexpr qint64 CacheMs = 3000;

/// @p id as one path segment of a route.
QString segment(const QString &id)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(id));
}

/// `directory=` @p directory: the server's instance of that folder handles the request.
QUrlQuery directoryQuery(const QString &directory)
{
    QUrlQuery query;
    if (!directory.isEmpty())
        query.addQueryItem(u"directory"_s, segment(directory));
    return query;
}

QString pathOf(const QString &sessionID, const QString &tail = {})
{
    return u"/session/"_s + segment(sessionID) + tail;
}

QString v2PathOf(const QString &sessionID, const QString &tail)
{
    return u"/api/session/"_s + segment(sessionID) + tail;
}

/// "provider/model" as the `{providerID, modelID}` of OpenCode's routes; null when malformed.
std::optional<JsonObject> modelRef(const QString &model)
{
    const qsizetype slash = model.indexOf(u'/');
    if (slash <= 0 || slash == model.size() - 1)
        return std::nullopt;
    return JsonObject{{u"providerID"_s, model.left(slash)}, {u"modelID"_s, model.mid(slash + 1)}};
}

bool byTime(const MessageWithParts &a, const MessageWithParts &b)
{
    if (a.info.created() != b.info.created())
        return a.info.created() < b.info.created();
    return a.info.id() < b.info.id();
}

} // namespace

QFuture<Result<std::shared_ptr<ServerStore>>> ServerStore::connect(const ServerClient &client)
{
    return client.probe().then([client](const Result<ServerInfo> &info) -> Result<std::shared_ptr<ServerStore>> {
        if (!info)
            return info.error();
        return std::make_shared<ServerStore>(client, info.value());
    });
}

Result<JsonValue> ServerStore::get(const QString &path, const QUrlQuery &query) const
{
    return ServerClient::wait(m_client.get(path, query));
}

Result<JsonValue> ServerStore::post(const QString &path, const JsonValue &body, const QUrlQuery &query,
                                    int timeoutMs) const
{
    return ServerClient::wait(m_client.post(path, body, query, timeoutMs));
}

Result<JsonValue> ServerStore::del(const QString &path, const QUrlQuery &query, const JsonValue &body) const
{
    return ServerClient::wait(m_client.remove(path, query, body));
}

ServerStore::ServerStore(const ServerClient &client, const ServerInfo &info)
    : m_client(client)
    , m_info(info)
{
    if (m_info.v2Only())
        m_api.emplace(m_client, m_info.version);
}

ServerStore::~ServerStore() = default;

QString ServerStore::location() const
{
    return u"OpenCode %1 at %2"_s.arg(m_info.version, m_client.displayName());
}

StoreCapabilities ServerStore::capabilities() const
{
    return StoreCapability::Live | StoreCapability::RunsOnServer | StoreCapability::Importable;
}

StoreWatcher *ServerStore::createWatcher(QObject *parent)
{
    return new ServerEventWatcher(std::static_pointer_cast<ServerStore>(shared_from_this()), parent);
}

QList<Project> ServerStore::projects()
{
    StoreReads::check("projects");
    if (m_api) {
        Result<QList<Project>> projects = m_api->projects();
        if (!projects)
            reportProblem(m_client.displayName(), projects.error().message);
        return projects ? std::move(projects.value()) : QList<Project>();
    }
    const Result<JsonValue> answer = get(u"/project"_s);
    if (!answer) {
        reportProblem(m_client.displayName(), answer.error().message);
        return {};
    }
    QList<Project> result;
    for (const JsonValue &v : answer->toArray()) {
        if (v.isObject())
            result.append(Project(v.toObject()));
    }
    return result;
}

Result<QList<Session>> ServerStore::readSessions()
{
    // Every project's sessions, a page at a time (`x-next-cursor`); archived ones are left out
    // unless asked for, so both.
    QList<Session> result;
    if (m_api) {
        const Result<JsonArray> items = m_api->sessionItems();
        if (!items)
            return items.error();
        for (const JsonValue &v : *items) {
            if (Result<Session> s = ServerApiV2::sessionToV1(v, m_info.version))
                result.append(std::move(s.value()));
            else
                reportProblem(m_client.displayName() + u"/api/session"_s, s.error().toString());
        }
    }
    QSet<QString> seen;
    for (const bool archived : {false, true}) {
        if (m_api)
            break;
        QByteArray cursor;
        for (int page = 0; page < 10000; ++page) {
            QUrlQuery query{{u"limit"_s, u"1000"_s}};
            if (archived)
                query.addQueryItem(u"archived"_s, u"true"_s);
            if (!cursor.isEmpty())
                query.addQueryItem(u"cursor"_s, QString::fromLatin1(cursor));
            Result<ServerPage> answer = ServerClient::wait(m_client.getPage(u"/experimental/session"_s, query));
            if (!answer && !archived && page == 0) {
                // A server without the cross-project list: the sessions of its own project.
                answer = ServerClient::wait(m_client.getPage(u"/session"_s));
                if (answer)
                    answer = ServerPage{answer->value, {}};
            }
            if (!answer) {
                if (archived)
                    break;
                return answer.error();
            }
            bool added = false;
            for (const JsonValue &v : answer->value.toArray()) {
                Result<Session> s = Session::fromJson(v);
                if (!s) {
                    reportProblem(m_client.displayName() + u"/session"_s, s.error().toString());
                    continue;
                }
                if (seen.contains(s->id()))
                    continue;
                seen.insert(s->id());
                result.append(std::move(s.value()));
                added = true;
            }
            const QByteArray next = answer->nextCursor;
            if (next.isEmpty() || next == cursor || !added)
                break;
            cursor = next;
        }
    }
    QMutexLocker locker(&m_mutex);
    for (const Session &s : result)
        m_directories.insert(s.id(), s.directory());
    return result;
}

QList<Session> ServerStore::sessions()
{
    StoreReads::check("sessions");
    Result<QList<Session>> result = readSessions();
    if (!result) {
        reportProblem(m_client.displayName(), result.error().message);
        return {};
    }
    return std::move(result.value());
}

Result<Session> ServerStore::readSession(const QString &sessionID)
{
    Result<Session> session = Error{};
    if (m_api) {
        session = m_api->session(sessionID);
    } else {
        const Result<JsonValue> answer = get(pathOf(sessionID));
        if (!answer)
            return answer.error();
        session = Session::fromJson(answer.value());
    }
    if (session) {
        QMutexLocker locker(&m_mutex);
        m_directories.insert(session->id(), session->directory());
    }
    return session;
}

std::optional<Session> ServerStore::session(const QString &sessionID)
{
    StoreReads::check("session");
    Result<Session> result = readSession(sessionID);
    if (!result)
        return std::nullopt;
    return std::move(result.value());
}

Result<QList<MessageWithParts>> ServerStore::readV2Messages(const QString &sessionID)
{
    // Each item is the `data` of a `session_message` row with the row's `id` and `type`.
    const Result<JsonArray> items = m_api ? m_api->messageItems(sessionID)
                                          : ServerApiV2::readPages(m_client, v2PathOf(sessionID, u"/message"_s), {});
    if (!items)
        return items.error();
    return v2Messages(sessionID, *items);
}

QList<MessageWithParts> ServerStore::v2Messages(const QString &sessionID, const JsonArray &items)
{
    QList<SessionMessageV2::Row> rows;
    rows.reserve(items.size());
    for (const JsonValue &item : items) {
        JsonObject data = item.toObject();
        SessionMessageV2::Row row;
        row.id = data.string(u"id");
        row.sessionID = sessionID;
        row.type = data.string(u"type");
        row.timeCreated = data.object(u"time").integer(u"created");
        data.remove(u"id");
        data.remove(u"type");
        row.data = toJson(data, 0);
        rows.append(std::move(row));
    }
    // `seq` order: the IDs ascend with time, as the rows were written.
    std::stable_sort(rows.begin(), rows.end(), [](const SessionMessageV2::Row &a, const SessionMessageV2::Row &b) {
        return a.timeCreated != b.timeCreated ? a.timeCreated < b.timeCreated : a.id < b.id;
    });
    for (qsizetype i = 0; i < rows.size(); ++i)
        rows[i].seq = i;
    const QString directory = directoryOf(sessionID);
    JsonObject path;
    if (!directory.isEmpty())
        path = JsonObject{{u"cwd"_s, directory}, {u"root"_s, directory}};
    return SessionMessageV2::sessionToV1(rows, path, [&](const SessionMessageV2::Row &row, const QString &why) {
        reportProblem(m_client.displayName() + u"/api/session/"_s + sessionID + u"/message/"_s + row.id, why);
    });
}

Result<QList<MessageWithParts>> ServerStore::readMessages(const QString &sessionID)
{
    {
        QMutexLocker locker(&m_mutex);
        const auto it = m_cache.constFind(sessionID);
        if (it != m_cache.cend() && it->age.isValid() && it->age.elapsed() < CacheMs)
            return it->messages;
    }
    QList<MessageWithParts> result;
    if (m_api) {
        Result<QList<MessageWithParts>> v2 = readV2Messages(sessionID);
        if (!v2)
            return v2.error();
        result = std::move(v2.value());
    } else {
        const Result<JsonValue> answer = get(pathOf(sessionID, u"/message"_s));
        if (!answer)
            return answer.error();
        result = v1Messages(sessionID, answer.value());
    }
    // A session prompted through the V2 routes keeps its conversation elsewhere; one that used
    // both kinds of routes has both, shown in time order.
    if (m_info.hasV2 && !m_api) {
        Result<QList<MessageWithParts>> v2 = readV2Messages(sessionID);
        if (v2 && !v2->isEmpty()) {
            result.append(std::move(v2.value()));
            markV2(sessionID);
        } else if (!v2) {
            qCDebug(lcStore) << "no V2 messages for" << sessionID << v2.error().toString();
        }
    }
    std::stable_sort(result.begin(), result.end(), byTime);
    QMutexLocker locker(&m_mutex);
    Cached &cached = m_cache[sessionID];
    cached.messages = result;
    cached.age.start();
    return result;
}

QList<MessageWithParts> ServerStore::v1Messages(const QString &sessionID, const JsonValue &answer)
{
    QList<MessageWithParts> result;
    for (const JsonValue &v : answer.toArray()) {
        const JsonObject o = v.toObject();
        Result<Message> info = Message::fromJson(o.value(u"info"));
        if (!info) {
            reportProblem(m_client.displayName() + pathOf(sessionID, u"/message"_s), info.error().toString());
            continue;
        }
        MessageWithParts m{std::move(info.value()), {}};
        for (const JsonValue &pv : o.value(u"parts").toArray()) {
            if (Result<Part> part = Part::fromJson(pv))
                m.parts.append(std::move(part.value()));
            else
                reportProblem(m_client.displayName() + pathOf(sessionID, u"/message/"_s + m.info.id()),
                              part.error().toString());
        }
        std::sort(m.parts.begin(), m.parts.end(), [](const Part &a, const Part &b) { return a.id() < b.id(); });
        result.append(std::move(m));
    }
    return result;
}

NewestMessages ServerStore::newestMessages(const QString &sessionID, qsizetype count)
{
    StoreReads::check("newestMessages");
    // The whole session when it is read already (cached), or has V2 messages (whose route pages
    // by a cursor of its own); else the newest page of the V1 route alone (`?limit=`: OpenCode
    // answers the newest, in order), without the 32 MB of a long session before the first frame.
    // The others are read after it, whole (olderListed false).
    bool whole = false;
    {
        QMutexLocker locker(&m_mutex);
        const auto it = m_cache.constFind(sessionID);
        whole = (it != m_cache.cend() && it->age.isValid() && it->age.elapsed() < CacheMs)
            || m_v2Sessions.contains(sessionID);
    }
    if (whole)
        return Store::newestMessages(sessionID, count);
    if (m_api) {
        // OpenCode 2: the newest page alone (`limit`, newest first); the others are read after
        // it, whole.
        const Result<JsonValue> page
            = get(v2PathOf(sessionID, u"/message"_s), QUrlQuery{{u"limit"_s, QString::number(count)}});
        if (!page)
            return Store::newestMessages(sessionID, count); // which reports the error
        const JsonArray items = page->toObject().array(u"data");
        NewestMessages result;
        result.messages = v2Messages(sessionID, items);
        result.olderListed = items.size() < count;
        return result;
    }
    if (m_info.hasV2) {
        const Result<JsonValue> v2 = get(v2PathOf(sessionID, u"/message"_s));
        if (!v2 || !v2->toObject().value(u"data").toArray().isEmpty())
            return Store::newestMessages(sessionID, count);
    }
    QUrlQuery query;
    query.addQueryItem(u"limit"_s, QString::number(count));
    const Result<JsonValue> answer = get(pathOf(sessionID, u"/message"_s), query);
    if (!answer)
        return Store::newestMessages(sessionID, count); // which reports the error
    NewestMessages result;
    result.messages = v1Messages(sessionID, answer.value());
    std::stable_sort(result.messages.begin(), result.messages.end(), byTime);
    result.olderListed = result.messages.size() < count; // fewer: there are no others
    if (result.messages.size() > count) {
        // A server that ignores `limit` answers the whole session: its older messages are known.
        const qsizetype split = result.messages.size() - count;
        for (qsizetype i = 0; i < split; ++i)
            result.olderIDs.append(result.messages.at(i).info.id());
        result.messages.remove(0, split);
        result.olderListed = true;
    }
    return result;
}

void ServerStore::forget(const QString &sessionID)
{
    QMutexLocker locker(&m_mutex);
    m_cache.remove(sessionID);
}

void ServerStore::markV2(const QString &sessionID)
{
    QMutexLocker locker(&m_mutex);
    m_v2Sessions.insert(sessionID);
}

bool ServerStore::isV2(const QString &sessionID)
{
    if (m_api)
        return true;
    {
        QMutexLocker locker(&m_mutex);
        if (m_v2Sessions.contains(sessionID))
            return true;
    }
    if (!m_info.hasV2)
        return false;
    // A session never read: its messages say which it is.
    (void)readMessages(sessionID);
    QMutexLocker locker(&m_mutex);
    return m_v2Sessions.contains(sessionID);
}

QList<MessageWithParts> ServerStore::messagesWithParts(const QString &sessionID)
{
    StoreReads::check("messagesWithParts");
    Result<QList<MessageWithParts>> result = readMessages(sessionID);
    if (!result) {
        reportProblem(m_client.displayName() + pathOf(sessionID), result.error().message);
        return {};
    }
    return std::move(result.value());
}

QList<Message> ServerStore::messages(const QString &sessionID)
{
    StoreReads::check("messages");
    QList<Message> result;
    for (MessageWithParts &m : messagesWithParts(sessionID))
        result.append(std::move(m.info));
    return result;
}

QList<Part> ServerStore::parts(const QString &sessionID, const QString &messageID)
{
    StoreReads::check("parts");
    for (MessageWithParts &m : messagesWithParts(sessionID)) {
        if (m.info.id() == messageID)
            return std::move(m.parts);
    }
    return {};
}

std::optional<Message> ServerStore::message(const QString &sessionID, const QString &messageID)
{
    StoreReads::check("message");
    for (MessageWithParts &m : messagesWithParts(sessionID)) {
        if (m.info.id() == messageID)
            return std::move(m.info);
    }
    return std::nullopt;
}

QList<MessageWithParts> ServerStore::withParts(const QString &sessionID, const QList<Message> &infos)
{
    StoreReads::check("withParts");
    if (infos.isEmpty())
        return {};
    QHash<QString, QList<Part>> parts;
    for (MessageWithParts &m : messagesWithParts(sessionID))
        parts.insert(m.info.id(), std::move(m.parts));
    QList<MessageWithParts> result;
    result.reserve(infos.size());
    for (const Message &info : infos)
        result.append({info, parts.value(info.id())});
    return result;
}

QList<FileDiff> ServerStore::sessionDiff(const QString &sessionID)
{
    StoreReads::check("sessionDiff");
    if (m_api)
        return {}; // OpenCode 2 keeps no per-session diff (its messages carry their files)
    const Result<JsonValue> answer = get(pathOf(sessionID, u"/diff"_s));
    if (!answer)
        return {};
    QList<FileDiff> result;
    for (const JsonValue &v : answer->toArray()) {
        if (v.isObject())
            result.append(FileDiff(v.toObject()));
    }
    return result;
}

Result<void> ServerStore::readOnly()
{
    return Error{
        ServerTr::tr(
            "the sessions of an OpenCode server are changed by the server (through its API), not written by Weft"),
        {}};
}

Result<void> ServerStore::writeProject(const Project &) { return readOnly(); }
Result<void> ServerStore::writeSession(const Session &) { return readOnly(); }
Result<void> ServerStore::writeMessage(const Message &) { return readOnly(); }
Result<void> ServerStore::writePart(const Part &) { return readOnly(); }
Result<void> ServerStore::writeSessionDiff(const QString &, const QList<FileDiff> &) { return readOnly(); }
Result<void> ServerStore::removeMessage(const QString &, const QString &) { return readOnly(); }
Result<void> ServerStore::removePart(const QString &, const QString &, const QString &) { return readOnly(); }

Result<void> ServerStore::removeSession(const Session &session)
{
    // SessionService::remove() removes children first, then the session: the server does both.
    return remove(session.id());
}

QString ServerStore::directoryOf(const QString &sessionID)
{
    {
        QMutexLocker locker(&m_mutex);
        if (const QString known = m_directories.value(sessionID); !known.isEmpty())
            return known;
    }
    const Result<Session> s = readSession(sessionID);
    return s ? s->directory() : QString();
}

QUrlQuery ServerStore::instanceOf(const QString &sessionID)
{
    return directoryQuery(directoryOf(sessionID));
}

Result<QString> ServerStore::defaultDirectory()
{
    if (m_api)
        return m_api->defaultDirectory();
    const Result<JsonValue> answer = get(u"/path"_s);
    if (!answer)
        return answer.error();
    return answer->toObject().string(u"directory");
}

Result<Session> ServerStore::create(const QString &directory, const QString &title)
{
    Result<Session> session = Error{};
    if (m_api) {
        session = m_api->create(directory, title);
    } else {
        JsonObject body;
        if (!title.isEmpty())
            body.insert(u"title"_s, title);
        const Result<JsonValue> answer = post(u"/session"_s, body, directoryQuery(directory));
        if (!answer)
            return answer.error();
        session = Session::fromJson(answer.value());
    }
    if (session) {
        QMutexLocker locker(&m_mutex);
        m_directories.insert(session->id(), session->directory());
    }
    return session;
}

Result<void> ServerStore::prompt(const QString &sessionID, const QString &text, const QString &agent, const QString &model,
                                 const QString &messageID, PromptDelivery delivery)
{
    if (m_api)
        return m_api->prompt(sessionID, text, agent, model, messageID, delivery);
    if (delivery != PromptDelivery::Default)
        return Error{ServerTr::tr("steering or queueing a prompt needs an OpenCode 2 server (this is OpenCode %1)")
                         .arg(m_info.version),
                     {}};
    if (isV2(sessionID)) {
        // V2: the prompt is admitted and runs; agent and model are the session's.
        JsonObject body{{u"prompt"_s, JsonObject{{u"text"_s, text}}}};
        if (!messageID.isEmpty())
            body.insert(u"id"_s, messageID);
        const Result<JsonValue> answer = post(v2PathOf(sessionID, u"/prompt"_s), body);
        if (!answer)
            return answer.error();
        return {};
    }
    JsonObject body;
    if (!messageID.isEmpty())
        body.insert(u"messageID"_s, messageID);
    body.insert(u"parts"_s, JsonArray{JsonObject{{u"type"_s, u"text"_s}, {u"text"_s, text}}});
    if (!agent.isEmpty())
        body.insert(u"agent"_s, agent);
    if (!model.isEmpty()) {
        const std::optional<JsonObject> ref = modelRef(model);
        if (!ref)
            return Error{ServerTr::tr("a model is named PROVIDER/MODEL, not \"%1\"").arg(model), {}};
        body.insert(u"model"_s, *ref);
    }
    const Result<JsonValue> answer = post(pathOf(sessionID, u"/prompt_async"_s), body, instanceOf(sessionID));
    if (!answer)
        return answer.error();
    return {};
}

Result<void> ServerStore::abort(const QString &sessionID)
{
    if (m_api)
        return m_api->interrupt(sessionID);
    if (isV2(sessionID)) {
        const Result<JsonValue> answer = post(v2PathOf(sessionID, u"/interrupt"_s), JsonObject());
        if (!answer)
            return answer.error();
        return {};
    }
    const Result<JsonValue> answer = post(pathOf(sessionID, u"/abort"_s), JsonObject(), instanceOf(sessionID));
    if (!answer)
        return answer.error();
    return {};
}

Error ServerStore::worktreeError(const Error &error)
{
    // A server without the routes answers 404 (OpenCode 2 serves its web page there: not JSON).
    if (error.message.contains(u"(HTTP 404)") || error.message.contains(u"not JSON"))
        return Error{ServerTr::tr("worktrees are not available on this server"), error.where};
    return error;
}

Result<QStringList> ServerStore::worktrees(const QString &sessionID)
{
    if (m_api)
        return Error{ServerTr::tr("worktrees are not available on this server"), {}};
    const Result<JsonValue> answer = get(u"/experimental/worktree"_s, instanceOf(sessionID));
    if (!answer)
        return worktreeError(answer.error());
    QStringList folders;
    for (const JsonValue &folder : answer->toArray()) {
        if (folder.isString())
            folders.append(folder.toString());
    }
    return folders;
}

Result<JsonObject> ServerStore::createWorktree(const QString &sessionID, const QString &name)
{
    if (m_api)
        return Error{ServerTr::tr("worktrees are not available on this server"), {}};
    JsonObject body;
    if (!name.isEmpty())
        body.insert(u"name"_s, name);
    // Its start command runs before the answer: up to 10 minutes.
    const Result<JsonValue> answer = post(u"/experimental/worktree"_s, body, instanceOf(sessionID), 10 * 60 * 1000);
    if (!answer)
        return worktreeError(answer.error());
    const JsonObject made = answer->toObject();
    if (made.string(u"directory").isEmpty())
        return Error{ServerTr::tr("the server made no worktree"), {}};
    return made;
}

Result<void> ServerStore::removeWorktree(const QString &sessionID, const QString &worktree)
{
    if (m_api)
        return Error{ServerTr::tr("worktrees are not available on this server"), {}};
    const Result<JsonValue> answer
        = del(u"/experimental/worktree"_s, instanceOf(sessionID), JsonObject{{u"directory"_s, worktree}});
    if (!answer)
        return worktreeError(answer.error());
    return {};
}

Result<Session> ServerStore::fork(const QString &sessionID, const QString &messageID)
{
    if (m_api)
        return m_api->fork(sessionID, messageID);
    JsonObject body;
    if (!messageID.isEmpty())
        body.insert(u"messageID"_s, messageID);
    const Result<JsonValue> answer = post(pathOf(sessionID, u"/fork"_s), body, instanceOf(sessionID));
    if (!answer)
        return answer.error();
    return Session::fromJson(answer.value());
}

Result<void> ServerStore::compact(const QString &sessionID, const QString &model)
{
    if (m_api) {
        // OpenCode 2 compacts with the session's own model.
        const Result<void> compacted = m_api->compact(sessionID);
        forget(sessionID);
        return compacted;
    }
    std::optional<JsonObject> ref;
    if (!model.isEmpty()) {
        ref = modelRef(model);
        if (!ref)
            return Error{ServerTr::tr("a model is named PROVIDER/MODEL, not \"%1\"").arg(model), {}};
    } else {
        // The model the session last used, as OpenCode's TUI does.
        const Result<QList<MessageWithParts>> messages = readMessages(sessionID);
        if (!messages)
            return messages.error();
        for (auto it = messages->crbegin(); it != messages->crend() && !ref; ++it) {
            const Message &m = it->info;
            if (m.isAssistant() && !m.providerID().isEmpty())
                ref = JsonObject{{u"providerID"_s, m.providerID()}, {u"modelID"_s, m.modelID()}};
            else if (m.isUser() && !m.modelProviderID().isEmpty())
                ref = JsonObject{{u"providerID"_s, m.modelProviderID()}, {u"modelID"_s, m.modelModelID()}};
        }
        if (!ref)
            return Error{ServerTr::tr("the session has used no model yet: name one with --model PROVIDER/MODEL"), {}};
    }
    const Result<JsonValue> answer
        = post(pathOf(sessionID, u"/summarize"_s), *ref, instanceOf(sessionID), 10 * 60 * 1000);
    forget(sessionID);
    if (!answer)
        return answer.error();
    return {};
}

Result<Session> ServerStore::revert(const QString &sessionID, const QString &messageID, const QString &partID)
{
    if (m_api) {
        // OpenCode 2 reverts whole messages.
        forget(sessionID);
        return m_api->revert(sessionID, messageID);
    }
    JsonObject body{{u"messageID"_s, messageID}};
    if (!partID.isEmpty())
        body.insert(u"partID"_s, partID);
    const Result<JsonValue> answer = post(pathOf(sessionID, u"/revert"_s), body, instanceOf(sessionID));
    forget(sessionID);
    if (!answer)
        return answer.error();
    return Session::fromJson(answer.value());
}

Result<Session> ServerStore::unrevert(const QString &sessionID)
{
    if (m_api) {
        forget(sessionID);
        return m_api->unrevert(sessionID);
    }
    const Result<JsonValue> answer = post(pathOf(sessionID, u"/unrevert"_s), JsonObject(), instanceOf(sessionID));
    forget(sessionID);
    if (!answer)
        return answer.error();
    return Session::fromJson(answer.value());
}

Result<void> ServerStore::remove(const QString &sessionID)
{
    if (m_api) {
        forget(sessionID);
        return m_api->remove(sessionID);
    }
    const QUrlQuery query = instanceOf(sessionID);
    const Result<JsonValue> answer = del(pathOf(sessionID), query);
    forget(sessionID);
    if (!answer)
        return answer.error();
    return {};
}

Result<void> ServerStore::replyPermission(const QString &sessionID, const QString &requestID, const QString &reply,
                                          bool v2)
{
    if (v2 || m_api) {
        const Result<JsonValue> answer = post(
            v2PathOf(sessionID, u"/permission/"_s + segment(requestID) + u"/reply"_s),
            JsonObject{{u"reply"_s, reply}});
        if (!answer)
            return answer.error();
        return {};
    }
    const Result<JsonValue> answer
        = post(u"/permission/"_s + segment(requestID) + u"/reply"_s,
                        JsonObject{{u"reply"_s, reply}}, instanceOf(sessionID));
    if (!answer)
        return answer.error();
    return {};
}

Result<void> ServerStore::replyQuestion(const QString &sessionID, const QString &requestID,
                                        const QList<QStringList> &answers, bool v2)
{
    JsonArray list;
    for (const QStringList &answer : answers) {
        JsonArray labels;
        for (const QString &label : answer)
            labels.append(label);
        list.append(labels);
    }
    const QString id = segment(requestID);
    v2 = v2 || m_api;
    const Result<JsonValue> answer
        = v2 ? post(v2PathOf(sessionID, u"/question/"_s + id + u"/reply"_s), JsonObject{{u"answers"_s, list}})
             : post(u"/question/"_s + id + u"/reply"_s, JsonObject{{u"answers"_s, list}}, instanceOf(sessionID));
    if (!answer)
        return answer.error();
    return {};
}

Result<void> ServerStore::rejectQuestion(const QString &sessionID, const QString &requestID, bool v2)
{
    const QString id = segment(requestID);
    v2 = v2 || m_api;
    const Result<JsonValue> answer = v2 ? post(v2PathOf(sessionID, u"/question/"_s + id + u"/reject"_s), JsonObject())
                                        : post(u"/question/"_s + id + u"/reject"_s, JsonObject(), instanceOf(sessionID));
    if (!answer)
        return answer.error();
    return {};
}

Result<void> ServerStore::replyForm(const JsonObject &form, const QList<QStringList> &answers)
{
    if (!m_api)
        return Error{ServerTr::tr("forms are OpenCode 2's"), {}};
    const JsonObject info = form.object(u"formInfo");
    return m_api->replyForm(info.string(u"sessionID"), info.string(u"id"), ServerApiV2::formAnswer(info, answers));
}

Result<void> ServerStore::cancelForm(const JsonObject &form)
{
    if (!m_api)
        return Error{ServerTr::tr("forms are OpenCode 2's"), {}};
    const JsonObject info = form.object(u"formInfo");
    return m_api->cancelForm(info.string(u"sessionID"), info.string(u"id"));
}


Result<Session> ServerStore::rename(const QString &sessionID, const QString &title)
{
    if (m_api) {
        if (const Result<void> renamed = m_api->rename(sessionID, title); !renamed)
            return renamed.error();
        return m_api->session(sessionID);
    }
    const Result<JsonValue> answer = ServerClient::wait(
        m_client.patch(pathOf(sessionID), JsonObject{{u"title"_s, title}}, instanceOf(sessionID)));
    if (!answer)
        return answer.error();
    return Session::fromJson(answer.value());
}


Result<JsonArray> ServerStore::agents(const QString &directory)
{
    if (m_api)
        return m_api->agents(directory);
    return JsonArray();
}

Result<JsonArray> ServerStore::models(const QString &directory)
{
    if (m_api)
        return m_api->models(directory);
    return JsonArray();
}

Result<QString> ServerStore::defaultModel(const QString &directory)
{
    if (!m_api)
        return QString();
    const Result<JsonObject> model = m_api->defaultModel(directory);
    if (!model)
        return model.error();
    if (model->string(u"id").isEmpty())
        return QString(); // none configured (`data: null`)
    return QString(model->string(u"providerID") + u'/' + model->string(u"id"));
}

} // namespace weft
