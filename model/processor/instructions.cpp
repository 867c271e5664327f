// SPDX-License-Identifier: GPL-3.0-or-later
#include "instructions.h"

#include "tools/toolutil.h"

#include "core/logging.h"
#include "provider/configdiscovery.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{

bool isUrl(const QString &s)
{
    return s.startsWith(u"https://") || s.startsWith(u"http://");
}

QString localVariant(const QString &file)
{
    return file.left(file.size() - 3) + u".local.md"_s;
}

/// Existing files named @p name in the folders from @p directory up to @p worktree, nearest first.
QStringList findUp(const QString &name, const QString &directory, const QString &worktree)
{
    QStringList out;
    for (const QString &dir : ConfigDiscovery::upwards(directory, worktree)) {
        const QString path = dir + u'/' + name;
        if (QFileInfo(path).isFile())
            out.append(path);
    }
    return out;
}

} // namespace

QString Instruction::render() const
{
    return u"Instructions from: "_s + source + u'\n' + text;
}

QStringList Instructions::glob(const QString &folder, const QString &pattern)
{
    static const QRegularExpression wildcard(uR"([*?\[{])"_s);
    const QString root = QDir::cleanPath(folder);
    if (!pattern.contains(wildcard)) {
        const QString path = QDir::cleanPath(root + u'/' + pattern);
        return QFileInfo(path).isFile() ? QStringList{path} : QStringList{};
    }
    // Walk only below the pattern's fixed leading folders, and no deeper than it reaches.
    const QStringList segments = pattern.split(u'/', Qt::SkipEmptyParts);
    QStringList fixed;
    for (const QString &segment : segments) {
        if (segment.contains(wildcard) || &segment == &segments.last())
            break;
        fixed.append(segment);
    }
    const QString base = fixed.isEmpty() ? root : QDir::cleanPath(root + u'/' + fixed.join(u'/'));
    if (!QFileInfo(base).isDir())
        return {};
    const QString rest = segments.mid(fixed.size()).join(u'/');
    const bool anyDepth = rest.contains(u"**");
    const qsizetype depth = rest.count(u'/');
    const QRegularExpression regex(QRegularExpression::anchoredPattern(ToolUtil::GlobMatcher::toRegex(rest)));
    ToolUtil::WalkOptions options;
    options.skipFolders = ToolUtil::vcsFolders();
    options.maxEntries = 20000;
    options.skipFolder = [anyDepth, depth](const QString &relative) { return !anyDepth && relative.count(u'/') >= depth; };
    QStringList out;
    ToolUtil::walkFiles(base, options, [&](const QString &absolute, const QString &relative, const QFileInfo &) {
        if (regex.match(relative).hasMatch())
            out.append(QDir::cleanPath(absolute));
        return true;
    });
    return out;
}

QStringList Instructions::paths(const Config &config, const QString &directory, const QString &worktree,
                                const QProcessEnvironment &env)
{
    QStringList paths;
    const auto add = [&paths](const QString &path) {
        const QString clean = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
        if (!paths.contains(clean))
            paths.append(clean);
    };
    const bool claude = !ConfigDiscovery::flag(env, u"OPENCODE_DISABLE_CLAUDE_CODE"_s) && !ConfigDiscovery::flag(env, u"OPENCODE_DISABLE_CLAUDE_CODE_PROMPT"_s);
    const bool projectConfig = !ConfigDiscovery::flag(env, u"OPENCODE_DISABLE_PROJECT_CONFIG"_s);

    if (projectConfig) {
        QStringList files{u"AGENTS.md"_s};
        if (claude)
            files.append(u"CLAUDE.md"_s);
        files.append(u"CONTEXT.md"_s); // deprecated, still read
        for (const QString &file : std::as_const(files)) {
            const QStringList matches = findUp(file, directory, worktree);
            const QStringList locals = findUp(localVariant(file), directory, worktree);
            if (matches.isEmpty() && locals.isEmpty())
                continue;
            for (const QString &p : matches + locals)
                add(p);
            break;
        }
    }

    QList<QStringList> groups;
    const QString configDir = env.value(u"OPENCODE_CONFIG_DIR"_s);
    if (!configDir.isEmpty())
        groups.append({configDir + u"/AGENTS.md"_s, configDir + u"/AGENTS.local.md"_s});
    const QString global = ConfigDiscovery::globalConfigDir(env);
    groups.append({global + u"/AGENTS.md"_s, global + u"/AGENTS.local.md"_s});
    if (claude) {
        const QString home = Config::homeDir(env);
        groups.append({home + u"/.claude/CLAUDE.md"_s, home + u"/.claude/CLAUDE.local.md"_s});
    }
    for (const QStringList &group : std::as_const(groups)) {
        bool found = false;
        for (const QString &file : group) {
            if (QFileInfo(file).isFile()) {
                add(file);
                found = true;
            }
        }
        if (found)
            break;
    }

    for (const QString &raw : config.instructions()) {
        if (isUrl(raw))
            continue;
        const QString instruction = raw.startsWith(u"~/") ? Config::homeDir(env) + raw.mid(1) : raw;
        QStringList matches;
        if (QFileInfo(instruction).isAbsolute()) {
            const QFileInfo info(instruction);
            matches = glob(info.path(), info.fileName());
        } else if (projectConfig) {
            for (const QString &dir : ConfigDiscovery::upwards(directory, worktree))
                matches += glob(dir, instruction);
        } else if (!configDir.isEmpty()) {
            matches = glob(configDir, instruction);
        } else {
            qCWarning(lcProcessor).noquote() << "skipping the relative instruction" << raw
                                             << "- project config is disabled and OPENCODE_CONFIG_DIR is not set";
        }
        for (const QString &m : std::as_const(matches))
            add(m);
    }
    return paths;
}

QStringList Instructions::urls(const Config &config)
{
    QStringList out;
    for (const QString &raw : config.instructions()) {
        if (isUrl(raw))
            out.append(raw);
    }
    return out;
}

QList<Instruction> Instructions::load(const Config &config, const QString &directory, const QString &worktree,
                                      const QProcessEnvironment &env)
{
    QList<Instruction> out;
    for (const QString &path : paths(config, directory, worktree, env)) {
        QFile file(path);
        if (file.size() > MaxFileBytes) {
            qCWarning(lcProcessor).noquote() << "instruction file" << path << "is larger than 1 MiB; left out";
            continue;
        }
        if (!file.open(QIODevice::ReadOnly)) {
            qCWarning(lcProcessor).noquote() << "cannot read the instruction file" << path << ':' << file.errorString();
            continue;
        }
        const QString text = QString::fromUtf8(file.readAll());
        if (!text.isEmpty())
            out.append({path, text});
    }
    return out;
}

void Instructions::fetch(QNetworkAccessManager *network, const QStringList &urls,
                         std::function<void(const QList<Instruction> &)> done, int timeoutMs)
{
    if (urls.isEmpty()) {
        done({});
        return;
    }
    // All at once; the texts keep the order of the URLs.
    struct Fetch {
        QList<std::optional<Instruction>> texts;
        qsizetype remaining = 0;
        std::function<void(const QList<Instruction> &)> done;
    };
    auto fetch = std::make_shared<Fetch>();
    fetch->texts.resize(urls.size());
    fetch->remaining = urls.size();
    fetch->done = std::move(done);
    for (qsizetype i = 0; i < urls.size(); ++i) {
        const QString url = urls.at(i);
        QNetworkRequest request{QUrl(url)};
        request.setTransferTimeout(timeoutMs);
        request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::NoLessSafeRedirectPolicy);
        QNetworkReply *reply = network->get(request);
        QTimer::singleShot(timeoutMs, reply, &QNetworkReply::abort);
        QObject::connect(reply, &QNetworkReply::downloadProgress, reply, [reply](qint64 received, qint64) {
            if (received > MaxFileBytes)
                reply->abort();
        });
        QObject::connect(reply, &QNetworkReply::finished, reply, [reply, fetch, url, i] {
            const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            if (reply->error() == QNetworkReply::NoError && status >= 200 && status < 300) {
                const QString text = QString::fromUtf8(reply->readAll());
                if (!text.isEmpty())
                    fetch->texts[i] = Instruction{url, text};
            } else {
                qCWarning(lcProcessor).noquote()
                    << "cannot fetch the instructions at" << url << ':'
                    << (reply->error() == QNetworkReply::OperationCanceledError ? u"timed out or too large"_s
                                                                                : reply->errorString());
            }
            reply->deleteLater();
            if (--fetch->remaining > 0)
                return;
            QList<Instruction> out;
            for (const std::optional<Instruction> &text : std::as_const(fetch->texts)) {
                if (text)
                    out.append(*text);
            }
            fetch->done(out);
        });
    }
}

} // namespace weft
