// SPDX-License-Identifier: GPL-3.0-or-later
#include "findbar.h"

#include "app/sessioncontroller.h"
#include "core/async.h"
#include "qt/timelinemodel.h"
#include "session/sessionservice.h"
#include "style.h"
#include "timelineview.h"

#include <QAction>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>
#include <QSet>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
constexpr int TypingDelayMs = 150;
constexpr int RefreshDelayMs = 400;
// A bound for a text that matches everywhere (a single space in a long session).
constexpr int MaxMatches = 10000;

QList<FindBar::Match> findIn(const QList<MessageWithParts> &messages, const QString &text)
{
    QList<FindBar::Match> matches;
    if (text.isEmpty())
        return matches;
    for (const MessageWithParts &m : messages) {
        for (const SearchDocument &doc : SessionController::searchDocuments(m.info, m.parts)) {
            int occurrence = 0;
            for (qsizetype at = doc.text.indexOf(text, 0, Qt::CaseInsensitive); at >= 0;
                 at = doc.text.indexOf(text, at + text.size(), Qt::CaseInsensitive)) {
                matches.append({m.info.id(), doc.partID, occurrence++, m.info.created()});
                if (matches.size() >= MaxMatches)
                    return matches;
            }
        }
    }
    return matches;
}
} // namespace

FindBar::FindBar(TimelineView *view, QWidget *parent)
    : QWidget(parent)
    , m_view(view)
    , m_edit(new QLineEdit(this))
    , m_previous(new QToolButton(this))
    , m_next(new QToolButton(this))
    , m_close(new QToolButton(this))
    , m_status(new QLabel(this))
{
    setObjectName(u"findBar"_s);
    m_edit->setObjectName(u"findEdit"_s);
    m_edit->setPlaceholderText(tr("Find in this session…"));
    m_edit->setClearButtonEnabled(true);
    m_edit->setAccessibleName(tr("Find in this session"));
    m_edit->installEventFilter(this);

    m_nextAction = new QAction(Style::icon(u"go-down"_s), tr("Find &Next"), this);
    m_nextAction->setObjectName(u"findNext"_s);
    m_nextAction->setShortcut(QKeySequence::FindNext);
    m_nextAction->setToolTip(tr("Next match (Enter, F3)"));
    connect(m_nextAction, &QAction::triggered, this, &FindBar::findNext);
    m_previousAction = new QAction(Style::icon(u"go-up"_s), tr("Find Pre&vious"), this);
    m_previousAction->setObjectName(u"findPrevious"_s);
    m_previousAction->setShortcut(QKeySequence::FindPrevious);
    m_previousAction->setToolTip(tr("Previous match (Shift+Enter, Shift+F3)"));
    connect(m_previousAction, &QAction::triggered, this, &FindBar::findPrevious);

    m_previous->setDefaultAction(m_previousAction);
    m_previous->setAutoRaise(true);
    m_previous->setToolButtonStyle(Qt::ToolButtonIconOnly);
    m_next->setDefaultAction(m_nextAction);
    m_next->setAutoRaise(true);
    m_next->setToolButtonStyle(Qt::ToolButtonIconOnly);
    m_close->setObjectName(u"findClose"_s);
    m_close->setIcon(Style::icon(u"dialog-close"_s));
    if (m_close->icon().isNull())
        m_close->setText(u"\u2715"_s);
    m_close->setAutoRaise(true);
    m_close->setToolTip(tr("Close the find bar (Escape)"));
    connect(m_close, &QToolButton::clicked, this, &FindBar::closeBar);
    m_status->setObjectName(u"findStatus"_s);
    m_status->setMinimumWidth(QFontMetrics(font()).horizontalAdvance(u"9999 of 9999"_s) + 8);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->setSpacing(4);
    auto *label = new QLabel(tr("Find:"), this);
    label->setBuddy(m_edit);
    layout->addWidget(label);
    layout->addWidget(m_edit, 1);
    layout->addWidget(m_previous);
    layout->addWidget(m_next);
    layout->addWidget(m_status);
    layout->addWidget(m_close);

    m_debounce.setSingleShot(true);
    m_debounce.setInterval(TypingDelayMs);
    connect(&m_debounce, &QTimer::timeout, this, [this] { search(true); });
    connect(m_edit, &QLineEdit::textChanged, this, [this] {
        ++m_generation;
        m_debounce.start();
        updateStatus();
    });
    m_refresh.setSingleShot(true);
    m_refresh.setInterval(RefreshDelayMs);
    connect(&m_refresh, &QTimer::timeout, this, &FindBar::refresh);

    if (TimelineModel *model = m_view->timelineModel()) {
        // Another session: its matches. The same session changing (a reply streaming in):
        // found again after a pause, the current match kept.
        connect(model, &QAbstractItemModel::modelReset, this, [this] {
            if (std::exchange(m_waitingForRows, false))
                m_searching = false;
            m_matches.clear();
            m_index = -1;
            m_view->setFindHighlight(isVisible() ? m_edit->text() : QString());
            if (isVisible() && !m_edit->text().isEmpty())
                m_refresh.start();
            updateStatus();
        });
        const auto changed = [this] {
            if (isVisible() && !m_edit->text().isEmpty() && !m_searching)
                m_refresh.start();
        };
        connect(model, &QAbstractItemModel::rowsInserted, this, changed);
        // The first page a search waits for is in.
        connect(model, &TimelineModel::loaded, this, [this] {
            if (std::exchange(m_waitingForRows, false))
                search(false);
        });
        connect(model, &QAbstractItemModel::rowsRemoved, this, changed);
        connect(model, &QAbstractItemModel::dataChanged, this,
                [changed](const QModelIndex &, const QModelIndex &, const QList<int> &roles) {
                    if (roles.isEmpty() || roles.contains(TimelineModel::PartsRole)
                        || roles.contains(TimelineModel::ErrorRole))
                        changed();
                });
    }
    updateStatus();
    hide();
}

FindBar::~FindBar() = default;

void FindBar::activate()
{
    show();
    m_edit->setFocus(Qt::ShortcutFocusReason);
    m_edit->selectAll();
    if (!m_edit->text().isEmpty() && m_matches.isEmpty() && !isSearching())
        search(true);
    else
        m_view->setFindHighlight(m_edit->text(), m_index >= 0 ? m_matches.at(m_index).partID : QString());
}

void FindBar::closeBar()
{
    hide();
    m_view->setFindHighlight(QString());
    m_view->setFocus(Qt::OtherFocusReason);
}

QString FindBar::statusText() const
{
    if (m_edit->text().isEmpty())
        return {};
    if (isSearching() && m_matches.isEmpty())
        return tr("Searching…");
    if (m_matches.isEmpty())
        return tr("No matches");
    if (m_index < 0)
        return Style::plural(tr("%n match(es)", nullptr, int(m_matches.size())), m_matches.size());
    return tr("%1 of %2").arg(m_index + 1).arg(m_matches.size());
}

void FindBar::updateStatus()
{
    m_status->setText(statusText());
    const bool none = !m_edit->text().isEmpty() && !isSearching() && m_matches.isEmpty();
    // A field that found nothing says so in its colour, as Kate's does.
    QPalette p = m_edit->palette();
    p.setColor(QPalette::Base,
               none ? Style::mix(palette().color(QPalette::Base), Style::negative(palette()), 0.18)
                    : palette().color(QPalette::Base));
    m_edit->setPalette(p);
    m_nextAction->setEnabled(!m_matches.isEmpty() || isSearching());
    m_previousAction->setEnabled(!m_matches.isEmpty() || isSearching());
}

void FindBar::refresh()
{
    if (!m_edit->text().isEmpty())
        search(false);
}

void FindBar::search(bool navigate)
{
    m_debounce.stop();
    TimelineModel *model = m_view->timelineModel();
    const QString text = m_edit->text();
    const int generation = ++m_generation;
    if (!model || model->sessionID().isEmpty() || text.isEmpty()) {
        m_matches.clear();
        m_index = -1;
        m_searching = false;
        m_view->setFindHighlight(text);
        updateStatus();
        Q_EMIT searched(0);
        return;
    }
    m_searching = true;
    m_navigateWhenDone = m_navigateWhenDone || navigate;
    m_waitingForRows = false;
    updateStatus();
    // Matches are found in every message of the session: the rows the timeline holds are taken
    // from it (a streaming reply is ahead of its file), the others are read through the service,
    // and all of them are searched off the GUI thread. Nothing is loaded into the timeline.
    if (model->isLoading()) {
        m_waitingForRows = true; // the first page: the search goes on when it is in
        return;
    }
    QList<MessageWithParts> held;
    QSet<QString> heldIDs;
    held.reserve(model->rowCount());
    for (int row = 0; row < model->rowCount(); ++row) {
        const QModelIndex index = model->index(row);
        held.append({index.data(TimelineModel::MessageRole).value<Message>(),
                     index.data(TimelineModel::PartsRole).value<QList<Part>>()});
        heldIDs.insert(held.last().info.id());
    }
    const QString sessionID = model->sessionID();
    whenFinished(model->service()->messagesLater(sessionID, heldIDs), this,
                 [this, generation, text, sessionID, held](QList<MessageWithParts> messages) {
                     if (generation != m_generation)
                         return;
                     messages += held;
                     whenFinished(QtConcurrent::run([messages = std::move(messages), text]() mutable {
                                      std::sort(messages.begin(), messages.end(),
                                                [](const MessageWithParts &a, const MessageWithParts &b) {
                                                    return messageLessThan(a.info, b.info);
                                                });
                                      return findIn(messages, text);
                                  }),
                                  this, [this, generation, text, sessionID](const QList<Match> &matches) {
                                      if (generation == m_generation)
                                          showMatches(text, sessionID, matches);
                                  });
                 });
}

void FindBar::showMatches(const QString &text, const QString &sessionID, const QList<Match> &matches)
{
    m_searching = false;
    const bool sameSearch = text == m_searchedText && sessionID == m_searchedSession;
    const Match previous
        = m_index >= 0 && m_index < m_matches.size() ? m_matches.at(m_index) : Match();
    m_matches = matches;
    m_searchedText = text;
    m_searchedSession = sessionID;
    m_index = -1;
    if (sameSearch && !previous.messageID.isEmpty())
        m_index = int(m_matches.indexOf(previous));
    const bool navigate = std::exchange(m_navigateWhenDone, false);
    const int pending = std::exchange(m_pendingStep, 0);
    m_view->setFindHighlight(text, m_index >= 0 ? m_matches.at(m_index).partID : QString());
    updateStatus();
    Q_EMIT searched(int(m_matches.size()));
    if (m_matches.isEmpty())
        return;
    if (pending != 0) {
        step(pending);
    } else if (navigate && m_index < 0) {
        // As you type: the first match from the top of what is on screen on.
        const QModelIndex top = m_view->indexAt(QPoint(m_view->viewport()->width() / 2, 1));
        const qint64 from = top.isValid() ? top.data(TimelineModel::CreatedRole).toLongLong() : 0;
        int first = 0;
        for (int i = 0; i < m_matches.size(); ++i) {
            if (m_matches.at(i).time >= from) {
                first = i;
                break;
            }
        }
        goTo(first);
    }
}

void FindBar::findNext()
{
    if (!isVisible()) {
        activate();
        return;
    }
    step(1);
}

void FindBar::findPrevious()
{
    if (!isVisible()) {
        activate();
        return;
    }
    step(-1);
}

void FindBar::step(int delta)
{
    if (m_edit->text().isEmpty())
        return;
    if (isSearching() || m_edit->text() != m_searchedText) {
        // Enter pressed while the matches are being found: go there when they are in.
        m_pendingStep = delta;
        if (!m_searching)
            search(false);
        return;
    }
    if (m_matches.isEmpty())
        return;
    const int count = int(m_matches.size());
    const int index = m_index < 0 ? (delta > 0 ? 0 : count - 1) : ((m_index + delta) % count + count) % count;
    goTo(index);
}

void FindBar::goTo(int index)
{
    if (index < 0 || index >= m_matches.size())
        return;
    m_index = index;
    const Match &m = m_matches.at(index);
    m_view->setFindHighlight(m_edit->text(), m.partID);
    m_view->revealPart(m.messageID, m.partID);
    updateStatus();
    Q_EMIT currentChanged(index);
}

bool FindBar::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_edit && event->type() == QEvent::KeyPress) {
        auto *ke = static_cast<QKeyEvent *>(event);
        if (ke->key() == Qt::Key_Return || ke->key() == Qt::Key_Enter) {
            if (ke->modifiers() & Qt::ShiftModifier)
                findPrevious();
            else
                findNext();
            return true;
        }
        if (ke->key() == Qt::Key_Escape) {
            closeBar();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace weft
