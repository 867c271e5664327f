// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/bestofrun.h"

#include <QDialog>
#include <QList>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QToolButton;
class QVBoxLayout;

namespace weft
{

/// "Run on Several Models…": the prompt (the composer's), the agent, a model per run (up to
/// BestOfRun::MaxRuns rows; the same model may be chosen for several), how many run at once, and
/// a test command run in each worktree when its run has ended. The owner makes the group from
/// request().
class BestOfDialog : public QDialog
{
    Q_OBJECT

public:
    explicit BestOfDialog(QWidget *parent = nullptr);

    void setPrompt(const QString &text);
    /// The models offered in each row, @p current first chosen; three rows to start with.
    void setModels(const QStringList &models, const QString &current);
    void setAgents(const QStringList &agents, const QString &current);
    void setTestCommand(const QString &command);

    /// What the user chose (directory and project are the caller's).
    [[nodiscard]] BestOfRun::Request request() const;
    /// The models of the rows, in order.
    [[nodiscard]] QStringList models() const;

    [[nodiscard]] QPlainTextEdit *promptEdit() const { return m_prompt; }
    [[nodiscard]] QComboBox *modelBox(int row) const { return m_rows.value(row).model; }
    [[nodiscard]] QToolButton *removeButton(int row) const { return m_rows.value(row).remove; }
    [[nodiscard]] QPushButton *addButton() const { return m_add; }
    [[nodiscard]] QLineEdit *testEdit() const { return m_test; }
    [[nodiscard]] QSpinBox *limitBox() const { return m_limit; }
    [[nodiscard]] QLabel *limitLabel() const { return m_limitLabel; }
    [[nodiscard]] QPushButton *runButton() const { return m_run; }

private:
    struct Row {
        QWidget *widget = nullptr;
        QComboBox *model = nullptr;
        QToolButton *remove = nullptr;
    };
    void addRow(const QString &model);
    void removeRow(QWidget *row);
    void updateState();

    QStringList m_models;
    QPlainTextEdit *m_prompt = nullptr;
    QComboBox *m_agent = nullptr;
    QVBoxLayout *m_rowsLayout = nullptr;
    QList<Row> m_rows;
    QPushButton *m_add = nullptr;
    QLineEdit *m_test = nullptr;
    QSpinBox *m_limit = nullptr;
    QLabel *m_limitLabel = nullptr;
    QPushButton *m_run = nullptr;
    bool m_limitTouched = false;
};

} // namespace weft
