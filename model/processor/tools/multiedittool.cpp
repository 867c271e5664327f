// SPDX-License-Identifier: GPL-3.0-or-later
#include "multiedittool.h"

#include "edittool.h"
#include "toolutil.h"

using namespace Qt::StringLiterals;

namespace weft
{

QString MultiEditTool::name() const
{
    return u"multiedit"_s;
}

QString MultiEditTool::description() const
{
    return u"This is a tool for making multiple edits to a single file in one operation. It is built on top of the edit "
           u"tool and allows you to perform multiple find-and-replace operations efficiently. Prefer this tool over the "
           u"edit tool when you need to make multiple edits to the same file.\n\n"
           u"Before using this tool:\n"
           u"1. Use the read tool to understand the file's contents and context.\n\n"
           u"To make multiple file edits, provide the following:\n"
           u"1. filePath: The absolute path to the file to modify\n"
           u"2. edits: An array of edit operations to perform, where each edit contains:\n"
           u"   - oldString: The text to replace (must match the file contents, including all whitespace and indentation)\n"
           u"   - newString: The edited text to replace the oldString\n"
           u"   - replaceAll: Replace all occurrences of oldString. This parameter is optional and defaults to false.\n\n"
           u"IMPORTANT:\n"
           u"- All edits are applied in sequence, in the order they are provided.\n"
           u"- Each edit operates on the result of the previous edit.\n"
           u"- All edits must be valid for the operation to succeed: if any edit fails, none will be applied.\n"
           u"- This tool is ideal when you need to make several changes to different parts of the same file.\n\n"
           u"CRITICAL REQUIREMENTS:\n"
           u"1. All edits follow the same requirements as the single edit tool.\n"
           u"2. The edits are atomic: either all succeed or none are applied.\n"
           u"3. Plan your edits carefully so that earlier edits do not change the text later edits look for.\n\n"
           u"WARNING:\n"
           u"- The tool fails if an oldString is not found or is found several times (unless replaceAll is set).\n"
           u"- The tool fails if an oldString equals its newString.\n"
           u"- Since edits are applied in sequence, make sure that earlier edits do not affect the text later edits try to "
           u"find.\n\n"
           u"To create a new file: use a new file path, an empty oldString and the new file's contents as newString in "
           u"the first edit; later edits apply to that content."_s;
}

JsonObject MultiEditTool::parameters() const
{
    using namespace ToolUtil;
    // OpenCode's items carry a filePath too (ignored: every edit applies to the top-level file).
    const JsonObject item = schemaObject(
        JsonObject{{u"filePath"_s, schemaString(u"The absolute path to the file to modify"_s)},
                   {u"oldString"_s, schemaString(u"The text to replace"_s)},
                   {u"newString"_s, schemaString(u"The text to replace it with (must be different from oldString)"_s)},
                   {u"replaceAll"_s, schemaBoolean(u"Replace all occurrences of oldString (default false)"_s)}},
        {u"oldString"_s, u"newString"_s});
    return schemaObject(JsonObject{{u"filePath"_s, schemaString(u"The absolute path to the file to modify"_s)},
                                   {u"edits"_s, JsonObject{{u"type"_s, u"array"_s},
                                                           {u"items"_s, item},
                                                           {u"description"_s, u"Array of edit operations to perform sequentially on the file"_s}}}},
                        {u"filePath"_s, u"edits"_s});
}

ToolResult MultiEditTool::execute(ToolContext &context, const JsonObject &input)
{
    using namespace ToolUtil;
    InputReader in(name(), input);
    const QString filePath = in.requiredString(u"filePath"_s);
    if (!in.ok())
        return in.failure();
    const JsonValue &value = input.value(u"edits"_s);
    auto invalid = [this](const QString &message) {
        return ToolResult::failure(u"The %1 tool was called with invalid arguments: %2.\n"
                                   u"Please rewrite the input so it satisfies the expected schema."_s.arg(name(), message));
    };
    if (value.isUndefined() || value.isNull())
        return invalid(u"\"edits\" is required (an array)"_s);
    if (!value.isArray())
        return invalid(u"\"edits\" must be an array, not %1"_s.arg(JsonValue::typeName(value.type())));
    const JsonArray array = value.toArray();
    QList<TextEdit> edits;
    for (qsizetype i = 0; i < array.size(); ++i) {
        if (!array.at(i).isObject())
            return invalid(u"\"edits[%1]\" must be an object, not %2"_s.arg(i).arg(JsonValue::typeName(array.at(i).type())));
        InputReader item(name(), array.at(i).toObject());
        TextEdit edit;
        edit.oldString = item.requiredString(u"oldString"_s, true);
        edit.newString = item.requiredString(u"newString"_s, true);
        edit.replaceAll = item.optionalBool(u"replaceAll"_s, false);
        if (!item.ok())
            return invalid(u"edits[%1]: %2"_s.arg(i).arg(item.error()));
        edits.append(edit);
    }
    if (edits.isEmpty())
        return invalid(u"\"edits\" must contain at least one edit"_s);
    return applyFileEdits(context, filePath, edits, true);
}

} // namespace weft
