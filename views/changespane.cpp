// SPDX-License-Identifier: GPL-3.0-or-later
#include "changespane.h"

#include "qt/async.h"
#include "session/sessionservice.h"
#include "style.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

using namespace Qt::StringLiterals;

namespace weft
{

ChangesPane::ChangesPane(SessionService *service, QWidget *parent)
    : QWidget(parent)
    , m_service(service)
    , m_summary(new QLabel(this))
    , m_list(new QTreeWidget(this))
    , m_empty(new QLabel(this))
{
    setObjectName(u"changesPane"_s);
    auto *title = new QLabel(tr("Changes"), this);
    QFont f = title->font();
    f.setWeight(QFont::DemiBold);
    title->setFont(f);

    m_list->setObjectName(u"changesList"_s);
    m_list->setColumnCount(2);
    m_list->setHeaderHidden(true);
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setFrameShape(QFrame::NoFrame);
    m_list->header()->setStretchLastSection(false);
    m_list->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_list->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_list->setAccessibleName(tr("Changed files"));

    m_empty->setText(tr("No file changes in this session."));
    m_empty->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    m_empty->setWordWrap(true);
    QPalette dim = m_empty->palette();
    dim.setColor(QPalette::WindowText,
                 Style::mix(palette().color(QPalette::WindowText), palette().color(QPalette::Window), 0.4));
    m_empty->setPalette(dim);
    m_summary->setPalette(dim);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 10, 6, 6);
    layout->setSpacing(6);
    layout->addWidget(title);
    layout->addWidget(m_summary);
    layout->addWidget(m_list, 1);
    layout->addWidget(m_empty, 1);
    showDiffs({});
}

void ChangesPane::setSessionID(const QString &sessionID)
{
    m_sessionID = sessionID;
    const int generation = ++m_generation;
    showDiffs({});
    if (sessionID.isEmpty())
        return;
    std::shared_ptr<Store> store = m_service->sharedStore();
    // A session diff holds whole file contents: read it off the GUI thread.
    whenFinished(QtConcurrent::run([store, sessionID] { return store->sessionDiff(sessionID); }), this,
                 [this, generation](const QList<FileDiff> &diffs) {
                     if (generation == m_generation)
                         showDiffs(diffs);
                 });
}

void ChangesPane::showDiffs(const QList<FileDiff> &diffs)
{
    m_list->clear();
    qint64 additions = 0, deletions = 0;
    for (const FileDiff &d : diffs) {
        auto *item = new QTreeWidgetItem(m_list);
        const QString file = d.file();
        item->setText(0, file.section(u'/', -1));
        item->setToolTip(0, file);
        item->setText(1, u"+%1 \u2212%2"_s.arg(d.additions()).arg(d.deletions()));
        item->setForeground(1, d.deletions() > d.additions() ? Style::negative(palette()) : Style::positive(palette()));
        item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
        additions += d.additions();
        deletions += d.deletions();
    }
    m_list->setVisible(!diffs.isEmpty());
    m_empty->setVisible(diffs.isEmpty());
    m_summary->setVisible(!diffs.isEmpty());
    m_summary->setText(Style::plural(
        tr("%n file(s), +%1 \u2212%2", nullptr, int(diffs.size())).arg(additions).arg(deletions), diffs.size()));
}

} // namespace weft
