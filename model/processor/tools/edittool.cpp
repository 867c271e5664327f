// SPDX-License-Identifier: GPL-3.0-or-later
#include "edittool.h"

#include "diff/textdiff.h"
#include "toolutil.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace weft
{

QString EditTool::name() const
{
    return u"edit"_s;
}

QString EditTool::description() const
{
    return u"Performs exact string replacements in files.\n\n"
           u"Usage:\n"
           u"- You must use the read tool at least once in the conversation before editing; this tool fails otherwise.\n"
           u"- When editing text from the read tool's output, preserve the exact indentation as it appears AFTER the "
           u"line number prefix (\"00001| \"); never include any part of the prefix in oldString or newString.\n"
           u"- The edit FAILS if oldString is not found in the file.\n"
           u"- The edit FAILS if oldString is found several times; give more surrounding context to make it unique, or "
           u"use replaceAll to change every instance.\n"
           u"- Use replaceAll for replacing and renaming strings across the file.\n"
           u"- An empty oldString creates a new file with newString as its content."_s;
}

JsonObject EditTool::parameters() const
{
    using namespace ToolUtil;
    return schemaObject(JsonObject{{u"filePath"_s, schemaString(u"The path to the file to modify"_s)},
                                   {u"oldString"_s, schemaString(u"The text to replace"_s)},
                                   {u"newString"_s, schemaString(u"The text to replace it with (must be different from oldString)"_s)},
                                   {u"replaceAll"_s, schemaBoolean(u"Replace all occurrences of oldString (default false)"_s)}},
                        {u"filePath"_s, u"oldString"_s, u"newString"_s});
}

namespace
{
qsizetype countOccurrences(const QString &haystack, const QString &needle)
{
    qsizetype count = 0;
    qsizetype from = 0;
    while ((from = haystack.indexOf(needle, from)) >= 0) {
        ++count;
        from += needle.size();
    }
    return count;
}
} // namespace

ToolResult EditTool::execute(ToolContext &context, const JsonObject &input)
{
    using namespace ToolUtil;
    InputReader in(name(), input);
    const QString filePath = in.requiredString(u"filePath"_s);
    const QString oldString = in.requiredString(u"oldString"_s, true);
    const QString newString = in.requiredString(u"newString"_s, true);
    const bool replaceAll = in.optionalBool(u"replaceAll"_s, false);
    if (!in.ok())
        return in.failure();
    if (oldString == newString)
        return ToolResult::failure(u"oldString and newString must be different"_s);

    const ResolvedPath path = resolvePath(context, filePath);
    if (auto refused = checkExternal(context, path, false))
        return *refused;

    const QFileInfo info(path.absolute);
    const bool exists = info.exists();
    if (info.isDir())
        return ToolResult::failure(u"Path is a directory, not a file: %1"_s.arg(path.absolute));
    if (exists && !info.isFile())
        return ToolResult::failure(u"Not a regular file: %1"_s.arg(path.absolute));

    QString before;
    if (exists) {
        QFile old(path.absolute);
        if (!old.open(QIODevice::ReadOnly))
            return ToolResult::failure(u"Cannot read %1: %2"_s.arg(path.absolute, old.errorString()));
        before = QString::fromUtf8(old.readAll());
    }

    QString after;
    if (oldString.isEmpty()) {
        // Create the file (or fill an empty one); overwriting content needs a read first.
        if (exists && !before.isEmpty() && !wasRead(context, path.absolute))
            return ToolResult::failure(
                u"You must read the file %1 before overwriting it. Use the Read tool first"_s.arg(path.absolute));
        after = newString;
    } else {
        if (!exists)
            return ToolResult::failure(u"File %1 not found"_s.arg(path.absolute));
        if (!wasRead(context, path.absolute))
            return ToolResult::failure(
                u"You must read the file %1 before overwriting it. Use the Read tool first"_s.arg(path.absolute));
        QString from = oldString;
        QString to = newString;
        qsizetype count = countOccurrences(before, from);
        // Files with CRLF line endings: the model sends LF.
        if (count == 0 && before.contains(u"\r\n"_s) && from.contains(u'\n') && !from.contains(u"\r\n"_s)) {
            from.replace(u"\n"_s, u"\r\n"_s);
            to.replace(u"\n"_s, u"\r\n"_s);
            count = countOccurrences(before, from);
        }
        if (count == 0)
            return ToolResult::failure(u"oldString not found in content"_s);
        if (count > 1 && !replaceAll)
            return ToolResult::failure(
                u"Found multiple matches for oldString. Provide more surrounding lines in oldString to identify the "
                u"correct match, or set replaceAll to replace every occurrence."_s);
        after = before;
        if (replaceAll) {
            after.replace(from, to);
        } else {
            const qsizetype at = before.indexOf(from);
            after.replace(at, from.size(), to);
        }
    }

    const QString diff = TextDiff::unified(path.absolute, before, after);
    if (auto refused = requirePermission(context, u"edit"_s, {path.relative},
                                         JsonObject{{u"filepath"_s, path.absolute}, {u"diff"_s, diff}}))
        return *refused;

    if (!QDir().mkpath(info.absolutePath()))
        return ToolResult::failure(u"Cannot create the folder %1"_s.arg(info.absolutePath()));
    QFile file(path.absolute);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return ToolResult::failure(u"Cannot write %1: %2"_s.arg(path.absolute, file.errorString()));
    const QByteArray data = after.toUtf8();
    if (file.write(data) != data.size() || !file.flush())
        return ToolResult::failure(u"Cannot write %1: %2"_s.arg(path.absolute, file.errorString()));
    file.close();
    markRead(context, path.absolute);

    const TextDiff::Counts counts = TextDiff::count(before, after);
    return ToolResult::success(path.relative, u"Edit applied successfully."_s,
                               JsonObject{{u"diagnostics"_s, JsonObject{}},
                                          {u"diff"_s, diff},
                                          {u"filediff"_s, JsonObject{{u"file"_s, path.absolute},
                                                                     {u"before"_s, before},
                                                                     {u"after"_s, after},
                                                                     {u"additions"_s, counts.additions},
                                                                     {u"deletions"_s, counts.deletions}}}});
}

} // namespace weft
