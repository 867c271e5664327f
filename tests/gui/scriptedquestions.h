// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The window's questions answered by a GUI test instead of dialogs.

#include "userquestions.h"

#include <functional>
#include <memory>

namespace weft::test
{

/// Each question answered by the test's function for it; a confirmation without one is refused,
/// a server agent's questions without one are not answered. Warnings are collected.
class ScriptedQuestions : public UserQuestions
{
public:
    std::function<bool(const Confirmation &)> confirmWith;
    std::function<std::optional<QList<QStringList>>(const JsonObject &)> answerWith;
    QStringList warnings;

    bool confirm(const Confirmation &confirmation) override
    {
        return confirmWith && confirmWith(confirmation);
    }
    void warn(const QString &title, const QString &text) override { warnings.append(title + u": " + text); }
    std::optional<QList<QStringList>> answer(const JsonObject &request) override
    {
        return answerWith ? answerWith(request) : std::nullopt;
    }
};

/// Questions answered by @p confirm and @p answer, to give a window or a pane (setUserQuestions()).
inline std::shared_ptr<ScriptedQuestions>
scriptedQuestions(std::function<bool(const Confirmation &)> confirm,
                  std::function<std::optional<QList<QStringList>>(const JsonObject &)> answer = {})
{
    auto questions = std::make_shared<ScriptedQuestions>();
    questions->confirmWith = std::move(confirm);
    questions->answerWith = std::move(answer);
    return questions;
}

} // namespace weft::test
