// SPDX-License-Identifier: GPL-3.0-or-later
#include "attentionpanel.h"

#include "qt/attentionmodel.h"
#include "style.h"

#include <QApplication>
#include <QCursor>
#include <QIdentityProxyModel>
#include <QKeyEvent>
#include <QLabel>
#include <QListView>
#include <QScreen>
#include <QStyle>
#include <QVBoxLayout>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
/// The model's rows in words and icons for the list (and screen readers).
class AttentionTextProxy : public QIdentityProxyModel
{
public:
    using QIdentityProxyModel::QIdentityProxyModel;

    QVariant data(const QModelIndex &index, int role) const override
    {
        switch (role) {
        case Qt::DisplayRole:
        case Qt::ToolTipRole:
        case Qt::AccessibleTextRole:
            return AttentionPanel::entryText(mapToSource(index));
        case Qt::DecorationRole:
            switch (index.data(AttentionModel::KindRole).value<AttentionModel::Kind>()) {
            case AttentionModel::Kind::Permission:
            case AttentionModel::Kind::Question:
                // Not among the bundled icons: the style's own where the theme lacks it.
                return QIcon::hasThemeIcon(u"dialog-question"_s)
                    ? QIcon::fromTheme(u"dialog-question"_s)
                    : QApplication::style()->standardIcon(QStyle::SP_MessageBoxQuestion);
            case AttentionModel::Kind::Failed:
                return Style::icon(u"dialog-warning"_s);
            case AttentionModel::Kind::Finished:
                return Style::icon(u"weft-session"_s);
            }
            return {};
        default:
            return QIdentityProxyModel::data(index, role);
        }
    }
};
} // namespace

AttentionPanel::AttentionPanel(AttentionModel *model, QWidget *parent)
    : QFrame(parent, Qt::Popup)
    , m_model(model)
    , m_view(new QListView(this))
    , m_empty(new QLabel(tr("Nothing waits for you."), this))
{
    setObjectName(u"attentionPanel"_s);
    setFrameShape(QFrame::StyledPanel);
    setAccessibleName(tr("Waiting for you"));

    auto *heading = new QLabel(tr("Waiting for you"), this);
    QFont bold = heading->font();
    bold.setBold(true);
    heading->setFont(bold);

    auto *proxy = new AttentionTextProxy(this);
    proxy->setSourceModel(model);
    m_view->setObjectName(u"attentionList"_s);
    m_view->setModel(proxy);
    m_view->setAccessibleName(tr("Sessions waiting for you"));
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setWordWrap(true);
    m_view->setUniformItemSizes(false);
    m_view->setSpacing(2);
    m_view->setIconSize(QSize(22, 22));
    m_view->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_view->installEventFilter(this);
    m_empty->setObjectName(u"attentionEmpty"_s);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setForegroundRole(QPalette::PlaceholderText);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(heading);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_empty);

    // A click opens (single click, whatever the style's double-click habit: this is a menu).
    connect(m_view, &QAbstractItemView::clicked, this,
            [this, proxy](const QModelIndex &index) { Q_EMIT entryActivated(proxy->mapToSource(index)); });
    connect(model, &QAbstractItemModel::rowsInserted, this, &AttentionPanel::updateEmpty);
    connect(model, &QAbstractItemModel::rowsRemoved, this, &AttentionPanel::updateEmpty);
    connect(model, &QAbstractItemModel::modelReset, this, &AttentionPanel::updateEmpty);
    updateEmpty();
}

AttentionPanel::~AttentionPanel() = default;

QString AttentionPanel::entryText(const QModelIndex &index)
{
    QString title = index.data(AttentionModel::TitleRole).toString();
    const QString parent = index.data(AttentionModel::ParentTitleRole).toString();
    if (!parent.isEmpty())
        title = tr("%1 (sub-agent of “%2”)").arg(title, parent);
    const QString detail = index.data(AttentionModel::DetailRole).toString();
    return detail.isEmpty() ? title : title + u'\n' + detail;
}

void AttentionPanel::popup(QWidget *anchor)
{
    // Wide enough for a title and its question on two lines, and as tall as its rows, up to
    // six of them (the list scrolls past that). The rows wrap, so their heights are known only
    // once the list has its width.
    const int count = m_view->model()->rowCount();
    setFixedWidth(std::max(440, fontMetrics().averageCharWidth() * 60));
    if (count > 0) {
        // Free of the last popup's fixed height while the rows are laid out at this width.
        m_view->setMinimumHeight(0);
        m_view->setMaximumHeight(QWIDGETSIZE_MAX);
        resize(width(), 600);
        layout()->activate();
        m_view->doItemsLayout();
        int rows = 0;
        for (int row = 0; row < std::min(count, 6); ++row)
            rows += m_view->visualRect(m_view->model()->index(row, 0)).height() + 2 * m_view->spacing();
        m_view->setFixedHeight(rows + 2 * m_view->frameWidth());
    }
    adjustSize();
    QPoint at = anchor ? anchor->mapToGlobal(QPoint(0, anchor->height())) : QCursor::pos();
    // Kept on the anchor's screen.
    if (const QScreen *screen = anchor ? anchor->screen() : QGuiApplication::primaryScreen()) {
        const QRect area = screen->availableGeometry();
        at.setX(std::clamp(at.x(), area.left(), std::max(area.left(), area.right() - width())));
        at.setY(std::clamp(at.y(), area.top(), std::max(area.top(), area.bottom() - height())));
    }
    move(at);
    if (count > 0 && !m_view->currentIndex().isValid())
        m_view->setCurrentIndex(m_view->model()->index(0, 0));
    show();
    m_view->setFocus(Qt::PopupFocusReason);
}

bool AttentionPanel::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_view && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) && m_view->currentIndex().isValid()) {
            const auto *proxy = static_cast<const QIdentityProxyModel *>(m_view->model());
            Q_EMIT entryActivated(proxy->mapToSource(m_view->currentIndex()));
            return true;
        }
    }
    return QFrame::eventFilter(watched, event);
}

void AttentionPanel::updateEmpty()
{
    const bool empty = m_model->rowCount() == 0;
    m_view->setVisible(!empty);
    m_empty->setVisible(empty);
}

} // namespace weft
