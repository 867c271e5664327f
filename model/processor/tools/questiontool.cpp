// SPDX-License-Identifier: GPL-3.0-or-later
#include "questiontool.h"

#include "toolutil.h"

using namespace Qt::StringLiterals;

namespace weft
{

QString QuestionTool::name() const
{
    return u"question"_s;
}

QString QuestionTool::description() const
{
    return u"Asks the user one or more questions while you work, and waits for the answers. Use it to learn what "
           u"the user prefers or needs, to settle an instruction that can be read more than one way, or to let the "
           u"user decide between approaches before you go on.\n\n"
           u"Usage:\n"
           u"- Each question has a short header (at most 30 characters), the full question and its options, each a "
           u"short label (1-5 words) with a description.\n"
           u"- The user can always type an answer of their own instead of picking an option; do not add an \"Other\" "
           u"option.\n"
           u"- Set multiple to true when more than one option may be chosen.\n"
           u"- Put the option you recommend first and end its label with \"(Recommended)\".\n"
           u"- The answers come back as the labels chosen (or the user's own text) for each question."_s;
}

JsonObject QuestionTool::parameters() const
{
    using namespace ToolUtil;
    const JsonObject option = schemaObject(JsonObject{{u"label"_s, schemaString(u"Display text (1-5 words, concise)"_s)},
                                                      {u"description"_s, schemaString(u"Explanation of choice"_s)}},
                                           {u"label"_s, u"description"_s});
    const JsonObject question = schemaObject(
        JsonObject{{u"question"_s, schemaString(u"Complete question"_s)},
                   {u"header"_s, schemaString(u"Very short label (max 30 chars)"_s)},
                   {u"options"_s, JsonObject{{u"type"_s, u"array"_s},
                                             {u"items"_s, option},
                                             {u"description"_s, u"Available choices"_s}}},
                   {u"multiple"_s, schemaBoolean(u"Allow selecting multiple choices"_s)}},
        {u"question"_s, u"header"_s, u"options"_s});
    return schemaObject(JsonObject{{u"questions"_s, JsonObject{{u"type"_s, u"array"_s},
                                                               {u"items"_s, question},
                                                               {u"description"_s, u"Questions to ask"_s}}}},
                        {u"questions"_s});
}

Result<JsonArray> QuestionTool::readQuestions(const JsonObject &input)
{
    ToolUtil::InputReader in(u"question"_s, input);
    const std::optional<QList<JsonObject>> items = in.requiredObjectArray(u"questions"_s);
    if (items && items->isEmpty())
        in.reject(u"\"questions\" must hold at least one question"_s);
    JsonArray questions;
    for (qsizetype i = 0; items && i < items->size() && in.ok(); ++i) {
        const JsonObject &item = items->at(i);
        auto text = [&](const JsonObject &object, const QString &key, const QString &where) {
            const JsonValue &v = object.value(key);
            if (!v.isString())
                in.reject(u"\"%1.%2\" is required (a string)"_s.arg(where, key));
            return v.isString() ? v.toString() : QString();
        };
        const QString where = u"questions[%1]"_s.arg(i);
        JsonObject question{{u"question"_s, text(item, u"question"_s, where)},
                            {u"header"_s, text(item, u"header"_s, where)}};
        const JsonValue &optionsValue = item.value(u"options");
        if (!optionsValue.isArray())
            in.reject(u"\"%1.options\" is required (an array)"_s.arg(where));
        JsonArray options;
        const JsonArray given = optionsValue.toArray();
        for (qsizetype j = 0; j < given.size() && in.ok(); ++j) {
            const QString at = u"%1.options[%2]"_s.arg(where).arg(j);
            if (!given.at(j).isObject()) {
                in.reject(u"\"%1\" must be an object"_s.arg(at));
                break;
            }
            const JsonObject option = given.at(j).toObject();
            options.append(JsonObject{{u"label"_s, text(option, u"label"_s, at)},
                                      {u"description"_s, text(option, u"description"_s, at)}});
        }
        question.insert(u"options"_s, options);
        const JsonValue &multiple = item.value(u"multiple");
        if (multiple.isBool())
            question.insert(u"multiple"_s, multiple.toBool());
        else if (!multiple.isUndefined() && !multiple.isNull())
            in.reject(u"\"%1.multiple\" must be a boolean"_s.arg(where));
        questions.append(question);
    }
    if (!in.ok())
        return Error{in.failure().error, {}};
    return questions;
}

QString QuestionTool::formatAnswers(const JsonArray &questions, const QList<QStringList> &answers)
{
    QStringList pairs;
    for (qsizetype i = 0; i < questions.size(); ++i) {
        const QStringList answer = answers.value(i);
        const QString given = answer.isEmpty() ? u"Unanswered"_s : answer.join(u", "_s);
        pairs.append(u"\"%1\"=\"%2\""_s.arg(questions.at(i).toObject().string(u"question"), given));
    }
    return u"User has answered your questions: %1. You can now continue with the user's answers in mind."_s.arg(
        pairs.join(u", "_s));
}

ToolResult QuestionTool::execute(ToolContext &context, const JsonObject &input)
{
    const Result<JsonArray> questions = readQuestions(input);
    if (!questions)
        return ToolResult::failure(questions.error().message);
    if (!context.askQuestions)
        return ToolResult::failure(
            u"No one can answer questions in this session (it runs without a user at a terminal or window). "
            u"Decide for yourself and say what you assumed."_s);
    const std::optional<QList<QStringList>> answers = context.askQuestions(questions.value());
    if (!answers)
        return ToolResult::failure(DismissedError.toString());
    JsonArray answerArray;
    for (const QStringList &answer : *answers) {
        JsonArray labels;
        for (const QString &label : answer)
            labels.append(label);
        answerArray.append(labels);
    }
    const qsizetype n = questions->size();
    return ToolResult::success(n == 1 ? u"Asked 1 question"_s : u"Asked %1 questions"_s.arg(n),
                               formatAnswers(questions.value(), *answers),
                               JsonObject{{u"sessionID"_s, context.sessionID},
                                          {u"callID"_s, context.callID},
                                          {u"answers"_s, answerArray}});
}

} // namespace weft
