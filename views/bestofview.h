// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/bestofrun.h"

#include <QList>
#include <QWidget>

#include <memory>

class QComboBox;
class QFrame;
class QLabel;
class QListView;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QToolButton;

namespace weft
{

class Board;
class BoardView;
class DiffModel;
class DiffView;
class UserQuestions;

/// A best-of-N group in a window of its own: while its runs go, their tiles side by side (the
/// board's view, filtered to the group's sessions) with how many run and wait and Stop All; when
/// all have finished, the comparison: a column per run with its model, state, tokens and cost,
/// the files it changed (+/-), its test result (the output on demand) and its diff (DiffView),
/// and "Keep This One", which applies that run's worktree to the main checkout with the mode
/// chosen and removes the other worktrees, after a confirmation.
class BestOfView : public QWidget
{
    Q_OBJECT

public:
    /// Shows @p group (which it takes) with @p board's tiles; parented to a window, it is a
    /// window of its own.
    BestOfView(BestOfRun *group, Board *board, QWidget *parent = nullptr);
    ~BestOfView() override;

    /// How the view asks before keeping a run (DialogQuestions by default; tests answer).
    void setUserQuestions(std::shared_ptr<UserQuestions> questions);

    [[nodiscard]] BestOfRun *group() const { return m_group; }
    [[nodiscard]] BoardView *boardView() const { return m_board; }
    [[nodiscard]] QLabel *statusLabel() const { return m_status; }
    [[nodiscard]] QPushButton *stopButton() const { return m_stop; }
    [[nodiscard]] QPushButton *compareButton() const { return m_compareToggle; }
    [[nodiscard]] QComboBox *applyModeBox() const { return m_mode; }
    /// Whether the comparison (not the tiles) is shown.
    [[nodiscard]] bool isComparing() const;

    /// Run @p index's column of the comparison.
    struct Column {
        QFrame *frame = nullptr;
        QLabel *model = nullptr;
        QLabel *state = nullptr;
        QLabel *usage = nullptr;
        QLabel *changes = nullptr;
        QLabel *test = nullptr;
        QToolButton *showOutput = nullptr;
        QPlainTextEdit *output = nullptr;
        QListView *files = nullptr;
        DiffModel *diffs = nullptr;
        DiffView *diff = nullptr;
        QPushButton *keep = nullptr;
        QToolButton *open = nullptr;
    };
    [[nodiscard]] const Column &column(int index) const { return m_columns.at(index); }
    /// What the view said about the last keep (applied, conflicts, failure).
    [[nodiscard]] QLabel *noticeLabel() const { return m_notice; }

Q_SIGNALS:
    /// The user asks to open a run's session in the main window.
    void openSessionRequested(const QString &sessionID);

protected:
    /// While runs go, closing stops them, after a confirmation.
    void closeEvent(QCloseEvent *event) override;

private:
    void buildComparison();
    void updateStatus();
    void updateColumn(int index);
    void showFile(int index, int row);
    void keep(int index);
    void onKept(int index, const BestOfRun::Kept &result);
    void showComparison(bool compare);

    BestOfRun *m_group;
    std::shared_ptr<UserQuestions> m_questions;
    QLabel *m_title = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_stop = nullptr;
    QPushButton *m_compareToggle = nullptr;
    QStackedWidget *m_stack = nullptr;
    BoardView *m_board = nullptr;
    QComboBox *m_mode = nullptr;
    QLabel *m_notice = nullptr;
    QList<Column> m_columns;
};

} // namespace weft
