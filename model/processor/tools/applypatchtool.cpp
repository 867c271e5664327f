// SPDX-License-Identifier: GPL-3.0-or-later
#include "applypatchtool.h"

#include "edittool.h"
#include "toolutil.h"

#include "diff/textdiff.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace weft
{

namespace ApplyPatch
{

namespace
{

QString stripHeredoc(const QString &input)
{
    static const QRegularExpression heredoc(uR"(^(?:cat\s+)?<<['"]?(\w+)['"]?\s*\n([\s\S]*?)\n\1\s*$)"_s);
    const QRegularExpressionMatch m = heredoc.match(input);
    return m.hasMatch() ? m.captured(2) : input;
}

QString normalizeUnicode(QString s)
{
    static const QRegularExpression singleQuotes(u"[\u2018\u2019\u201A\u201B]"_s);
    static const QRegularExpression doubleQuotes(u"[\u201C\u201D\u201E\u201F]"_s);
    static const QRegularExpression dashes(u"[\u2010\u2011\u2012\u2013\u2014\u2015]"_s);
    s.replace(singleQuotes, u"'"_s);
    s.replace(doubleQuotes, u"\""_s);
    s.replace(dashes, u"-"_s);
    s.replace(QChar(0x2026), u"..."_s);
    s.replace(QChar(0x00A0), u" "_s);
    return s;
}

QString trimEnd(const QString &s)
{
    qsizetype n = s.size();
    while (n > 0 && s.at(n - 1).isSpace())
        --n;
    return s.left(n);
}

template<typename Compare>
qsizetype tryMatch(const QStringList &lines, const QStringList &pattern, qsizetype start, bool endOfFile, Compare equal)
{
    const auto matchesAt = [&](qsizetype at) {
        for (qsizetype j = 0; j < pattern.size(); ++j) {
            if (!equal(lines.at(at + j), pattern.at(j)))
                return false;
        }
        return true;
    };
    if (endOfFile) {
        const qsizetype fromEnd = lines.size() - pattern.size();
        if (fromEnd >= start && matchesAt(fromEnd))
            return fromEnd;
    }
    for (qsizetype i = start; i <= lines.size() - pattern.size(); ++i) {
        if (matchesAt(i))
            return i;
    }
    return -1;
}

} // namespace

qsizetype seek(const QStringList &lines, const QStringList &pattern, qsizetype start, bool endOfFile)
{
    if (pattern.isEmpty())
        return -1;
    if (qsizetype at = tryMatch(lines, pattern, start, endOfFile, [](const QString &a, const QString &b) { return a == b; }); at >= 0)
        return at;
    if (qsizetype at = tryMatch(lines, pattern, start, endOfFile,
                                [](const QString &a, const QString &b) { return trimEnd(a) == trimEnd(b); });
        at >= 0)
        return at;
    if (qsizetype at = tryMatch(lines, pattern, start, endOfFile,
                                [](const QString &a, const QString &b) { return a.trimmed() == b.trimmed(); });
        at >= 0)
        return at;
    return tryMatch(lines, pattern, start, endOfFile, [](const QString &a, const QString &b) {
        return normalizeUnicode(a.trimmed()) == normalizeUnicode(b.trimmed());
    });
}

Result<QList<Hunk>> parse(const QString &text)
{
    QString cleaned = text.trimmed();
    cleaned.replace(u"\r\n"_s, u"\n"_s);
    cleaned = stripHeredoc(cleaned);
    const QStringList lines = cleaned.split(u'\n');
    qsizetype begin = -1;
    qsizetype end = -1;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (begin < 0 && lines.at(i).trimmed() == u"*** Begin Patch")
            begin = i;
        if (end < 0 && lines.at(i).trimmed() == u"*** End Patch")
            end = i;
    }
    if (begin < 0 || end < 0 || begin >= end)
        return Error{u"Invalid patch format: missing Begin/End markers"_s, {}};

    QList<Hunk> hunks;
    qsizetype i = begin + 1;
    const auto header = [&](QStringView prefix) { return lines.at(i).startsWith(prefix) ? lines.at(i).mid(prefix.size()).trimmed() : QString(); };
    while (i < end) {
        if (const QString path = header(u"*** Add File:"); !path.isEmpty()) {
            Hunk hunk{Hunk::Type::Add, path, {}, {}, {}};
            QStringList content;
            for (++i; i < end && !lines.at(i).startsWith(u"***"); ++i) {
                if (lines.at(i).startsWith(u'+'))
                    content.append(lines.at(i).mid(1));
            }
            hunk.contents = content.join(u'\n');
            hunks.append(hunk);
        } else if (const QString deleted = header(u"*** Delete File:"); !deleted.isEmpty()) {
            hunks.append(Hunk{Hunk::Type::Delete, deleted, {}, {}, {}});
            ++i;
        } else if (const QString updated = header(u"*** Update File:"); !updated.isEmpty()) {
            Hunk hunk{Hunk::Type::Update, updated, {}, {}, {}};
            ++i;
            if (i < end && lines.at(i).startsWith(u"*** Move to:")) {
                hunk.movePath = lines.at(i).mid(12).trimmed();
                ++i;
            }
            while (i < end && !lines.at(i).startsWith(u"***")) {
                if (!lines.at(i).startsWith(u"@@")) {
                    ++i;
                    continue;
                }
                Chunk chunk;
                chunk.context = lines.at(i).mid(2).trimmed();
                for (++i; i < end && !lines.at(i).startsWith(u"@@") && !lines.at(i).startsWith(u"***"); ++i) {
                    const QString &line = lines.at(i);
                    if (line.startsWith(u' ')) {
                        chunk.oldLines.append(line.mid(1));
                        chunk.newLines.append(line.mid(1));
                    } else if (line.startsWith(u'-')) {
                        chunk.oldLines.append(line.mid(1));
                    } else if (line.startsWith(u'+')) {
                        chunk.newLines.append(line.mid(1));
                    }
                }
                if (i < end && lines.at(i) == u"*** End of File") {
                    chunk.endOfFile = true;
                    ++i;
                }
                hunk.chunks.append(chunk);
            }
            hunks.append(hunk);
        } else {
            ++i;
        }
    }
    return hunks;
}

Result<QString> applyChunks(const QString &original, const QList<Chunk> &chunks, const QString &path)
{
    QStringList lines = original.split(u'\n');
    const bool trailingNewline = !lines.isEmpty() && lines.last().isEmpty();
    if (trailingNewline)
        lines.removeLast();

    struct Replacement {
        qsizetype at;
        qsizetype length;
        QStringList with;
    };
    QList<Replacement> replacements;
    qsizetype index = 0;
    for (const Chunk &chunk : chunks) {
        if (!chunk.context.isEmpty()) {
            const qsizetype at = seek(lines, {chunk.context}, index, false);
            if (at < 0)
                return Error{u"Failed to find context '%1' in %2"_s.arg(chunk.context, path), {}};
            index = at + 1;
        }
        if (chunk.oldLines.isEmpty()) {
            replacements.append({lines.size(), 0, chunk.newLines});
            continue;
        }
        QStringList pattern = chunk.oldLines;
        QStringList with = chunk.newLines;
        qsizetype found = seek(lines, pattern, index, chunk.endOfFile);
        if (found < 0 && pattern.last().isEmpty()) {
            // Without the trailing blank line the model added.
            pattern.removeLast();
            if (!with.isEmpty() && with.last().isEmpty())
                with.removeLast();
            found = seek(lines, pattern, index, chunk.endOfFile);
        }
        if (found < 0)
            return Error{u"Failed to find expected lines in %1:\n%2"_s.arg(path, chunk.oldLines.join(u'\n')), {}};
        replacements.append({found, pattern.size(), with});
        index = found + pattern.size();
    }
    std::stable_sort(replacements.begin(), replacements.end(), [](const Replacement &a, const Replacement &b) { return a.at < b.at; });
    for (auto it = replacements.crbegin(); it != replacements.crend(); ++it) {
        lines.remove(it->at, it->length);
        for (qsizetype j = 0; j < it->with.size(); ++j)
            lines.insert(it->at + j, it->with.at(j));
    }
    if (trailingNewline || lines.isEmpty() || !lines.last().isEmpty())
        lines.append(QString());
    return lines.join(u'\n');
}

} // namespace ApplyPatch

namespace
{

struct FileChange {
    ApplyPatch::Hunk::Type type;
    ToolUtil::ResolvedPath path;
    ToolUtil::ResolvedPath moveTo;
    QString before;
    QString after;
    bool bom = false;
    QString diff;
    TextDiff::Counts counts;
};

} // namespace

QString ApplyPatchTool::name() const
{
    return u"apply_patch"_s;
}

QString ApplyPatchTool::description() const
{
    return u"Use the apply_patch tool to edit files. Your patch language is a stripped-down, file-oriented diff format "
           u"designed to be easy to parse and safe to apply. Think of it as a high-level envelope:\n\n"
           u"*** Begin Patch\n[ one or more file sections ]\n*** End Patch\n\n"
           u"Within that envelope, you get a sequence of file operations. Each operation starts with one of three "
           u"headers:\n\n"
           u"*** Add File: <path> - create a new file. Every following line is a + line (the initial contents).\n"
           u"*** Delete File: <path> - remove an existing file. Nothing follows.\n"
           u"*** Update File: <path> - patch an existing file in place (optionally with a rename: *** Move to: <new path>).\n\n"
           u"Then one or more hunks, each introduced by @@ (optionally followed by a line of the file, such as a class "
           u"or function header, that the hunk comes after). Within a hunk each line starts with:\n"
           u"  ' ' a line kept as it is (context), '-' a line removed, '+' a line added.\n"
           u"Give three lines of context above and below each change; use @@ with a header line when three lines are "
           u"not unique. End a hunk at the end of the file with *** End of File.\n\n"
           u"Example:\n\n"
           u"*** Begin Patch\n*** Add File: hello.txt\n+Hello world\n*** Update File: src/app.py\n*** Move to: src/main.py\n"
           u"@@ def greet():\n-print(\"Hi\")\n+print(\"Hello, world!\")\n*** Delete File: obsolete.txt\n*** End Patch\n\n"
           u"Paths are relative to the working directory (or absolute). Every change is checked before any file is "
           u"written: if one hunk does not apply, nothing is changed."_s;
}

JsonObject ApplyPatchTool::parameters() const
{
    using namespace ToolUtil;
    return schemaObject(JsonObject{{u"patchText"_s, schemaString(u"The full patch text that describes all changes to be made"_s)}},
                        {u"patchText"_s});
}

bool ApplyPatchTool::preferredFor(const QString &modelID)
{
    // OpenCode tests for "gpt-" and excludes "gpt-4" and "oss"; a version number after "gpt-"
    // picks the same real models (gpt-5, gpt-5.1-codex, openai/gpt-5) and leaves other names
    // that merely contain "gpt-" alone.
    static const QRegularExpression gpt(uR"((^|[/:])gpt-\d)"_s);
    return gpt.match(modelID).hasMatch() && !modelID.contains(u"gpt-4") && !modelID.contains(u"oss");
}

ToolResult ApplyPatchTool::execute(ToolContext &context, const JsonObject &input)
{
    using namespace ToolUtil;
    using Type = ApplyPatch::Hunk::Type;
    InputReader in(name(), input);
    const QString patchText = in.requiredString(u"patchText"_s);
    if (!in.ok())
        return in.failure();
    Result<QList<ApplyPatch::Hunk>> parsed = ApplyPatch::parse(patchText);
    if (!parsed)
        return ToolResult::failure(u"apply_patch verification failed: "_s + parsed.error().message);
    if (parsed->isEmpty()) {
        QString normalized = patchText.trimmed();
        normalized.replace(u"\r\n"_s, u"\n"_s);
        if (normalized == u"*** Begin Patch\n*** End Patch")
            return ToolResult::failure(u"patch rejected: empty patch"_s);
        return ToolResult::failure(u"apply_patch verification failed: no hunks found"_s);
    }

    // Everything is worked out before anything is written.
    QList<FileChange> changes;
    for (const ApplyPatch::Hunk &hunk : parsed.value()) {
        FileChange change;
        change.type = hunk.type;
        change.path = resolvePath(context, hunk.path);
        if (auto refused = checkExternal(context, change.path, false))
            return *refused;
        const QFileInfo info(change.path.absolute);
        if (hunk.type == Type::Add) {
            if (info.isDir())
                return ToolResult::failure(u"apply_patch verification failed: %1 is a folder"_s.arg(change.path.absolute));
            change.after = hunk.contents.isEmpty() || hunk.contents.endsWith(u'\n') ? hunk.contents : hunk.contents + u'\n';
        } else {
            if (!info.isFile()) {
                return ToolResult::failure(u"apply_patch verification failed: Failed to read file to %1: %2"_s.arg(
                    hunk.type == Type::Delete ? u"delete"_s : u"update"_s, change.path.absolute));
            }
            QFile file(change.path.absolute);
            if (!file.open(QIODevice::ReadOnly))
                return ToolResult::failure(u"apply_patch verification failed: cannot read %1: %2"_s.arg(change.path.absolute, file.errorString()));
            ToolUtil::TextFile text = ToolUtil::decodeTextFile(file.readAll());
            change.bom = text.bom;
            change.before = std::move(text.text);
            if (hunk.type == Type::Update) {
                const bool crlf = change.before.contains(u"\r\n"_s);
                QString lf = change.before;
                lf.replace(u"\r\n"_s, u"\n"_s);
                Result<QString> applied = ApplyPatch::applyChunks(lf, hunk.chunks, change.path.absolute);
                if (!applied)
                    return ToolResult::failure(u"apply_patch verification failed: "_s + applied.error().message);
                change.after = crlf ? QString(applied.value()).replace(u"\n"_s, u"\r\n"_s) : applied.value();
                if (!hunk.movePath.isEmpty()) {
                    change.moveTo = resolvePath(context, hunk.movePath);
                    if (auto refused = checkExternal(context, change.moveTo, false))
                        return *refused;
                }
            }
        }
        change.diff = reportedEditDiff(change.path.absolute, change.before, change.after);
        change.counts = TextDiff::count(change.before, change.after);
        changes.append(change);
    }

    QStringList patterns;
    QString totalDiff;
    JsonArray files;
    for (const FileChange &c : std::as_const(changes)) {
        patterns.append(c.path.relative);
        totalDiff += c.diff + u'\n';
        const QString type = c.type == Type::Add ? u"add"_s : c.type == Type::Delete ? u"delete"_s
                                                                                    : (c.moveTo.absolute.isEmpty() ? u"update"_s : u"move"_s);
        JsonObject file{{u"filePath"_s, c.path.absolute},
                        {u"relativePath"_s, c.moveTo.absolute.isEmpty() ? c.path.relative : c.moveTo.relative},
                        {u"type"_s, type},
                        {u"patch"_s, c.diff},
                        {u"additions"_s, c.counts.additions},
                        {u"deletions"_s, c.counts.deletions}};
        if (!c.moveTo.absolute.isEmpty())
            file.insert(u"movePath"_s, c.moveTo.absolute);
        files.append(file);
    }
    if (auto refused = requirePermission(context, u"edit"_s, patterns,
                                         JsonObject{{u"filepath"_s, patterns.join(u", "_s)}, {u"diff"_s, totalDiff}, {u"files"_s, files}}))
        return *refused;

    QStringList summary;
    for (const FileChange &c : std::as_const(changes)) {
        switch (c.type) {
        case Type::Add:
        case Type::Update: {
            const QString target = c.moveTo.absolute.isEmpty() ? c.path.absolute : c.moveTo.absolute;
            if (Result<void> written = ToolUtil::writeTextFile(target, {c.after, c.bom}); !written)
                return ToolResult::failure(written.error().message);
            if (!c.moveTo.absolute.isEmpty() && c.moveTo.absolute != c.path.absolute)
                QFile::remove(c.path.absolute);
            markRead(context, target);
            summary.append((c.type == Type::Add ? u"A "_s : u"M "_s) + (c.moveTo.absolute.isEmpty() ? c.path.relative : c.moveTo.relative));
            break;
        }
        case Type::Delete:
            if (!QFile::remove(c.path.absolute))
                return ToolResult::failure(u"Cannot delete %1"_s.arg(c.path.absolute));
            summary.append(u"D "_s + c.path.relative);
            break;
        }
    }
    const QString output = u"Success. Updated the following files:\n"_s + summary.join(u'\n');
    return ToolResult::success(output, output, JsonObject{{u"diff"_s, totalDiff}, {u"files"_s, files}, {u"diagnostics"_s, JsonObject{}}});
}

} // namespace weft
