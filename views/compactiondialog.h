// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/compactionpreview.h"
#include "core/result.h"

#include <QDialog>
#include <QHash>

#include <optional>

class QDialogButtonBox;
class QFormLayout;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QWidget;

namespace weft
{

/// "Compact…": first what a compaction would do (SessionController::previewCompaction: the messages
/// the summary replaces, the tool outputs prune clears, the context before and after, the
/// model), then, once the user agrees, its progress with the summary as it streams and a
/// Cancel button that stops it.
///
/// The dialog only shows and asks: compactRequested() when the user confirms, cancelRequested()
/// when a running compaction should stop. Its owner runs the compaction and reports back with
/// setRunning(), appendSummary() and setFailed() (or closes it when the compaction succeeded).
class CompactionDialog : public QDialog
{
    Q_OBJECT

public:
    enum class Stage { Loading, Preview, Running, Failed };
    Q_ENUM(Stage)

    explicit CompactionDialog(const QString &sessionID, QWidget *parent = nullptr);
    ~CompactionDialog() override;

    [[nodiscard]] QString sessionID() const { return m_sessionID; }
    [[nodiscard]] Stage stage() const { return m_stage; }

    /// Shows the preview, or why there is none. Compact is enabled when it can compact.
    void setPreview(const Result<CompactionPreview> &preview);
    [[nodiscard]] const std::optional<CompactionPreview> &preview() const { return m_preview; }
    /// The compaction started: an indeterminate progress bar, the streamed summary, Cancel.
    void setRunning();
    /// More of the summary text arrived (the whole text so far).
    void setSummaryText(const QString &text);
    [[nodiscard]] QString summaryText() const;
    /// The compaction failed or was cancelled: the reason, and Close.
    void setFailed(const QString &message);

    /// The value shown in the row @p field: "model", "strategy", "summarized", "kept", "prune",
    /// "before", "after", "problem", "status" (for tests and accessibility checks).
    [[nodiscard]] QString fieldText(const QString &field) const;
    [[nodiscard]] QPushButton *compactButton() const { return m_compact; }
    [[nodiscard]] QPushButton *cancelButton() const { return m_cancel; }
    [[nodiscard]] QProgressBar *progressBar() const { return m_progress; }

public Q_SLOTS:
    void reject() override;

Q_SIGNALS:
    void compactRequested();
    void cancelRequested();

private:
    QLabel *addField(const QString &field, const QString &label);
    void setField(const QString &field, const QString &text);

    QString m_sessionID;
    Stage m_stage = Stage::Loading;
    std::optional<CompactionPreview> m_preview;
    QWidget *m_previewPage;
    QFormLayout *m_form;
    QHash<QString, QLabel *> m_fields;
    QLabel *m_intro;
    QLabel *m_problem;
    QLabel *m_status;
    QProgressBar *m_progress;
    QPlainTextEdit *m_summary;
    QDialogButtonBox *m_buttons;
    QPushButton *m_compact;
    QPushButton *m_cancel;
};

} // namespace weft
