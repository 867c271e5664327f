// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/json.h"

#include <QList>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <optional>

class QWidget;

namespace weft
{

/// A question whose answer is yes or no: go ahead with what @c text describes, or not.
struct Confirmation
{
    QString title;
    QString text;
    QString button; ///< what going ahead is called ("&Delete")
    QString icon; ///< the button's icon, if any
    /// A warning whose button is destructive (deleting, reverting files); else a question.
    bool destructive = true;
    /// Whether the button (not Cancel) is the default.
    bool goAheadByDefault = false;
};

/// What the window and its panes ask the user and wait for: a confirmation, a warning to
/// acknowledge, the answers to a server agent's questions. The window is given one
/// (MainWindow::setUserQuestions()); DialogQuestions, the default, asks with modal dialogs, and a
/// test answers itself.
class UserQuestions
{
public:
    virtual ~UserQuestions();

    /// Whether to go ahead.
    virtual bool confirm(const Confirmation &confirmation) = 0;
    /// Tells the user that something they agreed to failed.
    virtual void warn(const QString &title, const QString &text) = 0;
    /// The answers to the questions of @p request (OpenCode's `question` tool: QuestionDialog
    /// describes it), each the labels chosen; none when the user does not answer.
    virtual std::optional<QList<QStringList>> answer(const JsonObject &request) = 0;
};

/// The questions as modal dialogs over a widget.
class DialogQuestions : public UserQuestions
{
public:
    explicit DialogQuestions(QWidget *parent);

    bool confirm(const Confirmation &confirmation) override;
    void warn(const QString &title, const QString &text) override;
    std::optional<QList<QStringList>> answer(const JsonObject &request) override;

private:
    QPointer<QWidget> m_parent;
};

} // namespace weft
