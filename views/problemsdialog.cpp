// SPDX-License-Identifier: GPL-3.0-or-later
#include "problemsdialog.h"

#include "style.h"

#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace weft
{

ProblemsDialog::ProblemsDialog(const QList<StoreProblem> &problems, QWidget *parent)
    : QDialog(parent)
    , m_list(new QTreeWidget(this))
{
    setObjectName(u"problemsDialog"_s);
    setWindowTitle(tr("Problems Found"));
    auto *intro = new QLabel(tr("Weft skipped these files because they are damaged. Everything else was loaded. "
                                "The files were left as they are."),
                             this);
    intro->setWordWrap(true);

    m_list->setHeaderLabels({tr("File"), tr("Problem")});
    m_list->setRootIsDecorated(false);
    m_list->setAlternatingRowColors(true);
    m_list->setUniformRowHeights(true);
    m_list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    for (const StoreProblem &problem : problems) {
        auto *item = new QTreeWidgetItem(m_list, {problem.location, problem.reason});
        item->setToolTip(0, problem.location);
        item->setToolTip(1, problem.reason);
        item->setIcon(0, Style::icon(u"dialog-warning"_s));
    }
    m_list->header()->setSectionResizeMode(0, QHeaderView::Interactive);
    m_list->header()->resizeSection(0, 380);
    if (m_list->topLevelItemCount() > 0)
        m_list->setCurrentItem(m_list->topLevelItem(0));

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton *copy = buttons->addButton(tr("&Copy"), QDialogButtonBox::ActionRole);
    copy->setIcon(Style::icon(u"edit-copy"_s));
    QPushButton *reveal = buttons->addButton(tr("&Open Containing Folder"), QDialogButtonBox::ActionRole);
    reveal->setIcon(Style::icon(u"document-open-folder"_s));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(copy, &QPushButton::clicked, this, [this] {
        QStringList lines;
        const QList<QTreeWidgetItem *> items = m_list->selectedItems().isEmpty()
            ? m_list->findItems(u"*"_s, Qt::MatchWildcard)
            : m_list->selectedItems();
        for (const QTreeWidgetItem *item : items)
            lines.append(item->text(0) + u": "_s + item->text(1));
        QApplication::clipboard()->setText(lines.join(u'\n'));
    });
    connect(reveal, &QPushButton::clicked, this, [this] {
        if (const QTreeWidgetItem *item = m_list->currentItem())
            QDesktopServices::openUrl(QUrl::fromLocalFile(QFileInfo(item->text(0)).absolutePath()));
    });
    reveal->setEnabled(!problems.isEmpty());

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_list, 1);
    layout->addWidget(buttons);
    resize(760, 360);
}

} // namespace weft
