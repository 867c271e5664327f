// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessiondelegate.h"

#include "qt/sessionsmodel.h"
#include "qt/sessiontreemodel.h"
#include "style.h"

#include <QApplication>
#include <QPainter>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
constexpr int VPad = 5;
constexpr int HPad = 4;

QFont metaFont(const QFont &font)
{
    QFont f = font;
    f.setPointSizeF(font.pointSizeF() * 0.88);
    return f;
}

SessionTreeModel::NodeKind kindOf(const QModelIndex &index)
{
    return index.data(SessionTreeModel::NodeKindRole).value<SessionTreeModel::NodeKind>();
}
} // namespace

SessionDelegate::SessionDelegate(QObject *parent)
    : QStyledItemDelegate(parent)
{
}

SessionDelegate::Lines SessionDelegate::layout(const QStyleOptionViewItem &option) const
{
    const QStyle *style = option.widget ? option.widget->style() : QApplication::style();
    // Where the style would put the text: inside the item's margins, after any decoration.
    QStyleOptionViewItem opt = option;
    opt.features |= QStyleOptionViewItem::HasDisplay;
    opt.text = u"x"_s;
    const QRect text = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, option.widget);
    const QFontMetrics fm(option.font);
    const QFontMetrics mfm(metaFont(option.font));
    Lines l;
    const int top = option.rect.top() + VPad;
    l.title = QRect(text.left() + HPad, top, text.width() - 2 * HPad, fm.height());
    l.meta = QRect(text.left() + HPad, top + fm.height() + 1, text.width() - 2 * HPad, mfm.height());
    return l;
}

QSize SessionDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QFontMetrics fm(opt.font);
    switch (kindOf(index)) {
    case SessionTreeModel::NodeKind::Session:
        return QSize(200, VPad * 2 + fm.height() + 1 + QFontMetrics(metaFont(opt.font)).height());
    case SessionTreeModel::NodeKind::Project:
        return QSize(200, fm.height() + 12);
    case SessionTreeModel::NodeKind::Source:
        return QSize(200, fm.height() + 16);
    case SessionTreeModel::NodeKind::Group:
        return QSize(200, QFontMetrics(metaFont(opt.font)).height() + 10);
    }
    return QStyledItemDelegate::sizeHint(option, index);
}

void SessionDelegate::updateEditorGeometry(QWidget *editor, const QStyleOptionViewItem &option,
                                           const QModelIndex &index) const
{
    if (kindOf(index) != SessionTreeModel::NodeKind::Session) {
        QStyledItemDelegate::updateEditorGeometry(editor, option, index);
        return;
    }
    const Lines l = layout(option);
    QRect r = l.title.adjusted(-HPad, -3, HPad, 3);
    r.setHeight(std::max(r.height(), editor->sizeHint().height()));
    editor->setGeometry(r);
}

void SessionDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QStyle *style = opt.widget ? opt.widget->style() : QApplication::style();
    const SessionTreeModel::NodeKind kind = kindOf(index);

    if (kind == SessionTreeModel::NodeKind::Source) {
        // A source: Weft's own sessions, or OpenCode's data dir (read-only, with its version).
        opt.font.setWeight(QFont::Bold);
        const bool weft = index.data(SessionTreeModel::SourceRole).toString().isEmpty();
        opt.icon = weft ? Style::icon(u"weft-session"_s)
                        : QIcon::fromTheme(u"server-database"_s, Style::icon(u"network-server"_s));
        opt.features |= QStyleOptionViewItem::HasDecoration;
        opt.decorationSize = QSize(16, 16);
        // "OpenCode (~/.local/share/opencode) — 1.18.34": the folder gives way, the version stays.
        opt.textElideMode = Qt::ElideMiddle;
        style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
        return;
    }
    if (kind == SessionTreeModel::NodeKind::Project) {
        opt.font.setWeight(QFont::DemiBold);
        opt.icon = Style::icon(u"folder"_s);
        opt.features |= QStyleOptionViewItem::HasDecoration;
        opt.decorationSize = QSize(16, 16);
        style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
        return;
    }
    if (kind == SessionTreeModel::NodeKind::Group) {
        opt.font = metaFont(opt.font);
        opt.font.setWeight(QFont::DemiBold);
        opt.palette.setColor(QPalette::Text, Style::dimText(opt.palette));
        opt.state &= ~(QStyle::State_Selected | QStyle::State_MouseOver);
        style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
        return;
    }

    // Session: the style paints the row (selection, hover, focus) without text; the two lines go
    // on top in the colours the style would have used.
    const QString title = opt.text;
    opt.text.clear();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);

    const bool selected = opt.state & QStyle::State_Selected;
    const QPalette::ColorGroup group = !(opt.state & QStyle::State_Enabled) ? QPalette::Disabled
        : (opt.state & QStyle::State_Active)                                ? QPalette::Active
                                                                            : QPalette::Inactive;
    const QColor text = opt.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text);
    const QColor dim = selected ? Style::mix(text, opt.palette.color(group, QPalette::Highlight), 0.25)
                                : Style::dimText(opt.palette);
    const bool archived = index.data(SessionsModel::ArchivedRole).toBool();
    const bool running = index.data(SessionsModel::RunningRole).toBool();
    const Lines l = layout(opt);
    const QFont meta = metaFont(opt.font);
    const QFontMetrics mfm(meta);

    painter->save();
    painter->setFont(opt.font);
    painter->setPen(archived ? dim : text);
    painter->drawText(l.title, Qt::AlignVCenter | Qt::AlignLeft,
                      QFontMetrics(opt.font).elidedText(title, Qt::ElideRight, l.title.width()));

    // Second line: when · branch · running · +12 −3 · fork / subagent
    painter->setFont(meta);
    int x = l.meta.left();
    const int right = l.meta.right();
    const auto put = [&](const QString &s, const QColor &color) {
        if (x >= right)
            return;
        const int w = mfm.horizontalAdvance(s);
        painter->setPen(color);
        painter->drawText(QRect(x, l.meta.top(), std::min(w, right - x), l.meta.height()),
                          Qt::AlignVCenter | Qt::AlignLeft, mfm.elidedText(s, Qt::ElideRight, right - x));
        x += w;
    };
    const auto separator = [&] { put(u"  ·  "_s, dim); };
    put(Style::relativeTime(index.data(SessionsModel::UpdatedRole).toLongLong()), dim);
    // A session in a worktree of its own: its branch (U+2387, the alternative key symbol git GUIs use).
    if (const QString branch = index.data(SessionsModel::BranchRole).toString(); !branch.isEmpty()) {
        separator();
        put(u"\u2387 "_s + branch, dim);
    }
    if (running) {
        separator();
        const QColor accent = selected ? text : Style::active(opt.palette);
        painter->setRenderHint(QPainter::Antialiasing);
        painter->setPen(Qt::NoPen);
        painter->setBrush(accent);
        const int d = std::max(6, mfm.height() / 3);
        painter->drawEllipse(QRect(x, l.meta.center().y() - d / 2 + 1, d, d));
        x += d + 4;
        put(tr("Running"), accent);
    }
    if (index.data(SessionsModel::CompactingRole).toBool()) {
        separator();
        put(tr("Compacting"), selected ? text : Style::active(opt.palette));
    }
    const qint64 additions = index.data(SessionsModel::AdditionsRole).toLongLong();
    const qint64 deletions = index.data(SessionsModel::DeletionsRole).toLongLong();
    if (additions > 0 || deletions > 0) {
        separator();
        put(u"+%1 "_s.arg(additions), selected ? text : Style::positive(opt.palette));
        put(u"\u2212%1"_s.arg(deletions), selected ? text : Style::negative(opt.palette));
    }
    if (index.data(SessionsModel::NotMigratedRole).toBool()) {
        separator();
        put(tr("Not migrated"), selected ? text : Style::negative(opt.palette));
    }
    if (!index.data(SessionsModel::ParentIDRole).toString().isEmpty()) {
        separator();
        put(tr("Subagent"), dim);
    } else if (index.data(SessionsModel::ForkNumberRole).toInt() > 0) {
        separator();
        put(tr("Fork"), dim);
    }
    painter->restore();
}

} // namespace weft
