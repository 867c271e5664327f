// SPDX-License-Identifier: GPL-3.0-or-later
#include "indexingguest.h"

#include "app/sessioncontroller.h"
#include "startupgate.h"

#include <QCoreApplication>
#include <QEvent>
#include <QLineEdit>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
const QString TypingReason = u"typing"_s;
const QString StartReason = u"start"_s;
}

IndexingGuest::IndexingGuest(SessionController *controller, QLineEdit *filter, StartupGate *gate, QObject *parent)
    : QObject(parent)
    , m_controller(controller)
    , m_filter(filter)
{
    m_typing.setSingleShot(true);
    m_typing.setInterval(TypingPauseMs);
    connect(&m_typing, &QTimer::timeout, this, &IndexingGuest::typingStopped);
    connect(m_controller, &SessionController::searchProgress, this, [this](int done, int total) {
        if (m_filter)
            m_filter->setPlaceholderText(placeholder(done, total));
    });
    QCoreApplication::instance()->installEventFilter(this);
    if (gate && !gate->isOpen()) {
        m_controller->pauseIndexing(StartReason);
        StartupGate::run(gate, this, [this] { m_controller->resumeIndexing(StartReason); });
    }
}

QString IndexingGuest::placeholder(int done, int total)
{
    if (done < total)
        return tr("Indexing %L1/%L2…").arg(done).arg(total);
    return tr("Filter sessions…");
}

void IndexingGuest::typingStopped()
{
    m_typing.stop();
    m_controller->resumeIndexing(TypingReason);
}

bool IndexingGuest::eventFilter(QObject *watched, QEvent *event)
{
    // Text fields (the composer, the sidebar's filter, the search panel) take input methods.
    if (event->type() == QEvent::KeyPress && watched->isWidgetType()
        && static_cast<QWidget *>(watched)->testAttribute(Qt::WA_InputMethodEnabled)) {
        if (!m_typing.isActive())
            m_controller->pauseIndexing(TypingReason);
        m_typing.start();
    }
    return QObject::eventFilter(watched, event);
}

} // namespace weft
