// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

class QLineEdit;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTreeView;

namespace weft
{

/// Help › Keyboard Shortcuts: every shortcut of a window, searchable. The actions with a
/// shortcut are read from the window itself (menus, timeline, changes pane, diff, find bar), so
/// the list cannot go stale; the keys the composer and lists handle themselves are added.
class ShortcutsDialog : public QDialog
{
    Q_OBJECT

public:
    explicit ShortcutsDialog(QWidget *window, QWidget *parent = nullptr);

    [[nodiscard]] QLineEdit *searchField() const { return m_search; }
    [[nodiscard]] QTreeView *view() const { return m_view; }
    /// The rows shown (after the search), as "what\tkeys\twhere".
    [[nodiscard]] QStringList visibleRows() const;

    enum Column { WhatColumn, KeysColumn, WhereColumn, ColumnCount };

private:
    void addRow(const QString &what, const QString &keys, const QString &where);

    QLineEdit *m_search;
    QTreeView *m_view;
    QStandardItemModel *m_model;
    QSortFilterProxyModel *m_filter;
};

} // namespace weft
