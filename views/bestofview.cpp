// SPDX-License-Identifier: GPL-3.0-or-later
#include "bestofview.h"

#include "boardview.h"
#include "diffview.h"
#include "errorwording.h"
#include "qt/diffmodel.h"
#include "style.h"
#include "userquestions.h"

#include <QCloseEvent>
#include <QComboBox>
#include <QFontDatabase>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QListView>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
QString stateText(const BestOfRun::Run &run)
{
    switch (run.state) {
    case BestOfRun::State::Waiting:
        return BestOfView::tr("Waiting for a free place");
    case BestOfRun::State::Starting:
        return BestOfView::tr("Making its worktree…");
    case BestOfRun::State::Running:
        return BestOfView::tr("Running");
    case BestOfRun::State::Finished:
        return run.checked ? BestOfView::tr("Finished") : BestOfView::tr("Finished, checking…");
    case BestOfRun::State::Stopped:
        return BestOfView::tr("Stopped");
    case BestOfRun::State::Failed:
        if (!run.setupError.isEmpty())
            return BestOfView::tr("Failed: %1").arg(run.setupError);
        if (run.refused)
            return BestOfView::tr("Failed: %1").arg(ErrorWording::promptNotSent(*run.refused, run.model, QString()));
        return BestOfView::tr("Failed: %1").arg(ErrorWording::runFailed(run.error));
    }
    return {};
}

/// A small rounded label in @p color: the test's pass/fail badge, the state's.
void setBadge(QLabel *label, const QString &text, const QColor &color)
{
    label->setText(text);
    label->setStyleSheet(u"QLabel { color: %1; border: 1px solid %1; border-radius: 3px; padding: 1px 6px; }"_s.arg(
        color.name()));
}
} // namespace

BestOfView::BestOfView(BestOfRun *group, Board *board, QWidget *parent)
    : QWidget(parent, Qt::Window)
    , m_group(group)
    , m_questions(std::make_shared<DialogQuestions>(this))
{
    setObjectName(u"bestOfView"_s);
    m_group->setParent(this);
    const QString firstLine = m_group->request().prompt.trimmed().section(u'\n', 0, 0);
    setWindowTitle(tr("Best of %1: %2").arg(m_group->runs().size()).arg(firstLine.left(60)));
    auto *layout = new QVBoxLayout(this);

    auto *header = new QHBoxLayout;
    m_title = new QLabel(this);
    m_title->setText(firstLine);
    m_title->setTextFormat(Qt::PlainText);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_title->setMinimumWidth(100);
    m_status = new QLabel(this);
    m_status->setObjectName(u"bestOfStatus"_s);
    m_compareToggle = new QPushButton(tr("&Compare"), this);
    m_compareToggle->setObjectName(u"bestOfCompare"_s);
    m_compareToggle->setCheckable(true);
    m_stop = new QPushButton(Style::icon(u"process-stop"_s), tr("&Stop All"), this);
    m_stop->setObjectName(u"bestOfStop"_s);
    header->addWidget(m_title, 1);
    header->addWidget(m_status);
    header->addWidget(m_compareToggle);
    header->addWidget(m_stop);
    layout->addLayout(header);

    m_stack = new QStackedWidget(this);
    m_board = new BoardView(board, m_stack);
    m_stack->addWidget(m_board);
    buildComparison();
    layout->addWidget(m_stack, 1);

    connect(m_stop, &QPushButton::clicked, m_group, &BestOfRun::stopAll);
    connect(m_compareToggle, &QPushButton::toggled, this, &BestOfView::showComparison);
    connect(m_group, &BestOfRun::countsChanged, this, &BestOfView::updateStatus);
    connect(m_group, &BestOfRun::runChanged, this, [this](int index) {
        m_board->setSessionFilter(m_group->sessionIDs());
        updateColumn(index);
        updateStatus();
    });
    connect(m_group, &BestOfRun::finished, this, [this] {
        updateStatus();
        for (int i = 0; i < m_columns.size(); ++i)
            updateColumn(i);
        m_compareToggle->setChecked(true);
    });
    connect(m_group, &BestOfRun::kept, this, &BestOfView::onKept);
    connect(m_group, &BestOfRun::keepFailed, this, [this](int index, const QString &error) {
        for (int i = 0; i < m_columns.size(); ++i)
            updateColumn(i);
        m_notice->setText(tr("Run %1 was not applied: %2").arg(index + 1).arg(error));
        m_questions->warn(tr("Keep Run"), m_notice->text());
    });
    // A filter that matches nothing yet: the board shows every session for an empty set.
    m_board->setSessionFilter({u"-"_s});
    for (int i = 0; i < m_columns.size(); ++i)
        updateColumn(i);
    updateStatus();
    resize(1100, 720);
}

BestOfView::~BestOfView()
{
    // The group stops its runs as it goes and says so: to this view while it is whole, not to
    // what is left of it once its children go.
    delete m_group;
}

void BestOfView::closeEvent(QCloseEvent *event)
{
    if (!m_group->isFinished()) {
        Confirmation confirmation;
        confirmation.title = tr("Stop the Runs");
        confirmation.text = tr("Closing stops the runs that have not ended. Their worktrees and sessions stay.");
        confirmation.button = tr("&Stop and Close");
        if (!m_questions->confirm(confirmation)) {
            event->ignore();
            return;
        }
        m_group->stopAll();
    }
    QWidget::closeEvent(event);
}

void BestOfView::setUserQuestions(std::shared_ptr<UserQuestions> questions)
{
    m_questions = std::move(questions);
}

bool BestOfView::isComparing() const
{
    return m_stack->currentIndex() == 1;
}

void BestOfView::showComparison(bool compare)
{
    m_stack->setCurrentIndex(compare ? 1 : 0);
    const QSignalBlocker blocker(m_compareToggle);
    m_compareToggle->setChecked(compare);
    m_compareToggle->setText(compare ? tr("Show &Tiles") : tr("&Compare"));
}

void BestOfView::buildComparison()
{
    auto *page = new QWidget(m_stack);
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *modeRow = new QHBoxLayout;
    m_mode = new QComboBox(page);
    m_mode->setObjectName(u"bestOfApplyMode"_s);
    m_mode->addItem(tr("as uncommitted changes"), QVariant::fromValue(int(ApplyMode::Diff)));
    m_mode->addItem(tr("by merging its branch"), QVariant::fromValue(int(ApplyMode::Merge)));
    m_mode->addItem(tr("by rebasing its branch"), QVariant::fromValue(int(ApplyMode::Rebase)));
    auto *modeLabel = new QLabel(tr("Keep a run's work in the main checkout &by:"), page);
    modeLabel->setBuddy(m_mode);
    m_notice = new QLabel(page);
    m_notice->setObjectName(u"bestOfNotice"_s);
    m_notice->setWordWrap(true);
    m_notice->setTextInteractionFlags(Qt::TextSelectableByMouse);
    modeRow->addWidget(modeLabel);
    modeRow->addWidget(m_mode);
    modeRow->addWidget(m_notice, 1);
    layout->addLayout(modeRow);

    auto *columns = new QSplitter(Qt::Horizontal, page);
    columns->setChildrenCollapsible(false);
    for (int i = 0; i < m_group->runs().size(); ++i) {
        Column c;
        c.frame = new QFrame(columns);
        c.frame->setObjectName(u"bestOfColumn%1"_s.arg(i + 1));
        c.frame->setFrameShape(QFrame::StyledPanel);
        auto *v = new QVBoxLayout(c.frame);
        auto *top = new QHBoxLayout;
        c.model = new QLabel(c.frame);
        c.model->setTextFormat(Qt::PlainText);
        QFont bold = c.model->font();
        bold.setBold(true);
        c.model->setFont(bold);
        c.open = new QToolButton(c.frame);
        c.open->setIcon(Style::icon(u"weft-session"_s));
        c.open->setAutoRaise(true);
        c.open->setToolTip(tr("Open its session in the main window"));
        c.open->setAccessibleName(tr("Open the session of run %1").arg(i + 1));
        top->addWidget(c.model, 1);
        top->addWidget(c.open);
        v->addLayout(top);
        c.state = new QLabel(c.frame);
        c.state->setWordWrap(true);
        c.usage = new QLabel(c.frame);
        c.changes = new QLabel(c.frame);
        auto *testRow = new QHBoxLayout;
        c.test = new QLabel(c.frame);
        c.showOutput = new QToolButton(c.frame);
        c.showOutput->setText(tr("Output"));
        c.showOutput->setCheckable(true);
        c.showOutput->setToolTip(tr("Show the test command's last lines"));
        testRow->addWidget(c.test);
        testRow->addStretch(1);
        testRow->addWidget(c.showOutput);
        c.output = new QPlainTextEdit(c.frame);
        c.output->setReadOnly(true);
        c.output->setLineWrapMode(QPlainTextEdit::NoWrap);
        c.output->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        c.output->setMaximumHeight(fontMetrics().lineSpacing() * 8);
        c.output->setAccessibleName(tr("Test output of run %1").arg(i + 1));
        c.output->hide();
        c.diffs = new DiffModel(c.frame);
        c.files = new QListView(c.frame);
        c.files->setModel(c.diffs);
        c.files->setAccessibleName(tr("Files changed by run %1").arg(i + 1));
        c.files->setEditTriggers(QAbstractItemView::NoEditTriggers);
        c.diff = new DiffView(c.frame);
        c.keep = new QPushButton(Style::icon(u"dialog-ok-apply"_s), tr("&Keep This One"), c.frame);
        c.keep->setObjectName(u"bestOfKeep%1"_s.arg(i + 1));
        c.keep->setAccessibleName(tr("Keep run %1").arg(i + 1));
        v->addWidget(c.state);
        v->addWidget(c.usage);
        v->addWidget(c.changes);
        v->addLayout(testRow);
        v->addWidget(c.output);
        v->addWidget(c.files);
        v->addWidget(c.diff, 1);
        v->addWidget(c.keep);
        columns->addWidget(c.frame);
        connect(c.showOutput, &QToolButton::toggled, c.output, &QWidget::setVisible);
        connect(c.keep, &QPushButton::clicked, this, [this, i] { keep(i); });
        connect(c.open, &QToolButton::clicked, this, [this, i] {
            if (!m_group->runs().at(i).sessionID.isEmpty())
                Q_EMIT openSessionRequested(m_group->runs().at(i).sessionID);
        });
        connect(c.files->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
                [this, i](const QModelIndex &current) { showFile(i, current.row()); });
        connect(c.diffs, &DiffModel::documentReady, this, [this, i](int row) {
            const Column &col = m_columns.at(i);
            if (col.files->currentIndex().row() == row)
                col.diff->setDocument(col.diffs->cachedDocument(row));
        });
        m_columns.append(c);
    }
    layout->addWidget(columns, 1);
    m_stack->addWidget(page);
}

void BestOfView::updateStatus()
{
    if (m_group->isFinished()) {
        m_status->setText(m_group->keptIndex() >= 0 ? tr("Run %1 kept").arg(m_group->keptIndex() + 1)
                                                    : tr("All runs ended: keep one"));
    } else {
        m_status->setText(tr("%1 running, %2 waiting (at most %3 at once)")
                              .arg(m_group->runningCount())
                              .arg(m_group->waitingCount())
                              .arg(m_group->limit()));
    }
    m_stop->setEnabled(!m_group->isFinished());
}

void BestOfView::updateColumn(int index)
{
    const BestOfRun::Run &run = m_group->runs().at(index);
    Column &c = m_columns[index];
    c.model->setText(u"#%1  %2"_s.arg(index + 1).arg(run.model));
    c.state->setText(stateText(run));
    const QPalette &palette = this->palette();
    c.usage->setText(run.checked ? tr("%1 tokens · %2").arg(Style::compactNumber(run.tokens.total()), Style::formatCost(run.cost))
                                 : QString());
    c.changes->setText(run.checked ? tr("Files: %1  +%2 −%3").arg(run.diffs.size()).arg(run.additions).arg(run.deletions)
                                   : QString());
    if (!run.checked || !run.test) {
        c.test->setStyleSheet({});
        c.test->setText(run.checked ? (m_group->request().testCommand.isEmpty() ? tr("No test command") : tr("Not tested"))
                                    : QString());
    } else if (run.test->passed()) {
        setBadge(c.test, tr("Tests pass"), Style::positive(palette));
    } else if (run.test->timedOut) {
        setBadge(c.test, tr("Tests timed out"), Style::negative(palette));
    } else {
        setBadge(c.test, tr("Tests fail (exit %1)").arg(run.test->exitCode), Style::negative(palette));
    }
    c.showOutput->setVisible(run.checked && run.test.has_value());
    c.files->setVisible(run.checked && !run.diffs.isEmpty());
    c.output->setPlainText(run.test ? run.test->output : QString());
    if (run.checked && c.diffs->rowCount() != run.diffs.size()) {
        c.diffs->setDiffs(run.diffs);
        // As high as its files (up to five): the diff below gets the rest.
        const int rows = std::clamp(int(run.diffs.size()), 1, 5);
        c.files->setFixedHeight(rows * std::max(c.files->sizeHintForRow(0), fontMetrics().height()) + 2 * c.files->frameWidth());
        if (!run.diffs.isEmpty())
            c.files->setCurrentIndex(c.diffs->index(0));
        else
            c.diff->showMessage(tr("No changes"));
    } else if (!run.checked) {
        c.diff->showMessage(run.ended() ? tr("Collecting its changes…") : QString());
    }
    const bool canKeep = m_group->isFinished() && !m_group->isKeeping() && m_group->keptIndex() < 0
        && !run.worktreePath.isEmpty();
    c.keep->setEnabled(canKeep);
    c.keep->setVisible(m_group->keptIndex() < 0 || m_group->keptIndex() == index);
    if (m_group->keptIndex() == index)
        c.keep->setText(tr("Kept"));
    c.open->setEnabled(!run.sessionID.isEmpty());
}

void BestOfView::showFile(int index, int row)
{
    const Column &c = m_columns.at(index);
    if (row < 0)
        return;
    if (const auto document = c.diffs->cachedDocument(row)) {
        c.diff->setDocument(document);
        return;
    }
    c.diff->showComputing(c.diffs->diff(row).file());
    c.diffs->requestDocument(row);
}

void BestOfView::keep(int index)
{
    const BestOfRun::Run &run = m_group->runs().at(index);
    int others = 0;
    for (int i = 0; i < m_group->runs().size(); ++i)
        others += i != index && !m_group->runs().at(i).worktreePath.isEmpty();
    Confirmation confirmation;
    confirmation.title = tr("Keep Run %1").arg(index + 1);
    confirmation.text = tr("Apply the work of run %1 (%2) to the main checkout %3, and remove the worktrees of the "
                           "other runs (%4)? Their branches stay.")
                            .arg(index + 1)
                            .arg(run.model, m_mode->currentText())
                            .arg(others);
    confirmation.button = tr("&Keep and Remove the Others");
    confirmation.destructive = true;
    if (!m_questions->confirm(confirmation))
        return;
    if (m_group->keep(index, ApplyMode(m_mode->currentData().toInt()))) {
        m_notice->setText(tr("Applying run %1…").arg(index + 1));
        for (int i = 0; i < m_columns.size(); ++i)
            updateColumn(i);
    }
}

void BestOfView::onKept(int index, const BestOfRun::Kept &result)
{
    if (!result.apply.clean()) {
        m_notice->setText(tr("Run %1 conflicts with the main checkout in: %2. The other worktrees were kept.")
                              .arg(index + 1)
                              .arg(result.apply.conflicts.join(u", "_s)));
    } else if (!result.notRemoved.isEmpty()) {
        m_notice->setText(tr("Run %1 applied; not removed: %2").arg(index + 1).arg(result.notRemoved.join(u"; "_s)));
    } else {
        m_notice->setText(tr("Run %1 applied to the main checkout; the other worktrees were removed.").arg(index + 1));
    }
    for (int i = 0; i < m_columns.size(); ++i)
        updateColumn(i);
    updateStatus();
}

} // namespace weft
