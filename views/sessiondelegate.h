// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStyledItemDelegate>

namespace weft
{

/// The sidebar's rows with the native look: the style draws the background, selection, focus
/// and expansion; this delegate adjusts the option (fonts, icons, colours) and adds a session's
/// second line: when it changed, lines added and removed, a running indicator.
class SessionDelegate : public QStyledItemDelegate
{
    Q_OBJECT

public:
    explicit SessionDelegate(QObject *parent = nullptr);

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    void updateEditorGeometry(QWidget *editor, const QStyleOptionViewItem &option,
                              const QModelIndex &index) const override;

private:
    struct Lines
    {
        QRect title;
        QRect meta;
    };
    /// The one layout of a session row: the title line and the second line.
    [[nodiscard]] Lines layout(const QStyleOptionViewItem &option) const;
};

} // namespace weft
