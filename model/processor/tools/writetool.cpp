// SPDX-License-Identifier: GPL-3.0-or-later
#include "writetool.h"

#include "diff/textdiff.h"
#include "toolutil.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace weft
{

QString WriteTool::name() const
{
    return u"write"_s;
}

QString WriteTool::description() const
{
    return u"Writes a file to the local filesystem.\n\n"
           u"Usage:\n"
           u"- This tool overwrites the existing file if there is one at the provided path.\n"
           u"- If this is an existing file, you MUST use the read tool first to read its contents; this tool fails otherwise.\n"
           u"- Missing parent directories are created.\n"
           u"- Prefer editing existing files with the edit tool; only write new files when required.\n"
           u"- Never create documentation files (*.md) or READMEs unless the user asks for them."_s;
}

JsonObject WriteTool::parameters() const
{
    using namespace ToolUtil;
    return schemaObject(JsonObject{{u"content"_s, schemaString(u"The content to write to the file"_s)},
                                   {u"filePath"_s, schemaString(u"The path to the file to write (absolute, or relative to the project)"_s)}},
                        {u"content"_s, u"filePath"_s});
}

ToolResult WriteTool::execute(ToolContext &context, const JsonObject &input)
{
    using namespace ToolUtil;
    InputReader in(name(), input);
    const QString filePath = in.requiredString(u"filePath"_s);
    const QString content = in.requiredString(u"content"_s, true);
    if (!in.ok())
        return in.failure();

    const ResolvedPath path = resolvePath(context, filePath);
    if (auto refused = checkExternal(context, path, false))
        return *refused;

    const QFileInfo info(path.absolute);
    const bool exists = info.exists();
    if (info.isDir())
        return ToolResult::failure(u"Path is a directory, not a file: %1"_s.arg(path.absolute));
    if (exists && !info.isFile())
        return ToolResult::failure(u"Not a regular file: %1"_s.arg(path.absolute));
    if (exists) {
        if (auto refused = checkReadAndUnchanged(context, path.absolute))
            return *refused;
    }

    QString before;
    if (exists) {
        QFile old(path.absolute);
        if (!old.open(QIODevice::ReadOnly))
            return ToolResult::failure(u"Cannot read %1: %2"_s.arg(path.absolute, old.errorString()));
        before = QString::fromUtf8(old.readAll());
    }
    const QString diff = TextDiff::unified(path.absolute, before, content);
    if (auto refused = requirePermission(context, u"edit"_s, {path.relative},
                                         JsonObject{{u"filepath"_s, path.absolute}, {u"diff"_s, diff}}))
        return *refused;

    if (const Result<void> written = writeFileWhole(path.absolute, content.toUtf8()); !written)
        return ToolResult::failure(written.error().toString());
    markRead(context, path.absolute);

    const TextDiff::Counts counts = TextDiff::count(before, content);
    return ToolResult::success(path.relative, u"Wrote file successfully."_s,
                               JsonObject{{u"diagnostics"_s, JsonObject{}},
                                          {u"filepath"_s, path.absolute},
                                          {u"exists"_s, exists},
                                          {u"diff"_s, diff},
                                          {u"filediff"_s, JsonObject{{u"file"_s, path.absolute},
                                                                     {u"before"_s, before},
                                                                     {u"after"_s, content},
                                                                     {u"additions"_s, counts.additions},
                                                                     {u"deletions"_s, counts.deletions}}}});
}

} // namespace weft
