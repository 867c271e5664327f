// SPDX-License-Identifier: GPL-3.0-or-later
#include "noticebar.h"

#include "style.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
QColor kindColor(NoticeBar::Kind kind, const QPalette &palette)
{
    switch (kind) {
    case NoticeBar::Kind::Positive:
        return Style::positive(palette);
    case NoticeBar::Kind::Warning:
    case NoticeBar::Kind::Question:
        return Style::neutral(palette);
    case NoticeBar::Kind::Error:
        return Style::negative(palette);
    case NoticeBar::Kind::Information:
        break;
    }
    return Style::active(palette);
}

QString kindIcon(NoticeBar::Kind kind)
{
    switch (kind) {
    case NoticeBar::Kind::Warning:
    case NoticeBar::Kind::Error:
        return u"dialog-warning"_s;
    case NoticeBar::Kind::Question:
        return u"dialog-question"_s;
    case NoticeBar::Kind::Positive:
        return u"dialog-ok"_s;
    case NoticeBar::Kind::Information:
        break;
    }
    return u"dialog-information"_s;
}

/// One notice: a tinted, rounded frame with an accent line on the left.
class NoticeFrame : public QWidget
{
public:
    NoticeFrame(NoticeBar::Kind kind, QWidget *parent)
        : QWidget(parent)
        , m_kind(kind)
    {
    }
    QLabel *label = nullptr;

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        const QColor accent = kindColor(m_kind, palette());
        const QRectF r = QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5);
        p.setPen(Style::mix(palette().color(QPalette::Window), accent, 0.45));
        p.setBrush(Style::mix(palette().color(QPalette::Window), accent, 0.12));
        p.drawRoundedRect(r, 4, 4);
        p.setPen(Qt::NoPen);
        p.setBrush(accent);
        p.drawRoundedRect(QRectF(r.left(), r.top(), 3, r.height()), 1.5, 1.5);
    }

private:
    NoticeBar::Kind m_kind;
};
} // namespace

NoticeBar::NoticeBar(QWidget *parent)
    : QWidget(parent)
    , m_layout(new QVBoxLayout(this))
{
    setObjectName(u"noticeBar"_s);
    m_layout->setContentsMargins(10, 0, 10, 0);
    m_layout->setSpacing(4);
    setVisible(false);
}

NoticeBar::~NoticeBar() = default;

QWidget *NoticeBar::showNotice(const QString &key, Kind kind, const QString &text, const QList<Button> &buttons,
                               bool closable)
{
    int position = -1;
    if (QWidget *old = m_notices.take(key)) {
        position = m_layout->indexOf(old);
        old->hide();
        old->deleteLater();
    }
    auto *frame = new NoticeFrame(kind, this);
    frame->setObjectName(key);
    auto *layout = new QHBoxLayout(frame);
    layout->setContentsMargins(12, 5, 6, 5);
    layout->setSpacing(8);
    auto *icon = new QLabel(frame);
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    icon->setPixmap(Style::icon(kindIcon(kind)).pixmap(size, size));
    layout->addWidget(icon, 0, Qt::AlignTop);
    frame->label = new QLabel(text, frame);
    frame->label->setObjectName(u"noticeText"_s);
    frame->label->setTextFormat(Qt::PlainText);
    frame->label->setWordWrap(true);
    frame->label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    frame->label->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    layout->addWidget(frame->label, 1);
    for (const Button &b : buttons) {
        auto *button = new QPushButton(b.text, frame);
        button->setObjectName(b.objectName);
        if (!b.icon.isEmpty())
            button->setIcon(Style::icon(b.icon));
        button->setAutoDefault(false);
        const auto action = b.action;
        connect(button, &QPushButton::clicked, this, [action] {
            if (action)
                action();
        });
        layout->addWidget(button, 0, Qt::AlignVCenter);
    }
    if (closable) {
        auto *close = new QToolButton(frame);
        close->setObjectName(u"closeNotice"_s);
        close->setAutoRaise(true);
        close->setText(u"✕"_s);
        close->setToolTip(tr("Close"));
        close->setAccessibleName(tr("Close"));
        connect(close, &QToolButton::clicked, this, [this, key] { removeNotice(key); });
        layout->addWidget(close, 0, Qt::AlignTop);
    }
    frame->setAccessibleName(text);
    m_layout->insertWidget(position, frame);
    m_notices.insert(key, frame);
    m_layout->setContentsMargins(10, 6, 10, 2);
    setVisible(true);
    Q_EMIT noticesChanged();
    return frame;
}

void NoticeBar::removeNotice(const QString &key)
{
    QWidget *w = m_notices.take(key);
    if (!w)
        return;
    w->hide();
    w->deleteLater();
    setVisible(!m_notices.isEmpty());
    Q_EMIT noticesChanged();
}

void NoticeBar::removeNotices(const QString &prefix)
{
    const QStringList all = keys();
    for (const QString &key : all) {
        if (key.startsWith(prefix))
            removeNotice(key);
    }
}

QString NoticeBar::noticeText(const QString &key) const
{
    auto *frame = static_cast<NoticeFrame *>(m_notices.value(key));
    return frame && frame->label ? frame->label->text() : QString();
}

QStringList NoticeBar::keys() const
{
    return m_notices.keys();
}

QPushButton *NoticeBar::button(const QString &key, const QString &objectName) const
{
    QWidget *w = m_notices.value(key);
    return w ? w->findChild<QPushButton *>(objectName) : nullptr;
}

} // namespace weft
