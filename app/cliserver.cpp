// SPDX-License-Identifier: GPL-3.0-or-later
#include "cliserver.h"
#include "clicommand.h"
#include "interrupt.h"

#include "core/identifier.h"
#include "core/tr.h"
#include "server/servereventwatcher.h"
#include "server/serverstore.h"
#include "session/sessionservice.h"

#include <QCoreApplication>
#include <QFile>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace weft::Cli
{

namespace
{

Result<QString> readPassword(const GlobalOptions &options)
{
    if (options.passwordFile.isEmpty())
        return qEnvironmentVariableIsSet("OPENCODE_SERVER_PASSWORD") ? qEnvironmentVariable("OPENCODE_SERVER_PASSWORD")
                                                                       : qEnvironmentVariable("OPENCODE_PASSWORD");
    QFile file(options.passwordFile);
    if (!file.open(QIODevice::ReadOnly))
        return Error{u"cannot read the password file: "_s + file.errorString(), options.passwordFile};
    // The first line, as `echo secret > file` writes it.
    QByteArray bytes = file.read(4096);
    const qsizetype newline = bytes.indexOf('\n');
    if (newline >= 0)
        bytes.truncate(newline);
    if (bytes.endsWith('\r'))
        bytes.chop(1);
    if (bytes.isEmpty())
        return Error{u"the password file is empty"_s, options.passwordFile};
    return QString::fromUtf8(bytes);
}

/// Starts @p tunnel and runs the application's event loop until it is ready or failed (before
/// the command's own loop: nothing is nested).
Result<void> startTunnel(SshTunnel &tunnel, const SshTarget &target)
{
    QString error;
    QObject receiver;
    QObject::connect(&tunnel, &SshTunnel::ready, &receiver, [] { QCoreApplication::exit(); });
    QObject::connect(&tunnel, &SshTunnel::failed, &receiver, [&error](const QString &why) {
        error = why;
        QCoreApplication::exit();
    });
    tunnel.start(target);
    if (tunnel.state() == SshTunnel::State::Starting)
        QCoreApplication::exec();
    if (tunnel.state() == SshTunnel::State::Ready)
        return {};
    return Error{error.isEmpty() ? ServerTr::tr("ssh to %1 failed").arg(target.displayHost()) : error, {}};
}

} // namespace

Result<ServerConnection> connectServer(const GlobalOptions &options)
{
    if (SshTarget::isSshAddress(options.server)) {
        const Result<SshTarget> target = SshTarget::parse(options.server);
        if (!target)
            return target.error();
        if (!options.passwordFile.isEmpty())
            return Error{u"--password-file goes with an http:// server; an ssh:// one gets a new password each time"_s, {}};
        ServerConnection connection;
        connection.tunnel = std::make_unique<SshTunnel>();
        if (const Result<void> up = startTunnel(*connection.tunnel, target.value()); !up)
            return up.error();
        Result<std::shared_ptr<ServerStore>> store = ServerClient::wait(
            ServerStore::connect(ServerClient(connection.tunnel->localUrl(), connection.tunnel->password())));
        if (!store)
            return store.error();
        connection.store = store.value();
        return connection;
    }
    const Result<QUrl> url = ServerClient::parseUrl(options.server);
    if (!url)
        return url.error();
    const Result<QString> password = readPassword(options);
    if (!password)
        return password.error();
    Result<std::shared_ptr<ServerStore>> store
        = ServerClient::wait(ServerStore::connect(ServerClient(url.value(), password.value())));
    if (!store)
        return store.error();
    ServerConnection connection;
    connection.store = store.value();
    return connection;
}

int serverRun(const std::shared_ptr<ServerStore> &server, const std::shared_ptr<SessionService> &service,
              const ServerRunRequest &request)
{
    QString sessionID = request.sessionID;
    if (sessionID.isEmpty()) {
        const Result<Session> created = server->create(request.directory);
        if (!created)
            return fail(created.error().toString());
        sessionID = created->id();
    } else if (const Result<Session> existing = server->readSession(sessionID); !existing) {
        return fail(existing.error().toString());
    }

    // The prompt's ID is Weft's, so that the answer's messages are known by their parentID.
    const QString userMessageID = Identifier::ascending(Identifier::Kind::Message);
    // Follow the server's events before prompting, so that nothing of the answer is missed.
    auto *watcher = new ServerEventWatcher(server, service.get());
    RunOutput output;
    output.setSession(sessionID);
    QObject receiver;
    QObject::connect(service.get(), &SessionService::partUpdated, &receiver,
                     [&output](const Part &part, const QString &delta) { output.partUpdated(part, delta); });
    enum class Phase { Connecting, Prompting, Running, Done } phase = Phase::Connecting;
    QString failure;
    MessageError runError;
    QTimer connectTimeout;
    connectTimeout.setSingleShot(true);
    auto finish = [&](const QString &why = {}) {
        if (phase == Phase::Done)
            return;
        phase = Phase::Done;
        failure = why;
        QCoreApplication::quit();
    };
    QObject::connect(&connectTimeout, &QTimer::timeout, &receiver,
                     [&] { finish(u"the event stream of the server did not open within 15 s"_s); });
    QObject::connect(watcher, &ServerEventWatcher::stateChanged, &receiver,
                     [&](ServerEventWatcher::State state, const QString &detail) {
                         if (state == ServerEventWatcher::State::Reconnecting && !detail.isEmpty())
                             err(u"weft: the event stream dropped (%1); reconnecting"_s.arg(detail));
                     });
    // OpenCode 1.18 says "connected" a moment before its stream carries events: the prompt
    // waits that moment (and must not be sent inside the stream's handler, as it waits for its
    // answer). What is lost anyway is printed from the final messages (RunOutput::catchUp()).
    const int subscribeMs = qEnvironmentVariableIsSet("WEFT_SERVER_SUBSCRIBE_MS")
        ? qEnvironmentVariableIntValue("WEFT_SERVER_SUBSCRIBE_MS")
        : 300;
    QObject::connect(watcher, &StoreWatcher::started, &receiver, [&] {
        connectTimeout.stop();
        QTimer::singleShot(subscribeMs, &receiver, [&] {
            phase = Phase::Prompting;
            const Result<void> sent
                = server->prompt(sessionID, request.text, request.agent, request.model, userMessageID, request.delivery);
            if (!sent)
                return finish(sent.error().toString());
            phase = Phase::Running;
        });
    });
    // OpenCode 2: the run that ends is the one that took the prompt in (a queued prompt waits
    // for the run before it).
    bool promoted = !server->info().v2Only();
    QObject::connect(watcher, &ServerEventWatcher::eventReceived, &receiver,
                     [&](const QString &type, const JsonObject &data) {
                         if (type == u"session.input.promoted" && data.string(u"sessionID") == sessionID
                             && data.string(u"inputID") == userMessageID)
                             promoted = true;
                     });
    QObject::connect(watcher, &ServerEventWatcher::sessionStatus, &receiver,
                     [&](const QString &id, const QString &status) {
                         if (id == sessionID && status == u"idle" && phase == Phase::Running && promoted)
                             finish();
                     });
    QObject::connect(watcher, &ServerEventWatcher::sessionRetry, &receiver,
                     [&](const QString &id, int attempt, qint64 delayMs, const MessageError &error) {
                         if (id == sessionID)
                             printRetry(id, attempt, delayMs, error);
                     });
    QObject::connect(watcher, &ServerEventWatcher::sessionError, &receiver,
                     [&](const QString &id, const MessageError &error) {
                         if (id == sessionID)
                             runError = error;
                     });
    QObject::connect(watcher, &ServerEventWatcher::permissionAsked, &receiver, [&](const JsonObject &asked) {
        if (asked.string(u"sessionID") != sessionID)
            return;
        const QString what = asked.string(u"permission");
        const QStringList patterns = [&] {
            QStringList list;
            for (const JsonValue &v : asked.value(u"patterns").toArray())
                list.append(v.toString());
            return list;
        }();
        const QString reply = request.autoApprove ? u"once"_s : u"reject"_s;
        if (!request.autoApprove)
            err(u"weft: refused permission \"%1\" for %2 (--auto-approve allows it)"_s.arg(what, patterns.join(u", "_s)));
        if (const Result<void> r = server->replyPermission(sessionID, asked.string(u"id"), reply, asked.value(u"v2").toBool());
            !r)
            err(u"weft: warning: "_s + r.error().toString());
    });
    QObject::connect(watcher, &ServerEventWatcher::questionAsked, &receiver, [&](const JsonObject &asked) {
        if (asked.string(u"sessionID") != sessionID)
            return;
        // The command line has no one to ask: declined, as a permission question is refused.
        const JsonArray questions = asked.value(u"questions").toArray();
        err(u"weft: declined the agent's question \"%1\" (answer it in the window)"_s.arg(
            questions.isEmpty() ? QString() : questions.at(0).toObject().string(u"question")));
        const Result<void> r = asked.value(u"form").toBool()
            ? server->cancelForm(asked)
            : server->rejectQuestion(sessionID, asked.string(u"id"), asked.value(u"v2").toBool());
        if (!r)
            err(u"weft: warning: "_s + r.error().toString());
    });
    // Ctrl+C stops the run there (abort), then exits 130.
    Interrupt interrupt;
    QObject::connect(&interrupt, &Interrupt::interrupted, &receiver, [&] {
        // The prompt may be accepted already while its request is under way.
        if (phase == Phase::Prompting || phase == Phase::Running) {
            if (const Result<void> stopped = server->abort(sessionID); !stopped)
                err(u"weft: warning: "_s + stopped.error().toString());
        }
        finish();
    });
    service->startWatching(watcher);
    connectTimeout.start(15000);
    QCoreApplication::exec();
    service->stopWatching();
    output.finish();
    if (interrupt.wasInterrupted()) {
        err(u"weft: interrupted: the run was stopped on the server"_s);
        return Interrupt::ExitCode;
    }
    if (!failure.isEmpty())
        return fail(failure);

    // The outcome is the answer's: the last assistant message, with its error if it failed.
    server->forget(sessionID);
    const Result<QList<MessageWithParts>> messages = server->readMessages(sessionID);
    if (!messages)
        return fail(messages.error().toString());
    // The answer to the prompt; a server that made its own ID for it: the newest answer.
    const bool ours = std::any_of(messages->cbegin(), messages->cend(),
                                  [&](const MessageWithParts &m) { return m.info.id() == userMessageID; });
    std::optional<Message> answer;
    for (const MessageWithParts &m : *messages) {
        if (!m.info.isAssistant() || (ours && m.info.parentID() != userMessageID))
            continue;
        for (const Part &part : m.parts)
            output.catchUp(part);
        answer = m.info;
    }
    output.finish();
    if (answer && answer->hasError()) {
        const MessageError error = answer->error();
        return fail(error.name() + u": "_s + error.message());
    }
    if (!runError.isNull())
        return fail(runError.name() + u": "_s + runError.message());
    return 0;
}

} // namespace weft::Cli
