// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow: OpenCode servers (`opencode serve`, local or remote) as sources in the sidebar:
// File › Connect to OpenCode Server…, the servers remembered for the next start, their
// connection state, and their sessions run there.

#include "mainwindow.h"

#include "app/rememberedservers.h"
#include "app/serveraddress.h"
#include "app/serversource.h"
#include "connectserverdialog.h"
#include "noticebar.h"
#include "userquestions.h"
#include "style.h"
#include "qt/sessionsmodel.h"
#include "qt/sessiontreemodel.h"
#include "sessionsidebar.h"

#include <QAction>
#include <QDebug>
#include <QApplication>
#include <QFile>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
constexpr int MaxRecentServers = 10;

using StoredServer = RememberedServers::Entry;

QList<StoredServer> storedServers()
{
    QSettings settings;
    return RememberedServers::read(settings);
}

void storeServers(const QList<StoredServer> &servers)
{
    QSettings settings;
    if (const Result<void> stored = RememberedServers::write(settings, servers); !stored)
        qWarning().noquote() << "cannot remember the servers:" << stored.error().toString();
}

/// Updates (or adds, first) the stored entry of @p url.
void updateStored(const QString &url, const std::function<void(StoredServer &)> &edit)
{
    QList<StoredServer> servers = storedServers();
    auto it = std::find_if(servers.begin(), servers.end(), [&](const StoredServer &s) { return s.url == url; });
    StoredServer entry = it != servers.end() ? *it : StoredServer{url, {}, false};
    if (it != servers.end())
        servers.erase(it);
    edit(entry);
    servers.prepend(entry);
    while (servers.size() > MaxRecentServers)
        servers.removeLast();
    storeServers(servers);
}
} // namespace

void MainWindow::createServerActions()
{
    connect(action(u"connectServer"_s), &QAction::triggered, this, &MainWindow::showConnectServer);
    connect(action(u"disconnectServer"_s), &QAction::triggered, this, [this] {
        const QString key = !m_sidebar->currentSource().isEmpty() ? m_sidebar->currentSource() : m_currentSource;
        if (ServerSource *server = m_controller->server(key))
            disconnectServer(server->key());
    });
}

void MainWindow::setupServers()
{
    connect(m_controller.get(), &SessionController::serverAdded, this, &MainWindow::onServerAdded);
    connect(m_controller.get(), &SessionController::questionAsked, this, &MainWindow::onQuestionAsked);
    connect(m_controller.get(), &SessionController::questionClosed, this,
            [this](const QString &, const QString &requestID) { m_notices->removeNotice(u"question-"_s + requestID); });
    // The servers shown when Weft last quit, with their remembered passwords.
    for (const StoredServer &s : storedServers()) {
        if (!s.connected)
            continue;
        if (const Result<ServerAddress> server = ServerAddress::parse(s.url))
            addServer(*m_controller, server.value(), s.password);
    }
}

void MainWindow::showConnectServer()
{
    QList<ConnectServerDialog::Recent> recent;
    for (const StoredServer &s : storedServers())
        recent.append({s.url, s.password});
    ConnectServerDialog dialog(recent, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    connectServer(dialog.url(), dialog.password(), dialog.rememberPassword());
}

ServerSource *MainWindow::connectServer(const QString &address, const QString &password, bool rememberPassword)
{
    const Result<ServerAddress> server = ServerAddress::parse(address);
    if (!server) {
        QMessageBox::warning(this, tr("Connect to OpenCode Server"), server.error().message);
        return nullptr;
    }
    const QString key = server->url.toString();
    // An ssh:// target: the source starts `opencode serve` there through ssh and forwards a
    // local port to it; no password is asked for or stored (each start makes its own).
    updateStored(key, [&](StoredServer &s) {
        s.password = rememberPassword && !server->ssh ? password : QString();
        s.connected = true;
    });
    statusBar()->showMessage(tr("Connecting to %1…").arg(key));
    return addServer(*m_controller, server.value(), password);
}

void MainWindow::disconnectServer(const QString &key)
{
    ServerSource *server = m_controller->server(key);
    if (!server)
        return;
    updateStored(server->url().toString(), [](StoredServer &s) { s.connected = false; });
    m_controller->removeServer(key);
}

void MainWindow::onServerAdded(ServerSource *server)
{
    const QString key = server->key();
    connect(server, &ServerSource::ready, this, [this, server] {
        m_tree->addSource(server->key(), server->sessions(), server->label());
        followSourceModel(server->key(), server->sessions());
        statusBar()->showMessage(tr("Connected to OpenCode %1 at %2").arg(server->version(), server->url().toString()), 5000);
    });
    connect(server, &ServerSource::stateChanged, this, [this, server](ServerSource::State state) {
        if (m_tree->hasSource(server->key()))
            m_tree->setSourceLabel(server->key(), server->label());
        if (state == ServerSource::State::Reconnecting)
            statusBar()->showMessage(tr("The connection to %1 dropped (%2); reconnecting…")
                                         .arg(server->url().toString(), server->stateDetail()),
                                     8000);
        if (server->key() == m_currentSource)
            updateActions();
    });
    connect(server, &ServerSource::aboutToClose, this, [this, key] {
        if (m_currentSource == key)
            showSession(QString());
        m_tree->removeSource(key);
    });
}

void MainWindow::onQuestionAsked(const JsonObject &request)
{
    const QString id = request.string(u"id");
    const JsonArray questions = request.value(u"questions").toArray();
    if (id.isEmpty() || questions.isEmpty())
        return;
    const JsonObject first = questions.at(0).toObject();
    QString text = questions.size() == 1
        ? tr("The agent asks: %1").arg(first.string(u"question"))
        : Style::plural(tr("The agent asks %n question(s).", nullptr, int(questions.size())), questions.size());
    if (request.string(u"sessionID") != m_current) {
        const SessionsModel *model = m_tree->sessionsModel(m_controller->sourceOf(request.string(u"sessionID")));
        const std::optional<Session> s = model ? model->session(request.string(u"sessionID")) : std::nullopt;
        text = tr("In “%1”: %2").arg(s ? s->title() : request.string(u"sessionID"), text);
    }
    SessionController *c = m_controller.get();
    QList<NoticeBar::Button> actions;
    const JsonArray options = first.value(u"options").toArray();
    if (questions.size() == 1 && !first.value(u"multiple").toBool() && options.size() <= 4
        && first.value(u"custom").isBool() && !first.value(u"custom").toBool()) {
        // One question, a few choices: a button each.
        for (qsizetype i = 0; i < options.size(); ++i) {
            const QString label = options.at(i).toObject().string(u"label");
            actions.append({label, QString(), u"option%1"_s.arg(i), [c, id, label] { c->answerQuestion(id, {{label}}); }});
        }
    } else {
        actions.append({tr("&Answer…"), u"dialog-question"_s, u"answer"_s, [this, c, id, request] {
                            if (const std::optional<QList<QStringList>> answers = this->questions().answer(request))
                                c->answerQuestion(id, *answers);
                        }});
    }
    actions.append({tr("&Decline"), u"dialog-cancel"_s, u"decline"_s, [c, id] { c->rejectQuestion(id); }});
    m_notices->showNotice(u"question-"_s + id, NoticeBar::Kind::Question, text, actions);
    QApplication::alert(this);
}

} // namespace weft
