// SPDX-License-Identifier: GPL-3.0-or-later
#include "globtool.h"

#include "toolutil.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace weft
{

QString GlobTool::name() const
{
    return u"glob"_s;
}

QString GlobTool::description() const
{
    return u"Fast file pattern matching that works with any codebase size.\n"
           u"- Supports glob patterns like \"**/*.js\" or \"src/**/*.ts\"; a pattern without '/' matches file names at any depth.\n"
           u"- Returns matching file paths sorted by modification time, newest first (at most 100).\n"
           u"- Use this tool when you need to find files by name patterns.\n"
           u"- The path defaults to the project directory."_s;
}

JsonObject GlobTool::parameters() const
{
    using namespace ToolUtil;
    return schemaObject(JsonObject{{u"pattern"_s, schemaString(u"The glob pattern to match files against"_s)},
                                   {u"path"_s, schemaString(u"The directory to search in (defaults to the project directory)"_s)}},
                        {u"pattern"_s});
}

ToolResult GlobTool::execute(ToolContext &context, const JsonObject &input)
{
    using namespace ToolUtil;
    InputReader in(name(), input);
    QString pattern = in.requiredString(u"pattern"_s);
    QString pathInput = in.optionalString(u"path"_s).value_or(QString());
    if (!in.ok())
        return in.failure();

    // An absolute pattern: its fixed leading folders become the search path.
    if (QDir::isAbsolutePath(pattern)) {
        static const QRegularExpression magic(u"[*?\\[{]"_s);
        const qsizetype firstMagic = pattern.indexOf(magic);
        const qsizetype slash = pattern.lastIndexOf(u'/', firstMagic < 0 ? -1 : firstMagic);
        pathInput = slash <= 0 ? u"/"_s : pattern.left(slash);
        pattern = (firstMagic < 0 ? u"/"_s : QString()) + pattern.mid(slash + 1);
    }

    const ResolvedPath path = resolvePath(context, pathInput.isEmpty() ? u"."_s : pathInput);
    if (auto refused = checkExternal(context, path, true))
        return *refused;
    const QFileInfo info(path.absolute);
    if (!info.exists())
        return ToolResult::failure(u"Directory not found: %1"_s.arg(path.absolute));
    if (!info.isDir())
        return ToolResult::failure(u"Not a directory: %1"_s.arg(path.absolute));
    const GlobMatcher matcher(pattern);
    if (!matcher.isValid())
        return ToolResult::failure(u"Invalid glob pattern: %1"_s.arg(pattern));
    if (auto refused = requirePermission(context, u"glob"_s, {pattern}, {}))
        return *refused;

    struct Match {
        QString path;
        qint64 mtime;
    };
    QList<Match> matches;
    WalkOptions options;
    options.skipFolders = vcsFolders();
    options.context = &context;
    walkFiles(path.absolute, options, [&](const QString &absolute, const QString &rel, const QFileInfo &file) {
        if (matcher.matches(rel))
            matches.append(Match{absolute, file.lastModified().toMSecsSinceEpoch()});
        return matches.size() < 100000;
    });
    if (context.isAborted())
        return ToolResult::failure(u"Aborted"_s);

    std::stable_sort(matches.begin(), matches.end(), [](const Match &a, const Match &b) { return a.mtime > b.mtime; });
    const bool truncated = matches.size() > Limit;
    if (truncated)
        matches.resize(Limit);

    QString output;
    if (matches.isEmpty()) {
        output = u"No files found"_s;
    } else {
        QStringList lines;
        for (const Match &m : std::as_const(matches))
            lines.append(m.path);
        output = lines.join(u'\n');
        if (truncated)
            output += u"\n\n(Results are truncated. Consider using a more specific path or pattern.)"_s;
    }
    return ToolResult::success(path.relative, output,
                               JsonObject{{u"count"_s, qint64(matches.size())}, {u"truncated"_s, truncated}});
}

} // namespace weft
