// SPDX-License-Identifier: GPL-3.0-or-later
#include "projectfiles.h"

#include "processor/tools/toolutil.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QSet>
#include <QVarLengthArray>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace weft::ProjectFiles
{

namespace
{

/// The files git knows of (tracked, and untracked but not ignored); nullopt outside a work tree.
std::optional<QStringList> gitFiles(const QString &root, qsizetype max)
{
    QProcess git;
    git.setWorkingDirectory(root);
    git.start(u"git"_s, {u"ls-files"_s, u"--cached"_s, u"--others"_s, u"--exclude-standard"_s, u"-z"_s});
    if (!git.waitForFinished(15000) || git.exitStatus() != QProcess::NormalExit || git.exitCode() != 0) {
        git.kill();
        git.waitForFinished(1000);
        return std::nullopt;
    }
    QStringList files;
    const QByteArray out = git.readAllStandardOutput();
    for (const QByteArray &name : out.split('\0')) {
        if (name.isEmpty())
            continue;
        files.append(QString::fromUtf8(name));
        if (files.size() >= max)
            break;
    }
    return files;
}

/// Case folding, fast for ASCII (almost every path).
char16_t fold(QChar c)
{
    const char16_t u = c.unicode();
    if (u < 128)
        return u >= u'A' && u <= u'Z' ? char16_t(u + 32) : u;
    return c.toCaseFolded().unicode();
}

bool isWordStart(QStringView path, qsizetype i)
{
    if (i == 0)
        return true;
    const QChar before = path.at(i - 1);
    if (before == u'/' || before == u'_' || before == u'-' || before == u'.' || before == u' ')
        return true;
    return before.isLower() && path.at(i).isUpper();
}

} // namespace

QStringList list(const QString &root, qsizetype max)
{
    QStringList files;
    if (root.isEmpty() || !QFileInfo(root).isDir())
        return files;
    if (const std::optional<QStringList> tracked = gitFiles(root, max)) {
        files = *tracked;
    } else {
        ToolUtil::WalkOptions options;
        options.skipFolders = ToolUtil::listIgnoredFolders();
        options.maxEntries = max * 2;
        ToolUtil::walkFiles(root, options, [&](const QString &, const QString &relative, const QFileInfo &) {
            files.append(relative);
            return files.size() < max;
        });
    }
    // The folders that hold them, once each.
    QSet<QString> folders;
    const qsizetype fileCount = files.size();
    for (qsizetype i = 0; i < fileCount; ++i) {
        QStringView path(files.at(i));
        for (qsizetype slash = path.lastIndexOf(u'/'); slash > 0; slash = path.left(slash).lastIndexOf(u'/')) {
            const QString folder = path.left(slash + 1).toString();
            if (folders.contains(folder))
                break;
            folders.insert(folder);
        }
    }
    for (const QString &folder : std::as_const(folders))
        files.append(folder);
    std::sort(files.begin(), files.end());
    return files;
}

int score(QStringView path, QStringView query)
{
    if (query.isEmpty())
        return 0;
    QVarLengthArray<char16_t, 64> folded;
    for (const QChar c : query)
        folded.append(fold(c));
    // Most paths do not match at all: a plain subsequence test first.
    qsizetype q = 0;
    for (qsizetype i = 0; i < path.size() && q < folded.size(); ++i)
        q += fold(path.at(i)) == folded.at(q) ? 1 : 0;
    if (q < folded.size())
        return -1;
    const qsizetype nameStart = path.endsWith(u'/') ? path.left(path.size() - 1).lastIndexOf(u'/') + 1
                                                   : path.lastIndexOf(u'/') + 1;
    int total = 0;
    q = 0;
    qsizetype previous = -2;
    for (qsizetype i = 0; i < path.size() && q < folded.size(); ++i) {
        if (fold(path.at(i)) != folded.at(q))
            continue;
        int points = 1;
        if (previous == i - 1)
            points += 5;
        if (isWordStart(path, i))
            points += 8;
        if (i >= nameStart)
            points += 2;
        total += points;
        previous = i;
        ++q;
    }
    // A name that starts with the query wins.
    if (path.mid(nameStart).startsWith(query, Qt::CaseInsensitive))
        total += 20;
    return std::max(1, total * 4 - int(std::min<qsizetype>(path.size(), 200) / 4));
}

QStringList match(const QStringList &paths, QStringView query, qsizetype limit)
{
    struct Hit
    {
        int score;
        const QString *path;
    };
    QList<Hit> hits;
    for (const QString &path : paths) {
        const int s = query.isEmpty() ? -int(path.count(u'/')) : score(path, query);
        if (s >= 0 || query.isEmpty())
            hits.append({s, &path});
    }
    const auto better = [](const Hit &a, const Hit &b) {
        if (a.score != b.score)
            return a.score > b.score;
        if (a.path->size() != b.path->size())
            return a.path->size() < b.path->size();
        return *a.path < *b.path;
    };
    const qsizetype n = std::min(limit, hits.size());
    std::partial_sort(hits.begin(), hits.begin() + n, hits.end(), better);
    QStringList result;
    result.reserve(n);
    for (qsizetype i = 0; i < n; ++i)
        result.append(*hits.at(i).path);
    return result;
}

} // namespace weft::ProjectFiles
