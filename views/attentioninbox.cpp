// SPDX-License-Identifier: GPL-3.0-or-later
#include "attentioninbox.h"

#include "app/serversource.h"
#include "app/sessioncontroller.h"
#include "attentionpanel.h"
#include "desktopnotifier.h"
#include "mainwindow.h"
#include "noticebar.h"
#include "qt/attentionmodel.h"
#include "qt/sessionsmodel.h"
#include "qt/sessiontreemodel.h"
#include "sessionsidebar.h"
#include "style.h"

#include <QApplication>
#include <QListView>
#include <QPushButton>
#include <QToolButton>

using namespace Qt::StringLiterals;

namespace weft
{

AttentionInbox::AttentionInbox(MainWindow *window)
    : QObject(window)
    , m_window(window)
    , m_model(new AttentionModel(this))
    , m_panel(new AttentionPanel(m_model, window))
    , m_button(new QToolButton(window))
    , m_attended([window] { return window->isActiveWindow(); })
{
    setNotifier(new SystemNotifier(this));
    m_model->setSessionLookup(
        [this](const QString &source, const QString &sessionID) { return session(source, sessionID); });

    m_button->setObjectName(u"attentionButton"_s);
    m_button->setAutoRaise(true);
    m_button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_button->setToolTip(tr("Sessions that wait for your answer, runs that failed and runs that finished; "
                            "click for the list"));
    m_button->hide();
    connect(m_button, &QToolButton::clicked, this, &AttentionInbox::showPanel);
    window->sidebar()->addHeaderWidget(m_button);
    connect(m_model, &AttentionModel::countsChanged, this, &AttentionInbox::updateButton);
    connect(m_panel, &AttentionPanel::entryActivated, this, &AttentionInbox::open);

    SessionController *c = window->controller();
    connect(c, &SessionController::permissionRequested, this, &AttentionInbox::onPermissionRequested);
    connect(c, &SessionController::permissionClosed, m_model,
            [this](const PermissionRequest &request) { m_model->removeRequest(request.id); });
    connect(c, &SessionController::questionAsked, this, &AttentionInbox::onQuestionAsked);
    connect(c, &SessionController::questionClosed, m_model,
            [this](const QString &, const QString &requestID) { m_model->removeRequest(requestID); });
    connect(c, &SessionController::runFinished, this, &AttentionInbox::onRunFinished);
    // A session that runs again has no outcome to look at until that run ends.
    connect(c, &SessionController::busyChanged, m_model, [this](const QString &sessionID, bool busy) {
        if (busy)
            m_model->clearRunResult(sessionID, m_window->controller()->sourceOf(sessionID));
    });
    connect(c, &SessionController::serverAdded, this, [this](ServerSource *server) {
        // Its key once it answered (known after it was added).
        connect(server, &ServerSource::aboutToClose, m_model, [this, server] { m_model->removeSource(server->key()); });
    });
    connect(window, &MainWindow::currentSessionChanged, m_model,
            [this](const QString &sessionID) { m_model->setCurrentSession(sessionID, m_window->currentSource()); });
    m_model->setCurrentSession(window->currentSessionID(), window->currentSource());
}

AttentionInbox::~AttentionInbox()
{
    delete m_panel; // it shows the model that goes with the inbox
    delete m_button;
}

QToolButton *AttentionInbox::button() const
{
    return m_button;
}

AttentionPanel *AttentionInbox::panel() const
{
    return m_panel;
}

void AttentionInbox::setNotifier(DesktopNotifier *notifier)
{
    if (m_notifier == notifier)
        return;
    delete m_notifier;
    m_notifier = notifier;
    if (!notifier)
        return;
    notifier->setParent(this);
    connect(notifier, &DesktopNotifier::activated, this, &AttentionInbox::openFromNotification);
}

std::optional<Session> AttentionInbox::session(const QString &source, const QString &sessionID) const
{
    const SessionsModel *sessions = m_window->sessionTreeModel()->sessionsModel(source);
    return sessions ? sessions->session(sessionID) : std::nullopt;
}

QString AttentionInbox::titleOf(const QString &source, const QString &sessionID) const
{
    const std::optional<Session> s = session(source, sessionID);
    return s && !s->title().isEmpty() ? s->title() : sessionID;
}

void AttentionInbox::onPermissionRequested(const PermissionRequest &request)
{
    const QString source = m_window->controller()->sourceOf(request.sessionID);
    const QString detail
        = tr("Asks to %1: %2").arg(MainWindow::permissionWhat(request.permission), request.patterns.join(u", "_s));
    m_model->addRequest(AttentionModel::Kind::Permission, request.id, request.sessionID, source, detail);
    notify(request.sessionID, source, tr("“%1” waits for your permission").arg(titleOf(source, request.sessionID)),
           detail);
}

void AttentionInbox::onQuestionAsked(const JsonObject &request)
{
    const QString id = request.string(u"id");
    const QString sessionID = request.string(u"sessionID");
    const JsonArray questions = request.value(u"questions").toArray();
    if (id.isEmpty() || questions.isEmpty())
        return;
    const QString source = m_window->controller()->sourceOf(sessionID);
    const QString detail = questions.size() == 1
        ? tr("Asks: %1").arg(questions.at(0).toObject().string(u"question"))
        : Style::plural(tr("Asks %n question(s).", nullptr, int(questions.size())), questions.size());
    m_model->addRequest(AttentionModel::Kind::Question, id, sessionID, source, detail);
    notify(sessionID, source, tr("“%1” asks you").arg(titleOf(source, sessionID)), detail);
}

void AttentionInbox::onRunFinished(const QString &sessionID, bool ok, const MessageError &error)
{
    const QString source = m_window->controller()->sourceOf(sessionID);
    const QString title = titleOf(source, sessionID);
    if (!ok && error.kind() == MessageError::Kind::Aborted) {
        // Stopped by the user, who knows.
        m_model->clearRunResult(sessionID, source);
        return;
    }
    if (ok) {
        const QString detail = tr("The run finished.");
        m_model->addRunResult(AttentionModel::Kind::Finished, sessionID, source, detail);
        notify(sessionID, source, tr("“%1” finished").arg(title), detail);
        return;
    }
    const QString detail = error.isNull() ? tr("The run failed.") : tr("The run failed: %1").arg(error.message());
    m_model->addRunResult(AttentionModel::Kind::Failed, sessionID, source, detail);
    notify(sessionID, source, tr("“%1” failed").arg(title), detail);
}

void AttentionInbox::notify(const QString &sessionID, const QString &source, const QString &summary,
                            const QString &detail)
{
    if (!m_notifier || !DesktopNotifier::isEnabled() || (m_attended && m_attended()))
        return;
    QString body = detail;
    if (const std::optional<Session> s = session(source, sessionID); s && !s->parentID().isEmpty())
        body = tr("A sub-agent of “%1”. %2").arg(titleOf(source, s->parentID()), detail);
    m_notifier->notify({summary, body, sessionID, source});
}

void AttentionInbox::updateButton()
{
    const int waiting = m_model->waitingCount();
    const int finished = m_model->finishedCount();
    QString text;
    if (waiting > 0 && finished > 0)
        text = tr("⚑ %1 waiting · %2 finished").arg(waiting).arg(finished);
    else if (waiting > 0)
        text = tr("⚑ %n waiting", nullptr, waiting);
    else
        text = tr("%n finished", nullptr, finished);
    m_button->setText(text);
    m_button->setAccessibleName(
        Style::plural(tr("%n session(s) for you to look at", nullptr, waiting + finished), waiting + finished));
    m_button->setVisible(waiting + finished > 0);
    if (waiting + finished == 0)
        m_panel->hide();
}

void AttentionInbox::showPanel()
{
    m_panel->popup(m_button->isVisible() ? static_cast<QWidget *>(m_button.data()) : m_window->sidebar());
}

void AttentionInbox::open(const QModelIndex &index)
{
    if (!index.isValid())
        return;
    const QString sessionID = index.data(AttentionModel::SessionIdRole).toString();
    const QString source = index.data(AttentionModel::SourceRole).toString();
    const QString requestID = index.data(AttentionModel::RequestIdRole).toString();
    m_panel->hide();
    if (!m_window->openSession(sessionID, source))
        return;
    if (!requestID.isEmpty())
        focusQuestion(requestID);
}

void AttentionInbox::openFromNotification(const QString &sessionID, const QString &source)
{
    if (m_window->isMinimized())
        m_window->showNormal();
    m_window->show();
    m_window->raise();
    m_window->activateWindow();
    if (!m_window->openSession(sessionID, source))
        return;
    // Its first question, when it asks.
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const QModelIndex index = m_model->index(row);
        if (index.data(AttentionModel::SessionIdRole).toString() == sessionID
            && index.data(AttentionModel::SourceRole).toString() == source
            && !index.data(AttentionModel::RequestIdRole).toString().isEmpty()) {
            focusQuestion(index.data(AttentionModel::RequestIdRole).toString());
            break;
        }
    }
}

void AttentionInbox::focusQuestion(const QString &requestID)
{
    // The window shows every question in its notice strip, keyed by the request (onPermissionRequested,
    // onQuestionAsked there).
    const NoticeBar *notices = m_window->noticeBar();
    QWidget *notice = notices->notice(u"permission-"_s + requestID);
    if (!notice)
        notice = notices->notice(u"question-"_s + requestID);
    if (!notice)
        return;
    const QList<QPushButton *> buttons = notice->findChildren<QPushButton *>();
    for (QPushButton *button : buttons) {
        if (button->isEnabled() && button->isVisibleTo(m_window)) {
            button->setFocus(Qt::OtherFocusReason);
            return;
        }
    }
}

} // namespace weft
