// SPDX-License-Identifier: GPL-3.0-or-later
#include "sourcespresenter.h"

#include "app/localservices.h"
#include "app/opencodesource.h"
#include "app/rememberedservers.h"
#include "app/serveraddress.h"
#include "app/serversource.h"
#include "app/sessioncontroller.h"
#include "connectserverdialog.h"
#include "noticebar.h"
#include "qt/sessionsmodel.h"
#include "qt/sessiontreemodel.h"
#include "searchpanel.h"
#include "session/datadir.h"
#include "session/sessionservice.h"
#include "style.h"
#include "userquestions.h"

#include <QApplication>
#include <QDebug>
#include <QDir>
#include <QFileDialog>
#include <QMainWindow>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
const QString SettingsGroup = u"OpenCodeSource"_s;
const QString OfferKey = u"opencodeOffer"_s;
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

SourcesPresenter::SourcesPresenter(QMainWindow *window, SessionController *controller, SessionTreeModel *tree,
                                   NoticeBar *notices, std::function<UserQuestions &()> questions)
    : QObject(window)
    , m_window(window)
    , m_controller(controller)
    , m_tree(tree)
    , m_notices(notices)
    , m_questions(std::move(questions))
{
}

void SourcesPresenter::showStatus(const QString &text, int timeout)
{
    m_window->statusBar()->showMessage(text, timeout);
}

void SourcesPresenter::setCurrent(const QString &sessionID, const QString &source)
{
    m_current = sessionID;
    m_currentSource = source;
}

OpencodeSource *SourcesPresenter::opencodeSource() const
{
    return m_controller->opencodeSource();
}

// ---- OpenCode's data folder

void SourcesPresenter::setup(const QString &dataDir, bool readOnly)
{
    m_readOnly = readOnly;
    // The search index (beside Weft's own data) and OpenCode's source are the controller's; the
    // sidebar shows the source.
    m_controller->openSources();
    setupServers();
    connect(opencodeSource(), &OpencodeSource::ready, this, &SourcesPresenter::onOpencodeReady);
    connect(opencodeSource(), &OpencodeSource::aboutToClose, this, &SourcesPresenter::onOpencodeClosing);

    QSettings settings;
    settings.beginGroup(SettingsGroup);
    const QString dir = settings.value(u"path"_s, DataDir::opencodePath()).toString();
    // A Weft started on OpenCode's folder itself shows it already.
    const bool isPrimary = QDir(dir).canonicalPath() == QDir(dataDir).canonicalPath() || readOnly;
    if (isPrimary)
        return;
    if (settings.contains(u"show"_s)) {
        if (settings.value(u"show"_s).toBool())
            setOpencodeShown(true, dir);
    } else if (OpencodeSource::looksLikeDataDir(dir)) {
        offerOpencode(dir);
    }
}

void SourcesPresenter::shutdown()
{
    // The panel's query and the index's worker use the services: they end first.
    delete m_searchPanel.data();
    if (OpencodeSource *opencode = opencodeSource())
        disconnect(opencode, nullptr, this, nullptr);
    m_controller->closeSources();
}

void SourcesPresenter::offerOpencode(const QString &dir)
{
    QString shown = QDir::toNativeSeparators(dir);
    const QString home = QDir::toNativeSeparators(QDir::homePath());
    if (shown.startsWith(home + QDir::separator()))
        shown = u"~"_s + shown.mid(home.size());
    const auto answer = [this, dir](bool show) {
        m_notices->removeNotice(OfferKey);
        QSettings settings;
        settings.beginGroup(SettingsGroup);
        settings.setValue(u"show"_s, show);
        if (show)
            setOpencodeShown(true, dir);
    };
    m_notices->showNotice(
        OfferKey, NoticeBar::Kind::Question,
        tr("OpenCode's sessions are in %1. Show them in the sidebar beside Weft's? They stay OpenCode's: Weft reads "
           "them live and never changes them.")
            .arg(shown),
        {{tr("&Show OpenCode Sessions"), u"network-server"_s, u"showOpencode"_s, [answer] { answer(true); }},
         {tr("&Not Now"), QString(), u"notNow"_s, [answer] { answer(false); }}},
        true);
}

bool SourcesPresenter::setOpencodeShown(bool shown, const QString &dataDir)
{
    QSettings settings;
    settings.beginGroup(SettingsGroup);
    const QString dir = !dataDir.isEmpty() ? dataDir : settings.value(u"path"_s, DataDir::opencodePath()).toString();
    m_notices->removeNotice(OfferKey);
    if (!shown) {
        settings.setValue(u"show"_s, false);
        opencodeSource()->close();
        Q_EMIT opencodeShownChanged(false);
        return true;
    }
    const Result<void> opened = opencodeSource()->open(dir);
    if (!opened) {
        Q_EMIT opencodeShownChanged(false);
        QMessageBox::warning(m_window, tr("OpenCode Sessions"),
                             tr("OpenCode's sessions in %1 cannot be shown:\n%2")
                                 .arg(QDir::toNativeSeparators(dir), opened.error().message));
        return false;
    }
    settings.setValue(u"show"_s, true);
    settings.setValue(u"path"_s, opencodeSource()->dataDir());
    Q_EMIT opencodeShownChanged(true);
    if (!opencodeSource()->warning().isEmpty())
        showStatus(opencodeSource()->warning(), 10000);
    return true;
}

void SourcesPresenter::chooseOpencodeDir()
{
    const QString dir = QFileDialog::getExistingDirectory(m_window, tr("OpenCode's Data Folder"),
                                                          opencodeSource()->isOpen() ? opencodeSource()->dataDir()
                                                                                     : DataDir::opencodePath());
    if (!dir.isEmpty())
        setOpencodeShown(true, dir);
}

void SourcesPresenter::onOpencodeReady()
{
    SessionsModel *model = opencodeSource()->sessions();
    const QString key = opencodeSource()->key();
    m_tree->addSource(key, model, opencodeSource()->label());
    followSourceModel(key, model);
    connect(opencodeSource()->service(), &SessionService::problemFound, this,
            [this](const QString &location, const QString &reason) {
                showStatus(tr("OpenCode's data: %1 (%2)").arg(reason, location), 8000);
            });
}

void SourcesPresenter::followSourceModel(const QString &key, SessionsModel *model)
{
    // The open session's header follows the source's changes (a title, a summary, a revert).
    connect(model, &QAbstractItemModel::dataChanged, this, [this, key, model](const QModelIndex &tl, const QModelIndex &br) {
        if (m_currentSource != key)
            return;
        const QModelIndex current = model->indexForId(m_current);
        if (current.isValid() && current.row() >= tl.row() && current.row() <= br.row())
            Q_EMIT currentChanged();
    });
}

void SourcesPresenter::onOpencodeClosing()
{
    const QString key = opencodeSource()->key();
    Q_EMIT sourceClosing(key);
    m_tree->removeSource(key);
    if (SessionsModel *model = opencodeSource()->sessions())
        disconnect(model, nullptr, this, nullptr);
}

bool SourcesPresenter::offerImportInstead(const QString &sessionID, const QString &what)
{
    // Weft's own sessions and a server's are acted on where they are.
    if (m_currentSource.isEmpty() || sessionID.isEmpty() || sessionID != m_current
        || m_controller->server(m_currentSource))
        return false;
    if (m_readOnly)
        return true;
    const SessionsModel *model = m_tree->sessionsModel(m_currentSource);
    const std::optional<Session> s = model ? model->session(sessionID) : std::nullopt;
    const QString title = s ? s->title() : sessionID;
    const QString text = tr("“%1” is one of OpenCode's sessions: Weft shows it but never writes to OpenCode's data. "
                            "To %2, copy it into Weft's own sessions first; the copy opens in the Weft list.")
                             .arg(title, what);
    if (m_questions().confirm({tr("Copy into Weft"), text, tr("&Copy into Weft"), QString(), false, true}))
        importSession(sessionID);
    return true;
}

void SourcesPresenter::importSession(const QString &sessionID)
{
    if (!opencodeSource() || !opencodeSource()->service() || m_readOnly || sessionID.isEmpty())
        return;
    showStatus(tr("Copying into Weft…"));
    m_controller->importSession(sessionID);
}

// ---- search

SearchPanel *SourcesPresenter::searchPanel()
{
    if (!m_searchPanel) {
        m_searchPanel = new SearchPanel(m_controller, m_window);
        connect(m_searchPanel, &SearchPanel::hitActivated, this, &SourcesPresenter::searchHitActivated);
    }
    // What each source is called in the results, and who wrote each message (read off the GUI
    // thread, from the stores, which are thread-safe).
    QHash<QString, QString> labels;
    labels.insert(m_controller->primarySourceKey(), m_tree->primaryLabel());
    if (opencodeSource() && opencodeSource()->service())
        labels.insert(opencodeSource()->key(), opencodeSource()->label());
    m_searchPanel->setSourceLabels(labels);
    m_searchPanel->setRoleResolver(m_controller->roleResolver());
    return m_searchPanel;
}

void SourcesPresenter::showSearchPanel()
{
    SearchPanel *panel = searchPanel();
    panel->show();
    panel->raise();
    panel->activateWindow();
}

void SourcesPresenter::hideSearchPanel()
{
    if (m_searchPanel)
        m_searchPanel->hide();
}

std::optional<QString> SourcesPresenter::sourceOf(const SearchHit &hit) const
{
    if (hit.source == m_controller->primarySourceKey())
        return QString();
    if (!opencodeSource() || hit.source != opencodeSource()->key())
        return std::nullopt;
    return hit.source;
}

// ---- OpenCode servers (`opencode serve`, local or remote)

void SourcesPresenter::setupServers()
{
    connect(m_controller, &SessionController::serverAdded, this, &SourcesPresenter::onServerAdded);
    connect(m_controller, &SessionController::questionAsked, this, &SourcesPresenter::onQuestionAsked);
    connect(m_controller, &SessionController::questionClosed, this,
            [this](const QString &, const QString &requestID) { m_notices->removeNotice(u"question-"_s + requestID); });
    // The servers shown when Weft last quit, with their remembered passwords.
    for (const StoredServer &s : storedServers()) {
        if (!s.connected)
            continue;
        if (const Result<ServerAddress> server = ServerAddress::parse(s.url))
            addServer(*m_controller, server.value(), s.password);
    }
    // OpenCode's background services on this machine, without being asked (found again at each
    // start, never remembered); a service file that is not trusted is said so.
    QStringList problems;
    LocalServices::connectAll(*m_controller, &problems);
    if (!problems.isEmpty())
        showStatus(tr("An OpenCode service is not shown: %1").arg(problems.join(u"; "_s)), 15000);
}

void SourcesPresenter::showConnectServer()
{
    QList<ConnectServerDialog::Recent> recent;
    for (const StoredServer &s : storedServers())
        recent.append({s.url, s.password});
    ConnectServerDialog dialog(recent, m_window);
    if (dialog.exec() != QDialog::Accepted)
        return;
    connectServer(dialog.url(), dialog.password(), dialog.rememberPassword());
}

ServerSource *SourcesPresenter::connectServer(const QString &address, const QString &password, bool rememberPassword)
{
    const Result<ServerAddress> server = ServerAddress::parse(address);
    if (!server) {
        QMessageBox::warning(m_window, tr("Connect to OpenCode Server"), server.error().message);
        return nullptr;
    }
    const QString key = server->url.toString();
    // An ssh:// target: the source starts `opencode serve` there through ssh and forwards a
    // local port to it; no password is asked for or stored (each start makes its own).
    updateStored(key, [&](StoredServer &s) {
        s.password = rememberPassword && !server->ssh ? password : QString();
        s.connected = true;
    });
    showStatus(tr("Connecting to %1…").arg(key));
    return addServer(*m_controller, server.value(), password);
}

void SourcesPresenter::disconnectServer(const QString &key)
{
    ServerSource *server = m_controller->server(key);
    if (!server)
        return;
    updateStored(server->url().toString(), [](StoredServer &s) { s.connected = false; });
    m_controller->removeServer(key);
}

void SourcesPresenter::onServerAdded(ServerSource *server)
{
    connect(server, &ServerSource::ready, this, [this, server] {
        m_tree->addSource(server->key(), server->sessions(), server->label());
        followSourceModel(server->key(), server->sessions());
        const QString connected = tr("Connected to OpenCode %1 at %2").arg(server->version(), server->url().toString());
        if (const QString problem = server->serviceProblem(); !problem.isEmpty())
            showStatus(tr("%1 (its OpenCode service is not used: %2)").arg(connected, problem), 15000);
        else
            showStatus(connected, 5000);
    });
    connect(server, &ServerSource::stateChanged, this, [this, server](ServerSource::State state) {
        if (m_tree->hasSource(server->key()))
            m_tree->setSourceLabel(server->key(), server->label());
        if (state == ServerSource::State::Reconnecting)
            showStatus(tr("The connection to %1 dropped (%2); reconnecting…")
                           .arg(server->url().toString(), server->stateDetail()),
                       8000);
        if (server->key() == m_currentSource)
            Q_EMIT currentChanged();
    });
    // The key as it is when the server goes: a server's key is known once it answered, after it
    // was added.
    connect(server, &ServerSource::aboutToClose, this, [this, server] {
        const QString key = server->key();
        Q_EMIT sourceClosing(key);
        m_tree->removeSource(key);
    });
}

void SourcesPresenter::onQuestionAsked(const JsonObject &request)
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
    SessionController *c = m_controller;
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
                            if (const std::optional<QList<QStringList>> answers = m_questions().answer(request))
                                c->answerQuestion(id, *answers);
                        }});
    }
    actions.append({tr("&Decline"), u"dialog-cancel"_s, u"decline"_s, [c, id] { c->rejectQuestion(id); }});
    m_notices->showNotice(u"question-"_s + id, NoticeBar::Kind::Question, text, actions);
    QApplication::alert(m_window);
}

} // namespace weft
