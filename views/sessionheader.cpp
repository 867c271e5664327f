// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessionheader.h"

#include "contextmeter.h"
#include "style.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace weft
{

SessionHeader::SessionHeader(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_details(new QLabel(this))
    , m_meter(new ContextMeter(this))
{
    setObjectName(u"sessionHeader"_s);
    m_title->setObjectName(u"sessionTitle"_s);
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 1.15);
    f.setWeight(QFont::DemiBold);
    m_title->setFont(f);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setMinimumWidth(80);
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_details->setObjectName(u"sessionDetails"_s);
    m_details->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    QPalette dim = m_details->palette();
    dim.setColor(QPalette::WindowText,
                 Style::mix(palette().color(QPalette::WindowText), palette().color(QPalette::Window), 0.35));
    m_details->setPalette(dim);

    auto *texts = new QVBoxLayout;
    texts->setSpacing(1);
    texts->addWidget(m_title);
    texts->addWidget(m_details);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(14, 8, 14, 8);
    layout->addLayout(texts, 1);
    layout->addWidget(m_meter, 0, Qt::AlignVCenter);
    // A long title or path ends in "…" where the room ends (the tooltip holds all of it).
    m_title->installEventFilter(this);
    m_details->installEventFilter(this);
}

bool SessionHeader::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Resize || event->type() == QEvent::FontChange) {
        if (watched == m_title)
            elide(m_title, m_fullTitle);
        else if (watched == m_details)
            elide(m_details, m_fullDetails);
    }
    return QWidget::eventFilter(watched, event);
}

void SessionHeader::elide(QLabel *label, const QString &text)
{
    const QString shown = label->fontMetrics().elidedText(text, Qt::ElideRight, label->contentsRect().width());
    if (label->text() != shown)
        label->setText(shown);
}

void SessionHeader::setTitle(const QString &title)
{
    m_fullTitle = title;
    m_title->setToolTip(title);
    elide(m_title, title);
}

QString SessionHeader::title() const
{
    return m_fullTitle;
}

void SessionHeader::setDetails(const QString &details)
{
    m_fullDetails = details;
    m_details->setToolTip(details);
    elide(m_details, details);
}

void SessionHeader::paintEvent(QPaintEvent *)
{
    // A hairline under the header, like a KDE view's header separator.
    QPainter p(this);
    p.setPen(Style::mix(palette().color(QPalette::Window), palette().color(QPalette::WindowText), 0.18));
    p.drawLine(0, height() - 1, width(), height() - 1);
}

} // namespace weft
