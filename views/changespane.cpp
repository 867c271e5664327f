// SPDX-License-Identifier: GPL-3.0-or-later
#include "changespane.h"

#include "core/async.h"
#include "core/project.h"
#include "diffview.h"
#include "importeddirectory.h"
#include "app/sessioncontroller.h"
#include "qt/diffmodel.h"
#include "startupgate.h"
#include "qt/timelinemodel.h"
#include "session/sessionservice.h"
#include "style.h"
#include "userquestions.h"

#include <QAction>
#include <QApplication>
#include <QButtonGroup>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListView>
#include <QMenu>
#include <QPainter>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
/// Files named one by one in a confirmation; the rest are counted.
constexpr int ListedFiles = 12;
/// Width the pane asks of its splitter when a diff is opened: unified, and side by side (two
/// columns of code need about twice the room of one).
constexpr int RoomForDiff = 480;
constexpr int RoomForSideBySide = 720;
/// Width the pane leaves to the widest other part of the window (the conversation).
constexpr int RoomForOthers = 400;

/// A changed file in the list: a status badge (A, M, D), the name with its folder dimmed, and
/// the lines added and removed.
class FileDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &) const override
    {
        return QSize(200, option.fontMetrics.height() + 10);
    }

    void paint(QPainter *p, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        opt.text.clear();
        opt.icon = QIcon();
        const QWidget *w = option.widget;
        QStyle *style = w ? w->style() : QApplication::style();
        style->drawPrimitive(QStyle::PE_PanelItemViewItem, &opt, p, w);

        const bool selected = option.state & QStyle::State_Selected;
        const QPalette &pal = option.palette;
        const QColor text = pal.color(selected ? QPalette::HighlightedText : QPalette::Text);
        const QColor dim = selected ? text : Style::dimText(pal);
        const QRect r = option.rect.adjusted(6, 0, -8, 0);
        p->save();
        p->setRenderHint(QPainter::Antialiasing);

        // Status badge.
        const QString status = index.data(DiffModel::StatusRole).toString();
        const QColor badge = status == u"added" ? Style::positive(pal) : status == u"deleted" ? Style::negative(pal) : Style::neutral(pal);
        QFont small = option.font;
        small.setPointSizeF(small.pointSizeF() * 0.8);
        small.setWeight(QFont::Bold);
        const int bs = option.fontMetrics.height() - 1;
        const QRectF badgeRect(r.left(), r.center().y() - bs / 2.0 + 0.5, bs, bs);
        QColor fill = badge;
        fill.setAlphaF(selected ? 0.35f : 0.16f);
        p->setPen(Qt::NoPen);
        p->setBrush(fill);
        p->drawRoundedRect(badgeRect, 3, 3);
        p->setFont(small);
        p->setPen(selected ? text : badge);
        p->drawText(badgeRect, Qt::AlignCenter,
                    status == u"added"     ? ChangesPane::tr("A", "added file")
                    : status == u"deleted" ? ChangesPane::tr("D", "deleted file")
                                           : ChangesPane::tr("M", "modified file"));

        // Counts, right-aligned.
        const QFontMetrics fm(option.font);
        const QString plus = u"+"_s + QString::number(index.data(DiffModel::AdditionsRole).toLongLong());
        const QString minus = u"\u2212"_s + QString::number(index.data(DiffModel::DeletionsRole).toLongLong());
        const int minusW = fm.horizontalAdvance(minus);
        const int plusW = fm.horizontalAdvance(plus);
        p->setFont(option.font);
        p->setPen(selected ? text : Style::negative(pal));
        p->drawText(QRect(r.right() - minusW, r.top(), minusW, r.height()), Qt::AlignVCenter | Qt::AlignRight, minus);
        p->setPen(selected ? text : Style::positive(pal));
        p->drawText(QRect(r.right() - minusW - 6 - plusW, r.top(), plusW, r.height()), Qt::AlignVCenter | Qt::AlignRight,
                    plus);

        // Name, then folder.
        const int left = int(badgeRect.right()) + 8;
        const int right = r.right() - minusW - plusW - 14;
        const QString name = index.data(DiffModel::FileNameRole).toString();
        const QString folder = index.data(DiffModel::DirectoryRole).toString();
        const QString shownName = fm.elidedText(name, Qt::ElideMiddle, std::max(0, right - left));
        p->setPen(text);
        p->drawText(QRect(left, r.top(), right - left, r.height()), Qt::AlignVCenter | Qt::AlignLeft, shownName);
        const int nameW = fm.horizontalAdvance(shownName);
        if (!folder.isEmpty() && left + nameW + 8 < right) {
            QFont folderFont = option.font;
            folderFont.setPointSizeF(folderFont.pointSizeF() * 0.9);
            const QFontMetrics ffm(folderFont);
            p->setFont(folderFont);
            p->setPen(dim);
            const int x = left + nameW + 6;
            p->drawText(QRect(x, r.top(), right - x, r.height()), Qt::AlignVCenter | Qt::AlignLeft,
                        ffm.elidedText(folder, Qt::ElideLeft, right - x));
        }
        p->restore();
    }
};

QString listFiles(const QStringList &files)
{
    QStringList shown;
    for (qsizetype i = 0; i < files.size() && i < ListedFiles; ++i)
        shown.append(u"  \u2022 "_s + files.at(i));
    if (files.size() > ListedFiles)
        shown.append(Style::plural(ChangesPane::tr("  and %n more file(s)", nullptr, int(files.size() - ListedFiles)),
                                   files.size() - ListedFiles));
    return shown.join(u'\n');
}
} // namespace

struct ChangesPane::Loaded {
    std::optional<Session> session;
    QList<FileDiff> diffs;
    QString prompt;
};

ChangesPane::ChangesPane(SessionService *service, QWidget *parent)
    : QWidget(parent)
    , m_service(service)
    , m_model(new DiffModel(this))
    , m_view(new DiffView(this))
    , m_list(new QListView(this))
    , m_splitter(new QSplitter(Qt::Vertical, this))
    , m_summary(new QLabel(this))
    , m_empty(new QLabel(this))
    , m_banner(new QLabel(this))
{
    setObjectName(u"changesPane"_s);
    auto *title = new QLabel(tr("Changes"), this);
    QFont f = title->font();
    f.setWeight(QFont::DemiBold);
    title->setFont(f);

    // Scope: the whole session or one turn.
    m_sessionButton = new QToolButton(this);
    m_sessionButton->setObjectName(u"scopeSession"_s);
    m_sessionButton->setText(tr("Session"));
    m_sessionButton->setToolTip(tr("Everything the session changed"));
    m_turnButton = new QToolButton(this);
    m_turnButton->setObjectName(u"scopeTurn"_s);
    m_turnButton->setText(tr("Turn"));
    m_turnButton->setToolTip(tr("What one turn changed: click “files changed” under a message of yours"));
    m_worktreeButton = new QToolButton(this);
    m_worktreeButton->setObjectName(u"scopeWorktree"_s);
    m_worktreeButton->setText(tr("Worktree"));
    m_worktreeButton->hide();
    m_scopeGroup = new QButtonGroup(this);
    m_scopeGroup->setExclusive(true);
    for (QToolButton *b : {m_sessionButton, m_turnButton, m_worktreeButton}) {
        b->setCheckable(true);
        b->setAutoRaise(true);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        m_scopeGroup->addButton(b);
    }
    m_sessionButton->setChecked(true);
    m_turnButton->setEnabled(false);
    connect(m_sessionButton, &QToolButton::clicked, this, [this] { setScope(Scope::Session); });
    connect(m_turnButton, &QToolButton::clicked, this, [this] { setScope(Scope::Turn); });
    connect(m_worktreeButton, &QToolButton::clicked, this, [this] { setScope(Scope::Worktree); });

    // Revert.
    m_revertFile = new QAction(Style::icon(u"edit-undo"_s), tr("Revert This &File…"), this);
    m_revertFile->setObjectName(u"revertFile"_s);
    m_revertFile->setToolTip(tr("Put the selected file back as it was before the change"));
    m_revertTurn = new QAction(Style::icon(u"edit-undo"_s), tr("Revert This &Turn…"), this);
    m_revertTurn->setObjectName(u"revertTurn"_s);
    m_revertTurn->setToolTip(tr("Undo the turn's file changes and hide it with the messages after it"));
    m_unrevert = new QAction(Style::icon(u"edit-redo"_s), tr("&Restore Reverted Changes…"), this);
    m_unrevert->setObjectName(u"unrevert"_s);
    m_unrevert->setToolTip(tr("Bring back the files and messages of the reverted turn"));
    connect(m_revertFile, &QAction::triggered, this, &ChangesPane::revertFile);
    connect(m_revertTurn, &QAction::triggered, this, &ChangesPane::revertTurn);
    connect(m_unrevert, &QAction::triggered, this, &ChangesPane::unrevert);
    auto *menu = new QMenu(this);
    menu->addAction(m_revertFile);
    menu->addAction(m_revertTurn);
    menu->addSeparator();
    menu->addAction(m_unrevert);
    m_revertButton = new QToolButton(this);
    m_revertButton->setObjectName(u"revertButton"_s);
    m_revertButton->setIcon(Style::icon(u"edit-undo"_s));
    m_revertButton->setText(tr("Revert"));
    m_revertButton->setToolTip(tr("Revert a file or the turn"));
    m_revertButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_revertButton->setAutoRaise(true);
    m_revertButton->setPopupMode(QToolButton::InstantPopup);
    m_revertButton->setMenu(menu);

    auto *titleRow = new QHBoxLayout;
    titleRow->setSpacing(2);
    titleRow->addWidget(title);
    titleRow->addStretch(1);
    titleRow->addWidget(m_sessionButton);
    titleRow->addWidget(m_turnButton);
    titleRow->addWidget(m_worktreeButton);
    auto *gap = new QFrame(this);
    gap->setFrameShape(QFrame::VLine);
    gap->setFrameShadow(QFrame::Sunken);
    gap->setFixedHeight(16);
    titleRow->addSpacing(4);
    titleRow->addWidget(gap);
    titleRow->addWidget(m_revertButton);

    // The files.
    m_list->setObjectName(u"changesList"_s);
    m_list->setModel(m_model);
    m_list->setItemDelegate(new FileDelegate(m_list));
    m_list->setUniformItemSizes(true);
    m_list->setFrameShape(QFrame::NoFrame);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_list->setAccessibleName(tr("Changed files"));
    m_list->setMinimumHeight(60);
    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex &current) { showFile(current.isValid() ? current.row() : -1); });
    connect(m_list, &QListView::clicked, this, [this] { ensureRoom(); });
    connect(m_list, &QListView::activated, this, [this] {
        ensureRoom();
        m_view->activeArea()->setFocus();
    });

    m_empty->setText(tr("No file changes in this session."));
    m_empty->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    m_empty->setWordWrap(true);
    QPalette dim = m_empty->palette();
    dim.setColor(QPalette::WindowText,
                 Style::mix(palette().color(QPalette::WindowText), palette().color(QPalette::Window), 0.4));
    m_empty->setPalette(dim);
    m_summary->setPalette(dim);
    m_summary->setObjectName(u"changesSummary"_s);
    m_summary->setWordWrap(false);
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

    m_banner->setObjectName(u"changesBanner"_s);
    m_banner->setWordWrap(true);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner->hide();

    m_splitter->setObjectName(u"changesSplitter"_s);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(m_list);
    m_splitter->addWidget(m_view);
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({120, 480});

    connect(m_view, &DiffView::showAnywayRequested, this, [this] {
        const int row = currentFile();
        if (row < 0)
            return;
        m_forceShown.insert(m_model->diff(row).file());
        showFile(row);
    });
    connect(m_model, &DiffModel::documentReady, this, &ChangesPane::documentReady);
    // Side by side needs more room than one column.
    connect(m_view, &DiffView::modeChanged, this, [this] { ensureRoom(); });
    connect(m_view, &DiffView::hunkNavigationExhausted, this, [this](bool forward) {
        const int row = currentFile() + (forward ? 1 : -1);
        if (row >= 0 && row < m_model->rowCount())
            moveToFile(row, forward);
    });

    // Shortcuts anywhere in the pane: changes (the view's actions) and files.
    addAction(m_view->nextHunkAction());
    addAction(m_view->previousHunkAction());
    m_nextFile = new QAction(tr("Next File"), this);
    m_nextFile->setObjectName(u"nextFile"_s);
    m_nextFile->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageDown));
    m_nextFile->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_nextFile, &QAction::triggered, this, [this] {
        if (currentFile() + 1 < m_model->rowCount())
            moveToFile(currentFile() + 1, true);
    });
    m_previousFile = new QAction(tr("Previous File"), this);
    m_previousFile->setObjectName(u"previousFile"_s);
    m_previousFile->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageUp));
    m_previousFile->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_previousFile, &QAction::triggered, this, [this] {
        if (currentFile() > 0)
            moveToFile(currentFile() - 1, true);
    });
    addAction(m_nextFile);
    addAction(m_previousFile);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 6, 6);
    layout->setSpacing(6);
    layout->addLayout(titleRow);
    layout->addWidget(m_summary);
    layout->addWidget(m_banner);
    layout->addWidget(m_splitter, 1);
    layout->addWidget(m_empty, 1);

    connectService();
    showDiffs({});
}

ChangesPane::~ChangesPane() = default;

void ChangesPane::setService(SessionService *service)
{
    if (!service || service == m_service)
        return;
    disconnect(m_service, nullptr, this, nullptr);
    m_service = service;
    connectService();
}

void ChangesPane::connectService()
{
    // Live: a run updates the session's diff, a turn's message, the revert state.
    connect(m_service, &SessionService::sessionDiffChanged, this, [this](const QString &sid, const QList<FileDiff> &diffs) {
        if (sid == m_sessionID && m_scope == Scope::Session)
            showDiffs(diffs);
        else if (sid == m_sessionID && m_scope == Scope::Worktree)
            load(); // the agent wrote files there: the worktree's diff is read again
    });
    connect(m_service, &SessionService::messageUpdated, this, [this](const Message &message) {
        if (m_scope == Scope::Turn && message.sessionID() == m_sessionID && message.id() == m_turnID)
            showDiffs(message.summaryDiffs());
    });
    connect(m_service, &SessionService::sessionUpdated, this, [this](const Session &session) {
        if (session.id() == m_sessionID) {
            m_session = session;
            updateActions();
        }
    });

}

QSize ChangesPane::sizeHint() const
{
    return QSize(360, 600);
}

void ChangesPane::setUserQuestions(std::shared_ptr<UserQuestions> questions)
{
    m_questions = std::move(questions);
}

void ChangesPane::setSessionID(const QString &sessionID)
{
    m_sessionID = sessionID;
    m_session.reset();
    m_turnID.clear();
    m_turnPrompt.clear();
    m_forceShown.clear();
    m_scope = Scope::Session;
    m_sessionButton->setChecked(true);
    m_turnButton->setEnabled(false);
    m_turnButton->setToolTip(tr("What one turn changed: click “files changed” under a message of yours"));
    m_banner->hide();
    m_worktree.reset();
    m_worktreeButton->hide();
    if (m_controller && !sessionID.isEmpty()) {
        // `git worktree list`: after the window's first frame.
        StartupGate::run(m_gate, this, [this, sessionID] {
            if (sessionID != m_sessionID || !m_controller)
                return;
            whenFinished(m_controller->worktreeOf(sessionID), this, [this, sessionID](const Result<Worktree> &held) {
                if (sessionID != m_sessionID)
                    return;
                if (held) {
                    m_worktree = held.value();
                    m_worktreeButton->setToolTip(tr("Everything the worktree %1 changed since its base commit, committed or not")
                                                     .arg(held->branch.isEmpty() ? held->path : held->branch));
                    m_worktreeButton->show();
                }
                Q_EMIT worktreeKnown();
            });
        });
    }
    load();
}

void ChangesPane::showTurn(const QString &messageID)
{
    if (messageID.isEmpty())
        return;
    m_turnID = messageID;
    m_turnPrompt.clear();
    m_turnButton->setEnabled(true);
    m_banner->hide();
    setScope(Scope::Turn);
    ensureRoom();
}

void ChangesPane::setScope(Scope scope)
{
    if ((scope == Scope::Turn && m_turnID.isEmpty()) || (scope == Scope::Worktree && !m_worktree))
        scope = Scope::Session;
    m_scope = scope;
    (scope == Scope::Session ? m_sessionButton : scope == Scope::Turn ? m_turnButton : m_worktreeButton)->setChecked(true);
    load();
}

void ChangesPane::load()
{
    const int generation = ++m_generation;
    showDiffs({});
    if (m_sessionID.isEmpty())
        return;
    if (m_scope == Scope::Worktree && m_worktree && m_controller) {
        whenFinished(m_controller->worktreeChanges(*m_worktree), this,
                     [this, generation](const Result<SessionController::WorktreeChanges> &changes) {
                         if (generation != m_generation)
                             return;
                         if (!changes)
                             showBanner(changes.error().toString(), false);
                         showLoaded({m_session, changes ? changes->files : QList<FileDiff>(), {}});
                     });
        return;
    }
    const QString turnID = m_scope == Scope::Turn ? m_turnID : QString();
    const QModelIndex row = m_timeline && !turnID.isEmpty() && m_timeline->sessionID() == m_sessionID
        ? m_timeline->indexForId(turnID)
        : QModelIndex();
    if (row.isValid() && m_session && m_session->id() == m_sessionID) {
        // The timeline holds the turn: its diffs and prompt are there already (and the session
        // was read with its diff).
        Loaded loaded;
        loaded.session = m_session;
        loaded.diffs = row.data(TimelineModel::MessageRole).value<Message>().summaryDiffs();
        loaded.prompt = SessionService::promptOf(row.data(TimelineModel::PartsRole).value<QList<Part>>());
        // Delivered like a read, after this call returns.
        QMetaObject::invokeMethod(
            this,
            [this, generation, loaded] {
                if (generation == m_generation)
                    showLoaded(loaded);
            },
            Qt::QueuedConnection);
        return;
    }
    whenFinished(m_service->changes(m_sessionID, turnID), this,
                 [this, generation](const SessionService::Changes &changes) {
                     if (generation == m_generation)
                         showLoaded({changes.session, changes.diffs, changes.prompt});
                 });
}

void ChangesPane::showLoaded(const Loaded &result)
{
    m_session = result.session;
    if (m_scope == Scope::Turn) {
        m_turnPrompt = result.prompt;
        m_turnButton->setToolTip(m_turnPrompt.isEmpty() ? tr("What the turn changed")
                                                        : tr("What the turn “%1” changed").arg(m_turnPrompt.left(120)));
    }
    showDiffs(result.diffs);
    Q_EMIT loaded();
}

void ChangesPane::showDiffs(const QList<FileDiff> &diffs)
{
    const int previous = currentFile();
    const QString previousPath = previous >= 0 ? m_model->diff(previous).file() : QString();
    m_model->setDiffs(diffs);
    const bool empty = diffs.isEmpty();
    m_splitter->setVisible(!empty);
    m_empty->setVisible(empty);
    m_empty->setText(m_scope == Scope::Turn       ? tr("No file changes in this turn.")
                         : m_scope == Scope::Worktree ? tr("No changes in the worktree since its base commit.")
                                                      : tr("No file changes in this session."));
    updateSummary();
    if (!empty) {
        const int row = std::max(0, m_model->rowOfPath(previousPath));
        selectFile(row);
    } else {
        m_pendingRow = -1;
        m_view->setDocument(nullptr);
    }
    updateActions();
}

int ChangesPane::currentFile() const
{
    const QModelIndex current = m_list->currentIndex();
    return current.isValid() ? current.row() : -1;
}

void ChangesPane::selectFile(int row)
{
    const QModelIndex index = m_model->index(row, 0);
    if (!index.isValid())
        return;
    if (m_list->currentIndex() == index)
        showFile(row);
    else
        m_list->setCurrentIndex(index);
}

void ChangesPane::showFile(int row)
{
    m_pendingRow = -1;
    m_pendingHunk.reset();
    if (row < 0) {
        m_view->setDocument(nullptr);
        updateActions();
        return;
    }
    const FileDiff diff = m_model->diff(row);
    if (DiffView::isLarge(diff) && !m_forceShown.contains(diff.file())) {
        m_view->showLargeFileNotice(diff.file(), DiffModel::lineCountOf(diff));
    } else if (std::shared_ptr<const DiffDocument> document = m_model->cachedDocument(row)) {
        m_view->setDocument(std::move(document));
    } else {
        // A large file's diff takes a while: build it off the GUI thread, the window stays live.
        m_pendingRow = row;
        m_view->showComputing(diff.file());
        m_model->requestDocument(row);
    }
    updateActions();
}

void ChangesPane::documentReady(int row)
{
    if (row != m_pendingRow || row != currentFile())
        return; // built for an earlier selection (kept by the model for later)
    m_pendingRow = -1;
    m_view->setDocument(m_model->cachedDocument(row));
    if (m_pendingHunk)
        m_view->goToHunk(*m_pendingHunk);
    m_pendingHunk.reset();
    updateActions();
    Q_EMIT fileShown();
}

void ChangesPane::moveToFile(int row, bool forward)
{
    selectFile(row);
    if (m_view->document())
        m_view->goToHunk(forward ? 0 : -1);
    else if (isComputing())
        m_pendingHunk = forward ? 0 : -1;
}

void ChangesPane::updateSummary()
{
    const qint64 files = m_model->rowCount();
    QString text = Style::plural(tr("%n file(s), +%1 \u2212%2", nullptr, int(files))
                                     .arg(m_model->totalAdditions())
                                     .arg(m_model->totalDeletions()),
                                 files);
    if (m_scope == Scope::Turn)
        text = m_turnPrompt.isEmpty() ? tr("This turn: %1").arg(text) : tr("“%1”: %2").arg(m_turnPrompt, text);
    else if (m_scope == Scope::Worktree)
        text = tr("Worktree vs base: %1").arg(text);
    m_summary->setText(text);
    m_summary->setToolTip(m_scope == Scope::Turn ? m_turnPrompt : QString());
    m_summary->setVisible(files > 0 || m_scope == Scope::Turn);
}

void ChangesPane::updateActions()
{
    // The controller says whether the session can be changed now (not running, a writable store
    // or a server).
    const bool writable = m_controller && m_session && !m_session->directory().isEmpty()
        && m_reverting == Reverting::None && m_controller->isRunnable(m_sessionID) && !m_controller->isBusy(m_sessionID);
    const bool here = writable && !m_controller->serverOf(m_sessionID) && !m_controller->dataDir().isEmpty();
    // A worktree's diff is git's, not the session's snapshots: no revert from there.
    m_revertFile->setEnabled(here && currentFile() >= 0 && m_scope != Scope::Worktree);
    m_revertTurn->setEnabled(writable && m_scope == Scope::Turn && !m_turnID.isEmpty());
    const bool reverted = m_session && m_session->hasRevert();
    m_unrevert->setVisible(reverted);
    m_unrevert->setEnabled(writable && reverted);
    m_revertButton->setEnabled(m_revertFile->isEnabled() || m_revertTurn->isEnabled() || m_unrevert->isEnabled());
}

void ChangesPane::showBanner(const QString &text, bool ok)
{
    const QPalette pal = palette();
    const QColor tone = ok ? Style::positive(pal) : Style::negative(pal);
    const QColor window = pal.color(QPalette::Window);
    m_banner->setStyleSheet(u"QLabel#changesBanner { background: %1; border: 1px solid %2; border-radius: 4px; padding: 5px 8px; color: %3; }"_s
                                .arg(Style::mix(window, tone, 0.14).name(), Style::mix(window, tone, 0.5).name(),
                                     pal.color(QPalette::WindowText).name()));
    m_banner->setText(text);
    m_banner->show();
}

QString ChangesPane::bannerText() const
{
    return m_banner->isVisibleTo(const_cast<ChangesPane *>(this)) ? m_banner->text() : QString();
}

void ChangesPane::ensureRoom()
{
    auto *splitter = qobject_cast<QSplitter *>(parentWidget());
    const int wanted = m_view->mode() == DiffView::Mode::SideBySide ? RoomForSideBySide : RoomForDiff;
    if (!splitter || !isVisible() || width() >= wanted)
        return;
    QList<int> sizes = splitter->sizes();
    const int me = splitter->indexOf(this);
    int largest = -1;
    for (int i = 0; i < sizes.size(); ++i) {
        if (i != me && (largest < 0 || sizes.at(i) > sizes.at(largest)))
            largest = i;
    }
    if (me < 0 || largest < 0)
        return;
    const int extra = std::min(wanted - sizes.at(me), std::max(0, sizes.at(largest) - RoomForOthers));
    if (extra <= 0)
        return;
    sizes[largest] -= extra;
    sizes[me] += extra;
    splitter->setSizes(sizes);
}

bool ChangesPane::confirm(const QString &title, const QString &text, const QString &button)
{
    return questions().confirm({title, text, button, u"edit-undo"_s});
}

UserQuestions &ChangesPane::questions()
{
    if (!m_questions)
        m_questions = std::make_shared<DialogQuestions>(this);
    return *m_questions;
}

QString ChangesPane::relativePath(const QString &path) const
{
    if (!m_session || !QDir::isAbsolutePath(path))
        return path;
    return QDir(m_session->directory()).relativeFilePath(path);
}

QStringList ChangesPane::filesRevertedFrom(const QList<MessageWithParts> &messages, const QString &messageID) const
{
    QStringList files;
    bool from = false;
    for (const MessageWithParts &m : messages) {
        from = from || m.info.id() == messageID;
        if (!from)
            continue;
        for (const Part &part : m.parts) {
            if (part.type() != PartType::Patch)
                continue;
            for (const QString &file : part.files()) {
                const QString rel = relativePath(file);
                if (!files.contains(rel))
                    files.append(rel);
            }
        }
    }
    files.sort();
    return files;
}

void ChangesPane::setController(SessionController *controller)
{
    if (m_controller)
        disconnect(m_controller, nullptr, this, nullptr);
    m_controller = controller;
    if (!controller)
        return;
    connect(controller, &SessionController::busyChanged, this, [this](const QString &sessionID) {
        if (sessionID == m_sessionID)
            updateActions();
    });
    // The end of a revert or an unrevert this pane asked for (done here or on a server).
    connect(controller, &SessionController::revertChanged, this, [this](const Session &session) {
        if (m_reverting == Reverting::None || session.id() != m_revertingSession)
            return;
        if (session.id() == m_sessionID)
            m_session = session;
        const bool turn = m_reverting == Reverting::Turn;
        finishRevert(true, turn ? Style::plural(tr("Reverted the turn: %n file(s) restored.", nullptr, int(m_revertingFiles)),
                                                m_revertingFiles)
                                : tr("Restored the reverted changes."));
    });
    connect(controller, &SessionController::failed, this,
            [this](SessionController::Operation operation, const QString &sessionID, const QString &error) {
                const bool mine = (operation == SessionController::Operation::Revert && m_reverting == Reverting::Turn)
                    || (operation == SessionController::Operation::Unrevert && m_reverting == Reverting::Unrevert);
                if (!mine || sessionID != m_revertingSession)
                    return;
                finishRevert(false, m_reverting == Reverting::Turn
                                        ? tr("Could not revert the turn: %1").arg(error)
                                        : tr("Could not restore the reverted changes: %1").arg(error));
            });
    updateActions();
}

void ChangesPane::finishRevert(bool ok, const QString &message)
{
    m_reverting = Reverting::None;
    m_revertingSession.clear();
    updateActions();
    showBanner(message, ok);
    Q_EMIT revertFinished(ok, message);
}

void ChangesPane::revertFile()
{
    const int row = currentFile();
    if (row < 0 || !m_session || !m_controller || m_reverting != Reverting::None)
        return;
    const std::shared_ptr<const DiffDocument> doc = m_model->document(row);
    const QString directory = m_session->directory();
    const QString sessionID = m_sessionID;
    m_reverting = Reverting::File;
    m_revertingSession = sessionID;
    updateActions();
    whenFinished(m_controller->locateFile(directory, doc->path()), this,
                 [this, doc, directory, sessionID](const Result<QString> &path) {
                     if (!path) {
                         finishRevert(false, tr("Not reverting “%1”: %2").arg(doc->path(), path.error().toString()));
                         return;
                     }
                     m_reverting = Reverting::None;
                     updateActions();
                     if (sessionID != m_sessionID || !m_controller)
                         return; // another session is shown now
                     confirmRevertFile(doc, directory, path.value());
                 });
}

void ChangesPane::confirmRevertFile(const std::shared_ptr<const DiffDocument> &doc, const QString &directory,
                                    const QString &path)
{
    const QString rel = QDir(QFileInfo(directory).canonicalFilePath()).relativeFilePath(path);
    QString what;
    switch (doc->revertAction()) {
    case DiffDocument::RevertAction::Delete:
        what = tr("“%1” did not exist before this change: it will be deleted.").arg(rel);
        break;
    case DiffDocument::RevertAction::Create:
        what = tr("“%1” was deleted by this change: it will be created again with its old contents.").arg(rel);
        break;
    case DiffDocument::RevertAction::Restore:
        what = tr("“%1” will get its contents from before this change back (%2 added and %3 removed lines undone).")
                   .arg(rel)
                   .arg(doc->additions())
                   .arg(doc->deletions());
        break;
    }
    const QString text = tr("Revert this file?\n\n%1\n\nChanged on disk, in %2:\n%3\n\nChanges made to the file since are lost.")
                             .arg(what, QDir::toNativeSeparators(directory), listFiles({rel}));
    if (!confirm(tr("Revert File"), text, tr("&Revert File")))
        return;
    m_reverting = Reverting::File;
    m_revertingSession = m_sessionID;
    updateActions();
    whenFinished(m_controller->revertFile(m_sessionID, doc, path), this, [this, rel](const Result<void> &r) {
        finishRevert(bool(r), r ? tr("Reverted “%1”.").arg(rel) : tr("Could not revert “%1”: %2").arg(rel, r.error().toString()));
    });
}

void ChangesPane::revertTurn()
{
    if (m_turnID.isEmpty() || !m_session || !m_controller || m_reverting != Reverting::None)
        return;
    if (!ImportedDirectory::ensureAccepted(questions(), *m_service, *m_session))
        return;
    // What the revert does, found before asking: the files written back and those deleted, or
    // why it is refused (snapshots this machine did not make, a file no snapshot can hold); and
    // the messages it hides. Both read off the GUI thread.
    const QString sessionID = m_sessionID, turnID = m_turnID;
    m_reverting = Reverting::Turn;
    m_revertingSession = sessionID;
    updateActions();
    whenFinished(m_controller->planRevert(sessionID, turnID), this,
                 [this, sessionID, turnID](const Result<RevertPlan> &plan) {
                     if (!plan) {
                         finishRevert(false, tr("Could not revert the turn: %1").arg(plan.error().toString()));
                         return;
                     }
                     whenFinished(m_service->messagesLater(sessionID), this,
                                  [this, sessionID, turnID, plan = plan.value()](const QList<MessageWithParts> &messages) {
                                      m_reverting = Reverting::None;
                                      updateActions();
                                      if (sessionID == m_sessionID && turnID == m_turnID && m_controller)
                                          confirmRevertTurn(plan, messages);
                                  });
                 });
}

void ChangesPane::confirmRevertTurn(const RevertPlan &plan, const QList<MessageWithParts> &messages)
{
    const auto relative = [this](const QStringList &paths) {
        QStringList out;
        for (const QString &p : paths)
            out.append(relativePath(p));
        return out;
    };
    const QStringList files = relative(plan.restore);
    const QStringList deleted = relative(plan.remove);
    int hidden = 0;
    bool from = false;
    for (const MessageWithParts &m : messages) {
        from = from || m.info.id() == m_turnID;
        hidden += from ? 1 : 0;
    }
    const QString subject = m_turnPrompt.isEmpty() ? tr("this turn") : tr("the turn “%1”").arg(m_turnPrompt.left(80));
    QString text = tr("Revert %1?").arg(subject) + u"\n\n"_s;
    if (files.isEmpty() && deleted.isEmpty())
        text += tr("No files were recorded as changed from this turn on; nothing changes on disk.");
    if (!files.isEmpty())
        text += Style::plural(tr("%n file(s) go back to how they were before it, in %1:", nullptr, int(files.size())),
                              files.size())
                    .arg(QDir::toNativeSeparators(m_session->directory()))
            + u'\n' + listFiles(files);
    if (!deleted.isEmpty())
        text += (files.isEmpty() ? QString() : u"\n\n"_s)
            + Style::plural(tr("%n file(s) are deleted (they did not exist before it), in %1:", nullptr, int(deleted.size())),
                            deleted.size())
                  .arg(QDir::toNativeSeparators(m_session->directory()))
            + u'\n' + listFiles(deleted);
    text += u"\n\n"_s
        + Style::plural(tr("The turn and what came after it (%n message(s)) are hidden until you send a new prompt. "
                           "“Restore Reverted Changes” brings everything back until then.",
                           nullptr, hidden),
                        hidden);
    if (!confirm(tr("Revert Turn"), text, tr("&Revert Turn")))
        return;
    if (!m_controller->revert(m_sessionID, m_turnID)) {
        const QString message = tr("Could not revert the turn: %1").arg(tr("the session is running"));
        showBanner(message, false);
        Q_EMIT revertFinished(false, message);
        return;
    }
    m_reverting = Reverting::Turn;
    m_revertingSession = m_sessionID;
    m_revertingFiles = files.size() + deleted.size();
    updateActions();
}

void ChangesPane::unrevert()
{
    if (!m_session || !m_session->hasRevert() || !m_controller || m_reverting != Reverting::None)
        return;
    if (!ImportedDirectory::ensureAccepted(questions(), *m_service, *m_session))
        return;
    // The files the revert took back, from the messages it hides: read off the GUI thread.
    const QString sessionID = m_sessionID;
    m_reverting = Reverting::Unrevert;
    m_revertingSession = sessionID;
    updateActions();
    whenFinished(m_service->messagesLater(sessionID), this, [this, sessionID](const QList<MessageWithParts> &messages) {
        m_reverting = Reverting::None;
        updateActions();
        if (sessionID == m_sessionID && m_session && m_session->hasRevert() && m_controller)
            confirmUnrevert(messages);
    });
}

void ChangesPane::confirmUnrevert(const QList<MessageWithParts> &messages)
{
    const QStringList files = filesRevertedFrom(messages, m_session->revert().string(u"messageID"));
    QString text = tr("Restore the reverted changes?") + u"\n\n"_s;
    if (!files.isEmpty())
        text += Style::plural(tr("%n file(s) get their reverted changes back, in %1:", nullptr, int(files.size())), files.size())
                    .arg(QDir::toNativeSeparators(m_session->directory()))
            + u'\n' + listFiles(files) + u"\n\n"_s;
    text += tr("The hidden messages are shown again.");
    if (!confirm(tr("Restore Reverted Changes"), text, tr("&Restore")))
        return;
    if (!m_controller->unrevert(m_sessionID)) {
        const QString message = tr("Could not restore the reverted changes: %1").arg(tr("the session is running"));
        showBanner(message, false);
        Q_EMIT revertFinished(false, message);
        return;
    }
    m_reverting = Reverting::Unrevert;
    m_revertingSession = m_sessionID;
    updateActions();
}

} // namespace weft
