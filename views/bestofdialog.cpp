// SPDX-License-Identifier: GPL-3.0-or-later
#include "bestofdialog.h"

#include "style.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace weft
{

BestOfDialog::BestOfDialog(QWidget *parent)
    : QDialog(parent)
{
    setObjectName(u"bestOfDialog"_s);
    setWindowTitle(tr("Run on Several Models"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("Each run gets a git worktree and a session of its own. When they have finished, "
                                "compare their changes and test results, and keep one."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto *form = new QFormLayout;
    m_prompt = new QPlainTextEdit(this);
    m_prompt->setObjectName(u"bestOfPrompt"_s);
    m_prompt->setTabChangesFocus(true);
    m_prompt->setPlaceholderText(tr("What every run is asked"));
    m_prompt->setMinimumHeight(fontMetrics().lineSpacing() * 5);
    form->addRow(tr("&Prompt:"), m_prompt);
    m_agent = new QComboBox(this);
    m_agent->setObjectName(u"bestOfAgent"_s);
    form->addRow(tr("A&gent:"), m_agent);

    auto *models = new QWidget(this);
    m_rowsLayout = new QVBoxLayout(models);
    m_rowsLayout->setContentsMargins(0, 0, 0, 0);
    m_add = new QPushButton(Style::icon(u"list-add"_s), tr("&Add a Run"), this);
    m_add->setObjectName(u"bestOfAdd"_s);
    m_add->setToolTip(tr("Another run, on the same model or another one (up to %1)").arg(BestOfRun::MaxRuns));
    m_rowsLayout->addWidget(m_add, 0, Qt::AlignLeft);
    auto *modelsLabel = new QLabel(tr("&Models:"), this);
    modelsLabel->setBuddy(m_add);
    form->addRow(modelsLabel, models);

    auto *limitRow = new QHBoxLayout;
    m_limit = new QSpinBox(this);
    m_limit->setObjectName(u"bestOfLimit"_s);
    m_limit->setRange(1, BestOfRun::MaxRuns);
    m_limitLabel = new QLabel(this);
    m_limitLabel->setObjectName(u"bestOfLimitText"_s);
    limitRow->addWidget(m_limit);
    limitRow->addWidget(m_limitLabel, 1);
    auto *limitLabel = new QLabel(tr("At &once:"), this);
    limitLabel->setBuddy(m_limit);
    form->addRow(limitLabel, limitRow);

    m_test = new QLineEdit(this);
    m_test->setObjectName(u"bestOfTest"_s);
    m_test->setPlaceholderText(tr("e.g. make test (optional)"));
    m_test->setToolTip(tr("Run with sh in each worktree when its run has finished; exit code 0 passes"));
    form->addRow(tr("&Test command:"), m_test);
    layout->addLayout(form, 1);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_run = buttons->addButton(tr("&Run"), QDialogButtonBox::AcceptRole);
    m_run->setObjectName(u"bestOfRun"_s);
    m_run->setDefault(true);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_add, &QPushButton::clicked, this, [this] {
        // A new run repeats the last row's model: "the same model N times" is a few clicks.
        addRow(m_rows.isEmpty() ? QString() : m_rows.constLast().model->currentText());
        m_rows.constLast().model->setFocus();
    });
    connect(m_prompt, &QPlainTextEdit::textChanged, this, &BestOfDialog::updateState);
    connect(m_limit, &QSpinBox::valueChanged, this, [this] {
        m_limitTouched = true; // the user's: updateState() sets it with signals blocked
        updateState();
    });
    resize(620, 480);
    updateState();
}

void BestOfDialog::setPrompt(const QString &text)
{
    m_prompt->setPlainText(text);
}

void BestOfDialog::setModels(const QStringList &models, const QString &current)
{
    m_models = models;
    while (!m_rows.isEmpty())
        removeRow(m_rows.constLast().widget);
    // Three runs to start: the current model and the next ones offered (or it again).
    QStringList start{current.isEmpty() ? models.value(0) : current};
    for (const QString &m : models) {
        if (start.size() >= 3)
            break;
        if (!start.contains(m))
            start.append(m);
    }
    while (start.size() < 3)
        start.append(start.constFirst());
    for (const QString &m : std::as_const(start))
        addRow(m);
}

void BestOfDialog::setAgents(const QStringList &agents, const QString &current)
{
    m_agent->clear();
    m_agent->addItems(agents);
    if (!current.isEmpty())
        m_agent->setCurrentText(current);
}

void BestOfDialog::setTestCommand(const QString &command)
{
    m_test->setText(command);
}

void BestOfDialog::addRow(const QString &model)
{
    if (m_rows.size() >= BestOfRun::MaxRuns)
        return;
    Row row;
    row.widget = new QWidget(this);
    auto *h = new QHBoxLayout(row.widget);
    h->setContentsMargins(0, 0, 0, 0);
    auto *number = new QLabel(row.widget);
    row.model = new QComboBox(row.widget);
    row.model->setEditable(true); // a model the list does not offer can be typed
    row.model->addItems(m_models);
    row.model->setCurrentText(model);
    row.model->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    row.remove = new QToolButton(row.widget);
    row.remove->setIcon(Style::icon(u"list-remove"_s));
    row.remove->setAutoRaise(true);
    row.remove->setToolTip(tr("Remove this run"));
    row.remove->setAccessibleName(tr("Remove this run"));
    h->addWidget(number);
    h->addWidget(row.model, 1);
    h->addWidget(row.remove);
    m_rowsLayout->insertWidget(int(m_rows.size()), row.widget);
    QWidget *widget = row.widget;
    connect(row.remove, &QToolButton::clicked, this, [this, widget] { removeRow(widget); });
    connect(row.model, &QComboBox::currentTextChanged, this, &BestOfDialog::updateState);
    m_rows.append(row);
    updateState();
}

void BestOfDialog::removeRow(QWidget *widget)
{
    for (qsizetype i = 0; i < m_rows.size(); ++i) {
        if (m_rows.at(i).widget == widget) {
            m_rows.removeAt(i);
            widget->deleteLater();
            widget->hide();
            break;
        }
    }
    updateState();
}

void BestOfDialog::updateState()
{
    const int runs = int(m_rows.size());
    for (int i = 0; i < runs; ++i) {
        const Row &row = m_rows.at(i);
        if (auto *number = qobject_cast<QLabel *>(row.widget->layout()->itemAt(0)->widget()))
            number->setText(u"#%1"_s.arg(i + 1));
        row.model->setAccessibleName(tr("Model of run %1").arg(i + 1));
        row.remove->setEnabled(runs > 1);
    }
    m_add->setEnabled(runs < BestOfRun::MaxRuns);
    {
        const QSignalBlocker blocker(m_limit);
        m_limit->setMaximum(std::max(1, runs));
        if (!m_limitTouched)
            m_limit->setValue(BestOfRun::defaultLimit(runs));
    }
    const int waiting = std::max(0, runs - m_limit->value());
    m_limitLabel->setText(waiting == 0 ? tr("all runs at once")
                                       : tr("%1 at once, %2 waiting for a free place").arg(m_limit->value()).arg(waiting));
    m_run->setEnabled(runs > 0 && !m_prompt->toPlainText().trimmed().isEmpty() && !models().contains(QString()));
}

QStringList BestOfDialog::models() const
{
    QStringList out;
    for (const Row &row : m_rows)
        out.append(row.model->currentText().trimmed());
    return out;
}

BestOfRun::Request BestOfDialog::request() const
{
    BestOfRun::Request r;
    r.prompt = m_prompt->toPlainText();
    r.agent = m_agent->currentText();
    r.models = models();
    r.limit = m_limit->value();
    r.testCommand = m_test->text().trimmed();
    return r;
}

} // namespace weft
