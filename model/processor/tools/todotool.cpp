// SPDX-License-Identifier: GPL-3.0-or-later
#include "todotool.h"

#include "toolutil.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{

/// What both tools return: the list as JSON (JSON.stringify(todos, null, 2)), "N todos" with N
/// the items not completed, and the list in the metadata.
ToolResult listResult(const QList<Todo> &todos)
{
    JsonArray array;
    for (const Todo &todo : todos)
        array.append(todo.json());
    const auto open = std::count_if(todos.cbegin(), todos.cend(), [](const Todo &t) { return t.status() != u"completed"; });
    return ToolResult::success(u"%1 todos"_s.arg(open), QString::fromUtf8(toJson(array, 2)),
                               JsonObject{{u"todos"_s, array}});
}

} // namespace

QString TodoWriteTool::name() const
{
    return u"todowrite"_s;
}

QString TodoWriteTool::description() const
{
    return u"Creates and updates the todo list of this session: a structured plan of the current task that also "
           u"shows the user your progress. Each call replaces the whole list.\n\n"
           u"Use it for work of three or more distinct steps, for non-trivial tasks that need planning, when the user "
           u"gives several tasks or asks for a todo list, and whenever new instructions arrive (capture them as items). "
           u"Skip it for a single trivial step or a purely conversational request.\n\n"
           u"Items: content (a brief, actionable description), status, priority (high, medium, low) and a unique id.\n"
           u"Statuses: pending (not started), in_progress (being worked on: exactly one at a time), completed "
           u"(finished), cancelled (no longer needed).\n\n"
           u"Rules:\n"
           u"- Mark an item in_progress before you start it and completed as soon as it is done; do not batch updates.\n"
           u"- Mark an item completed only when it is fully done: not while tests fail, the work is partial or an error "
           u"is unresolved (then keep it in_progress and add an item for what blocks it).\n"
           u"- Split large items into smaller, concrete steps; remove or cancel items that no longer apply."_s;
}

JsonObject TodoWriteTool::parameters() const
{
    using namespace ToolUtil;
    JsonObject item = schemaObject(
        JsonObject{{u"content"_s, schemaString(u"Brief description of the task"_s)},
                   {u"status"_s, schemaString(u"Current status of the task: pending, in_progress, completed, cancelled"_s)},
                   {u"priority"_s, schemaString(u"Priority level of the task: high, medium, low"_s)},
                   {u"id"_s, schemaString(u"Unique identifier for the todo item"_s)}},
        {u"content"_s, u"status"_s, u"priority"_s, u"id"_s});
    return schemaObject(JsonObject{{u"todos"_s, JsonObject{{u"type"_s, u"array"_s},
                                                           {u"items"_s, item},
                                                           {u"description"_s, u"The updated todo list"_s}}}},
                        {u"todos"_s});
}

ToolResult TodoWriteTool::execute(ToolContext &context, const JsonObject &input)
{
    using namespace ToolUtil;
    InputReader in(name(), input);
    const std::optional<QList<JsonObject>> items = in.requiredObjectArray(u"todos"_s);
    QList<Todo> todos;
    if (items) {
        for (qsizetype i = 0; i < items->size() && in.ok(); ++i) {
            const JsonObject &item = items->at(i);
            QStringList values;
            for (const QString &key : {u"content"_s, u"status"_s, u"priority"_s, u"id"_s}) {
                const JsonValue &v = item.value(key);
                if (v.isUndefined() || v.isNull())
                    in.reject(u"\"todos[%1].%2\" is required (a string)"_s.arg(i).arg(key));
                else if (!v.isString())
                    in.reject(u"\"todos[%1].%2\" must be a string, not %3"_s.arg(i).arg(key, JsonValue::typeName(v.type())));
                values.append(v.isString() ? v.toString() : QString());
            }
            // OpenCode keeps the four fields in this order and drops any others.
            todos.append(Todo::make(values.at(0), values.at(1), values.at(2), values.at(3)));
        }
    }
    if (!in.ok())
        return in.failure();
    if (auto refused = requirePermission(context, u"todowrite"_s, {u"*"_s}, {}))
        return *refused;
    if (!context.setTodos)
        return ToolResult::failure(u"This session cannot keep a todo list."_s);
    if (Result<void> written = context.setTodos(todos); !written)
        return ToolResult::failure(u"Cannot save the todo list: %1"_s.arg(written.error().toString()));
    return listResult(todos);
}

QString TodoReadTool::name() const
{
    return u"todoread"_s;
}

QString TodoReadTool::description() const
{
    return u"Reads the todo list of this session (as the todowrite tool last wrote it). Takes no parameters. Use it "
           u"when you are unsure what is left to do, at the start of a conversation that continues earlier work, or "
           u"before deciding what to do next."_s;
}

JsonObject TodoReadTool::parameters() const
{
    return ToolUtil::schemaObject(JsonObject{}, {});
}

ToolResult TodoReadTool::execute(ToolContext &context, const JsonObject &input)
{
    Q_UNUSED(input)
    if (auto refused = ToolUtil::requirePermission(context, u"todoread"_s, {u"*"_s}, {}))
        return *refused;
    return listResult(context.todos ? context.todos() : QList<Todo>());
}

} // namespace weft
