// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "processor/tool.h"

namespace weft
{

/// The `question` tool (OpenCode's tool/question.ts): the agent asks the user one or more
/// questions, `{questions: [{question, header, options: [{label, description}], multiple}]}`,
/// and waits for the answers. The output is OpenCode's: `User has answered your questions:
/// "<question>"="<labels joined by ", ">", ... You can now continue with the user's answers in
/// mind.`, an unanswered question reading "Unanswered"; the title "Asked N question(s)"; the
/// metadata `{sessionID, callID, answers}`. A dismissed question is the error "The user dismissed this question".
/// Offered only where someone can answer (the window, `weft run` on a terminal).
class QuestionTool : public Tool
{
public:
    /// The error of a dismissed question (OpenCode's Question.RejectedError).
    static constexpr QStringView DismissedError = u"The user dismissed this question";

    [[nodiscard]] QString name() const override;
    [[nodiscard]] QString description() const override;
    [[nodiscard]] JsonObject parameters() const override;
    ToolResult execute(ToolContext &context, const JsonObject &input) override;

    /// The questions of @p input validated and normalised to OpenCode's Question.Info shape
    /// (question, header, options with label and description, multiple when given), or the
    /// failure the model reads.
    [[nodiscard]] static Result<JsonArray> readQuestions(const JsonObject &input);
    /// What the model reads for @p answers to @p questions.
    [[nodiscard]] static QString formatAnswers(const JsonArray &questions, const QList<QStringList> &answers);
};

} // namespace weft
