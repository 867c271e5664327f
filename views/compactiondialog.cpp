// SPDX-License-Identifier: GPL-3.0-or-later
#include "compactiondialog.h"

#include "style.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QVBoxLayout>

#include <cmath>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
QString tokens(qint64 n)
{
    return CompactionDialog::tr("~%1 tokens").arg(QLocale().toString(n));
}
} // namespace

CompactionDialog::CompactionDialog(const QString &sessionID, QWidget *parent)
    : QDialog(parent)
    , m_sessionID(sessionID)
    , m_previewPage(new QWidget(this))
    , m_form(new QFormLayout)
    , m_intro(new QLabel(this))
    , m_problem(new QLabel(this))
    , m_status(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_summary(new QPlainTextEdit(this))
    , m_buttons(new QDialogButtonBox(this))
{
    setObjectName(u"compactionDialog"_s);
    setWindowTitle(tr("Compact Session"));
    setModal(true);

    m_intro->setWordWrap(true);
    m_intro->setText(tr("A summary written by the model replaces the conversation so far in its context. The "
                        "messages stay in the session, dimmed; the compaction can be undone until the next prompt."));
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_form->setLabelAlignment(Qt::AlignRight);
    addField(u"model"_s, tr("Model:"));
    addField(u"strategy"_s, tr("Strategy:"));
    addField(u"summarized"_s, tr("Messages to summarise:"));
    addField(u"kept"_s, tr("Messages kept as they are:"));
    addField(u"prune"_s, tr("Old tool outputs to clear:"));
    addField(u"before"_s, tr("Context now:"));
    addField(u"after"_s, tr("Context after (estimated):"));
    auto *pageLayout = new QVBoxLayout(m_previewPage);
    pageLayout->setContentsMargins(0, 0, 0, 0);
    pageLayout->addWidget(m_intro);
    pageLayout->addSpacing(6);
    pageLayout->addLayout(m_form);

    m_problem->setObjectName(u"compactionProblem"_s);
    m_problem->setWordWrap(true);
    QPalette warn = m_problem->palette();
    warn.setColor(QPalette::WindowText, Style::negative(palette()));
    m_problem->setPalette(warn);
    m_problem->hide();

    m_status->setObjectName(u"compactionStatus"_s);
    m_status->setWordWrap(true);
    m_progress->setObjectName(u"compactionProgress"_s);
    m_progress->setRange(0, 0);
    m_progress->setTextVisible(false);
    m_progress->hide();
    m_summary->setObjectName(u"compactionSummary"_s);
    m_summary->setReadOnly(true);
    m_summary->setPlaceholderText(tr("The summary appears here as the model writes it."));
    m_summary->setAccessibleName(tr("Summary"));
    m_summary->setMinimumHeight(140);
    m_summary->hide();

    m_compact = m_buttons->addButton(tr("&Compact"), QDialogButtonBox::AcceptRole);
    m_compact->setObjectName(u"compactConfirm"_s);
    m_compact->setIcon(Style::icon(u"weft-compact"_s));
    m_compact->setEnabled(false);
    m_compact->setDefault(true);
    m_cancel = m_buttons->addButton(QDialogButtonBox::Cancel);
    m_cancel->setObjectName(u"compactCancel"_s);
    connect(m_compact, &QPushButton::clicked, this, [this] {
        if (m_stage == Stage::Preview && m_preview && m_preview->canCompact())
            Q_EMIT compactRequested();
    });
    connect(m_cancel, &QPushButton::clicked, this, &CompactionDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_previewPage);
    layout->addWidget(m_problem);
    layout->addWidget(m_status);
    layout->addWidget(m_progress);
    layout->addWidget(m_summary, 1);
    layout->addWidget(m_buttons);

    m_status->setText(tr("Working out what a compaction would do…"));
    resize(560, sizeHint().height());
}

CompactionDialog::~CompactionDialog() = default;

QLabel *CompactionDialog::addField(const QString &field, const QString &label)
{
    auto *value = new QLabel(this);
    value->setObjectName(u"field_"_s + field);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    value->setWordWrap(true);
    m_form->addRow(label, value);
    m_fields.insert(field, value);
    return value;
}

void CompactionDialog::setField(const QString &field, const QString &text)
{
    if (QLabel *label = m_fields.value(field))
        label->setText(text);
}

QString CompactionDialog::fieldText(const QString &field) const
{
    if (field == u"problem")
        return m_problem->isHidden() ? QString() : m_problem->text();
    if (field == u"status")
        return m_status->text();
    QLabel *label = m_fields.value(field);
    return label && m_form->isRowVisible(label) ? label->text() : QString();
}

void CompactionDialog::setPreview(const Result<CompactionPreview> &result)
{
    m_stage = Stage::Preview;
    m_status->hide();
    if (!result) {
        m_preview.reset();
        m_previewPage->hide();
        m_problem->setText(tr("No preview: %1").arg(result.error().toString()));
        m_problem->show();
        m_compact->setEnabled(false);
        return;
    }
    m_preview = result.value();
    const CompactionPreview &p = *m_preview;
    const QLocale locale;

    if (p.model.isEmpty())
        setField(u"model"_s, tr("No model configured"));
    else if (p.modelContext > 0)
        setField(u"model"_s, tr("%1 (%2 tokens of context)").arg(p.model, locale.toString(p.modelContext)));
    else
        setField(u"model"_s, p.model);

    setField(u"strategy"_s,
             p.keepsTail ? tr("Summarise the older messages, keep the newest 30% as they are")
                         : tr("Summarise the whole conversation"));
    const int summarized = p.summarized;
    setField(u"summarized"_s, Style::plural(tr("%n message(s)", nullptr, summarized), summarized) + u", "_s
                                  + tokens(p.summarizedTokens));
    const int kept = p.kept;
    setField(u"kept"_s, Style::plural(tr("%n message(s)", nullptr, kept), kept) + u", "_s + tokens(p.keptTokens));
    m_form->setRowVisible(m_fields.value(u"kept"_s), p.keepsTail || kept > 0);

    QString prune;
    if (!p.pruneEnabled) {
        prune = tr("none: clearing is turned off (%1)").arg(p.pruneDisabledBy);
    } else if (p.pruneApplies) {
        const int n = p.prunedOutputs;
        prune = Style::plural(tr("%n output(s)", nullptr, n), n) + u", "_s + tokens(p.pruneSavings);
    } else {
        prune
            = tr("none: old outputs hold %1, clearing starts above %2").arg(tokens(p.prunable), tokens(p.pruneMinimum));
    }
    setField(u"prune"_s, prune);

    QString before = tokens(p.tokensBefore);
    before += u' ' + (p.beforeFromUsage ? tr("(the last reply's usage)") : tr("(estimated)"));
    if (p.usable > 0)
        before += u", "_s + tr("%1% of the usable context").arg(int(std::lround(100.0 * double(p.tokensBefore) / double(p.usable))));
    setField(u"before"_s, before);
    QString after = tokens(p.tokensAfter);
    if (p.tokensBefore > 0 && p.tokensAfter < p.tokensBefore)
        after += u" (\u2212"_s + QString::number(int(std::lround(100.0 * double(p.tokensBefore - p.tokensAfter) / double(p.tokensBefore))))
            + u"%)"_s;
    setField(u"after"_s, after);

    m_previewPage->show();
    m_problem->setVisible(!p.canCompact());
    m_problem->setText(p.canCompact() ? QString() : tr("Cannot compact: %1").arg(p.problem));
    m_compact->setEnabled(p.canCompact());
    if (p.canCompact())
        m_compact->setFocus();
}

void CompactionDialog::setRunning()
{
    m_stage = Stage::Running;
    m_compact->hide();
    m_cancel->setEnabled(true);
    m_cancel->setText(tr("&Cancel"));
    m_cancel->setToolTip(tr("Stop the compaction; the session stays as it was"));
    m_problem->hide();
    m_intro->hide();
    m_status->setText(m_preview && !m_preview->model.isEmpty()
                          ? tr("Compacting: %1 is writing the summary…").arg(m_preview->model)
                          : tr("Compacting: the model is writing the summary…"));
    m_status->show();
    m_progress->show();
    m_summary->show();
    resize(width(), std::max(height(), 420));
}

void CompactionDialog::setSummaryText(const QString &text)
{
    QScrollBar *bar = m_summary->verticalScrollBar();
    const bool atEnd = bar->value() >= bar->maximum() - 2;
    m_summary->setPlainText(text);
    if (atEnd)
        bar->setValue(bar->maximum());
}

QString CompactionDialog::summaryText() const
{
    return m_summary->toPlainText();
}

void CompactionDialog::setFailed(const QString &message)
{
    m_stage = Stage::Failed;
    m_progress->hide();
    m_compact->hide();
    m_status->setText(message);
    m_status->show();
    m_cancel->setEnabled(true);
    m_cancel->setText(tr("&Close"));
    m_cancel->setToolTip(QString());
}

void CompactionDialog::reject()
{
    if (m_stage == Stage::Running) {
        // Escape, the window's close button and Cancel all stop the compaction; the dialog goes
        // when the processor says it ended.
        m_cancel->setEnabled(false);
        m_status->setText(tr("Cancelling…"));
        Q_EMIT cancelRequested();
        return;
    }
    QDialog::reject();
}

} // namespace weft
