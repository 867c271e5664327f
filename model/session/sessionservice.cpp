// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessionservice.h"
#include "sessionstore.h"

#include "store/sessionlock.h"
#include "store/sessiontrash.h"
#include "store/store.h"
#include "store/storewatcher.h"

#include "core/identifier.h"
#include "core/logging.h"
#include "core/project.h"
#include "core/tr.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QHash>
#include <QPointer>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QtConcurrent/QtConcurrentRun>

using namespace Qt::StringLiterals;

namespace weft
{

void registerMetaTypes()
{
    static const bool done = [] {
        qRegisterMetaType<weft::Session>();
        qRegisterMetaType<weft::Message>();
        qRegisterMetaType<weft::Part>();
        qRegisterMetaType<weft::FileDiff>();
        qRegisterMetaType<weft::MessageError>();
        qRegisterMetaType<weft::MessageWithParts>();
        qRegisterMetaType<QList<weft::FileDiff>>();
        qRegisterMetaType<weft::Todo>();
        qRegisterMetaType<QList<weft::Todo>>();
        qRegisterMetaType<QList<weft::StoreChange>>();
        return true;
    }();
    Q_UNUSED(done)
}

SessionService::SessionService(std::shared_ptr<Store> store, QObject *parent)
    : QObject(parent)
    , m_store(std::move(store))
{
    registerMetaTypes();
    QPointer<SessionService> self(this);
    m_store->setProblemHandler([self](const StoreProblem &problem) {
        if (self)
            Q_EMIT self->problemFound(problem.location, problem.reason);
    });
}

std::shared_ptr<Store> storeOf(const SessionService &service)
{
    return service.m_store;
}

StoreCapabilities SessionService::capabilities() const
{
    return m_store->capabilities();
}

QList<StoreProblem> SessionService::problems() const
{
    return m_store->problems();
}

InterruptedRuns SessionService::recovery() const
{
    return m_store->recovery();
}

InterruptedRuns SessionService::closeInterruptedRuns()
{
    return m_store->closeInterruptedRuns();
}

QString SessionService::sessionFile(const QString &sessionID) const
{
    return m_store->sessionFile(sessionID);
}

StoreWatcher *SessionService::watcher() const
{
    return m_watcher;
}

SessionService::~SessionService()
{
    stopWatching();
    m_store->setProblemHandler({});
}

QFuture<SessionService::Changes> SessionService::changes(const QString &sessionID, const QString &turnID) const
{
    // The store, not the service, goes with the work: it stays alive until the read is done.
    return QtConcurrent::run([store = m_store, sessionID, turnID] {
        Changes changes;
        changes.session = store->session(sessionID);
        if (turnID.isEmpty()) {
            changes.diffs = store->sessionDiff(sessionID);
            return changes;
        }
        if (const std::optional<Message> message = store->message(sessionID, turnID))
            changes.diffs = message->summaryDiffs();
        changes.prompt = promptOf(store->parts(sessionID, turnID));
        return changes;
    });
}

QFuture<QList<MessageWithParts>> SessionService::messagesLater(const QString &sessionID, const QSet<QString> &skip) const
{
    return QtConcurrent::run([store = m_store, sessionID, skip] {
        if (skip.isEmpty())
            return store->messagesWithParts(sessionID);
        QStringList ids = store->messageIDs(sessionID);
        ids.removeIf([&](const QString &id) { return skip.contains(id); });
        return store->withParts(sessionID, store->messagesByID(sessionID, ids));
    });
}

QString SessionService::promptOf(const QList<Part> &parts)
{
    for (const Part &part : parts) {
        if (part.type() == PartType::Text && !part.isSynthetic())
            return part.text().simplified();
    }
    return {};
}

void SessionService::startWatching()
{
    if (m_watcher)
        return;
    if (StoreWatcher *watcher = m_store->createWatcher(this))
        startWatching(watcher);
}

void SessionService::startWatching(StoreWatcher *watcher)
{
    stopWatching();
    m_watcher = watcher;
    watcher->setParent(this);
    connect(watcher, &StoreWatcher::started, this, &SessionService::watchingStarted);
    connect(watcher, &StoreWatcher::changed, this, &SessionService::announce);
    watcher->start();
}

void SessionService::stopWatching()
{
    if (!m_watcher)
        return;
    m_watcher->stop();
    delete m_watcher.data();
}

void SessionService::followSession(const QString &sessionID, const QStringList &recentMessageIDs)
{
    if (!m_watcher && !sessionID.isEmpty())
        startWatching();
    if (m_watcher)
        m_watcher->follow(sessionID, recentMessageIDs);
}

void SessionService::announce(const QList<StoreChange> &changes)
{
    for (const StoreChange &c : changes) {
        switch (c.kind) {
        case StoreChange::Kind::SessionCreated:
            Q_EMIT sessionCreated(c.session);
            break;
        case StoreChange::Kind::SessionUpdated:
            Q_EMIT sessionUpdated(c.session);
            break;
        case StoreChange::Kind::SessionDeleted:
            Q_EMIT sessionDeleted(c.session);
            break;
        case StoreChange::Kind::MessageUpdated:
            Q_EMIT messageUpdated(c.message);
            break;
        case StoreChange::Kind::MessageRemoved:
            Q_EMIT messageRemoved(c.sessionID, c.messageID);
            break;
        case StoreChange::Kind::PartUpdated:
            Q_EMIT partUpdated(c.part, c.text);
            break;
        case StoreChange::Kind::PartRemoved:
            Q_EMIT partRemoved(c.sessionID, c.messageID, c.partID);
            break;
        case StoreChange::Kind::SessionChanged:
            Q_EMIT sessionChangedExternally(c.sessionID);
            break;
        case StoreChange::Kind::Problem:
            qCWarning(lcStore).noquote() << "reading" << c.location << "failed:" << c.text;
            Q_EMIT problemFound(c.location, c.text);
            break;
        }
    }
}

QString SessionService::version()
{
    return QStringLiteral(WEFT_VERSION "-weft");
}

QList<Session> SessionService::list() const
{
    QList<Session> sessions = m_store->sessions();
    std::stable_sort(sessions.begin(), sessions.end(), sessionNewerThan);
    return sessions;
}

QList<Session> SessionService::listRoots() const
{
    QList<Session> sessions = list();
    sessions.removeIf([](const Session &s) { return !s.parentID().isEmpty(); });
    return sessions;
}

std::optional<Session> SessionService::get(const QString &sessionID) const
{
    if (!Identifier::isSafeKeyComponent(sessionID))
        return std::nullopt;
    return m_store->session(sessionID);
}

QList<Session> SessionService::children(const QString &parentID) const
{
    QList<Session> result = list();
    result.removeIf([&](const Session &s) { return s.parentID() != parentID; });
    return result;
}

QList<MessageWithParts> SessionService::messages(const QString &sessionID) const
{
    if (!Identifier::isSafeKeyComponent(sessionID))
        return {};
    return m_store->messagesWithParts(sessionID);
}

void SessionService::mapMessages(const QString &sessionID, const Store::MessageMapper &map,
                                 const std::function<void(QByteArray &&)> &take) const
{
    if (Identifier::isSafeKeyComponent(sessionID))
        m_store->mapMessages(sessionID, map, take);
}

QList<FileDiff> SessionService::diff(const QString &sessionID) const
{
    if (!Identifier::isSafeKeyComponent(sessionID))
        return {};
    return m_store->sessionDiff(sessionID);
}

QList<Todo> SessionService::todos(const QString &sessionID) const
{
    if (!Identifier::isSafeKeyComponent(sessionID))
        return {};
    return m_store->todos(sessionID);
}

Result<void> SessionService::ensureWritable() const
{
    if (m_store->isReadOnly())
        return Error{
            SessionTr::tr(
                "%1 is read-only (an OpenCode database); import the session into Weft's own store to change it")
                .arg(m_store->location()),
            {}};
    return {};
}

namespace
{
/// The file of an imported session's note, or empty when the store keeps none.
QString importNotePath(const Store *store, const QString &sessionID)
{
    const QString dataDir = store->weftDataDir();
    if (dataDir.isEmpty() || !Identifier::isSafeKeyComponent(sessionID))
        return {};
    return dataDir + u"/weft-imported/"_s + sessionID + u".json"_s;
}
} // namespace

std::optional<SessionService::ImportNote> SessionService::importNote(const QString &sessionID) const
{
    const QString path = importNotePath(m_store.get(), sessionID);
    if (path.isEmpty())
        return std::nullopt;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const std::optional<JsonValue> value = parseJson(file.readAll());
    ImportNote note;
    // A damaged note still marks the session as imported: it is never treated as confirmed.
    if (!value || !value->isObject()) {
        qCWarning(lcSession) << "damaged import note" << path;
        return note;
    }
    const JsonObject o = value->toObject();
    note.directory = o.string(u"directory");
    note.confirmed = o.value(u"confirmed").isBool() && o.value(u"confirmed").toBool();
    note.time = qint64(o.value(u"time").toDouble());
    for (const JsonValue &v : o.array(u"dropped")) {
        if (auto rule = PermissionRule::fromJson(v.toObject()))
            note.dropped.append(*rule);
    }
    return note;
}

Result<void> SessionService::writeImportNote(const QString &sessionID, const ImportNote &note)
{
    const QString path = importNotePath(m_store.get(), sessionID);
    if (path.isEmpty())
        return Error{SessionTr::tr("%1 cannot keep the note of an imported session").arg(m_store->location()), {}};
    JsonArray dropped;
    for (const PermissionRule &rule : note.dropped)
        dropped.append(rule.toJson());
    const JsonObject o{{u"directory"_s, note.directory},
                       {u"confirmed"_s, note.confirmed},
                       {u"time"_s, double(note.time)},
                       {u"dropped"_s, dropped}};
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return Error{SessionTr::tr("cannot create the folder of imported sessions"), QFileInfo(path).absolutePath()};
    QSaveFile file(path);
    const QByteArray bytes = toJson(o, 2) + '\n';
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return Error{SessionTr::tr("cannot write the note of an imported session: %1").arg(file.errorString()), path};
    return {};
}

Result<void> SessionService::confirmImportedDirectory(const QString &sessionID)
{
    const std::optional<Session> session = get(sessionID);
    if (!session)
        return Error{SessionTr::tr("no session with ID \"%1\"").arg(sessionID), {}};
    return confirmImportedDirectory(*session);
}

Result<void> SessionService::confirmImportedDirectory(const Session &session)
{
    std::optional<ImportNote> note = importNote(session.id());
    if (!note)
        return {}; // not imported: nothing to confirm
    note->directory = session.directory();
    note->confirmed = true;
    if (auto r = writeImportNote(session.id(), *note); !r)
        return r;
    qCInfo(lcSession) << "the directory" << note->directory << "of imported session" << session.id() << "was confirmed";
    return {};
}

namespace
{
Result<void> confirmedFor(const QString &sessionID, const SessionService::ImportNote &note, const QString &directory)
{
    if (note.confirmed && note.directory == directory)
        return {};
    return Error{SessionTr::tr("session %1 was imported and works in %2, a directory you have not confirmed yet; "
                               "check that this is the folder you mean, then accept it (`weft session accept %1`, "
                               "or --accept-directory)")
                     .arg(sessionID, directory.isEmpty() ? SessionTr::tr("(no directory)") : directory),
                 {}};
}
} // namespace

Result<void> SessionService::checkDirectoryConfirmed(const QString &sessionID) const
{
    const std::optional<ImportNote> note = importNote(sessionID);
    if (!note)
        return {};
    const std::optional<Session> session = get(sessionID);
    return confirmedFor(sessionID, *note, session ? session->directory() : note->directory);
}

Result<void> SessionService::checkDirectoryConfirmed(const Session &session) const
{
    const std::optional<ImportNote> note = importNote(session.id());
    return note ? confirmedFor(session.id(), *note, session.directory()) : Result<void>();
}

QString SessionService::makeSlug()
{
    static const char16_t *const adjectives[] = {
        u"brave",  u"calm",   u"clever", u"cosmic", u"curious", u"eager",  u"fancy", u"gentle", u"glowing", u"happy",
        u"hidden", u"jolly",  u"kind",   u"lucky",  u"mighty",  u"misty",  u"neon",  u"nimble", u"proud",   u"quick",
        u"quiet",  u"shiny",  u"silent", u"swift",  u"sunny",   u"tidy",   u"witty", u"zesty",  u"bold",    u"bright"};
    static const char16_t *const nouns[] = {
        u"cabin",  u"canyon", u"comet",  u"eagle",  u"falcon", u"forest", u"garden", u"harbor", u"island", u"lagoon",
        u"meadow", u"moon",   u"nebula", u"orchid", u"otter",  u"panda",  u"planet", u"river",  u"rocket", u"squid",
        u"star",   u"tiger",  u"valley", u"wizard", u"wolf",   u"pixel",  u"engine", u"circuit", u"cactus", u"mountain"};
    auto *rng = QRandomGenerator::global();
    return QString::fromUtf16(adjectives[rng->bounded(int(std::size(adjectives)))]) + u'-'
        + QString::fromUtf16(nouns[rng->bounded(int(std::size(nouns)))]);
}

Result<Session> SessionService::create(const CreateOptions &options)
{
    Result<Session> session = prepare(options);
    if (!session)
        return session;
    if (auto r = m_store->writeSession(*session); !r)
        return r.error();
    announceCreated(*session);
    return session;
}

void SessionService::announceCreated(const Session &session)
{
    qCInfo(lcSession) << "created" << session.id();
    Q_EMIT sessionCreated(session);
    Q_EMIT sessionUpdated(session);
}

Result<Session> SessionService::prepare(const CreateOptions &options)
{
    if (auto r = ensureWritable(); !r)
        return r.error();
    if (!options.parentID.isEmpty()) {
        if (const QString why = Identifier::whyInvalid(options.parentID, Identifier::Kind::Session); !why.isEmpty())
            return Error{why, {}};
    }
    const qint64 now = options.now > 0 ? options.now : QDateTime::currentMSecsSinceEpoch();
    QString projectID = options.projectID;
    if (projectID.isEmpty()) {
        const ProjectIdentity identity = identifyProject(options.directory);
        projectID = identity.id;
        // OpenCode records every project it sees in project/<id>.json.
        const Project existing = [&] {
            for (const Project &p : m_store->projects()) {
                if (p.id() == identity.id)
                    return p;
            }
            return Project();
        }();
        Project project = existing.isNull() ? Project::make(identity.id, identity.worktree, identity.vcs, now) : existing;
        project.setUpdated(now);
        if (auto r = m_store->writeProject(project); !r)
            return r.error();
    }
    if (!Identifier::isSafeKeyComponent(projectID))
        return Error{SessionTr::tr("invalid project ID \"%1\"").arg(projectID), {}};

    // OpenCode's createNext() key order: id, slug, version, projectID, directory, parentID?,
    // title, permission?, time.
    JsonObject json{{u"id"_s, Identifier::create(Identifier::Kind::Session, true, now)},
                    {u"slug"_s, makeSlug()},
                    {u"version"_s, version()},
                    {u"projectID"_s, projectID},
                    {u"directory"_s, options.directory}};
    if (!options.parentID.isEmpty())
        json.insert(u"parentID"_s, options.parentID);
    json.insert(u"title"_s, options.title.isEmpty() ? Session::defaultTitle(!options.parentID.isEmpty(), now) : options.title);
    if (!options.permission.isEmpty()) {
        JsonArray rules;
        for (const PermissionRule &rule : options.permission)
            rules.append(rule.toJson());
        json.insert(u"permission"_s, rules);
    }
    json.insert(u"time"_s, JsonObject{{u"created"_s, now}, {u"updated"_s, now}});
    return Session(json);
}

Result<Session> SessionService::update(const QString &sessionID, const std::function<void(Session &)> &editor, bool touch)
{
    if (auto r = ensureWritable(); !r)
        return r.error();
    std::optional<Session> session = get(sessionID);
    if (!session)
        return Error{SessionTr::tr("no session with ID \"%1\"").arg(sessionID), {}};
    editor(*session);
    if (touch)
        session->setUpdated(QDateTime::currentMSecsSinceEpoch());
    if (auto r = m_store->writeSession(*session); !r)
        return r.error();
    Q_EMIT sessionUpdated(*session);
    return *session;
}

Result<Session> SessionService::touch(const QString &sessionID)
{
    return update(sessionID, [](Session &) { });
}

Result<Session> SessionService::rename(const QString &sessionID, const QString &title)
{
    const QString trimmed = title.trimmed();
    if (trimmed.isEmpty())
        return Error{SessionTr::tr("a session title cannot be empty"), {}};
    return update(sessionID, [&](Session &s) { s.setTitle(trimmed); });
}

Result<Session> SessionService::setArchived(const QString &sessionID, bool archived)
{
    return update(sessionID, [&](Session &s) {
        if (archived)
            s.setTimeField(u"archived"_s, QDateTime::currentMSecsSinceEpoch());
        else
            s.removeTimeField(u"archived");
    });
}

QString SessionService::forkedTitle(const QString &title)
{
    static const QRegularExpression re(u"^(.+) \\(fork #(\\d+)\\)$"_s);
    const QRegularExpressionMatch match = re.match(title);
    if (match.hasMatch())
        return match.captured(1) + u" (fork #%1)"_s.arg(match.captured(2).toLongLong() + 1);
    return title + u" (fork #1)"_s;
}

Result<Session> SessionService::fork(const QString &sessionID, const QString &messageID)
{
    if (auto r = ensureWritable(); !r)
        return r.error();
    const std::optional<Session> original = get(sessionID);
    if (!original)
        return Error{SessionTr::tr("no session with ID \"%1\"").arg(sessionID), {}};
    QList<MessageWithParts> messages = this->messages(sessionID);
    qsizetype cut = messages.size();
    if (!messageID.isEmpty()) {
        cut = -1;
        for (qsizetype i = 0; i < messages.size(); ++i) {
            if (messages.at(i).info.id() == messageID) {
                cut = i;
                break;
            }
        }
        if (cut < 0)
            return Error{SessionTr::tr("session \"%1\" has no message \"%2\"").arg(sessionID, messageID), {}};
    }

    CreateOptions options;
    options.directory = original->directory();
    options.projectID = original->projectID();
    options.title = forkedTitle(original->title());
    // The session's file is written last: until then a crash or a failed write leaves files
    // that no session lists, never a half-copied session.
    Result<Session> prepared = prepare(options);
    if (!prepared)
        return prepared;
    const Session session = prepared.value();

    // The messages just read become the copies: edited in place, they are not copied a second
    // time (and freed twice) for a session of thousands of messages.
    messages.resize(cut);
    QList<MessageWithParts> copies = std::move(messages);
    QHash<QString, QString> idMap;
    idMap.reserve(cut);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (MessageWithParts &copy : copies) {
        const QString newID = Identifier::ascending(Identifier::Kind::Message);
        idMap.insert(copy.info.id(), newID);
        copy.info.setId(newID);
        copy.info.setSessionID(session.id());
        if (copy.info.isAssistant()) {
            const QString parent = idMap.value(copy.info.parentID());
            if (!parent.isEmpty())
                copy.info.setParentID(parent);
        }
        for (Part &part : copy.parts) {
            part.setId(Identifier::ascending(Identifier::Kind::Part));
            part.setMessageID(newID);
            part.setSessionID(session.id());
        }
        // A reply still being written (the session runs, here or in another process) ends in
        // the fork where it was: nothing will ever finish the copy.
        if (copy.isUnfinished())
            copy.closeUnfinished(u"The session was forked while this reply was being written; the fork has what "
                                 u"was written then."_s,
                                 u"The session was forked while this tool was running"_s, now);
    }
    // One batch: the store flushes once for all files rather than once per file.
    Result<void> written = m_store->writeMessages(copies);
    // A fork of an imported session whose directory is not confirmed yet is not confirmed either.
    if (written && !checkDirectoryConfirmed(sessionID)) {
        if (std::optional<ImportNote> note = importNote(sessionID)) {
            note->confirmed = false;
            written = writeImportNote(session.id(), *note);
        }
    }
    if (written)
        written = m_store->writeSession(session);
    if (!written) {
        (void)m_store->removeSession(session);
        return written.error();
    }
    announceCreated(session);
    for (const MessageWithParts &m : std::as_const(copies)) {
        Q_EMIT messageUpdated(m.info);
        for (const Part &p : m.parts)
            Q_EMIT partUpdated(p, QString());
    }
    qCInfo(lcSession) << "forked" << sessionID << "into" << session.id() << "with" << cut << "messages";
    return session;
}

Result<void> SessionService::removeRecursive(const Session &session, int depth)
{
    if (depth > 64)
        return Error{SessionTr::tr("sessions nested more than 64 levels deep (a parentID cycle?)"), session.id()};
    if (auto r = checkNotRunning(session); !r)
        return r;
    for (const Session &child : children(session.id())) {
        if (child.id() == session.id())
            continue;
        if (auto r = removeRecursive(child, depth + 1); !r)
            return r;
    }
    if (auto r = m_store->removeSession(session); !r)
        return r;
    qCInfo(lcSession) << "removed" << session.id();
    Q_EMIT sessionDeleted(session);
    return {};
}

Result<void> SessionService::checkNotRunning(const Session &session) const
{
    // A session a process is running (another one, or a run of this one) is not pulled away from it.
    if (const QString dataDir = m_store->weftDataDir(); !dataDir.isEmpty()) {
        if (const std::optional<SessionLock::Holder> holder = SessionLock::holder(dataDir, session.id()))
            return Error{SessionTr::tr("session %1 is being run by %2; stop it before deleting it").arg(
                             session.id(), holder->isThisProcess() ? SessionTr::tr("this process") : holder->describe()),
                         {}};
    }
    return {};
}

Result<void> SessionService::collectTree(const Session &session, int depth, QList<Session> &tree) const
{
    if (depth > 64)
        return Error{SessionTr::tr("sessions nested more than 64 levels deep (a parentID cycle?)"), session.id()};
    if (auto r = checkNotRunning(session); !r)
        return r;
    tree.append(session);
    for (const Session &child : children(session.id())) {
        if (child.id() == session.id())
            continue;
        if (auto r = collectTree(child, depth + 1, tree); !r)
            return r;
    }
    return {};
}

Result<SessionTrash *> SessionService::trash() const
{
    if (auto r = ensureWritable(); !r)
        return r.error();
    SessionTrash *trash = m_store->has(StoreCapability::Trash) ? m_store->trash() : nullptr;
    if (!trash)
        return Error{SessionTr::tr("these sessions have no trash"), m_store->location()};
    return trash;
}

Result<TrashEntry> SessionService::moveToTrash(const QString &sessionID)
{
    const Result<SessionTrash *> trash = this->trash();
    if (!trash)
        return trash.error();
    const std::optional<Session> session = get(sessionID);
    if (!session)
        return Error{SessionTr::tr("no session with ID \"%1\"").arg(sessionID), {}};
    QList<Session> tree;
    if (auto r = collectTree(*session, 0, tree); !r)
        return r.error();
    Result<TrashEntry> entry = (*trash)->moveIn(tree);
    if (!entry)
        return entry;
    // Children first, as remove() announces them.
    for (auto it = tree.crbegin(); it != tree.crend(); ++it)
        Q_EMIT sessionDeleted(*it);
    Q_EMIT trashChanged();
    return entry;
}

QList<TrashEntry> SessionService::trashEntries() const
{
    const Result<SessionTrash *> trash = this->trash();
    return trash ? (*trash)->entries() : QList<TrashEntry>();
}

Result<Session> SessionService::restoreFromTrash(const QString &entryID)
{
    const Result<SessionTrash *> trash = this->trash();
    if (!trash)
        return trash.error();
    const Result<QStringList> restored = (*trash)->restore(entryID);
    if (!restored)
        return restored.error();
    Q_EMIT trashChanged();
    std::optional<Session> deleted;
    for (const QString &id : *restored) {
        if (const std::optional<Session> s = get(id)) {
            if (!deleted)
                deleted = s;
            Q_EMIT sessionCreated(*s);
        }
    }
    if (!deleted)
        return Error{SessionTr::tr("the restored session cannot be read"), restored->value(0)};
    qCInfo(lcSession) << "restored" << deleted->id() << "from the trash";
    return *deleted;
}

Result<void> SessionService::deleteFromTrash(const QString &entryID)
{
    const Result<SessionTrash *> trash = this->trash();
    if (!trash)
        return trash.error();
    Result<void> r = (*trash)->erase(entryID);
    Q_EMIT trashChanged();
    return r;
}

Result<void> SessionService::emptyTrash()
{
    const Result<SessionTrash *> trash = this->trash();
    if (!trash)
        return trash.error();
    Result<void> r = (*trash)->empty();
    Q_EMIT trashChanged();
    return r;
}

template<typename R, typename Work>
QFuture<R> SessionService::later(R ifGone, Work work) const
{
    std::shared_ptr<SessionService> self = std::const_pointer_cast<SessionService>(weak_from_this().lock());
    if (!self) {
        qCWarning(lcSession) << "a SessionService no std::shared_ptr owns cannot work off the calling thread";
        return QtFuture::makeReadyValueFuture(std::move(ifGone));
    }
    return QtConcurrent::run([self = std::move(self), work = std::move(work)] { return R(work(*self)); });
}

QFuture<QList<TrashEntry>> SessionService::trashEntriesLater() const
{
    return later(QList<TrashEntry>(), [](const SessionService &s) { return s.trashEntries(); });
}

namespace
{
Error notShared()
{
    return Error{SessionTr::tr("the trash is closed"), {}};
}
} // namespace

QFuture<Result<Session>> SessionService::restoreFromTrashLater(const QString &entryID)
{
    return later(Result<Session>(notShared()), [entryID](SessionService &s) { return s.restoreFromTrash(entryID); });
}

QFuture<Result<void>> SessionService::deleteFromTrashLater(const QString &entryID)
{
    return later(Result<void>(notShared()), [entryID](SessionService &s) { return s.deleteFromTrash(entryID); });
}

QFuture<Result<void>> SessionService::emptyTrashLater()
{
    return later(Result<void>(notShared()), [](SessionService &s) { return s.emptyTrash(); });
}

int SessionService::purgeTrash(qint64 now)
{
    const Result<SessionTrash *> trash = this->trash();
    if (!trash)
        return 0;
    const int purged = (*trash)->purge(now > 0 ? now : QDateTime::currentMSecsSinceEpoch());
    if (purged > 0)
        Q_EMIT trashChanged();
    return purged;
}

Result<void> SessionService::remove(const QString &sessionID)
{
    if (auto r = ensureWritable(); !r)
        return r;
    const std::optional<Session> session = get(sessionID);
    if (!session)
        return Error{SessionTr::tr("no session with ID \"%1\"").arg(sessionID), {}};
    return removeRecursive(*session, 0);
}

Result<void> SessionService::setDiff(const QString &sessionID, const QList<FileDiff> &diffs)
{
    if (auto r = ensureWritable(); !r)
        return r;
    if (auto r = m_store->writeSessionDiff(sessionID, diffs); !r)
        return r;
    Q_EMIT sessionDiffChanged(sessionID, diffs);
    return {};
}

Result<void> SessionService::setTodos(const QString &sessionID, const QList<Todo> &todos)
{
    if (auto r = ensureWritable(); !r)
        return r;
    if (auto r = m_store->writeTodos(sessionID, todos); !r)
        return r;
    Q_EMIT todosChanged(sessionID, todos);
    return {};
}

Result<Message> SessionService::updateMessage(const Message &message)
{
    if (auto r = ensureWritable(); !r)
        return r.error();
    if (auto r = m_store->writeMessage(message); !r)
        return r.error();
    Q_EMIT messageUpdated(message);
    return message;
}

Result<void> SessionService::removeMessage(const QString &sessionID, const QString &messageID)
{
    if (auto r = ensureWritable(); !r)
        return r;
    if (auto r = m_store->removeMessage(sessionID, messageID); !r)
        return r;
    Q_EMIT messageRemoved(sessionID, messageID);
    return {};
}

Result<Part> SessionService::updatePart(const Part &part, const QString &delta)
{
    if (auto r = ensureWritable(); !r)
        return r.error();
    if (auto r = m_store->writePart(part); !r)
        return r.error();
    Q_EMIT partUpdated(part, delta);
    return part;
}

Result<void> SessionService::removePart(const QString &sessionID, const QString &messageID, const QString &partID)
{
    if (auto r = ensureWritable(); !r)
        return r;
    if (auto r = m_store->removePart(sessionID, messageID, partID); !r)
        return r;
    Q_EMIT partRemoved(sessionID, messageID, partID);
    return {};
}

Result<void> SessionService::storeStreamingPart(const Part &part, const QString &delta)
{
    if (auto r = ensureWritable(); !r)
        return r;
    return m_store->writePartStreaming(part, delta);
}

void SessionService::announcePart(const Part &part, const QString &delta)
{
    Q_EMIT partUpdated(part, delta);
}

void SessionService::reportError(const QString &sessionID, const MessageError &error)
{
    qCWarning(lcSession).noquote() << "session" << sessionID << "error:" << error.name() << error.message();
    Q_EMIT sessionError(sessionID, error);
}

void SessionService::announceCompacted(const QString &sessionID)
{
    Q_EMIT sessionCompacted(sessionID);
}

} // namespace weft
