// SPDX-License-Identifier: GPL-3.0-or-later
#include "edittool.h"

#include "diff/textdiff.h"
#include "textreplace.h"
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
           u"- The edit will FAIL if oldString is not found in the file (small differences of whitespace, indentation or escaping are forgiven).\n"
           u"- The edit will FAIL if oldString is found multiple times in the file with an error \"Found multiple matches for "
           u"oldString. Provide more surrounding context to make the match unique.\" Either provide a larger string with more "
           u"surrounding context to make it unique or use replaceAll to change every instance of oldString.\n"
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

QString normalizeLineEndings(const QString &text)
{
    QString out = text;
    out.replace(u"\r\n"_s, u"\n"_s);
    return out;
}

/// The text in the file's line ending (OpenCode: CRLF when the file has any CRLF).
QString toLineEnding(const QString &text, bool crlf)
{
    QString out = normalizeLineEndings(text);
    if (crlf)
        out.replace(u"\n"_s, u"\r\n"_s);
    return out;
}

} // namespace

QString reportedEditDiff(const QString &file, const QString &before, const QString &after)
{
    return TextReplace::trimDiff(TextDiff::unified(file, normalizeLineEndings(before), normalizeLineEndings(after)));
}

ToolResult applyFileEdits(ToolContext &context, const QString &filePath, const QList<TextEdit> &edits, bool multi)
{
    using namespace ToolUtil;
    auto failed = [&](qsizetype index, const QString &message) {
        if (!multi)
            return ToolResult::failure(message);
        return ToolResult::failure(u"Edit %1 of %2 failed: %3\nNo edit was applied; the file is unchanged."_s.arg(index + 1)
                                       .arg(edits.size())
                                       .arg(message));
    };
    if (edits.isEmpty())
        return ToolResult::failure(u"No edits to apply."_s);
    for (qsizetype i = 0; i < edits.size(); ++i) {
        if (edits.at(i).oldString == edits.at(i).newString)
            return failed(i, TextReplace::identicalMessage());
    }

    const ResolvedPath path = resolvePath(context, filePath);
    if (auto refused = checkExternal(context, path, false))
        return *refused;

    const QFileInfo info(path.absolute);
    const bool exists = info.exists();
    if (info.isDir())
        return ToolResult::failure(u"Path is a directory, not a file: %1"_s.arg(path.absolute));
    if (exists && !info.isFile())
        return ToolResult::failure(u"Not a regular file: %1"_s.arg(path.absolute));
    if (!exists && !edits.first().oldString.isEmpty())
        return ToolResult::failure(u"File %1 not found"_s.arg(path.absolute));

    QString before;
    bool bom = false; // the byte-order mark stays where it is and out of the matching and the diff
    if (exists) {
        QFile old(path.absolute);
        if (!old.open(QIODevice::ReadOnly))
            return ToolResult::failure(u"Cannot read %1: %2"_s.arg(path.absolute, old.errorString()));
        TextFile text = decodeTextFile(old.readAll());
        bom = text.bom;
        before = std::move(text.text);
        // Replacing the whole content of an empty file needs no read; anything else does.
        if (!(before.isEmpty() && edits.first().oldString.isEmpty())) {
            if (auto refused = checkReadAndUnchanged(context, path.absolute))
                return *refused;
        }
    }

    const QString original = before;
    QString text = original;
    JsonArray results;
    for (qsizetype i = 0; i < edits.size(); ++i) {
        const TextEdit &edit = edits.at(i);
        const QString previous = text;
        if (edit.oldString.isEmpty()) {
            text = edit.newString;
        } else {
            const bool crlf = text.contains(u"\r\n"_s);
            const TextReplace::Outcome outcome = TextReplace::replace(text, toLineEnding(edit.oldString, crlf),
                                                                      toLineEnding(edit.newString, crlf), edit.replaceAll);
            if (!outcome.ok())
                return failed(i, outcome.error);
            text = outcome.content;
        }
        if (multi) {
            const TextDiff::Counts counts = TextDiff::count(normalizeLineEndings(previous), normalizeLineEndings(text));
            results.append(JsonObject{{u"diff"_s, reportedEditDiff(path.absolute, previous, text)},
                                      {u"filediff"_s, JsonObject{{u"file"_s, path.absolute},
                                                                 {u"additions"_s, counts.additions},
                                                                 {u"deletions"_s, counts.deletions}}}});
        }
    }

    const QString diff = reportedEditDiff(path.absolute, original, text);
    if (auto refused = requirePermission(context, u"edit"_s, {path.relative},
                                         JsonObject{{u"filepath"_s, path.absolute}, {u"diff"_s, diff}}))
        return *refused;
    // The answer may have taken a while: the file must still be as it was read.
    if (exists && QFileInfo(path.absolute).exists() && !(before.isEmpty() && edits.first().oldString.isEmpty())) {
        if (auto refused = checkReadAndUnchanged(context, path.absolute))
            return *refused;
    }

    const QString after = text;
    if (const Result<void> written = writeTextFile(path.absolute, {after, bom});
        !written)
        return ToolResult::failure(written.error().toString());
    markRead(context, path.absolute);

    const TextDiff::Counts counts = TextDiff::count(normalizeLineEndings(original), normalizeLineEndings(text));
    JsonObject metadata{{u"diagnostics"_s, JsonObject{}},
                        {u"diff"_s, diff},
                        {u"filediff"_s, JsonObject{{u"file"_s, path.absolute},
                                                   {u"before"_s, before},
                                                   {u"after"_s, after},
                                                   {u"additions"_s, counts.additions},
                                                   {u"deletions"_s, counts.deletions}}}};
    if (multi)
        metadata.insert(u"results"_s, results);
    return ToolResult::success(path.relative, u"Edit applied successfully."_s, metadata);
}

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
    return applyFileEdits(context, filePath, {TextEdit{oldString, newString, replaceAll}}, false);
}

} // namespace weft
