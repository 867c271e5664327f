// SPDX-License-Identifier: GPL-3.0-or-later
#include "shortcutsdialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTreeView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{

/// "&Fork…" as a person reads it: "Fork".
QString plainText(QString text)
{
    text.remove(QRegularExpression(u"&(?!&)"_s));
    text.replace(u"&&"_s, u"&"_s);
    if (text.endsWith(u"…"_s))
        text.chop(1);
    if (text.endsWith(u"..."_s))
        text.chop(3);
    return text;
}

} // namespace

ShortcutsDialog::ShortcutsDialog(QWidget *window, QWidget *parent)
    : QDialog(parent)
    , m_search(new QLineEdit(this))
    , m_view(new QTreeView(this))
    , m_model(new QStandardItemModel(0, ColumnCount, this))
    , m_filter(new QSortFilterProxyModel(this))
{
    setObjectName(u"shortcutsDialog"_s);
    setWindowTitle(tr("Keyboard Shortcuts"));
    m_model->setHorizontalHeaderLabels({tr("Action"), tr("Shortcut"), tr("Where")});

    // Where an action works, by the widget that owns it.
    const QList<std::pair<const char *, QString>> areas{
        {"weft::TimelineView", tr("Timeline")},   {"weft::ChangesPane", tr("Changes")},
        {"weft::DiffView", tr("Diff")},           {"weft::FindBar", tr("Find bar")},
        {"weft::SessionSidebar", tr("Sessions")}, {"weft::Composer", tr("Prompt")},
    };
    QStringList seen;
    for (QAction *action : window->findChildren<QAction *>()) {
        if (action->shortcuts().isEmpty() || action->text().isEmpty() || action->isSeparator())
            continue;
        QString where = tr("Window");
        for (QObject *o = action->parent(); o && o != window; o = o->parent()) {
            const auto area = std::find_if(areas.cbegin(), areas.cend(), [o](const auto &a) { return o->inherits(a.first); });
            if (area != areas.cend()) {
                where = area->second;
                break;
            }
        }
        QStringList keys;
        for (const QKeySequence &key : action->shortcuts())
            keys.append(key.toString(QKeySequence::NativeText));
        const QString row = plainText(action->text()) + u'\t' + keys.join(u", "_s) + u'\t' + where;
        if (seen.contains(row))
            continue; // the same action shown in two places
        seen.append(row);
        addRow(plainText(action->text()), keys.join(u", "_s), where);
    }
    // The keys widgets handle themselves.
    const QString prompt = tr("Prompt");
    const auto native = [](const QKeySequence &key) { return key.toString(QKeySequence::NativeText); };
    addRow(tr("Send the prompt"), native(QKeySequence(Qt::Key_Return)), prompt);
    addRow(tr("New line in the prompt"), native(QKeySequence(Qt::SHIFT | Qt::Key_Return)), prompt);
    addRow(tr("Stop the run"), native(QKeySequence(Qt::Key_Escape)), prompt);
    addRow(tr("Earlier prompt of this session (in an empty prompt)"), native(QKeySequence(Qt::Key_Up)), prompt);
    addRow(tr("Later prompt of this session"), native(QKeySequence(Qt::Key_Down)), prompt);
    addRow(tr("Attach a project file or an MCP resource"), u"@"_s, prompt);
    addRow(tr("Run a command"), u"/"_s, prompt);
    addRow(tr("Message menu: copy, fork from here"), native(QKeySequence(Qt::Key_Menu)), tr("Timeline"));

    m_filter->setSourceModel(m_model);
    m_filter->setFilterKeyColumn(-1);
    m_filter->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_filter->setSortCaseSensitivity(Qt::CaseInsensitive);
    m_view->setModel(m_filter);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(WhatColumn, Qt::AscendingOrder);
    m_view->setAccessibleName(tr("Keyboard shortcuts"));
    m_view->header()->setSectionResizeMode(WhatColumn, QHeaderView::Stretch);
    m_view->header()->setSectionResizeMode(KeysColumn, QHeaderView::ResizeToContents);
    m_view->header()->setSectionResizeMode(WhereColumn, QHeaderView::ResizeToContents);
    m_view->header()->setStretchLastSection(false);

    m_search->setObjectName(u"shortcutSearch"_s);
    m_search->setPlaceholderText(tr("Search actions, keys or places…"));
    m_search->setAccessibleName(tr("Search shortcuts"));
    m_search->setClearButtonEnabled(true);
    connect(m_search, &QLineEdit::textChanged, m_filter, &QSortFilterProxyModel::setFilterFixedString);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_search);
    layout->addWidget(m_view, 1);
    layout->addWidget(buttons);
    resize(660, 560);
    m_search->setFocus();
}

void ShortcutsDialog::addRow(const QString &what, const QString &keys, const QString &where)
{
    QList<QStandardItem *> row{new QStandardItem(what), new QStandardItem(keys), new QStandardItem(where)};
    for (QStandardItem *item : row)
        item->setEditable(false);
    m_model->appendRow(row);
}

QStringList ShortcutsDialog::visibleRows() const
{
    QStringList rows;
    for (int r = 0; r < m_filter->rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < ColumnCount; ++c)
            cells.append(m_filter->index(r, c).data().toString());
        rows.append(cells.join(u'\t'));
    }
    return rows;
}

} // namespace weft
