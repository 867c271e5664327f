// SPDX-License-Identifier: GPL-3.0-or-later
#include "toolutil.h"

#include "core/identifier.h"
#include "core/logging.h"
#include "processor/permission.h"

#include <QDir>
#include <QDeadlineTimer>
#include <QFile>
#include <QHash>
#include <QMutex>
#include <QSaveFile>
#include <QThreadPool>
#include <QTimeZone>

#include <cerrno>
#include <cmath>

using namespace Qt::StringLiterals;

namespace weft::ToolUtil
{

// ---------------------------------------------------------------------------------------------
// InputReader

InputReader::InputReader(const QString &tool, const JsonObject &input) : m_tool(tool), m_input(input) { }

void InputReader::fail(const QString &message)
{
    if (m_error.isEmpty())
        m_error = message;
}

ToolResult InputReader::failure() const
{
    return ToolResult::failure(u"The %1 tool was called with invalid arguments: %2.\n"
                               u"Please rewrite the input so it satisfies the expected schema."_s.arg(m_tool, m_error));
}

QString InputReader::requiredString(const QString &key, bool allowEmpty)
{
    const JsonValue &v = m_input.value(key);
    if (v.isUndefined() || v.isNull()) {
        fail(u"\"%1\" is required (a string)"_s.arg(key));
        return {};
    }
    if (!v.isString()) {
        fail(u"\"%1\" must be a string, not %2"_s.arg(key, JsonValue::typeName(v.type())));
        return {};
    }
    if (!allowEmpty && v.toString().isEmpty()) {
        fail(u"\"%1\" must not be empty"_s.arg(key));
        return {};
    }
    return v.toString();
}

std::optional<QString> InputReader::optionalString(const QString &key)
{
    const JsonValue &v = m_input.value(key);
    if (v.isUndefined() || v.isNull())
        return std::nullopt;
    if (!v.isString()) {
        fail(u"\"%1\" must be a string, not %2"_s.arg(key, JsonValue::typeName(v.type())));
        return std::nullopt;
    }
    return v.toString();
}

std::optional<qint64> InputReader::optionalInteger(const QString &key, qint64 min, qint64 max)
{
    const JsonValue &v = m_input.value(key);
    if (v.isUndefined() || v.isNull())
        return std::nullopt;
    double number = 0;
    if (v.isNumber()) {
        number = v.toDouble();
    } else if (v.isString()) {
        bool ok = false;
        number = v.toString().trimmed().toDouble(&ok);
        if (!ok) {
            fail(u"\"%1\" must be a number, not \"%2\""_s.arg(key, v.toString().left(40)));
            return std::nullopt;
        }
    } else {
        fail(u"\"%1\" must be a number, not %2"_s.arg(key, JsonValue::typeName(v.type())));
        return std::nullopt;
    }
    if (!std::isfinite(number) || number != std::floor(number)) {
        fail(u"\"%1\" must be a whole number"_s.arg(key));
        return std::nullopt;
    }
    if (number < double(min) || number > double(max)) {
        fail(u"\"%1\" must be between %2 and %3"_s.arg(key).arg(min).arg(max));
        return std::nullopt;
    }
    return qint64(number);
}

bool InputReader::optionalBool(const QString &key, bool fallback)
{
    const JsonValue &v = m_input.value(key);
    if (v.isUndefined() || v.isNull())
        return fallback;
    if (v.isBool())
        return v.toBool();
    if (v.isString() && (v.toString() == u"true" || v.toString() == u"false"))
        return v.toString() == u"true";
    fail(u"\"%1\" must be a boolean, not %2"_s.arg(key, JsonValue::typeName(v.type())));
    return fallback;
}

std::optional<QList<JsonObject>> InputReader::requiredObjectArray(const QString &key)
{
    JsonValue v = m_input.value(key);
    if (v.isUndefined() || v.isNull()) {
        fail(u"\"%1\" is required (an array)"_s.arg(key));
        return std::nullopt;
    }
    if (v.isString()) {
        if (std::optional<JsonValue> parsed = parseJson(v.toString().toUtf8()); parsed && parsed->isArray())
            v = *parsed;
    }
    if (!v.isArray()) {
        fail(u"\"%1\" must be an array, not %2"_s.arg(key, JsonValue::typeName(v.type())));
        return std::nullopt;
    }
    QList<JsonObject> list;
    const JsonArray array = v.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        if (!array.at(i).isObject()) {
            fail(u"\"%1[%2]\" must be an object, not %3"_s.arg(key).arg(i).arg(JsonValue::typeName(array.at(i).type())));
            return std::nullopt;
        }
        list.append(array.at(i).toObject());
    }
    return list;
}

std::optional<QStringList> InputReader::optionalStringList(const QString &key)
{
    const JsonValue &v = m_input.value(key);
    if (v.isUndefined() || v.isNull())
        return std::nullopt;
    if (!v.isArray()) {
        fail(u"\"%1\" must be an array of strings, not %2"_s.arg(key, JsonValue::typeName(v.type())));
        return std::nullopt;
    }
    QStringList list;
    const JsonArray array = v.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        if (!array.at(i).isString()) {
            fail(u"\"%1[%2]\" must be a string, not %3"_s.arg(key).arg(i).arg(JsonValue::typeName(array.at(i).type())));
            return std::nullopt;
        }
        list.append(array.at(i).toString());
    }
    return list;
}

// ---------------------------------------------------------------------------------------------
// Paths

namespace
{
QString contextDirectory(const ToolContext &context)
{
    return context.directory.isEmpty() ? QDir::currentPath() : QDir::cleanPath(context.directory);
}

/// QDir::cleanPath() keeps ".." above the root ("/../etc"); the system does not.
QString cleanAbsolute(const QString &path)
{
    QString p = QDir::cleanPath(path);
    while (p.startsWith(u"/../"))
        p.remove(0, 3);
    if (p == u"/..")
        p = u"/"_s;
    return p;
}

bool hasWorktree(const ToolContext &context)
{
    return !context.worktree.isEmpty() && QDir::cleanPath(context.worktree) != u"/";
}
} // namespace

QString baseDirectory(const ToolContext &context)
{
    return hasWorktree(context) ? QDir::cleanPath(context.worktree) : contextDirectory(context);
}

bool isInside(const QString &root, const QString &path)
{
    if (root.isEmpty())
        return false;
    if (root == u"/")
        return path.startsWith(u'/');
    return path == root || (path.startsWith(root) && path.at(root.size()) == u'/');
}

namespace
{
QString canonicalizeDepth(const QString &path, int depth)
{
    // Resolve the longest existing prefix, then append the rest.
    QString existing = QDir::cleanPath(path);
    QStringList rest;
    while (true) {
        const QFileInfo info(existing);
        if (info.exists() || info.isSymLink()) {
            QString canonical = info.canonicalFilePath();
            if (canonical.isEmpty()) {
                // A dangling symlink: where it points is where a write would land.
                canonical = depth < 16 && info.isSymLink() ? canonicalizeDepth(info.symLinkTarget(), depth + 1)
                                                           : QDir::cleanPath(info.absoluteFilePath());
            }
            for (qsizetype i = rest.size() - 1; i >= 0; --i)
                canonical += u'/' + rest.at(i);
            return QDir::cleanPath(canonical);
        }
        if (existing.isEmpty() || existing == u"/")
            break;
        const qsizetype slash = existing.lastIndexOf(u'/');
        rest.append(existing.mid(slash + 1));
        existing = slash <= 0 ? u"/"_s : existing.left(slash);
    }
    return QDir::cleanPath(path);
}
} // namespace

QString canonicalize(const QString &path)
{
    return canonicalizeDepth(path, 0);
}

ResolvedPath resolvePath(const ToolContext &context, const QString &path)
{
    const QString directory = contextDirectory(context);
    QString input = path.trimmed();
    // Models sometimes send file:// URLs.
    if (input.startsWith(u"file://"))
        input = input.mid(7);
    ResolvedPath r;
    r.absolute = cleanAbsolute(QDir::isAbsolutePath(input) ? input : directory + u'/' + input);
    const QString worktree = hasWorktree(context) ? QDir::cleanPath(context.worktree) : QString();

    const bool lexicallyInside = isInside(directory, r.absolute) || (!worktree.isEmpty() && isInside(worktree, r.absolute));
    bool inside = lexicallyInside;
    r.real = r.absolute;
    if (inside) {
        // Symlinks must not lead out of the project either.
        const QString canonical = canonicalize(r.absolute);
        inside = isInside(canonicalize(directory), canonical) || (!worktree.isEmpty() && isInside(canonicalize(worktree), canonical));
        if (!inside)
            r.real = canonical;
    }
    r.external = !inside;
    r.relative = QDir(baseDirectory(context)).relativeFilePath(r.absolute);
    return r;
}

std::optional<ToolResult> requirePermission(ToolContext &context, const PermissionAsk &ask)
{
    if (!context.ask) {
        qCWarning(lcProcessor) << "tool asked for" << ask.permission << "without a permission handler; refused";
        return ToolResult::failure(Permission::deniedMessage(ask.permission, ask.patterns));
    }
    if (context.ask(ask) == PermissionDecision::Allow)
        return std::nullopt;
    return ToolResult::failure(Permission::deniedMessage(ask.permission, ask.patterns));
}

std::optional<ToolResult> requirePermission(ToolContext &context, const QString &permission, const QStringList &patterns,
                                            const JsonObject &metadata)
{
    return requirePermission(context, PermissionAsk{permission, patterns, {}, false, metadata});
}

QString folderGlob(const QString &folder)
{
    return folder == u"/" ? u"/*"_s : folder + u"/*"_s;
}

std::optional<ToolResult> checkExternal(ToolContext &context, const ResolvedPath &path, bool directory)
{
    if (!path.external)
        return std::nullopt;
    const QString parent = directory ? path.real : QFileInfo(path.real).absolutePath();
    const QString glob = folderGlob(parent);
    // "Always" approves the folder, unless its name holds wildcard characters of its own.
    auto refused = requirePermission(context, PermissionAsk{u"external_directory"_s,
                                                            {glob},
                                                            Permission::hasWildcards(parent) ? QStringList{} : QStringList{glob},
                                                            false,
                                                            JsonObject{{u"filepath"_s, path.real}, {u"parentDir"_s, parent}}});
    if (refused) {
        refused->error = u"Permission denied: %1 is outside the project directory and access to %2 was refused. "
                         u"Work inside the project, or ask the user to allow it."_s.arg(path.real, parent);
    }
    return refused;
}

// ---------------------------------------------------------------------------------------------
// Files

bool looksBinary(QByteArrayView sample)
{
    if (sample.isEmpty())
        return false;
    qsizetype nonPrintable = 0;
    for (const char ch : sample) {
        const auto b = static_cast<unsigned char>(ch);
        if (b == 0)
            return true;
        if (b < 9 || (b > 13 && b < 32))
            ++nonPrintable;
    }
    return double(nonPrintable) / double(sample.size()) > 0.3;
}

bool isBinaryFile(const QString &path)
{
    static const QSet<QString> binaryExtensions{
        u"zip"_s, u"tar"_s, u"gz"_s,  u"exe"_s, u"dll"_s, u"so"_s,  u"class"_s, u"jar"_s, u"war"_s, u"7z"_s,
        u"doc"_s, u"docx"_s, u"xls"_s, u"xlsx"_s, u"ppt"_s, u"pptx"_s, u"odt"_s, u"ods"_s, u"odp"_s, u"bin"_s,
        u"dat"_s, u"obj"_s, u"o"_s,   u"a"_s,   u"lib"_s, u"wasm"_s, u"pyc"_s, u"pyo"_s,
    };
    if (binaryExtensions.contains(QFileInfo(path).suffix().toLower()))
        return true;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    return looksBinary(file.read(4096));
}

QDateTime lastRead(const ToolContext &context, const QString &absolutePath)
{
    return context.lastRead ? context.lastRead(absolutePath) : QDateTime();
}

bool wasRead(const ToolContext &context, const QString &absolutePath)
{
    return lastRead(context, absolutePath).isValid();
}

std::optional<ToolResult> checkReadAndUnchanged(const ToolContext &context, const QString &absolutePath)
{
    const QDateTime read = lastRead(context, absolutePath);
    if (!read.isValid())
        return ToolResult::failure(
            u"You must read the file %1 before overwriting it. Use the Read tool first"_s.arg(absolutePath));
    const QDateTime modified = QFileInfo(absolutePath).lastModified(QTimeZone::UTC);
    if (modified.isValid() && modified.toMSecsSinceEpoch() > read.toMSecsSinceEpoch()) {
        return ToolResult::failure(u"File %1 has been modified since it was last read.\nLast modification: %2\nLast read: "
                                   u"%3\n\nPlease read the file again before modifying it."_s.arg(
                                       absolutePath, modified.toString(Qt::ISODateWithMs), read.toUTC().toString(Qt::ISODateWithMs)));
    }
    return std::nullopt;
}

void markRead(const ToolContext &context, const QString &absolutePath)
{
    if (context.markRead)
        context.markRead(absolutePath);
}

namespace
{
const QByteArray Utf8ByteOrderMark("\xEF\xBB\xBF");
} // namespace

TextFile decodeTextFile(const QByteArray &bytes)
{
    const bool bom = bytes.startsWith(Utf8ByteOrderMark);
    return {QString::fromUtf8(bom ? bytes.sliced(Utf8ByteOrderMark.size()) : bytes), bom};
}

Result<void> writeTextFile(const QString &path, const TextFile &file)
{
    return writeFileWhole(path, file.bom ? Utf8ByteOrderMark + file.text.toUtf8() : file.text.toUtf8());
}

Result<void> writeFileWhole(const QString &path, QByteArrayView data)
{
    const QString folder = QFileInfo(path).absolutePath();
    if (!QDir().mkpath(folder))
        return Error{u"Cannot create the folder %1"_s.arg(folder), {}};
    // QSaveFile writes through a symbolic link to its target (the link stays) and gives the new
    // file the old one's permissions. No direct-write fallback: that would truncate in place.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Error{u"Cannot write %1: %2"_s.arg(path, file.errorString()), {}};
    // QSaveFile reports a failed write as "Unknown error": the system's reason (ENOSPC, EDQUOT)
    // is what the model and the user need to hear.
    errno = 0;
    const bool written = file.write(data.data(), data.size()) == data.size();
    const int writeError = errno;
    if (written)
        errno = 0;
    if (!written || !file.commit()) {
        const int error = !written ? writeError : errno;
        return Error{u"Cannot write %1: %2"_s.arg(path, error != 0 ? qt_error_string(error) : file.errorString()), {}};
    }
    return {};
}

// ---------------------------------------------------------------------------------------------
// Output

int pruneToolOutput(const QString &dataDir, qint64 maxBytes, const QDateTime &now)
{
    if (dataDir.isEmpty())
        return 0;
    const QDir dir(dataDir + u"/tool-output"_s);
    // Oldest first.
    const QFileInfoList files = dir.entryInfoList(QDir::Files | QDir::Hidden | QDir::NoSymLinks, QDir::Time | QDir::Reversed);
    const QDateTime tooOld = now.addDays(-ToolOutputMaxAgeDays);
    const QDateTime inUse = now.addMSecs(-ToolOutputInUseMs);
    qint64 total = 0;
    for (const QFileInfo &file : files)
        total += file.size();
    int removed = 0;
    for (const QFileInfo &file : files) {
        const QDateTime modified = file.lastModified(QTimeZone::UTC);
        if (modified >= inUse)
            break; // this one and every later one may still be written
        if (modified >= tooOld && total <= maxBytes)
            break;
        if (QFile::remove(file.filePath())) {
            total -= file.size();
            ++removed;
        }
    }
    if (removed > 0)
        qCInfo(lcProcessor) << "deleted" << removed << "old tool output files from" << dir.path();
    return removed;
}

namespace
{
/// Starts pruneToolOutput() for @p dataDir on a worker thread, at most once per
/// ToolOutputPruneIntervalMs per data dir in this process.
void scheduleToolOutputPrune(const QString &dataDir)
{
    static QMutex mutex;
    static QHash<QString, QDeadlineTimer> next;
    {
        QMutexLocker locker(&mutex);
        auto it = next.find(dataDir);
        if (it != next.end() && !it->hasExpired())
            return;
        next.insert(dataDir, QDeadlineTimer(ToolOutputPruneIntervalMs));
    }
    QThreadPool::globalInstance()->start([dataDir] { pruneToolOutput(dataDir); });
}
} // namespace

QString createToolOutputFile(const QString &dataDir)
{
    if (dataDir.isEmpty())
        return {};
    const QString dir = dataDir + u"/tool-output"_s;
    if (!QDir().mkpath(dir))
        return {};
    const QString path = dir + u'/' + Identifier::ascending(Identifier::Kind::Tool);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly))
        return {};
    // After the new file exists: it is in use, and the prune leaves it alone.
    scheduleToolOutputPrune(dataDir);
    return path;
}

QString saveToolOutput(const QString &dataDir, QByteArrayView data)
{
    const QString path = createToolOutputFile(dataDir);
    if (path.isEmpty())
        return {};
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(data.data(), data.size()) != data.size()) {
        qCWarning(lcProcessor) << "cannot save tool output to" << path << file.errorString();
        file.remove();
        return {};
    }
    return path;
}

Truncated truncateOutput(const QString &text, const QString &dataDir, int maxLines, qsizetype maxChars,
                         const QString &savedPath, qint64 totalLines, qint64 totalChars)
{
    const QList<QStringView> lines = QStringView(text).split(u'\n');
    const qint64 lineCount = totalLines >= 0 ? totalLines : qint64(lines.size());
    const qint64 charCount = totalChars >= 0 ? totalChars : qint64(text.size());
    if (savedPath.isEmpty() && lineCount <= maxLines && charCount <= maxChars)
        return {text, false, {}};

    QString preview;
    qsizetype chars = 0;
    qsizetype kept = 0;
    bool hitChars = false;
    for (qsizetype i = 0; i < lines.size() && i < maxLines; ++i) {
        const qsizetype size = lines.at(i).size() + (i > 0 ? 1 : 0);
        if (chars + size > maxChars) {
            hitChars = true;
            if (i == 0) { // a single huge first line: keep its start
                preview = lines.at(0).first(maxChars).toString();
                chars = maxChars;
            }
            break;
        }
        if (i > 0)
            preview += u'\n';
        preview += lines.at(i);
        chars += size;
        ++kept;
    }
    const qint64 removed = hitChars ? charCount - chars : lineCount - kept;
    const QString unit = hitChars ? u"characters"_s : u"lines"_s;

    QString path = savedPath;
    if (path.isEmpty())
        path = saveToolOutput(dataDir, text.toUtf8());
    const QString hint = path.isEmpty()
        ? u"The tool call succeeded but the output was truncated (the full output could not be saved)."_s
        : u"The tool call succeeded but the output was truncated. Full output saved to: %1\n"
          u"Use Grep to search the full content or Read with offset/limit to view specific sections."_s.arg(path);
    return {preview + u"\n\n...%1 %2 truncated...\n\n"_s.arg(removed).arg(unit) + hint, true, path};
}

// ---------------------------------------------------------------------------------------------
// Globs and walking

QString GlobMatcher::toRegex(const QString &glob)
{
    QString re;
    int braceDepth = 0;
    const qsizetype n = glob.size();
    for (qsizetype i = 0; i < n; ++i) {
        const QChar c = glob.at(i);
        if (c == u'*') {
            if (i + 1 < n && glob.at(i + 1) == u'*') {
                const bool atStart = i == 0 || glob.at(i - 1) == u'/';
                const bool slashAfter = i + 2 < n && glob.at(i + 2) == u'/';
                if (atStart && slashAfter) {
                    re += u"(?:.*/)?"_s; // "**/": any folders, or none
                    i += 2;
                } else {
                    re += u".*"_s;
                    i += 1;
                }
            } else {
                re += u"[^/]*"_s;
            }
        } else if (c == u'?') {
            re += u"[^/]"_s;
        } else if (c == u'[') {
            const qsizetype close = glob.indexOf(u']', i + 2);
            if (close < 0) {
                re += u"\\["_s;
                continue;
            }
            QString cls = glob.mid(i + 1, close - i - 1);
            QString out = u"["_s;
            qsizetype j = 0;
            if (cls.startsWith(u'!') || cls.startsWith(u'^')) {
                out += u'^';
                j = 1;
            }
            for (; j < cls.size(); ++j) {
                const QChar k = cls.at(j);
                if (k == u'\\' || k == u'[' || k == u']' || (k == u'^' && j == 0))
                    out += u'\\';
                out += k;
            }
            out += u']';
            re += out;
            i = close;
        } else if (c == u'{') {
            ++braceDepth;
            re += u"(?:"_s;
        } else if (c == u'}' && braceDepth > 0) {
            --braceDepth;
            re += u')';
        } else if (c == u',' && braceDepth > 0) {
            re += u'|';
        } else if (c == u'\\' && i + 1 < n) {
            re += QRegularExpression::escape(glob.mid(i + 1, 1));
            ++i;
        } else {
            re += QRegularExpression::escape(QString(c));
        }
    }
    while (braceDepth-- > 0)
        re += u')';
    return re;
}

GlobMatcher::GlobMatcher(const QString &pattern)
{
    QString p = pattern;
    if (p.startsWith(u"./"))
        p = p.mid(2);
    // A leading '/' anchors the pattern at the search folder.
    if (p.startsWith(u'/'))
        p = p.mid(1);
    else
        m_nameOnly = !p.contains(u'/');
    m_regex = QRegularExpression(u"\\A"_s + toRegex(p) + u"\\z"_s, QRegularExpression::DotMatchesEverythingOption);
}

bool GlobMatcher::matches(const QString &relativePath) const
{
    if (m_nameOnly) {
        const qsizetype slash = relativePath.lastIndexOf(u'/');
        return m_regex.match(slash < 0 ? relativePath : relativePath.mid(slash + 1)).hasMatch();
    }
    return m_regex.match(relativePath).hasMatch();
}

const QSet<QString> &vcsFolders()
{
    static const QSet<QString> folders{u".git"_s, u".hg"_s, u".svn"_s, u".jj"_s, u"node_modules"_s};
    return folders;
}

const QSet<QString> &listIgnoredFolders()
{
    static const QSet<QString> folders{
        u"node_modules"_s, u"__pycache__"_s, u".git"_s,    u"dist"_s,   u"build"_s,     u"target"_s,
        u"vendor"_s,       u"bin"_s,         u"obj"_s,     u".idea"_s,  u".vscode"_s,   u".zig-cache"_s,
        u"zig-out"_s,      u".coverage"_s,   u"coverage"_s, u"tmp"_s,   u"temp"_s,      u".cache"_s,
        u"cache"_s,        u"logs"_s,        u".venv"_s,   u"venv"_s,   u"env"_s,       u".hg"_s,
        u".svn"_s,         u".jj"_s,
    };
    return folders;
}

bool walkFiles(const QString &root, const WalkOptions &options,
               const std::function<bool(const QString &, const QString &, const QFileInfo &)> &visit)
{
    QStringList stack{QString()}; // relative folder paths
    qsizetype visited = 0;
    const QString base = QDir::cleanPath(root);
    while (!stack.isEmpty()) {
        const QString rel = stack.takeLast();
        const QString abs = rel.isEmpty() ? base : base + u'/' + rel;
        const QFileInfoList entries = QDir(abs).entryInfoList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                                                              QDir::Name);
        QStringList folders;
        for (const QFileInfo &info : entries) {
            if (++visited > options.maxEntries)
                return false;
            if (options.context && (visited % 256) == 0 && options.context->isAborted())
                return false;
            const QString name = info.fileName();
            const QString childRel = rel.isEmpty() ? name : rel + u'/' + name;
            if (info.isDir()) {
                if (info.isSymLink() || options.skipFolders.contains(name)
                    || (options.skipFolder && options.skipFolder(childRel)))
                    continue;
                folders.append(childRel);
                continue;
            }
            if (!visit(info.absoluteFilePath(), childRel, info))
                return false;
        }
        // Depth first, in name order.
        for (qsizetype i = folders.size() - 1; i >= 0; --i)
            stack.append(folders.at(i));
    }
    return true;
}

// ---------------------------------------------------------------------------------------------
// Schemas

JsonObject schemaObject(const JsonObject &properties, const QStringList &required)
{
    JsonArray req;
    for (const QString &r : required)
        req.append(r);
    return JsonObject{{u"type"_s, u"object"_s},
                      {u"properties"_s, properties},
                      {u"required"_s, req},
                      {u"additionalProperties"_s, false}};
}

JsonObject schemaString(const QString &description)
{
    return JsonObject{{u"type"_s, u"string"_s}, {u"description"_s, description}};
}

JsonObject schemaNumber(const QString &description)
{
    return JsonObject{{u"type"_s, u"number"_s}, {u"description"_s, description}};
}

JsonObject schemaBoolean(const QString &description)
{
    return JsonObject{{u"type"_s, u"boolean"_s}, {u"description"_s, description}};
}

JsonObject schemaStringArray(const QString &description)
{
    return JsonObject{{u"type"_s, u"array"_s}, {u"items"_s, JsonObject{{u"type"_s, u"string"_s}}}, {u"description"_s, description}};
}

} // namespace weft::ToolUtil
