// SPDX-License-Identifier: GPL-3.0-or-later
#include "tasktool.h"

#include "toolutil.h"

using namespace Qt::StringLiterals;

namespace weft
{

QString TaskTool::name() const
{
    return u"task"_s;
}

QString TaskTool::description() const
{
    return u"Launches a new agent to handle complex, multi-step tasks autonomously, in its own child session.\n\n"
           u"Usage:\n"
           u"- subagent_type names the agent to run (for example \"general\").\n"
           u"- The agent does not see this conversation: the prompt must be a complete, self-contained task description, "
           u"saying exactly what information the agent should return.\n"
           u"- description is a short (3-5 words) summary of the task.\n"
           u"- The agent's final message is returned to you; it is not shown to the user, so summarize it for them.\n"
           u"- Launch several agents at once when their tasks are independent."_s;
}

JsonObject TaskTool::parameters() const
{
    using namespace ToolUtil;
    return schemaObject(JsonObject{{u"description"_s, schemaString(u"A short (3-5 words) description of the task"_s)},
                                   {u"prompt"_s, schemaString(u"The task for the agent to perform"_s)},
                                   {u"subagent_type"_s, schemaString(u"The type of specialized agent to use for this task"_s)}},
                        {u"description"_s, u"prompt"_s, u"subagent_type"_s});
}

ToolResult TaskTool::execute(ToolContext &context, const JsonObject &input)
{
    using namespace ToolUtil;
    InputReader in(name(), input);
    const QString description = in.requiredString(u"description"_s);
    const QString prompt = in.requiredString(u"prompt"_s);
    const QString agent = in.requiredString(u"subagent_type"_s);
    if (!in.ok())
        return in.failure();
    if (auto refused = requirePermission(context, u"task"_s, {agent},
                                         JsonObject{{u"description"_s, description}, {u"subagent_type"_s, agent}}))
        return *refused;
    if (!context.runSubagent)
        return ToolResult::failure(u"Sub-agents are not available in this session."_s);
    if (context.isAborted())
        return ToolResult::failure(u"Aborted"_s);

    const JsonObject metadata{{u"description"_s, description}, {u"subagent_type"_s, agent}};
    const Result<QString> result = context.runSubagent(agent, description, prompt);
    if (!result)
        return ToolResult::failure(u"The %1 agent failed: %2"_s.arg(agent, result.error().toString()), metadata);
    return ToolResult::success(description, u"<task_result>\n"_s + result.value() + u"\n</task_result>"_s, metadata);
}

} // namespace weft
