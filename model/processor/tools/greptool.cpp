// SPDX-License-Identifier: GPL-3.0-or-later
#include "greptool.h"

#include "toolutil.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace weft
{

QString GrepTool::name() const
{
    return u"grep"_s;
}

QString GrepTool::description() const
{
    return u"Fast content search tool that works with any codebase size.\n"
           u"- Searches file contents using regular expressions (full regex syntax, e.g. \"log.*Error\", \"function\\s+\\w+\").\n"
           u"- Filter files by pattern with the include parameter (e.g. \"*.js\", \"*.{ts,tsx}\").\n"
           u"- Returns file paths and line numbers with matches, files sorted by modification time (at most 100 matches).\n"
           u"- Use this tool when you need to find files containing specific patterns.\n"
           u"- Binary files, .git and node_modules are skipped."_s;
}

JsonObject GrepTool::parameters() const
{
    using namespace ToolUtil;
    return schemaObject(JsonObject{{u"pattern"_s, schemaString(u"The regex pattern to search for in file contents"_s)},
                                   {u"path"_s, schemaString(u"The directory (or file) to search in; defaults to the project directory"_s)},
                                   {u"include"_s, schemaString(u"File pattern to include in the search (e.g. \"*.js\", \"*.{ts,tsx}\")"_s)}},
                        {u"pattern"_s});
}

namespace
{
constexpr qint64 MaxFileSize = 20 * 1024 * 1024;
constexpr int MaxLineLength = 2000;
constexpr qsizetype MaxCollected = 5000;
} // namespace

ToolResult GrepTool::execute(ToolContext &context, const JsonObject &input)
{
    using namespace ToolUtil;
    InputReader in(name(), input);
    const QString pattern = in.requiredString(u"pattern"_s);
    const QString pathInput = in.optionalString(u"path"_s).value_or(QString());
    const QString include = in.optionalString(u"include"_s).value_or(QString());
    if (!in.ok())
        return in.failure();

    const QRegularExpression regex(pattern, QRegularExpression::UseUnicodePropertiesOption);
    if (!regex.isValid())
        return ToolResult::failure(u"Invalid regular expression \"%1\": %2 (at offset %3)"_s.arg(pattern, regex.errorString())
                                       .arg(regex.patternErrorOffset()));
    const QRegularExpression prefilter(pattern, QRegularExpression::UseUnicodePropertiesOption | QRegularExpression::MultilineOption);
    std::optional<GlobMatcher> includeMatcher;
    if (!include.isEmpty()) {
        includeMatcher.emplace(include);
        if (!includeMatcher->isValid())
            return ToolResult::failure(u"Invalid include pattern: %1"_s.arg(include));
    }

    const ResolvedPath path = resolvePath(context, pathInput.isEmpty() ? u"."_s : pathInput);
    const QFileInfo info(path.absolute);
    if (auto refused = checkExternal(context, path, info.isDir() || !info.exists()))
        return *refused;
    if (!info.exists())
        return ToolResult::failure(u"Path not found: %1"_s.arg(path.absolute));
    if (auto refused = requirePermission(context, u"grep"_s, {pattern}, {}))
        return *refused;

    struct Match {
        QString path;
        qint64 mtime;
        qint64 line;
        QString text;
    };
    QList<Match> matches;

    // Symlinks found while walking must not lead the search out of the project unasked.
    const QString projectRoot = canonicalize(baseDirectory(context));
    const QString directoryRoot = canonicalize(context.directory.isEmpty() ? baseDirectory(context) : context.directory);
    const QString searchRoot = canonicalize(path.absolute);
    const auto allowedTarget = [&](const QString &absolute) {
        const QString real = canonicalize(absolute);
        return isInside(projectRoot, real) || isInside(directoryRoot, real) || isInside(searchRoot, real);
    };

    const auto searchFile = [&](const QString &absolute, const QFileInfo &file) {
        if (!file.isFile() || file.size() > MaxFileSize)
            return;
        if (file.isSymLink() && !allowedTarget(absolute))
            return;
        QFile f(absolute);
        if (!f.open(QIODevice::ReadOnly))
            return;
        const QByteArray data = f.readAll();
        if (looksBinary(QByteArrayView(data).first(std::min<qsizetype>(data.size(), 8192))))
            return;
        const QString text = QString::fromUtf8(data);
        if (!prefilter.match(text).hasMatch())
            return;
        const qint64 mtime = file.lastModified().toMSecsSinceEpoch();
        qint64 lineNumber = 0;
        for (QStringView line : QStringView(text).split(u'\n')) {
            ++lineNumber;
            if (line.endsWith(u'\r'))
                line.chop(1);
            if (!regex.matchView(line).hasMatch())
                continue;
            QString shown = line.toString();
            if (shown.size() > MaxLineLength)
                shown = shown.left(MaxLineLength) + u"..."_s;
            matches.append(Match{absolute, mtime, lineNumber, shown});
            if (matches.size() >= MaxCollected)
                return;
        }
    };

    if (info.isDir()) {
        WalkOptions options;
        options.skipFolders = vcsFolders();
        options.context = &context;
        walkFiles(path.absolute, options, [&](const QString &absolute, const QString &rel, const QFileInfo &file) {
            if (includeMatcher && !includeMatcher->matches(rel))
                return true;
            searchFile(absolute, file);
            return matches.size() < MaxCollected && !context.isAborted();
        });
    } else {
        searchFile(path.absolute, info);
    }
    if (context.isAborted())
        return ToolResult::failure(u"Aborted"_s);

    std::stable_sort(matches.begin(), matches.end(), [](const Match &a, const Match &b) { return a.mtime > b.mtime; });
    const bool truncated = matches.size() > Limit;
    const qsizetype total = matches.size();
    if (truncated)
        matches.resize(Limit);

    if (matches.isEmpty())
        return ToolResult::success(pattern, u"No files found"_s, JsonObject{{u"matches"_s, 0}, {u"truncated"_s, false}});

    QStringList lines{u"Found %1 matches"_s.arg(matches.size())};
    QString currentFile;
    for (const Match &m : std::as_const(matches)) {
        if (m.path != currentFile) {
            if (!currentFile.isEmpty())
                lines.append(QString());
            currentFile = m.path;
            lines.append(m.path + u':');
        }
        lines.append(u"  Line %1: %2"_s.arg(m.line).arg(m.text));
    }
    if (truncated) {
        lines.append(QString());
        lines.append(u"(Results are truncated: showing %1 of %2%3 matches. Consider using a more specific path or pattern.)"_s
                         .arg(Limit)
                         .arg(total)
                         .arg(total >= MaxCollected ? u"+"_s : QString()));
    }
    return ToolResult::success(pattern, lines.join(u'\n'),
                               JsonObject{{u"matches"_s, qint64(matches.size())}, {u"truncated"_s, truncated}});
}

} // namespace weft
