// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"
#include "clicommand.h"
#include "clidb.h"
#include "climcp.h"
#include "cliquestion.h"
#include "cliserver.h"
#include "cliservice.h"
#include "cliworktree.h"
#include "interrupt.h"

#include "app/promptattachments.h"
#include "core/identifier.h"
#include "core/json.h"
#include "core/logging.h"
#include "opencodedb/opencodedatadir.h"
#include "opencodedb/opencodedbstore.h"
#include "processor/processor.h"
#include "processor/revert.h"
#include "processor/setup.h"
#include "server/serverstore.h"
#include "server/servicefile.h"
#include "session/datadir.h"
#include "session/sessionservice.h"
#include "session/transfer.h"
#include "store/sessionlock.h"
#include "store/store.h"

#include <QDir>
#include <QSet>
#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QLoggingCategory>
#include <QTextStream>

#include <atomic>
#include <charconv>
#include <cstdio>
#include <ctime>
#include <memory>
#include <unistd.h>

#if __has_include(<malloc.h>)
#include <malloc.h>
#endif

using namespace Qt::StringLiterals;

namespace weft::Cli
{

namespace
{

struct Context {
    /// With an ssh:// server: the tunnel to it, which stops the remote server when it goes (last).
    std::unique_ptr<SshTunnel> tunnel;
    std::shared_ptr<Store> store;
    std::unique_ptr<SessionService> service;
    /// With --server: the server, which runs fork, compaction, revert and prompts itself.
    std::shared_ptr<ServerStore> server;
};

std::optional<Context> openData(const GlobalOptions &options, int &exitCode, bool create = true)
{
    if (!options.server.isEmpty()) {
        const std::optional<QString> channel = ServiceFile::channelOf(options.server);
        Result<ServerConnection> server = channel ? connectService(*channel, options) : connectServer(options);
        if (!server) {
            exitCode = fail(server.error().toString());
            return std::nullopt;
        }
        Context context;
        context.tunnel = std::move(server.value().tunnel);
        if (context.tunnel && !context.tunnel->serviceProblem().isEmpty())
            err(u"weft: note: %1; a server was started for this command instead"_s.arg(context.tunnel->serviceProblem()));
        context.server = server.value().store;
        context.store = context.server;
        context.service = std::make_unique<SessionService>(context.store);
        return context;
    }
    Result<DataDir::Opened> opened = OpencodeDataDir::open(dataDirPath(options), create || options.dataDir.isEmpty());
    if (!opened) {
        exitCode = fail(u"cannot open the data dir: "_s + opened.error().toString());
        return std::nullopt;
    }
    // Runs whose process died were closed as the store opened: say so once.
    if (const InterruptedRuns recovery = opened->store->recovery(); recovery.runs > 0)
        err(u"weft: note: closed %1 interrupted run(s) in session(s) %2: the process running them ended before they "
            u"finished"_s.arg(recovery.runs)
                .arg(recovery.sessions.join(u", "_s)));
    Context context;
    context.store = opened->store;
    context.service = std::make_unique<SessionService>(context.store);
    return context;
}

/// With --server, what the server failed to answer is an error, not a warning about a damaged
/// file: its exit code after printing it. Otherwise the store's problems are warnings.
std::optional<int> reportReadProblems(const Context &context)
{
    if (!context.server) {
        reportProblems(*context.store);
        return std::nullopt;
    }
    const QList<StoreProblem> problems = context.store->problems();
    if (problems.isEmpty())
        return std::nullopt;
    return fail(problems.first().location + u": "_s + problems.first().reason);
}

/// Keeps @p value to the end of the process instead of freeing it value by value: a command's
/// last values (a 3,000-message session's, or 4,520 sessions and their list) took a sixth of
/// `export`'s instructions and a twentieth of `session list`'s to tear down, and the process
/// ends next. Safe from any thread (an export hands its messages over from the pool threads that
/// serialized them): a lock-free list, which a static keeps reachable so that leak checkers do
/// not count it. (A list behind a mutex cost a V2 export of 3,000 messages 30 ms more.)
template<typename T>
void keepUntilExit(T &&value)
{
    struct Node {
        std::decay_t<T> value;
        Node *next;
    };
    static std::atomic<Node *> head{nullptr};
    auto *node = new Node{std::forward<T>(value), head.load(std::memory_order_relaxed)};
    while (!head.compare_exchange_weak(node->next, node, std::memory_order_release, std::memory_order_relaxed)) {
    }
}

QString relativeTime(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(u"yyyy-MM-dd HH:mm"_s);
}

/// Appends relativeTime(@p ms) as UTF-8: with the C library's local time (what QDateTime's local
/// time is on Unix) for the years 1970-9999, without parsing a format each time (a tenth of the
/// table of 30,000 sessions went to QDateTime).
void appendRelativeTime(QByteArray &out, qint64 ms)
{
    constexpr qint64 Year10000 = 253402300800000;
    tm local{};
    const time_t seconds = time_t(ms / 1000);
    if (ms < 0 || ms >= Year10000 || !localtime_r(&seconds, &local)) {
        out += relativeTime(ms).toUtf8();
        return;
    }
    char text[32];
    const int n = std::snprintf(text, sizeof text, "%04d-%02d-%02d %02d:%02d", local.tm_year + 1900, local.tm_mon + 1,
                                local.tm_mday, local.tm_hour, local.tm_min);
    out.append(text, n);
}

using ListedSession = OpencodeDbStore::ListedSession;

/// The root sessions newest first, as `session list` prints them. From OpenCode's database only
/// the printed columns are read, as bytes (OpencodeDbStore::rootListing()): the whole Session of
/// every row, sorted and then filtered, was two thirds of the command's time for 30,000 sessions.
QList<ListedSession> listedRoots(const Context &context)
{
    if (const auto db = std::dynamic_pointer_cast<OpencodeDbStore>(context.store))
        return db->rootListing();
    QList<ListedSession> listed;
    for (const Session &s : context.service->listRoots())
        listed.append({s.id().toUtf8(), s.title().toUtf8(), s.projectID().toUtf8(), s.directory().toUtf8(), s.created(),
                       s.updated(), s.isNotMigrated()});
    return listed;
}

/// Appends the number @p n as JSON.stringify() writes it: its decimal digits below 2^53.
void appendJsonInteger(QByteArray &out, qint64 n)
{
    constexpr qint64 Exact = qint64(1) << 53;
    if (n <= -Exact || n >= Exact) {
        out += formatJsNumber(double(n));
        return;
    }
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, n).ptr;
    out.append(digits, end - digits);
}

/// `session list --format json`: OpenCode's layout (JSON.stringify(list, null, 2)), written from
/// the stored bytes.
QByteArray sessionListJson(const QList<ListedSession> &sessions)
{
    if (sessions.isEmpty())
        return "[]\n";
    QByteArray json;
    qsizetype bytes = 0;
    for (const ListedSession &s : sessions)
        bytes += s.id.size() + s.title.size() + s.projectID.size() + s.directory.size() + 160;
    json.reserve(bytes);
    json += "[\n";
    for (qsizetype i = 0; i < sessions.size(); ++i) {
        const ListedSession &s = sessions.at(i);
        json += i ? ",\n  {\n    \"id\": " : "  {\n    \"id\": ";
        appendJsonString(json, s.id);
        json += ",\n    \"title\": ";
        appendJsonString(json, s.title);
        json += ",\n    \"updated\": ";
        appendJsonInteger(json, s.updated);
        json += ",\n    \"created\": ";
        appendJsonInteger(json, s.created);
        json += ",\n    \"projectId\": ";
        appendJsonString(json, s.projectID);
        json += ",\n    \"directory\": ";
        appendJsonString(json, s.directory);
        if (s.notMigrated)
            json += ",\n    \"notMigrated\": true";
        json += "\n  }";
    }
    json += "\n]\n";
    return json;
}

/// The length of @p utf8 in UTF-16 code units (what the table's widths count, as QString did).
qsizetype utf16Size(QByteArrayView utf8)
{
    for (const char c : utf8) {
        if (quint8(c) >= 0x80)
            return QString::fromUtf8(utf8).size();
    }
    return utf8.size();
}

/// Appends @p utf8 and spaces up to @p width UTF-16 code units (QString::leftJustified()).
void appendJustified(QByteArray &out, QByteArrayView utf8, qsizetype size, qsizetype width)
{
    out += utf8;
    if (size < width)
        out.append(width - size, ' ');
}

/// `session list --format table`: one write of the whole table.
QByteArray sessionListTable(const QList<ListedSession> &sessions)
{
    qsizetype titleWidth = 5;
    // A Note column only when a session has one: the V1 sessions of an OpenCode 2 database that
    // its V1→V2 migration skipped (OpenCode 2 does not list them).
    bool notes = false;
    // Titles as printed: at most 60 UTF-16 code units (59 and an ellipsis), with their length.
    QList<std::pair<QByteArray, qsizetype>> titles;
    titles.reserve(sessions.size());
    for (const ListedSession &s : sessions) {
        qsizetype size = utf16Size(s.title);
        QByteArray title = s.title;
        if (size > 60) {
            title = (QString::fromUtf8(s.title).left(59) + u'…').toUtf8();
            size = 60;
        }
        titleWidth = qMax(titleWidth, size);
        notes = notes || s.notMigrated;
        titles.append({title, size});
    }
    QByteArray table;
    table.reserve(sessions.size() * (30 + titleWidth + 40) + 512);
    table += u"%1  %2  %3%4"_s
                 .arg(u"Session ID"_s.leftJustified(30), u"Title"_s.leftJustified(titleWidth),
                      notes ? u"Updated"_s.leftJustified(16) : u"Updated"_s, notes ? u"  Note"_s : QString())
                 .toUtf8();
    table += '\n';
    table += QString(30 + 2 + titleWidth + 2 + 16 + (notes ? 15 : 0), u'─').toUtf8();
    table += '\n';
    for (qsizetype i = 0; i < sessions.size(); ++i) {
        const ListedSession &s = sessions.at(i);
        appendJustified(table, s.id, utf16Size(s.id), 30);
        table += "  ";
        appendJustified(table, titles.at(i).first, titles.at(i).second, titleWidth);
        table += "  ";
        const qsizetype timeStart = table.size();
        appendRelativeTime(table, s.updated);
        if (s.notMigrated) {
            table.append(qMax<qsizetype>(0, 16 - utf16Size(QByteArrayView(table).sliced(timeStart))), ' ');
            table += "  not migrated";
        }
        table += '\n';
    }
    return table;
}

int sessionList(const GlobalOptions &options, const QStringList &args)
{
    Command cmd(u"session list"_s, u"List the root sessions of every project, newest first."_s);
    cmd.addOption({u"format"_s, u"Output format: table (default) or json."_s, u"format"_s, u"table"_s});
    if (const auto done = cmd.parse(args))
        return *done;
    const QString format = cmd.value(u"format"_s);
    if (format != u"json" && format != u"table")
        return fail(u"unknown format \"%1\" (json or table)"_s.arg(format), 2);
    if (!cmd.positional().isEmpty())
        return fail(u"unexpected argument \"%1\""_s.arg(cmd.positional().first()), 2);
    int code = 0;
    auto context = openData(options, code, false);
    if (!context)
        return code;
    QList<ListedSession> sessions = listedRoots(*context);
    if (const auto failed = reportReadProblems(*context))
        return *failed;
    if (format == u"table" && sessions.isEmpty()) {
        outLine(u"No sessions."_s);
        return 0;
    }
    QByteArray text = format == u"json" ? sessionListJson(sessions) : sessionListTable(sessions);
    out(text);
    keepUntilExit(std::move(text));
    keepUntilExit(std::move(sessions));
    return 0;
}

int exportCommand(const GlobalOptions &options, const QStringList &args)
{
    Command cmd(u"export"_s, u"Print a session with its messages and parts as JSON, as `opencode export` does."_s,
                u"SESSION_ID"_s);
    cmd.addPositional(u"SESSION_ID"_s, u"The session to export."_s);
    if (const auto done = cmd.parse(args))
        return *done;
    QString sessionID;
    if (const auto bad = cmd.expectId(u"SESSION_ID"_s, Identifier::Kind::Session, sessionID))
        return *bad;
    int code = 0;
    auto context = openData(options, code, false);
    if (!context)
        return code;
    // Printed as the messages are read. A server's session is printed only once all of it came:
    // a read it failed makes the command fail (reportReadProblems()) with nothing printed.
    QByteArray held;
    const auto print = [](QByteArrayView bytes) {
        if (!bytes.isEmpty()) // an empty view's data() is null, which fwrite() must not get
            std::fwrite(bytes.data(), 1, size_t(bytes.size()), stdout);
    };
    const auto hold = [&held](QByteArrayView bytes) { held += bytes; };
    // The messages are kept to the end of the process, which comes next.
    const auto keep = [](MessageWithParts &&m) { keepUntilExit(std::move(m)); };
    using Write = std::function<void(QByteArrayView)>;
    const Result<void> written
        = Transfer::writeExport(*context->service, sessionID, context->server ? Write(hold) : Write(print), keep);
    if (!written)
        return fail(written.error().toString());
    if (const auto failed = reportReadProblems(*context))
        return *failed;
    print(held);
    std::fflush(stdout);
    return 0;
}

int importCommand(const GlobalOptions &options, const QStringList &args)
{
    Command cmd(u"import"_s, u"Import a session from a file written by `opencode export` or `weft export`."_s,
                u"FILE"_s);
    cmd.addPositional(u"FILE"_s, u"The export file."_s);
    cmd.addOption(
        {u"from-db"_s,
         u"Copy sessions (all, or the SESSION_IDs given instead of FILE) with their children from OpenCode's database in DIR."_s,
         u"DIR"_s});
    if (const auto done = cmd.parse(args))
        return *done;
    const QStringList positional = cmd.positional();
    if (cmd.isSet(u"from-db"_s))
        return importFromDb(options, cmd.value(u"from-db"_s), positional);
    if (const auto bad = cmd.expectOne(u"FILE"_s))
        return *bad;
    int code = 0;
    auto context = openData(options, code);
    if (!context)
        return code;
    const Result<Transfer::ImportResult> result = Transfer::importFile(*context->service, positional.first());
    if (!result)
        return fail(u"nothing imported: "_s + result.error().toString());
    outLine(result->session.id());
    if (result->idsChanged) {
        err(u"weft: note: the session's IDs were taken in this store; it was imported with new IDs"_s);
    }
    if (!result->droppedPermissions.isEmpty())
        err(u"weft: note: "_s + Transfer::describeDropped(result->droppedPermissions));
    const QString directory = result->session.directory();
    err(u"weft: note: the session claims the directory %1; runs and reverts refuse it until you accept it with "
        u"`weft session accept %2`"_s.arg(directory.isEmpty() ? u"(none)"_s : directory, result->session.id()));
    return 0;
}

/// --accept-directory of run, revert and unrevert: the user accepts the directory an imported
/// session claims before the command uses it. Nothing when the option is not given.
std::optional<int> acceptDirectoryIfAsked(const Command &cmd, SessionService &service, const QString &sessionID)
{
    if (!cmd.isSet(u"accept-directory"_s) || sessionID.isEmpty())
        return std::nullopt;
    if (service.checkDirectoryConfirmed(sessionID))
        return std::nullopt;
    if (auto r = service.confirmImportedDirectory(sessionID); !r)
        return fail(r.error().toString());
    err(u"weft: note: accepted %1 as the directory of the imported session %2"_s.arg(service.get(sessionID)->directory(), sessionID));
    return std::nullopt;
}

int sessionAccept(const GlobalOptions &options, const QStringList &args)
{
    Command cmd(u"session accept"_s,
                u"Accept the directory an imported session claims, so that runs and reverts may use it. Read the "
                u"directory it prints first: an imported session is someone else's file."_s,
                u"SESSION_ID"_s);
    cmd.addPositional(u"SESSION_ID"_s, u"The imported session."_s);
    if (const auto done = cmd.parse(args))
        return *done;
    QString sessionID;
    if (const auto bad = cmd.expectId(u"SESSION_ID"_s, Identifier::Kind::Session, sessionID))
        return *bad;
    int code = 0;
    auto context = openData(options, code, false);
    if (!context)
        return code;
    const std::optional<Session> session = context->service->get(sessionID);
    if (!session)
        return fail(u"no session with ID \"%1\""_s.arg(sessionID));
    const std::optional<SessionService::ImportNote> note = context->service->importNote(sessionID);
    if (!note) {
        outLine(u"%1 was not imported; its directory is %2"_s.arg(sessionID, session->directory()));
        return 0;
    }
    if (auto r = context->service->confirmImportedDirectory(sessionID); !r)
        return fail(r.error().toString());
    outLine(u"Accepted %1 as the directory of %2"_s.arg(session->directory(), sessionID));
    return 0;
}

int sessionFork(const GlobalOptions &options, const QStringList &args)
{
    Command cmd(u"session fork"_s, u"Copy a session (up to a message) into a new session and print its ID."_s,
                u"SESSION_ID"_s);
    cmd.addPositional(u"SESSION_ID"_s, u"The session to fork."_s);
    cmd.addOption({u"message"_s, u"Copy only the messages before MESSAGE_ID."_s, u"MESSAGE_ID"_s});
    if (const auto done = cmd.parse(args))
        return *done;
    QString sessionID;
    if (const auto bad = cmd.expectId(u"SESSION_ID"_s, Identifier::Kind::Session, sessionID))
        return *bad;
    const QString messageID = cmd.value(u"message"_s);
    if (cmd.isSet(u"message"_s)) {
        if (const auto bad = invalidId(messageID, Identifier::Kind::Message))
            return *bad;
    }
    int code = 0;
    auto context = openData(options, code, false);
    if (!context)
        return code;
    const Result<Session> forked
        = context->server ? context->server->fork(sessionID, messageID) : context->service->fork(sessionID, messageID);
    reportProblems(*context->store);
    if (!forked)
        return fail(forked.error().toString());
    outLine(forked->id());
    return 0;
}

int sessionDelete(const GlobalOptions &options, const QStringList &args)
{
    Command cmd(u"session delete"_s,
                u"Delete a session with its child sessions, messages, parts and diff. Weft's own sessions go to "
                u"the trash for 30 days (see `weft trash`)."_s,
                u"SESSION_ID"_s);
    cmd.addPositional(u"SESSION_ID"_s, u"The session to delete."_s);
    cmd.addOption({u"permanently"_s, u"Delete for good instead of moving to the trash."_s});
    if (const auto done = cmd.parse(args))
        return *done;
    QString sessionID;
    if (const auto bad = cmd.expectId(u"SESSION_ID"_s, Identifier::Kind::Session, sessionID))
        return *bad;
    int code = 0;
    auto context = openData(options, code, false);
    if (!context)
        return code;
    if (!context->server && context->service->has(StoreCapability::Trash) && !cmd.isSet(u"permanently"_s)) {
        const Result<TrashEntry> trashed = context->service->moveToTrash(sessionID);
        if (!trashed)
            return fail(trashed.error().toString());
        err(u"weft: moved to the trash; `weft trash restore %1` brings it back"_s.arg(trashed->id));
        return 0;
    }
    const Result<void> removed = context->server ? context->server->remove(sessionID) : context->service->remove(sessionID);
    if (!removed)
        return fail(removed.error().toString());
    return 0;
}


int runCommand(const GlobalOptions &options, const QStringList &args)
{
    Command cmd(u"run"_s, u"Send a message to the agent in the current directory and print the answer as it streams."_s,
                u"MESSAGE..."_s);
    cmd.addPositional(u"MESSAGE"_s, u"The message (several words are joined with spaces)."_s, u"MESSAGE..."_s);
    cmd.addOption({u"session"_s, u"Continue this session instead of starting a new one."_s, u"SESSION_ID"_s});
    cmd.addOption({u"model"_s, u"The model to use."_s, u"PROVIDER/MODEL"_s});
    cmd.addOption({u"agent"_s, u"The agent: build (default), plan, or one from the config."_s, u"NAME"_s});
    cmd.addOption({u"auto-approve"_s, u"Allow what permission rules would ask about (otherwise refused)."_s});
    cmd.addOption({u"accept-directory"_s,
                   u"With --session: accept the directory an imported session claims (as `weft session accept`)."_s});
    cmd.addOption({u"command"_s,
                   u"Run a command of the config (`command` key, .opencode/command/*.md) with MESSAGE as its arguments."_s,
                   u"NAME"_s});
    cmd.addOption({u"dir"_s, u"With --server: the project folder on the server for a new session (default: the server's)."_s,
                   u"DIRECTORY"_s});
    cmd.addOption({u"worktree"_s,
                   u"Run a new session in the git worktree NAME of the current repository (made on branch weft/NAME "
                   u"from HEAD beside the repository when there is none, then its .weft/worktree-setup script run "
                   u"there; see `weft worktree`)."_s,
                   u"NAME"_s});
    cmd.addOption({u"no-setup"_s, u"With --worktree: do not run the repository's .weft/worktree-setup script in a new worktree."_s});
    cmd.addOption({u"steer"_s,
                   u"With --server (OpenCode 2) and --session: while the session runs, the message joins the running turn."_s});
    cmd.addOption({u"queue"_s,
                   u"With --server (OpenCode 2) and --session: while the session runs, the message waits for the run to end."_s});
    cmd.addOption({{u"f"_s, u"file"_s},
                   u"Attach a file or folder (text, PNG, JPEG, GIF or WebP image, PDF); may be given several times."_s,
                   u"PATH"_s});
    if (const auto done = cmd.parse(args))
        return *done;
    const QString message = cmd.positional().join(u' ');
    QString commandName = cmd.value(u"command"_s);
    if (commandName.startsWith(u'/'))
        commandName.remove(0, 1);
    if (message.trimmed().isEmpty() && commandName.isEmpty())
        return cmd.usageError(u"run needs a MESSAGE"_s);
    // Every file is checked before anything is written or sent.
    QList<PromptAttachment> attachments;
    for (const QString &path : cmd.values(u"file"_s)) {
        Result<PromptAttachment> attachment = PromptAttachments::fromPath(path, QDir::currentPath());
        if (!attachment)
            return fail(u"cannot attach %1: %2"_s.arg(path, attachment.error().message));
        attachments.append(attachment.value());
    }
    const QString sessionID = cmd.value(u"session"_s);
    if (!sessionID.isEmpty()) {
        if (const auto bad = invalidId(sessionID, Identifier::Kind::Session))
            return *bad;
    }
    if (cmd.isSet(u"worktree"_s) && !sessionID.isEmpty())
        return cmd.usageError(u"--worktree starts a new session; a continued one stays where it is"_s);
    if (cmd.isSet(u"worktree"_s) && !options.server.isEmpty())
        return fail(u"--worktree works for local runs; an OpenCode server's sessions run in its own folders"_s, 2);
    int code = 0;
    auto context = openData(options, code);
    if (!context)
        return code;
    if (cmd.isSet(u"steer"_s) && cmd.isSet(u"queue"_s))
        return cmd.usageError(u"--steer and --queue exclude each other"_s);
    if ((cmd.isSet(u"steer"_s) || cmd.isSet(u"queue"_s)) && (!context->server || sessionID.isEmpty()))
        return fail(u"--steer and --queue go with --server and --session (a prompt to a running session)"_s, 2);
    if (context->server) {
        if (!commandName.isEmpty())
            return fail(u"--command does not work with --server yet; send the command's text as the message"_s, 2);
        if (!attachments.isEmpty())
            return fail(u"--file is not sent to an OpenCode server yet; attach files in a local run"_s, 2);
        ServerRunRequest request;
        request.sessionID = sessionID;
        request.directory = cmd.value(u"dir"_s);
        request.text = message;
        request.agent = cmd.value(u"agent"_s);
        request.model = cmd.value(u"model"_s);
        request.autoApprove = cmd.isSet(u"auto-approve"_s);
        request.delivery = cmd.isSet(u"queue"_s) ? PromptDelivery::Queue
            : cmd.isSet(u"steer"_s)              ? PromptDelivery::Steer
                                                 : PromptDelivery::Default;
        return serverRun(context->server, std::shared_ptr<SessionService>(context->service.release()), request);
    }
    if (cmd.isSet(u"dir"_s))
        return fail(u"--dir goes with --server (a local run works in the current directory)"_s, 2);
    const QString dataDir = absoluteDataDir(options);
    Result<ProcessorSetup> loaded = loadProcessorSetup(options.configFile, dataDir);
    if (!loaded)
        return fail(loaded.error().toString());
    ProcessorSetup setup = loaded.value();
    setup.config.askPolicy
        = cmd.isSet(u"auto-approve"_s) ? ProcessorConfig::AskPolicy::Allow : ProcessorConfig::AskPolicy::Deny;
    // The agent may ask the user (the question tool) only when someone is at a terminal.
    const bool terminal = isatty(STDIN_FILENO) != 0;
    setup.config.questions = terminal;
    if (qEnvironmentVariableIsSet("WEFT_RETRY_INITIAL_MS"))
        setup.config.retryInitialMs = qEnvironmentVariableIntValue("WEFT_RETRY_INITIAL_MS");

    auto service = std::shared_ptr<SessionService>(context->service.release());
    if (const auto failed = acceptDirectoryIfAsked(cmd, *service, sessionID))
        return *failed;
    // A run is worth a log file, as each OpenCode start has one (`<data dir>/log/`).
    Logging::start(dataDir);
    qCInfo(lcProcessor).noquote() << "weft run in" << QDir::currentPath();
    Processor processor(service, setup.config);
    RunOutput output;
    QObject receiver;
    QObject::connect(service.get(), &SessionService::partUpdated, &receiver,
                     [&output](const Part &part, const QString &delta) { output.partUpdated(part, delta); });
    bool ok = false;
    MessageError lastError;
    QObject::connect(&processor, &Processor::retrying, &receiver, printRetry);
    QObject::connect(&processor, &Processor::finished, &receiver, [&](const QString &, bool success, const MessageError &error) {
        ok = success;
        lastError = error;
        QCoreApplication::quit();
    });
    std::unique_ptr<TerminalQuestions> questions;
    if (terminal) {
        questions = std::make_unique<TerminalQuestions>(STDIN_FILENO);
        TerminalQuestions *asker = questions.get();
        QObject::connect(&processor, &Processor::questionAsked, asker, [&output, asker](const JsonObject &asked) {
            output.finish();
            asker->ask(asked);
        });
        QObject::connect(&processor, &Processor::questionClosed, asker,
                         [asker](const QString &, const QString &id) { asker->close(id); });
        QObject::connect(asker, &TerminalQuestions::answered, &processor, &Processor::answerQuestion);
        QObject::connect(asker, &TerminalQuestions::dismissed, &processor, &Processor::rejectQuestion);
    }
    PromptRequest request;
    request.sessionID = sessionID;
    request.directory = QDir::currentPath();
    if (cmd.isSet(u"worktree"_s)) {
        const Result<QString> worktree = worktreeForRun(cmd.value(u"worktree"_s), !cmd.isSet(u"no-setup"_s));
        if (!worktree)
            return fail(worktree.error().toString());
        request.directory = worktree.value();
    }
    request.text = message;
    request.agent = cmd.value(u"agent"_s);
    request.model = cmd.value(u"model"_s);
    request.command = commandName;
    request.attachments = attachments;
    Result<QString> started = processor.prompt(request);
    if (!started)
        return fail(started.error().toString());
    output.setSession(started.value());
    // Ctrl+C stops the run as Stop does (the answer is recorded as aborted), then exits 130.
    Interrupt interrupt;
    QObject::connect(&interrupt, &Interrupt::interrupted, &receiver,
                     [&processor, id = started.value()] { processor.abort(id); });
    QCoreApplication::exec();
    output.finish();
    if (interrupt.wasInterrupted()) {
        err(u"weft: interrupted: the run was stopped"_s);
        return Interrupt::ExitCode;
    }
    if (!ok)
        return fail(lastError.isNull() ? u"the run failed"_s : lastError.name() + u": "_s + lastError.message());
    return 0;
}

/// Takes @p sessionID's lock as a run does, for a command that changes the session and its files
/// (revert, unrevert, prune): never under a run of another process. Null, with @p exitCode set
/// and the holder named on stderr, when someone holds it.
std::unique_ptr<SessionLock> lockSession(const QString &dataDir, const QString &sessionID, int &exitCode)
{
    Result<std::unique_ptr<SessionLock>> taken = SessionLock::acquire(dataDir, sessionID, {});
    if (!taken) {
        exitCode = fail(taken.error().toString());
        return nullptr;
    }
    return std::move(taken).value();
}

int sessionRevert(const GlobalOptions &options, const QStringList &args, bool undo)
{
    Command cmd(
        undo ? u"session unrevert"_s : u"session revert"_s,
        undo
            ? u"Bring back the files and messages of the last revert."_s
            : u"Restore the project's files to before MESSAGE_ID and hide the messages from it on (until the next prompt)."_s,
        undo ? u"SESSION_ID"_s : u"SESSION_ID MESSAGE_ID"_s);
    cmd.addPositional(u"SESSION_ID"_s, u"The session."_s);
    if (!undo) {
        cmd.addPositional(u"MESSAGE_ID"_s, u"The first message to undo."_s);
        cmd.addOption({u"part"_s, u"Undo from this part of the message on."_s, u"PART_ID"_s});
    }
    cmd.addOption({u"accept-directory"_s,
                   u"Accept the directory an imported session claims (as `weft session accept`)."_s});
    if (const auto done = cmd.parse(args))
        return *done;
    const QStringList positional = cmd.positional();
    if (positional.size() != (undo ? 1 : 2))
        return cmd.usageError(u"wrong number of arguments"_s);
    if (const auto bad = invalidId(positional.first(), Identifier::Kind::Session))
        return *bad;
    if (!undo) {
        if (const auto bad = invalidId(positional.at(1), Identifier::Kind::Message))
            return *bad;
        const QString part = cmd.value(u"part"_s);
        if (!part.isEmpty()) {
            if (const auto bad = invalidId(part, Identifier::Kind::Part))
                return *bad;
        }
    }
    int code = 0;
    auto context = openData(options, code, false);
    if (!context)
        return code;
    const QString dataDir = absoluteDataDir(options);
    std::unique_ptr<SessionLock> lock;
    if (!context->server) {
        if (const auto failed = acceptDirectoryIfAsked(cmd, *context->service, positional.first()))
            return *failed;
        lock = lockSession(dataDir, positional.first(), code);
        if (!lock)
            return code;
    }
    const Result<Session> result = context->server
        ? (undo ? context->server->unrevert(positional.first())
                : context->server->revert(positional.first(), positional.at(1), cmd.value(u"part"_s)))
        : (undo ? Revert::unrevert(*context->service, dataDir, positional.first())
                : Revert::revert(*context->service, dataDir, positional.first(), positional.at(1), cmd.value(u"part"_s)));
    if (!result)
        return fail(result.error().toString());
    if (!undo)
        outLine(u"Reverted to before %1; `weft session unrevert %2` brings it back."_s.arg(result->revert().string(u"messageID"), result->id()));
    return 0;
}

/// The processor for the compaction commands, with the config of --config.
std::unique_ptr<Processor> compactionProcessor(const GlobalOptions &options, Context &context, int &exitCode)
{
    const QString dataDir = absoluteDataDir(options);
    Result<ProcessorSetup> loaded = loadProcessorSetup(options.configFile, dataDir);
    if (!loaded) {
        exitCode = fail(loaded.error().toString());
        return nullptr;
    }
    ProcessorSetup setup = loaded.value();
    if (qEnvironmentVariableIsSet("WEFT_RETRY_INITIAL_MS"))
        setup.config.retryInitialMs = qEnvironmentVariableIntValue("WEFT_RETRY_INITIAL_MS");
    auto service = std::shared_ptr<SessionService>(context.service.release());
    return std::make_unique<Processor>(service, setup.config);
}

int sessionCompact(const GlobalOptions &options, const QStringList &args)
{
    Command cmd(u"session compact"_s,
                u"Summarise a session's context with the model (after pruning old tool output); later prompts continue "
                u"from the summary. The older messages stay in the session."_s,
                u"SESSION_ID"_s);
    cmd.addPositional(u"SESSION_ID"_s, u"The session to compact."_s);
    cmd.addOption({u"model"_s, u"The model that writes the summary."_s, u"PROVIDER/MODEL"_s});
    cmd.addOption(
        {u"preview"_s, u"Print what would be summarised and pruned, with token estimates, as JSON; change nothing."_s});
    cmd.addOption({u"strategy"_s, u"summary (default: everything) or summary-tail (keep the newest 30% verbatim)."_s,
                   u"STRATEGY"_s});
    if (const auto done = cmd.parse(args))
        return *done;
    QString sessionID;
    if (const auto bad = cmd.expectId(u"SESSION_ID"_s, Identifier::Kind::Session, sessionID))
        return *bad;
    CompactOptions compact;
    compact.model = cmd.value(u"model"_s);
    if (cmd.isSet(u"strategy"_s)) {
        compact.strategy = Compaction::strategyFromName(cmd.value(u"strategy"_s));
        if (!compact.strategy)
            return fail(u"unknown strategy \"%1\" (summary or summary-tail)"_s.arg(cmd.value(u"strategy"_s)), 2);
    }
    int code = 0;
    auto context = openData(options, code, false);
    if (!context)
        return code;
    if (context->server) {
        // The server compacts with its own agent loop, as OpenCode's `/compact` does.
        if (cmd.isSet(u"preview"_s) || cmd.isSet(u"strategy"_s))
            return fail(u"--preview and --strategy are Weft's own compaction's, not an OpenCode server's"_s, 2);
        if (const Result<void> compacted = context->server->compact(sessionID, compact.model); !compacted)
            return fail(compacted.error().toString());
        outLine(u"Compacted %1."_s.arg(sessionID));
        return 0;
    }
    const std::unique_ptr<Processor> processor = compactionProcessor(options, *context, code);
    if (!processor)
        return code;
    if (cmd.isSet(u"preview"_s)) {
        const Result<Compaction::Preview> preview = processor->previewCompaction(sessionID, compact);
        reportProblems(*context->store);
        if (!preview)
            return fail(preview.error().toString());
        out(toJson(preview->toJson(), 2) + '\n');
        return 0;
    }

    bool lineOpen = false;
    QObject receiver;
    QObject::connect(processor->service(), &SessionService::partUpdated, &receiver, [&](const Part &part, const QString &delta) {
        if (part.sessionID() == sessionID && part.type() == PartType::Text && !delta.isEmpty()) {
            out(delta.toUtf8());
            lineOpen = !delta.endsWith(u'\n');
        }
    });
    QObject::connect(processor.get(), &Processor::retrying, &receiver, printRetry);
    bool ok = false;
    MessageError lastError;
    QObject::connect(processor.get(), &Processor::finished, &receiver, [&](const QString &, bool success, const MessageError &error) {
        ok = success;
        lastError = error;
        QCoreApplication::quit();
    });
    const Result<QString> started = processor->compact(sessionID, compact);
    if (!started)
        return fail(started.error().toString());
    QCoreApplication::exec();
    if (lineOpen)
        out("\n");
    if (!ok)
        return fail(lastError.isNull() ? u"the compaction failed"_s : lastError.message());
    return 0;
}

int sessionPrune(const GlobalOptions &options, const QStringList &args)
{
    Command cmd(
        u"session prune"_s,
        u"Clear old tool output from a session's context as OpenCode does: outputs beyond the newest 40,000 tokens, "
        u"outside the last two turns, when more than 20,000 tokens would go. The outputs stay in the store."_s,
        u"SESSION_ID"_s);
    cmd.addPositional(u"SESSION_ID"_s, u"The session to prune."_s);
    cmd.addOption({u"preview"_s, u"Print the tool outputs that would be cleared as JSON; change nothing."_s});
    if (const auto done = cmd.parse(args))
        return *done;
    QString sessionID;
    if (const auto bad = cmd.expectId(u"SESSION_ID"_s, Identifier::Kind::Session, sessionID))
        return *bad;
    int code = 0;
    auto context = openData(options, code, false);
    if (!context)
        return code;
    const std::unique_ptr<Processor> processor = compactionProcessor(options, *context, code);
    if (!processor)
        return code;
    const bool preview = cmd.isSet(u"preview"_s);
    std::unique_ptr<SessionLock> lock;
    if (!preview) {
        lock = lockSession(absoluteDataDir(options), sessionID, code);
        if (!lock)
            return code;
    }
    const Result<Compaction::PrunePlan> plan = processor->prune(sessionID, preview);
    reportProblems(*context->store);
    if (!plan)
        return fail(plan.error().toString());
    if (preview) {
        out(toJson(plan->toJson(), 2) + '\n');
        return 0;
    }
    if (!plan->enabled)
        return fail(u"pruning is disabled by %1"_s.arg(plan->disabledBy));
    if (plan->applied)
        outLine(u"Pruned %1 tool outputs (~%2 tokens) of %3."_s.arg(plan->parts.size()).arg(plan->pruned).arg(sessionID));
    else
        outLine(u"Nothing to prune: ~%1 tokens of old tool output beyond the newest %2 (more than %3 needed)."_s.arg(plan->pruned)
                    .arg(Compaction::PruneProtect)
                    .arg(Compaction::PruneMinimum));
    return 0;
}

QString trashUsage()
{
    return u"Usage: weft [--data-dir DIR] trash COMMAND\n\n"
           u"Deleted sessions stay in the trash for 30 days.\n\n"
           u"Commands:\n"
           u"  list [--format json|table]  list the deleted sessions, newest first\n"
           u"  restore ENTRY|SESSION_ID    put a deleted session back, with its child sessions\n"
           u"  delete ENTRY                delete a trash entry for good\n"
           u"  empty                       delete everything in the trash for good\n"_s;
}

/// `weft trash list|restore|delete|empty`: the trash of Weft's own data dir.
int trashCommand(const GlobalOptions &options, const QStringList &args)
{
    const QString sub = args.value(0);
    if (sub.isEmpty() || sub == u"--help" || sub == u"-h" || sub == u"help") {
        if (sub.isEmpty()) {
            const QByteArray text = trashUsage().toUtf8();
            std::fwrite(text.constData(), 1, size_t(text.size()), stderr);
            return 2;
        }
        out(trashUsage().toUtf8());
        return 0;
    }
    const bool takesEntry = sub == u"restore" || sub == u"delete";
    if (sub != u"list" && sub != u"empty" && !takesEntry)
        return fail(u"unknown trash command \"%1\"\n\n"_s.arg(sub) + trashUsage(), 2);
    Command cmd(u"trash "_s + sub, trashUsage().section(u'\n', 2, 2), takesEntry ? u"ENTRY"_s : QString());
    if (takesEntry)
        cmd.addPositional(u"ENTRY"_s, u"The trash entry (as `weft trash list` shows it), or the deleted session's ID."_s);
    if (sub == u"list")
        cmd.addOption({u"format"_s, u"Output format: table (default) or json."_s, u"format"_s, u"table"_s});
    if (const auto done = cmd.parse(args.mid(1)))
        return *done;
    if (takesEntry) {
        if (const auto bad = cmd.expectOne(u"ENTRY"_s))
            return *bad;
    } else if (!cmd.positional().isEmpty()) {
        return cmd.usageError(u"trash %1 takes no arguments"_s.arg(sub));
    }
    int code = 0;
    auto context = openData(options, code, false);
    if (!context)
        return code;
    if (!context->service->has(StoreCapability::Trash))
        return fail(u"%1 has no trash (only Weft's own JSON data dir has one)"_s.arg(context->store->location()));
    const QList<TrashEntry> entries = context->service->trashEntries();
    if (sub == u"list") {
        const QString format = cmd.value(u"format"_s);
        if (format == u"json") {
            JsonArray array;
            for (const TrashEntry &e : entries) {
                JsonArray children;
                for (const QString &c : e.children)
                    children.append(c);
                JsonObject o{{u"entry"_s, e.id},          {u"sessionID"_s, e.sessionID}, {u"title"_s, e.title},
                             {u"directory"_s, e.directory}, {u"deleted"_s, e.deleted},     {u"children"_s, children}};
                if (!e.problem.isEmpty())
                    o.insert(u"problem"_s, e.problem);
                array.append(o);
            }
            out(toJson(array, 2) + '\n');
            return 0;
        }
        if (format != u"table")
            return fail(u"unknown format \"%1\" (json or table)"_s.arg(format), 2);
        if (entries.isEmpty()) {
            outLine(u"The trash is empty."_s);
            return 0;
        }
        for (const TrashEntry &e : entries) {
            QString line = e.id + u"  "_s + relativeTime(e.deleted) + u"  "_s + e.title;
            if (!e.children.isEmpty())
                line += u" (+%1 child sessions)"_s.arg(e.children.size());
            if (!e.problem.isEmpty())
                line += u"  [cannot be restored: %1]"_s.arg(e.problem);
            outLine(line);
        }
        return 0;
    }
    if (sub == u"empty") {
        if (const Result<void> r = context->service->emptyTrash(); !r)
            return fail(r.error().toString());
        return 0;
    }
    // An entry, or the newest entry of a session ID.
    QString entry = cmd.positional().first();
    if (entry.startsWith(u"ses_"_s)) {
        for (const TrashEntry &e : entries) {
            if (e.sessionID == entry) {
                entry = e.id;
                break;
            }
        }
    }
    if (sub == u"delete") {
        if (const Result<void> r = context->service->deleteFromTrash(entry); !r)
            return fail(r.error().toString());
        return 0;
    }
    const Result<Session> restored = context->service->restoreFromTrash(entry);
    if (!restored)
        return fail(restored.error().toString());
    outLine(restored->id());
    return 0;
}

QString sessionUsage()
{
    return u"Usage: weft [--data-dir DIR] session COMMAND [options]\n\n"
           u"Commands:\n"
           u"  list [--format json|table]        list root sessions, newest first\n"
           u"  fork SESSION_ID [--message ID]    copy a session into a new one, print its ID\n"
           u"  delete SESSION_ID [--permanently] move a session and everything under it to the trash\n"
           u"  revert SESSION_ID MESSAGE_ID      undo the file changes from a message on\n"
           u"  unrevert SESSION_ID               bring back what the last revert undid\n"
           u"  compact SESSION_ID [--model PROVIDER/MODEL] [--preview] [--strategy summary|summary-tail]\n"
           u"                                    summarise the context with the model\n"
           u"  prune SESSION_ID [--preview]      clear old tool output from the context\n"
           u"  accept SESSION_ID                 accept the directory an imported session claims: until then\n"
           u"                                    run and revert refuse it (or pass --accept-directory to them)\n\n"
           u"Run `weft session COMMAND --help` for a command's options.\n"_s;
}

int sessionCommand(const GlobalOptions &options, const QStringList &args)
{
    if (args.isEmpty()) {
        // A missing subcommand is an error: the usage goes to stderr, stdout stays empty.
        const QByteArray text = sessionUsage().toUtf8();
        std::fwrite(text.constData(), 1, size_t(text.size()), stderr);
        return 2;
    }
    if (args.first() == u"--help" || args.first() == u"-h" || args.first() == u"help") {
        out(sessionUsage().toUtf8());
        return 0;
    }
    const QString sub = args.first();
    const QStringList rest = args.mid(1);
    if (sub == u"list")
        return sessionList(options, rest);
    if (sub == u"fork")
        return sessionFork(options, rest);
    if (sub == u"delete" || sub == u"remove" || sub == u"rm")
        return sessionDelete(options, rest);
    if (sub == u"revert")
        return sessionRevert(options, rest, false);
    if (sub == u"unrevert")
        return sessionRevert(options, rest, true);
    if (sub == u"compact")
        return sessionCompact(options, rest);
    if (sub == u"prune")
        return sessionPrune(options, rest);
    if (sub == u"accept")
        return sessionAccept(options, rest);
    return fail(u"unknown session command \"%1\"\n\n"_s.arg(sub) + sessionUsage(), 2);
}

} // namespace

QString usage()
{
    return u"Usage: weft [--data-dir DIR | --server URL [--password-file FILE]] [COMMAND ...]\n\n"
           u"Weft: a desktop home for coding-agent sessions, compatible with OpenCode's data.\n"
           u"Without a command, Weft opens its window.\n\n"
           u"Options:\n"
           u"  --data-dir DIR   the data dir to use (default: $XDG_DATA_HOME/weft);\n"
           u"                   an OpenCode data dir such as ~/.local/share/opencode works too\n"
           u"  --config FILE    the configuration file (default: $XDG_CONFIG_HOME/weft/weft.json)\n"
           u"  --server URL     an OpenCode server (`opencode serve`, http://HOST:PORT) instead of a data dir:\n"
           u"                   session list/fork/delete/revert/unrevert/compact, export and run act there;\n"
           u"                   ssh://[USER@]HOST[:PORT][/PROJECT] starts one on HOST through your ssh (keys,\n"
           u"                   agent, ~/.ssh/config) and stops it when the command ends\n"
           u"  --password-file FILE  the server's password (default: $OPENCODE_SERVER_PASSWORD,\n"
           u"                        else OpenCode 2's $OPENCODE_PASSWORD)\n"
           u"  -h, --help       this help\n"
           u"  -v, --version    the version\n\n"
           u"Commands:\n"
           u"  session list [--format json|table]\n"
           u"  session fork SESSION_ID [--message MESSAGE_ID]\n"
           u"  session delete SESSION_ID [--permanently]\n"
           u"  session revert SESSION_ID MESSAGE_ID [--part PART_ID]\n"
           u"  session unrevert SESSION_ID\n"
           u"  session accept SESSION_ID\n"
           u"  session compact SESSION_ID [--model PROVIDER/MODEL] [--preview] [--strategy summary|summary-tail]\n"
           u"  session prune SESSION_ID [--preview]\n"
           u"  export SESSION_ID\n"
           u"  import FILE\n"
           u"  import --from-db OPENCODE_DATA_DIR [SESSION_ID...]\n"
           u"  search QUERY... [--format json|text] [--session ID] [--limit N] [--rebuild] [--status]\n"
           u"  run [--session ID | --worktree NAME] [--model PROVIDER/MODEL] [--agent NAME] [--auto-approve] [--dir DIR] MESSAGE...\n"
           u"  mcp list [--format json|text]\n"
           u"  trash list|restore ENTRY|delete ENTRY|empty\n"
           u"  worktree list|apply NAME [--mode merge|rebase|diff]|remove NAME [--force]\n\n"
           u"Run `weft COMMAND --help` for a command's options.\n"_s;
}

GlobalOptions parseGlobal(int argc, char **argv)
{
    QStringList arguments;
    arguments.reserve(argc);
    for (int i = 0; i < argc; ++i)
        arguments.append(QString::fromLocal8Bit(argv[i]));
    return parseGlobal(arguments);
}

GlobalOptions parseGlobal(const QStringList &arguments)
{
    GlobalOptions options;
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        const QString &arg = arguments.at(i);
        auto takeValue = [&](const QString &name, QString &target) {
            if (arg.startsWith(name + u'=')) {
                target = arg.mid(name.size() + 1);
            } else if (i + 1 < arguments.size()) {
                target = arguments.at(++i);
            } else {
                options.error = u"%1 needs a value"_s.arg(name);
            }
        };
        if (arg == u"--data-dir" || arg.startsWith(u"--data-dir=")) {
            takeValue(u"--data-dir"_s, options.dataDir);
        } else if (arg == u"--config" || arg.startsWith(u"--config=")) {
            takeValue(u"--config"_s, options.configFile);
        } else if (arg == u"--server" || arg.startsWith(u"--server=")) {
            takeValue(u"--server"_s, options.server);
        } else if (arg == u"--password-file" || arg.startsWith(u"--password-file=")) {
            takeValue(u"--password-file"_s, options.passwordFile);
        } else if (arg == u"-h" || arg == u"--help" || arg == u"help") {
            options.help = true;
        } else if (arg == u"-v" || arg == u"--version") {
            options.version = true;
        } else if (!arg.startsWith(u'-')) {
            options.rest = arguments.mid(i);
            break;
        } else if (arg.startsWith(u"-platform") || arg.startsWith(u"-style") || arg.startsWith(u"-reverse")) {
            // Qt's own GUI options: left for QApplication.
            if (arg == u"-platform" || arg == u"-style")
                ++i;
        } else {
            options.error = u"unknown option \"%1\""_s.arg(arg);
        }
        if (!options.error.isEmpty())
            break;
    }
    if (!options.dataDir.isEmpty() && options.dataDir.contains(QChar(0)))
        options.error = u"--data-dir contains a NUL byte"_s;
    else if (!options.server.isEmpty() && !options.dataDir.isEmpty())
        options.error = u"--server and --data-dir exclude each other"_s;
    else if (!options.passwordFile.isEmpty() && options.server.isEmpty())
        options.error = u"--password-file goes with --server"_s;
    return options;
}

bool isCommand(const GlobalOptions &options)
{
    return !options.rest.isEmpty() || options.help || options.version || !options.error.isEmpty();
}

int run(const GlobalOptions &options)
{
    if (!options.error.isEmpty())
        return fail(options.error + u" (see: weft --help)"_s, 2);
    if (options.version) {
        outLine(u"weft "_s + QStringLiteral(WEFT_VERSION));
        return 0;
    }
    if (options.help && options.rest.isEmpty()) {
        out(usage().toUtf8());
        return 0;
    }
    const QString command = options.rest.first();
    QStringList args = options.rest.mid(1);
    if (options.help)
        args.append(u"--help"_s);
    if (!options.server.isEmpty() && !options.help) {
        // What an OpenCode server offers; the rest works on Weft's own data.
        const QString sub = command == u"session" && !args.isEmpty() ? args.first() : QString();
        const bool offered = command == u"export" || command == u"run"
            || (command == u"session" && (args.isEmpty() || QStringList{u"list"_s, u"fork"_s, u"delete"_s, u"remove"_s, u"rm"_s,
                                                                     u"revert"_s, u"unrevert"_s, u"compact"_s, u"--help"_s, u"-h"_s, u"help"_s}
                                                              .contains(sub)));
        if (!offered)
            return fail(u"\"%1\" works on Weft's own data, not with --server"_s.arg(QString(command + u' ' + sub).trimmed()), 2);
    }
    if (command == u"session")
        return sessionCommand(options, args);
    if (command == u"export")
        return exportCommand(options, args);
    if (command == u"import")
        return importCommand(options, args);
    if (command == u"search")
        return searchCommand(options, args);
    if (command == u"run")
        return runCommand(options, args);
    if (command == u"mcp")
        return mcpCommand(options, args);
    if (command == u"trash")
        return trashCommand(options, args);
    if (command == u"worktree")
        return worktreeCommand(options, args);
    return fail(u"unknown command \"%1\"\n\n"_s.arg(command) + usage(), 2);
}

void setApplicationIdentity()
{
    QCoreApplication::setOrganizationName(u"weft"_s);
    QCoreApplication::setOrganizationDomain(u"weft.dev"_s);
    QCoreApplication::setApplicationName(u"weft"_s);
    QCoreApplication::setApplicationVersion(QStringLiteral(WEFT_VERSION));
}

namespace
{
/// `export` and `session` read whole sessions or lists in a fraction of a second, on every core:
/// each thread that parses rows or writes JSON gets a malloc arena of its own, which glibc grows a
/// few pages at a time, a system call each (6,768 mprotect calls in one export of L-db). Growing
/// by 64 MiB (address space: a page costs only once it is touched) took that export from 146 to
/// 140 ms. Not for the commands that run long (and the window): they would keep freed memory.
void tuneAllocatorForCommand(const GlobalOptions &options)
{
#ifdef M_TOP_PAD
    const QString command = options.rest.value(0);
    if (command == u"export" || command == u"session")
        mallopt(M_TOP_PAD, 64 << 20);
#else
    Q_UNUSED(options)
#endif
}
} // namespace

int runProcess(int &argc, char **argv, const GlobalOptions &options)
{
    tuneAllocatorForCommand(options);
    QCoreApplication app(argc, argv);
    setApplicationIdentity();
    // The terminal shows results, warnings and errors; WEFT_DEBUG=1 shows what Weft does.
    // With --server, what the server fails to answer is the command's error, printed once.
    if (!qEnvironmentVariableIsSet("QT_LOGGING_RULES"))
        QLoggingCategory::setFilterRules((qEnvironmentVariableIntValue("WEFT_DEBUG") > 0 ? u"weft.*.debug=true"_s
                                                                                        : u"weft.*.info=false"_s)
                                         + (options.server.isEmpty() ? QString() : u"\nweft.store.warning=false"_s));
    // How a session's lock names this process to another one ("… is being run by weft run").
    SessionLock::setProcessCommand(u"weft "_s + options.rest.value(0));
    return run(options);
}

} // namespace weft::Cli
