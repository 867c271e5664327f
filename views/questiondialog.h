// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/json.h"

#include <QDialog>
#include <QList>
#include <QStringList>

class QAbstractButton;
class QButtonGroup;
class QLineEdit;

namespace weft
{

/// The questions of OpenCode's `question` tool (an OpenCode server's agent asks the user): for
/// each question its header and text, its options as radio buttons (check boxes when several
/// may be chosen) with their descriptions, and a line of one's own where the question allows it.
class QuestionDialog : public QDialog
{
    Q_OBJECT

public:
    /// @p request as the server sends it: `{questions: [{question, header, options: [{label,
    /// description}], multiple, custom}]}`.
    explicit QuestionDialog(const JsonObject &request, QWidget *parent = nullptr);

    /// For each question, the labels chosen (and the text of one's own, when given).
    [[nodiscard]] QList<QStringList> answers() const;

private:
    void validate();

    struct Question {
        QList<QAbstractButton *> options;
        QLineEdit *custom = nullptr;
    };
    QList<Question> m_questions;
    QAbstractButton *m_ok = nullptr;
};

} // namespace weft
