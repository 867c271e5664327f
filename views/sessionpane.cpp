// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessionpane.h"

#include "app/sessioncontroller.h"
#include "changespane.h"
#include "composer.h"
#include "contextmeter.h"
#include "core/async.h"
#include "findbar.h"
#include "qt/sessionsmodel.h"
#include "qt/sessiontreemodel.h"
#include "qt/timelinemodel.h"
#include "queuedprompts.h"
#include "session/sessionservice.h"
#include "sessionheader.h"
#include "startupgate.h"
#include "style.h"
#include "timelinedelegate.h"
#include "timelineview.h"
#include "todopanel.h"

#include <QAction>
#include <QDir>
#include <QHideEvent>
#include <QPainter>
#include <QSplitter>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <utility>

using namespace Qt::StringLiterals;

namespace weft
{

SessionPane::SessionPane(SessionController *controller, SessionTreeModel *tree, StartupGate *gate, QWidget *parent)
    : QWidget(parent)
    , m_controller(controller)
    , m_tree(tree)
    , m_gate(gate)
    , m_timeline(new TimelineModel(controller->service(), this))
    , m_header(new SessionHeader(this))
    , m_timelineView(new TimelineView(this))
    , m_findBar(new FindBar(m_timelineView, this))
    , m_todos(new TodoPanel(this))
    , m_queued(new QueuedPromptsView(controller, this))
    , m_composer(new Composer(this))
    , m_changes(new ChangesPane(controller->service(), this))
    , m_centerSplitter(new QSplitter(Qt::Vertical, this))
    , m_splitter(new QSplitter(Qt::Horizontal, this))
{
    setObjectName(u"sessionPane"_s);
    m_timelineView->setTimelineModel(m_timeline);
    // The window's Find Next and Find Previous act on the focused pane's bar: the bar's own
    // actions answer only inside it (Enter and Shift+Enter in its field).
    m_findBar->findNextAction()->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_findBar->findPreviousAction()->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_composer->setReadOnly(controller->service()->isReadOnly());
    m_composer->setDefaultDelivery(Composer::savedDefaultDelivery());
    m_composer->setHistorySource([this] {
        // The session's prompts as the timeline holds them (its newest pages), oldest first.
        QStringList prompts;
        for (int row = 0; row < m_timeline->rowCount(); ++row) {
            const QModelIndex index = m_timeline->index(row, 0);
            if (index.data(TimelineModel::AuthorRole).value<Message::Role>() != Message::Role::User)
                continue;
            const QString text = index.data(TimelineModel::TextRole).toString();
            if (!text.isEmpty() && (prompts.isEmpty() || prompts.constLast() != text))
                prompts.append(text);
        }
        return prompts;
    });
    m_changes->setController(controller);
    m_changes->setStartupGate(gate);
    m_composer->setStartupGate(gate);
    m_changes->setTimelineModel(m_timeline);

    auto *timelineBox = new QWidget(this);
    auto *timelineLayout = new QVBoxLayout(timelineBox);
    timelineLayout->setContentsMargins(0, 0, 0, 0);
    timelineLayout->setSpacing(0);
    timelineLayout->addWidget(m_header);
    timelineLayout->addWidget(m_timelineView, 1);
    timelineLayout->addWidget(m_findBar);
    timelineLayout->addWidget(m_todos);
    timelineLayout->addWidget(m_queued);

    m_centerSplitter->setObjectName(u"centerSplitter"_s);
    m_centerSplitter->setChildrenCollapsible(false);
    m_centerSplitter->addWidget(timelineBox);
    m_centerSplitter->addWidget(m_composer);
    m_centerSplitter->setStretchFactor(0, 1);
    m_centerSplitter->setStretchFactor(1, 0);
    m_centerSplitter->setSizes({640, 120});

    m_splitter->setObjectName(u"paneSplitter"_s);
    m_splitter->addWidget(m_centerSplitter);
    m_splitter->addWidget(m_changes);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 0);
    m_splitter->setCollapsible(0, false);
    m_splitter->setSizes({600, 400}); // the changes pane: room for a diff side by side

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 0); // room for the focus accent line (paintEvent)
    layout->setSpacing(0);
    layout->addWidget(m_splitter);

    connect(m_timelineView, &TimelineView::turnChangesRequested, this,
            [this](const QString &, const QString &messageID) {
                setChangesShown(true);
                m_changes->showTurn(messageID);
                Q_EMIT stateChanged();
            });
    SessionsModel *sessions = sessionsFor({});
    connect(sessions, &QAbstractItemModel::dataChanged, this, [this, sessions](const QModelIndex &tl, const QModelIndex &br) {
        const QModelIndex shown = m_source.isEmpty() ? sessions->indexForId(m_sessionID) : QModelIndex();
        if (shown.isValid() && shown.row() >= tl.row() && shown.row() <= br.row()) {
            updateRevert();
            updateHeader();
            Q_EMIT stateChanged();
        }
    });
    connect(m_timeline, &TimelineModel::statsChanged, this, &SessionPane::updateHeader);
    connect(m_timeline, &TimelineModel::runningChanged, this, &SessionPane::stateChanged);
    connect(m_timeline, &QAbstractItemModel::rowsInserted, this, &SessionPane::rowsChanged);
    connect(m_timeline, &QAbstractItemModel::rowsRemoved, this, &SessionPane::rowsChanged);
    connect(m_timeline, &TimelineModel::loaded, this, [this] {
        m_composer->setCurrentModel(m_timeline->lastModel());
        m_composer->setCurrentAgent(m_timeline->lastAgent());
        updateRevert();
        updateHeader();
        Q_EMIT stateChanged();
        Q_EMIT rowsChanged();
    });
    connect(m_composer, &Composer::modelChanged, this, &SessionPane::updateContextMeter);
    connect(m_composer, &Composer::stopRequested, controller, &SessionController::stop);
    applyProcessor();
    updateHeader();
}

SessionPane::~SessionPane() = default;

ContextMeter *SessionPane::contextMeter() const
{
    return m_header->meter();
}

SessionsModel *SessionPane::sessionsFor(const QString &source) const
{
    return m_tree->sessionsModel(source);
}

void SessionPane::setSession(const QString &shownID, const QString &source)
{
    // A source that went (a server disconnected while the sidebar still listed its sessions)
    // shows nothing: its sessions are not Weft's own.
    const QString sessionID = m_controller->hasSource(source) ? shownID : QString();
    m_queued->setSessionID(sessionID);
    const QString shownSource = sessionID.isEmpty() ? QString() : source;
    if (sessionID == m_sessionID && shownSource == m_source)
        return;
    m_sessionID = sessionID;
    m_source = shownSource;
    SessionService *service = m_controller->serviceFor(m_source);
    m_timeline->setSession(service, sessionID);
    m_todos->setSession(service, sessionID);
    m_composer->setSessionID(sessionID);
    // Files are attached from the project of a session of Weft's own store: as listed, or read
    // off the GUI thread while the list is still loading.
    const std::optional<Session> shown = sessionID.isEmpty() || !m_source.isEmpty() ? std::nullopt : sessionInfo();
    m_composer->setProjectDirectory(shown ? shown->directory() : QString());
    if (!shown && !sessionID.isEmpty() && m_source.isEmpty()) {
        whenFinished(m_controller->withService([sessionID](SessionService &service) { return service.get(sessionID); }),
                     this, [this, sessionID](const std::optional<Session> &session) {
                         if (session && sessionID == m_sessionID && m_source.isEmpty())
                             m_composer->setProjectDirectory(session->directory());
                     });
    }
    updateProjectChoices();
    updateSourceState();
    updateRunning();
    // The changes pane reads Weft's store or a server's; OpenCode's folder's sessions show their
    // diff once copied.
    const bool withChanges = m_source.isEmpty() || server();
    m_changes->setService(service);
    m_changes->setSessionID(withChanges ? sessionID : QString());
    updateRevert();
    updateHeader();
    Q_EMIT sessionChanged();
    Q_EMIT stateChanged();
}

std::optional<Session> SessionPane::sessionInfo() const
{
    if (m_sessionID.isEmpty())
        return std::nullopt;
    const SessionsModel *model = sessionsFor(m_source);
    return model ? model->session(m_sessionID) : std::nullopt;
}

QString SessionPane::title() const
{
    if (m_sessionID.isEmpty())
        return tr("No Session");
    const std::optional<Session> s = sessionInfo();
    return s && !s->title().isEmpty() ? s->title() : m_sessionID;
}

ServerSource *SessionPane::server() const
{
    return m_source.isEmpty() ? nullptr : m_controller->server(m_source);
}

bool SessionPane::isRunnable() const
{
    // Sessions of OpenCode's folder are shown, not run; a server's run there.
    return !m_sessionID.isEmpty() && m_controller->isRunnable(m_sessionID)
        && m_timeline->service() == m_controller->serviceFor(m_controller->sourceOf(m_sessionID));
}

bool SessionPane::canUndoCompaction() const
{
    if (!isRunnable() || m_timeline->isLoading())
        return false;
    // An undoable compaction is the end of the session: its marker, the summary and perhaps the
    // synthetic "Continue" message. Compaction::planUndo over the last rows answers as over all.
    QList<MessageWithParts> tail;
    const int rows = m_timeline->rowCount();
    for (int row = std::max(0, rows - 4); row < rows; ++row) {
        const QModelIndex index = m_timeline->index(row);
        tail.append({index.data(TimelineModel::MessageRole).value<Message>(),
                     index.data(TimelineModel::PartsRole).value<QList<Part>>()});
    }
    return m_controller->canUndoCompaction(m_sessionID, tail);
}

void SessionPane::setChangesShown(bool shown)
{
    m_changesShown = shown;
    m_changes->setVisible(shown);
}

void SessionPane::setActive(bool active)
{
    if (m_active == active)
        return;
    m_active = active;
    update();
}

void SessionPane::paintEvent(QPaintEvent *event)
{
    QWidget::paintEvent(event);
    // The focused pane: an accent line over it, when the window has more than one.
    if (!m_active)
        return;
    QPainter painter(this);
    painter.fillRect(QRect(0, 0, width(), 2), palette().color(QPalette::Highlight));
}

void SessionPane::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    // A background tab keeps its rows and the rows' heights (switching back lays out only what
    // shows); the laid-out text and rendered documents go, and come back when painted.
    if (!event->spontaneous())
        m_timelineView->timelineDelegate()->releaseLayouts();
}

void SessionPane::applyProcessor()
{
    const QStringList agents = m_controller->agents();
    if (!agents.isEmpty())
        m_composer->setAgents(agents);
    m_composer->setModels(m_controller->availableModels());
    m_composer->setCurrentModel(m_controller->defaultModel());
    updateProjectChoices();
}

void SessionPane::updateSourceState()
{
    // A server's sessions run there; OpenCode's folder is read-only (copy into Weft to go on).
    const bool onServer = server() != nullptr;
    const bool foreign = !m_source.isEmpty() && !onServer;
    const bool readOnlyStore = m_controller->service()->isReadOnly();
    // A session of Weft's store that another process runs is followed live, not prompted here.
    const std::optional<RunHolder> elsewhere
        = m_source.isEmpty() ? m_controller->runningElsewhere(m_sessionID) : std::nullopt;
    if (elsewhere)
        m_composer->setReadOnly(true, tr("This session is being run by %1. It follows live here; fork it to work "
                                         "on it meanwhile.")
                                          .arg(elsewhere->describe()));
    else
        m_composer->setReadOnly(onServer ? false : (readOnlyStore || foreign));
    m_composer->setImportAvailable(foreign && !readOnlyStore);
}

void SessionPane::updateProjectChoices()
{
    // The project's identity (git) and MCP servers: after the first frame of the start.
    if (m_gate && !m_gate->isOpen()) {
        if (!std::exchange(m_choicesWaiting, true))
            StartupGate::run(m_gate, this, [this] {
                m_choicesWaiting = false;
                updateProjectChoices();
            });
        return;
    }
    const QString sessionID = m_sessionID;
    // Weft's own sessions: the project's config; an OpenCode 2 server's: what the server offers.
    const bool asks = m_source.isEmpty() || m_controller->server(m_source);
    const QFuture<SessionController::ProjectChoices> choices = asks
        ? m_controller->projectChoices(sessionID)
        : QtFuture::makeReadyValueFuture(SessionController::ProjectChoices());
    whenFinished(choices, this, [this, sessionID](const SessionController::ProjectChoices &choices) {
        if (sessionID != m_sessionID)
            return; // another session was opened meanwhile
        if (!choices.agents.isEmpty())
            m_composer->setAgents(choices.agents);
        // The model the session used last stays chosen when its rows came first (the timeline's
        // loaded() chose it); else the default of what is offered.
        const bool rowsLoaded = m_timeline->sessionID() == sessionID && !m_timeline->isLoading();
        const QString used = rowsLoaded ? m_timeline->lastModel() : QString();
        if (!choices.models.isEmpty()) {
            const QString fallback = choices.defaultModel.isEmpty() ? choices.models.first() : choices.defaultModel;
            m_composer->setModels(choices.models, used.isEmpty() ? fallback : used);
            m_serverModelsShown = true;
        } else if (std::exchange(m_serverModelsShown, false)) {
            m_composer->setModels(m_controller->availableModels(), used.isEmpty() ? m_controller->defaultModel() : used);
        }
        QList<Composer::CommandChoice> commands;
        for (const SessionController::ProjectChoices::Command &c : choices.commands) {
            // An MCP prompt's arguments are given in its order: say which.
            commands.append({c.name, c.mcpArguments.isEmpty()
                                         ? c.description
                                         : tr("%1 (arguments: %2)").arg(c.description, c.mcpArguments.join(u' ')).trimmed()});
        }
        m_composer->setCommands(commands);
        m_composer->setResources(choices.resources);
        if (std::exchange(m_projectError, choices.error) != choices.error)
            Q_EMIT projectErrorChanged();
    });
}

void SessionPane::updateHeader()
{
    const std::optional<Session> s = sessionInfo();
    m_header->setVisible(s.has_value());
    if (s) {
        m_header->setTitle(s->title());
        QStringList details;
        QString dir = QDir::toNativeSeparators(s->directory());
        const QString home = QDir::toNativeSeparators(QDir::homePath());
        if (dir.startsWith(home))
            dir = u"~"_s + dir.mid(home.size());
        if (!dir.isEmpty())
            details.append(dir);
        const int count = m_timeline->totalMessageCount();
        if (!m_timeline->isLoading())
            details.append(Style::plural(tr("%n message(s)", nullptr, count), count));
        if (s->additions() > 0 || s->deletions() > 0)
            details.append(Style::plural(
                tr("+%1 \u2212%2 in %n file(s)", nullptr, int(s->filesChanged())).arg(s->additions()).arg(s->deletions()),
                s->filesChanged()));
        if (s->isArchived())
            details.append(tr("archived"));
        m_header->setDetails(details.join(u"  ·  "_s));
        updateContextMeter();
    }
    Q_EMIT stateChanged();
}

void SessionPane::updateContextMeter()
{
    ContextMeter *meter = contextMeter();
    meter->setTokens(m_timeline->contextTokens());
    meter->setCost(m_timeline->totalCost());
    // The limit asks the project's config (git twice, its files) on this thread: after the
    // window's first frame.
    if (m_gate && !m_gate->isOpen()) {
        if (!std::exchange(m_meterWaiting, true))
            StartupGate::run(m_gate, this, [this] {
                m_meterWaiting = false;
                updateContextMeter();
            });
        return;
    }
    // The limit of the model the next prompt uses, as the controller decides it for a prompt.
    PromptRequest request;
    request.sessionID = m_sessionID;
    request.agent = m_composer->currentAgent();
    request.model = m_composer->currentModel();
    if (request.model.isEmpty())
        request.model = m_timeline->lastModel();
    // As listed: not read again on the GUI thread.
    if (!m_sessionID.isEmpty() && m_source.isEmpty())
        request.session = sessionInfo();
    else if (!m_source.isEmpty() && !server())
        request.sessionID.clear(); // OpenCode's session, not run here: the model as for a new prompt
    const SessionController::PromptResult check = m_controller->checkPrompt(request);
    const qint64 limit = check.contextLimit;
    meter->setLimit(limit);
    // OpenCode's overflow: input + cache.read + output > context - min(output limit, 32000).
    meter->setThreshold(limit > 0 && check.compactAt > 0 ? double(check.compactAt) / double(limit) : 0.0);
}

void SessionPane::updateRunning()
{
    m_composer->setRunning(!m_sessionID.isEmpty() && m_controller->isBusy(m_sessionID));
}

void SessionPane::updateRevert()
{
    // A pending revert: its messages are hidden until the next prompt drops them.
    const std::optional<Session> s
        = m_sessionID.isEmpty() || m_timeline->service() != m_controller->service() ? std::nullopt : sessionInfo();
    const JsonObject revert = s && s->hasRevert() ? s->revert() : JsonObject();
    m_timelineView->setRevert(revert.string(u"messageID"), revert.string(u"partID"));
}

} // namespace weft
