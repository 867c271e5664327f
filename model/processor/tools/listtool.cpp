// SPDX-License-Identifier: GPL-3.0-or-later
#include "listtool.h"

#include "toolutil.h"

#include <QFileInfo>
#include <QMap>
#include <QSet>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace weft
{

QString ListTool::name() const
{
    return u"list"_s;
}

QString ListTool::description() const
{
    return u"Lists files and directories under a path as a tree. The path defaults to the project directory; "
           u"relative paths are resolved against it. You can give an array of glob patterns to ignore. "
           u"Dependency, build and version-control folders (node_modules, .git, dist, build, target, ...) are skipped. "
           u"Prefer the glob and grep tools when you know what you are looking for."_s;
}

JsonObject ListTool::parameters() const
{
    using namespace ToolUtil;
    return schemaObject(JsonObject{{u"path"_s, schemaString(u"The directory to list (defaults to the project directory)"_s)},
                                   {u"ignore"_s, schemaStringArray(u"Glob patterns to ignore"_s)}},
                        {});
}

ToolResult ListTool::execute(ToolContext &context, const JsonObject &input)
{
    using namespace ToolUtil;
    InputReader in(name(), input);
    const QString pathInput = in.optionalString(u"path"_s).value_or(QString());
    const QStringList ignore = in.optionalStringList(u"ignore"_s).value_or(QStringList());
    if (!in.ok())
        return in.failure();

    const ResolvedPath path = resolvePath(context, pathInput.isEmpty() ? u"."_s : pathInput);
    if (auto refused = checkExternal(context, path, true))
        return *refused;
    const QFileInfo info(path.absolute);
    if (!info.exists())
        return ToolResult::failure(u"Directory not found: %1"_s.arg(path.absolute));
    if (!info.isDir())
        return ToolResult::failure(u"Not a directory: %1. Use the read tool for files."_s.arg(path.absolute));
    if (auto refused = requirePermission(context, u"list"_s, {path.absolute}, {}))
        return *refused;

    QList<GlobMatcher> ignores;
    for (const QString &pattern : ignore) {
        QString p = pattern;
        while (p.endsWith(u'/'))
            p.chop(1);
        if (!p.isEmpty())
            ignores.append(GlobMatcher(p));
    }
    const auto ignored = [&](const QString &rel) {
        return std::any_of(ignores.cbegin(), ignores.cend(), [&](const GlobMatcher &m) { return m.matches(rel); });
    };

    QStringList files; // relative paths
    bool truncated = false;
    WalkOptions options;
    options.skipFolders = listIgnoredFolders();
    options.skipFolder = ignored;
    options.context = &context;
    walkFiles(path.absolute, options, [&](const QString &, const QString &rel, const QFileInfo &) {
        if (ignored(rel))
            return true;
        if (files.size() >= Limit) {
            truncated = true;
            return false;
        }
        files.append(rel);
        return true;
    });
    if (context.isAborted())
        return ToolResult::failure(u"Aborted"_s);

    // Folders holding the files, and the files of each folder.
    QSet<QString> dirs{u"."_s};
    QMap<QString, QStringList> filesByDir;
    for (const QString &file : std::as_const(files)) {
        const qsizetype slash = file.lastIndexOf(u'/');
        const QString dir = slash < 0 ? u"."_s : file.left(slash);
        filesByDir[dir].append(slash < 0 ? file : file.mid(slash + 1));
        QString d = dir;
        while (d != u"." && !dirs.contains(d)) {
            dirs.insert(d);
            const qsizetype s = d.lastIndexOf(u'/');
            d = s < 0 ? u"."_s : d.left(s);
        }
    }
    QMap<QString, QStringList> childrenOf;
    for (const QString &d : std::as_const(dirs)) {
        if (d == u".")
            continue;
        const qsizetype s = d.lastIndexOf(u'/');
        childrenOf[s < 0 ? u"."_s : d.left(s)].append(d);
    }

    std::function<QString(const QString &, int)> render = [&](const QString &dir, int depth) {
        QString out;
        if (depth > 0) {
            const qsizetype s = dir.lastIndexOf(u'/');
            out += QString(depth * 2, u' ') + (s < 0 ? dir : dir.mid(s + 1)) + u"/\n"_s;
        }
        QStringList children = childrenOf.value(dir);
        children.sort();
        for (const QString &child : std::as_const(children))
            out += render(child, depth + 1);
        QStringList names = filesByDir.value(dir);
        names.sort();
        for (const QString &name : std::as_const(names))
            out += QString((depth + 1) * 2, u' ') + name + u'\n';
        return out;
    };

    QString output = path.absolute + u"/\n"_s + render(u"."_s, 0);
    if (truncated)
        output += u"\n(Showing the first %1 files. Use a more specific path, the ignore parameter or the glob tool to see more.)\n"_s.arg(Limit);
    return ToolResult::success(path.relative, output,
                               JsonObject{{u"count"_s, qint64(files.size())}, {u"truncated"_s, truncated}});
}

} // namespace weft
