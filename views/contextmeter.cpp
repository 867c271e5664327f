// SPDX-License-Identifier: GPL-3.0-or-later
#include "contextmeter.h"

#include "style.h"

#include <QLocale>
#include <QPainter>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
constexpr int BarWidth = 110;
constexpr int BarHeight = 6;
} // namespace

ContextMeter::ContextMeter(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(u"contextMeter"_s);
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    refresh();
}

void ContextMeter::setTokens(qint64 tokens)
{
    m_tokens = tokens;
    refresh();
}

void ContextMeter::setLimit(qint64 limit)
{
    m_limit = limit;
    refresh();
}

void ContextMeter::setThreshold(double fraction)
{
    m_threshold = fraction;
    refresh();
}

void ContextMeter::setCost(double usd)
{
    m_cost = usd;
    refresh();
}

QString ContextMeter::text() const
{
    if (m_limit <= 0)
        return tr("%1 tokens").arg(Style::compactNumber(m_tokens));
    const int percent = int(std::lround(100.0 * double(m_tokens) / double(m_limit)));
    return tr("%1 / %2 tokens (%3%)").arg(Style::compactNumber(m_tokens), Style::compactNumber(m_limit)).arg(percent);
}

void ContextMeter::refresh()
{
    const QLocale locale;
    QStringList tip;
    tip.append(tr("Context: %1 tokens").arg(locale.toString(m_tokens)));
    if (m_limit > 0)
        tip.append(tr("Model limit: %1 tokens").arg(locale.toString(m_limit)));
    if (m_limit > 0 && m_threshold > 0)
        tip.append(tr("Automatic compaction at %1%").arg(int(std::lround(m_threshold * 100))));
    tip.append(tr("Session cost: %1").arg(Style::formatCost(m_cost)));
    setToolTip(tip.join(u'\n'));
    setAccessibleName(tr("Context usage"));
    setAccessibleDescription(text() + u", "_s + Style::formatCost(m_cost));
    updateGeometry();
    update();
}

QSize ContextMeter::sizeHint() const
{
    const QFontMetrics fm(font());
    int w = fm.horizontalAdvance(text()) + 8 + fm.horizontalAdvance(Style::formatCost(m_cost)) + 12;
    if (m_limit > 0)
        w += BarWidth + 10;
    return QSize(w, fm.height() + 4);
}

QSize ContextMeter::minimumSizeHint() const
{
    return sizeHint();
}

void ContextMeter::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    const QFontMetrics fm(font());
    const QColor text = pal.color(QPalette::WindowText);
    const QColor dim = Style::mix(text, pal.color(QPalette::Window), 0.4);
    int x = 0;
    const QString label = this->text();
    p.setPen(dim);
    p.drawText(QRect(x, 0, fm.horizontalAdvance(label), height()), Qt::AlignVCenter | Qt::AlignLeft, label);
    x += fm.horizontalAdvance(label) + 8;

    if (m_limit > 0) {
        const double fraction = std::clamp(double(m_tokens) / double(m_limit), 0.0, 1.0);
        const QRectF bar(x, (height() - BarHeight) / 2.0, BarWidth, BarHeight);
        p.setPen(Qt::NoPen);
        p.setBrush(Style::mix(pal.color(QPalette::Window), text, 0.15));
        p.drawRoundedRect(bar, BarHeight / 2.0, BarHeight / 2.0);
        QColor fill = Style::active(pal);
        if (m_threshold > 0 && fraction >= m_threshold)
            fill = Style::negative(pal);
        else if (m_threshold > 0 && fraction >= m_threshold * 0.8)
            fill = Style::neutral(pal);
        if (fraction > 0) {
            p.setBrush(fill);
            p.drawRoundedRect(
                QRectF(bar.left(), bar.top(), std::max(BarHeight * 1.0, bar.width() * fraction), bar.height()),
                BarHeight / 2.0, BarHeight / 2.0);
        }
        if (m_threshold > 0 && m_threshold < 1) {
            const qreal tx = bar.left() + bar.width() * m_threshold;
            p.setPen(QPen(text, 1.5));
            p.drawLine(QPointF(tx, bar.top() - 3), QPointF(tx, bar.bottom() + 3));
        }
        x += BarWidth + 10;
    }
    const QString cost = Style::formatCost(m_cost);
    p.setPen(text);
    p.drawText(QRect(x, 0, width() - x, height()), Qt::AlignVCenter | Qt::AlignLeft, cost);
}

} // namespace weft
