// SPDX-License-Identifier: GPL-3.0-or-later
#include "readtool.h"

#include "toolutil.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <limits>

using namespace Qt::StringLiterals;

namespace weft
{

QString ReadTool::name() const
{
    return u"read"_s;
}

QString ReadTool::description() const
{
    return u"Reads a file from the local filesystem.\n\n"
           u"Usage:\n"
           u"- The filePath parameter should be an absolute path; relative paths are resolved against the project directory.\n"
           u"- By default it reads up to 2000 lines from the beginning of the file.\n"
           u"- You can give a line offset (0-based) and a limit, which is handy for long files; prefer reading the whole file.\n"
           u"- Lines longer than 2000 characters are truncated.\n"
           u"- Results are returned with line numbers starting at 1, as \"00001| text\".\n"
           u"- Binary files and directories cannot be read; use the list tool for directories.\n"
           u"- Read a file before editing or overwriting it."_s;
}

JsonObject ReadTool::parameters() const
{
    using namespace ToolUtil;
    return schemaObject(JsonObject{{u"filePath"_s, schemaString(u"The path to the file to read"_s)},
                                   {u"offset"_s, schemaNumber(u"The line number to start reading from (0-based)"_s)},
                                   {u"limit"_s, schemaNumber(u"The number of lines to read (defaults to 2000)"_s)}},
                        {u"filePath"_s});
}

namespace
{
QString notFound(const QString &path)
{
    const QFileInfo info(path);
    const QString base = info.fileName().toLower();
    QStringList suggestions;
    const QDir dir(info.absolutePath());
    if (dir.exists() && !base.isEmpty()) {
        const QStringList entries = dir.entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
        for (const QString &entry : entries) {
            const QString lower = entry.toLower();
            if (lower.contains(base) || base.contains(lower))
                suggestions.append(dir.filePath(entry));
            if (suggestions.size() == 3)
                break;
        }
    }
    if (suggestions.isEmpty())
        return u"File not found: %1"_s.arg(path);
    return u"File not found: %1\n\nDid you mean one of these?\n%2"_s.arg(path, suggestions.join(u'\n'));
}
} // namespace

ToolResult ReadTool::execute(ToolContext &context, const JsonObject &input)
{
    using namespace ToolUtil;
    InputReader in(name(), input);
    const QString filePath = in.requiredString(u"filePath"_s);
    const qint64 offset = in.optionalInteger(u"offset"_s, 0, std::numeric_limits<int>::max()).value_or(0);
    const qint64 limit = in.optionalInteger(u"limit"_s, 1, std::numeric_limits<int>::max()).value_or(DefaultLimit);
    if (!in.ok())
        return in.failure();

    const ResolvedPath path = resolvePath(context, filePath);
    if (auto refused = checkExternal(context, path, false))
        return *refused;
    if (auto refused = requirePermission(context, u"read"_s, {path.absolute}, {}))
        return *refused;

    const QFileInfo info(path.absolute);
    if (!info.exists())
        return ToolResult::failure(notFound(path.absolute));
    if (info.isDir())
        return ToolResult::failure(
            u"Path is a directory, not a file: %1. Use the list tool to see what it contains."_s.arg(path.absolute));
    if (!info.isFile())
        return ToolResult::failure(u"Not a regular file: %1"_s.arg(path.absolute));
    if (isBinaryFile(path.absolute))
        return ToolResult::failure(u"Cannot read binary file: %1"_s.arg(path.absolute));

    QFile file(path.absolute);
    if (!file.open(QIODevice::ReadOnly))
        return ToolResult::failure(u"Cannot read %1: %2"_s.arg(path.absolute, file.errorString()));

    // Stream the lines: only the requested window is kept, so huge files cost no memory.
    QStringList lines;
    qint64 lineIndex = 0;   // index of the line being read
    qsizetype bytes = 0;    // output bytes so far
    bool cutByBytes = false;
    bool hasMore = false;
    QByteArray current;     // the current line, capped
    bool lineStarted = false;
    constexpr qsizetype KeepBytes = qsizetype(MaxLineLength) * 4 + 4;

    const auto finishLine = [&]() -> bool { // false: stop reading
        lineStarted = false;
        if (lineIndex < offset) {
            ++lineIndex;
            current.clear();
            return true;
        }
        if (lines.size() >= limit || cutByBytes) {
            hasMore = true;
            return false;
        }
        if (current.endsWith('\r'))
            current.chop(1);
        QString text = QString::fromUtf8(current);
        current.clear();
        if (text.size() > MaxLineLength)
            text = text.left(MaxLineLength) + u"..."_s;
        const qsizetype size = text.toUtf8().size() + (lines.isEmpty() ? 0 : 1);
        if (bytes + size > MaxBytes) {
            cutByBytes = true;
            hasMore = true;
            return false;
        }
        bytes += size;
        lines.append(text);
        ++lineIndex;
        return true;
    };

    bool stopped = false;
    while (!file.atEnd()) {
        if (context.isAborted())
            return ToolResult::failure(u"Aborted"_s);
        QByteArray part = file.readLine(64 * 1024);
        if (part.isEmpty())
            break;
        lineStarted = true;
        const bool ended = part.endsWith('\n');
        if (ended)
            part.chop(1);
        if (lineIndex >= offset && current.size() < KeepBytes)
            current += part.left(KeepBytes - current.size());
        if (ended && !finishLine()) {
            stopped = true;
            break;
        }
    }
    if (!stopped && lineStarted)
        finishLine(); // the last line had no newline
    if (file.error() != QFileDevice::NoError && !stopped)
        return ToolResult::failure(u"Cannot read %1: %2"_s.arg(path.absolute, file.errorString()));

    const qint64 total = lineIndex; // exact when the whole file was read
    if (!hasMore && offset > 0 && offset >= total)
        return ToolResult::failure(
            u"Offset %1 is beyond the end of the file %2 (%3 lines). Use a smaller offset."_s.arg(offset).arg(path.absolute).arg(total));

    QString output = u"<file>\n"_s;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (i > 0)
            output += u'\n';
        output += QString::number(offset + i + 1).rightJustified(5, u'0') + u"| "_s + lines.at(i);
    }
    const qint64 lastRead = offset + lines.size();
    if (cutByBytes)
        output += u"\n\n(Output truncated at %1 bytes. Use 'offset' parameter to read beyond line %2)"_s.arg(MaxBytes).arg(lastRead);
    else if (hasMore)
        output += u"\n\n(File has more lines. Use 'offset' parameter to read beyond line %1)"_s.arg(lastRead);
    else
        output += u"\n\n(End of file - total %1 lines)"_s.arg(total);
    output += u"\n</file>"_s;

    markRead(context, path.absolute);
    return ToolResult::success(path.relative, output,
                               JsonObject{{u"preview"_s, lines.mid(0, 20).join(u'\n')},
                                          {u"truncated"_s, hasMore}});
}

} // namespace weft
