// SPDX-License-Identifier: GPL-3.0-or-later
#include "queuedprompts.h"

#include "style.h"

#include "app/sessioncontroller.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace weft
{

QueuedPromptsView::QueuedPromptsView(SessionController *controller, QWidget *parent)
    : QWidget(parent)
    , m_controller(controller)
    , m_headline(new QLabel(this))
    , m_sendNext(new QPushButton(tr("Send Next"), this))
    , m_list(new QVBoxLayout)
{
    setObjectName(u"queuedPrompts"_s);
    m_headline->setFont(Style::smallFont(font()));
    m_sendNext->setObjectName(u"sendNextButton"_s);
    m_sendNext->setIcon(Style::icon(u"document-send"_s));
    m_sendNext->setToolTip(tr("Send the first queued prompt now"));
    connect(m_sendNext, &QPushButton::clicked, this, [this] {
        if (m_controller && !m_sessionID.isEmpty())
            m_controller->sendQueuedNow(m_sessionID);
    });
    auto *top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_headline, 1);
    top->addWidget(m_sendNext);
    m_list->setContentsMargins(0, 0, 0, 0);
    m_list->setSpacing(2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 4, 10, 2);
    layout->setSpacing(2);
    layout->addLayout(top);
    layout->addLayout(m_list);
    if (m_controller) {
        connect(m_controller, &SessionController::queueChanged, this, [this](const QString &sessionID) {
            if (sessionID == m_sessionID)
                rebuild();
        });
        connect(m_controller, &SessionController::busyChanged, this, [this](const QString &sessionID) {
            if (sessionID == m_sessionID)
                rebuild();
        });
    }
    rebuild();
}

void QueuedPromptsView::setSessionID(const QString &sessionID)
{
    m_sessionID = sessionID;
    rebuild();
}

QString QueuedPromptsView::headline() const
{
    return m_headline->text();
}

void QueuedPromptsView::rebuild()
{
    qDeleteAll(m_rows);
    m_rows.clear();
    const QList<SessionController::QueuedPrompt> queued
        = m_controller && !m_sessionID.isEmpty() ? m_controller->queuedPrompts(m_sessionID) : QList<SessionController::QueuedPrompt>();
    setVisible(!queued.isEmpty());
    if (queued.isEmpty())
        return;
    const bool running = m_controller->isBusy(m_sessionID);
    m_headline->setText(running ? tr("Queued (%1): sent one by one when the reply has ended").arg(queued.size())
                                : tr("Queued (%1): waiting, as the last reply did not finish").arg(queued.size()));
    m_sendNext->setVisible(!running);
    for (qsizetype i = 0; i < queued.size(); ++i) {
        const SessionController::QueuedPrompt &prompt = queued.at(i);
        auto *row = new QWidget(this);
        auto *line = new QHBoxLayout(row);
        line->setContentsMargins(0, 0, 0, 0);
        line->setSpacing(2);
        auto *editor = new QLineEdit(prompt.text, row);
        editor->setObjectName(u"queuedText"_s);
        editor->setToolTip(prompt.text);
        editor->setAccessibleName(tr("Queued prompt %1").arg(i + 1));
        const quint64 id = prompt.id;
        connect(editor, &QLineEdit::editingFinished, this, [this, editor, id, original = prompt.text] {
            const QString text = editor->text();
            if (text == original || !m_controller)
                return;
            // Emptied: it goes; edited: it goes as written. queueChanged() rebuilds later, not
            // inside the editor's own signal.
            QMetaObject::invokeMethod(this, [this, id, text] {
                if (!m_controller)
                    return;
                if (text.trimmed().isEmpty())
                    m_controller->removeQueued(m_sessionID, id);
                else
                    m_controller->editQueued(m_sessionID, id, text);
            }, Qt::QueuedConnection);
        });
        const auto button = [row, line](const QString &icon, const QString &name, const QString &tip, bool enabled) {
            auto *b = new QToolButton(row);
            b->setObjectName(name);
            b->setIcon(Style::icon(icon));
            b->setToolTip(tip);
            b->setAccessibleName(tip);
            b->setAutoRaise(true);
            b->setEnabled(enabled);
            line->addWidget(b);
            return b;
        };
        line->addWidget(editor, 1);
        QToolButton *up = button(u"go-up"_s, u"moveUp"_s, tr("Send earlier"), i > 0);
        QToolButton *down = button(u"go-down"_s, u"moveDown"_s, tr("Send later"), i + 1 < queued.size());
        QToolButton *remove = button(u"edit-delete"_s, u"remove"_s, tr("Remove from the queue"), true);
        const auto later = [this](auto &&work) { QMetaObject::invokeMethod(this, std::forward<decltype(work)>(work), Qt::QueuedConnection); };
        connect(up, &QToolButton::clicked, this, [this, id, i, later] {
            later([this, id, i] { m_controller->moveQueued(m_sessionID, id, i - 1); });
        });
        connect(down, &QToolButton::clicked, this, [this, id, i, later] {
            later([this, id, i] { m_controller->moveQueued(m_sessionID, id, i + 1); });
        });
        connect(remove, &QToolButton::clicked, this, [this, id, later] {
            later([this, id] { m_controller->removeQueued(m_sessionID, id); });
        });
        m_list->addWidget(row);
        m_rows.append(row);
    }
}

} // namespace weft
