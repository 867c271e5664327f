// SPDX-License-Identifier: GPL-3.0-or-later
#include "configdiscovery.h"

#include "core/tr.h"
#include "frontmatter.h"

#include "core/project.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{

/// A markdown agent, command or mode file larger than this is refused (they are prompts).
constexpr qint64 MaxMarkdownBytes = 1024 * 1024;

/// Merges the file at @p path into @p result when it exists.
Result<void> mergeFile(JsonObject &result, QStringList &sources, const QString &path, const QProcessEnvironment &env)
{
    if (!QFileInfo(path).isFile())
        return {};
    Result<Config> layer = Config::load(path, env);
    if (!layer)
        return layer.error();
    result = Config::mergeLayers(result, layer->json());
    sources.append(path);
    return {};
}

} // namespace

bool ConfigDiscovery::flag(const QProcessEnvironment &env, const QString &name)
{
    const QString v = env.value(name).toLower();
    return v == u"1" || v == u"true";
}

QString ConfigDiscovery::globalConfigDir(const QProcessEnvironment &env)
{
    QString base = env.value(u"XDG_CONFIG_HOME"_s);
    if (base.isEmpty())
        base = Config::homeDir(env) + u"/.config"_s;
    return QDir::cleanPath(base + u"/opencode"_s);
}

QStringList ConfigDiscovery::upwards(const QString &start, const QString &stop)
{
    QStringList out;
    QString dir = QDir::cleanPath(QFileInfo(start).absoluteFilePath());
    const QString end = stop.isEmpty() ? QString() : QDir::cleanPath(QFileInfo(stop).absoluteFilePath());
    while (true) {
        out.append(dir);
        if (dir == end)
            break;
        const QString parent = QFileInfo(dir).path();
        if (parent == dir)
            break;
        dir = parent;
    }
    return out;
}

Result<JsonObject> ConfigDiscovery::loadMarkdown(const QString &folder, const QStringList &subfolders,
                                                 const QString &bodyKey, bool recursive)
{
    JsonObject result;
    for (const QString &sub : subfolders) {
        const QString base = folder + u'/' + sub;
        if (!QFileInfo(base).isDir())
            continue;
        QStringList files;
        QDirIterator it(base, {u"*.md"_s}, QDir::Files | QDir::Hidden,
                        recursive ? QDirIterator::Subdirectories | QDirIterator::FollowSymlinks : QDirIterator::NoIteratorFlags);
        while (it.hasNext())
            files.append(it.next());
        files.sort();
        for (const QString &path : std::as_const(files)) {
            QFile file(path);
            if (file.size() > MaxMarkdownBytes)
                return Error{ConfigTr::tr("the file is larger than %1 MiB").arg(MaxMarkdownBytes / (1024 * 1024)),
                             path};
            if (!file.open(QIODevice::ReadOnly))
                return Error{ConfigTr::tr("cannot read: %1").arg(file.errorString()), path};
            Result<FrontMatterDocument> md = parseFrontMatter(QString::fromUtf8(file.readAll()));
            if (!md)
                return Error{ConfigTr::tr("invalid front matter: %1").arg(md.error().message),
                             path + u": "_s + md.error().where};
            // OpenCode skips a markdown file without front matter data.
            if (md->data.isEmpty())
                continue;
            QString name = QDir(base).relativeFilePath(path);
            name.chop(3); // ".md"
            JsonObject entry = md->data;
            entry.insert(bodyKey, md->content.trimmed());
            result.insert(name, entry);
        }
    }
    return result;
}

Result<Config> ConfigDiscovery::load(const Search &search)
{
    const QProcessEnvironment &env = search.env;
    const QString directory = QDir::cleanPath(QFileInfo(search.directory.isEmpty() ? QDir::currentPath() : search.directory).absoluteFilePath());
    const QString worktree = search.worktree.isEmpty() ? identifyProject(directory).worktree : search.worktree;
    const QString home = Config::homeDir(env);
    const QString globalDir = globalConfigDir(env);
    const bool projectConfig = !flag(env, u"OPENCODE_DISABLE_PROJECT_CONFIG"_s);

    JsonObject result;
    QStringList sources;
    const auto add = [&](const QString &path) { return mergeFile(result, sources, path, env); };

    for (const QString &name : {u"config.json"_s, u"opencode.json"_s, u"opencode.jsonc"_s}) {
        if (Result<void> r = add(globalDir + u'/' + name); !r)
            return r.error();
    }
    if (const QString custom = env.value(u"OPENCODE_CONFIG"_s); !custom.isEmpty()) {
        if (Result<void> r = add(QFileInfo(custom).absoluteFilePath()); !r)
            return r.error();
    }
    if (projectConfig) {
        // Every opencode.jsonc, then every opencode.json, the worktree's first (nearest wins).
        QStringList dirs = upwards(directory, worktree);
        std::reverse(dirs.begin(), dirs.end());
        for (const QString &name : {u"opencode.jsonc"_s, u"opencode.json"_s}) {
            for (const QString &dir : std::as_const(dirs)) {
                if (Result<void> r = add(dir + u'/' + name); !r)
                    return r.error();
            }
        }
    }
    if (const QString content = env.value(u"OPENCODE_CONFIG_CONTENT"_s); !content.isEmpty()) {
        Result<Config> inline_ = Config::parse(content.toUtf8(), u"OPENCODE_CONFIG_CONTENT"_s, env);
        if (!inline_)
            return inline_.error();
        result = Config::mergeLayers(result, inline_->json());
        sources.append(u"OPENCODE_CONFIG_CONTENT"_s);
    }

    QStringList directories{globalDir};
    if (projectConfig) {
        for (const QString &dir : upwards(directory, worktree)) {
            if (QFileInfo(dir + u"/.opencode"_s).isDir())
                directories.append(dir + u"/.opencode"_s);
        }
    }
    if (QFileInfo(home + u"/.opencode"_s).isDir())
        directories.append(QDir::cleanPath(home + u"/.opencode"_s));
    const QString configDirVar = env.value(u"OPENCODE_CONFIG_DIR"_s);
    if (!configDirVar.isEmpty())
        directories.append(QDir::cleanPath(QFileInfo(configDirVar).absoluteFilePath()));
    directories.removeDuplicates();

    for (const QString &dir : std::as_const(directories)) {
        if (!QFileInfo(dir).isDir())
            continue;
        if (dir.endsWith(u"/.opencode") || dir == QDir::cleanPath(QFileInfo(configDirVar).absoluteFilePath())) {
            for (const QString &name : {u"opencode.jsonc"_s, u"opencode.json"_s}) {
                if (Result<void> r = add(dir + u'/' + name); !r)
                    return r.error();
            }
        }
        Result<JsonObject> commands = loadMarkdown(dir, {u"command"_s, u"commands"_s}, u"template"_s, true);
        if (!commands)
            return commands.error();
        Result<JsonObject> agents = loadMarkdown(dir, {u"agent"_s, u"agents"_s}, u"prompt"_s, true);
        if (!agents)
            return agents.error();
        Result<JsonObject> modes = loadMarkdown(dir, {u"mode"_s, u"modes"_s}, u"prompt"_s, false);
        if (!modes)
            return modes.error();
        JsonObject primaryModes = modes.value();
        for (qsizetype i = 0; i < primaryModes.size(); ++i) {
            JsonObject mode = primaryModes.valueAt(i).toObject();
            mode.insert(u"mode"_s, u"primary"_s);
            primaryModes.insert(primaryModes.keyAt(i), mode);
        }
        JsonObject layer;
        if (!commands->isEmpty())
            layer.insert(u"command"_s, commands.value());
        JsonObject agentLayer = Config::mergeLayers(agents.value(), primaryModes);
        if (!agentLayer.isEmpty())
            layer.insert(u"agent"_s, agentLayer);
        result = Config::mergeLayers(result, layer);
    }

    // Weft's own file is the last layer.
    const QString weftFile = search.weftFile.isEmpty() ? Config::defaultPath(env) : search.weftFile;
    if (!search.weftFile.isEmpty() && !QFileInfo::exists(weftFile))
        return Error{ConfigTr::tr("the config file does not exist"), weftFile};
    if (Result<void> r = add(weftFile); !r)
        return r.error();

    // The deprecated `mode` key: primary agents.
    const JsonObject modes = result.object(u"mode");
    for (qsizetype i = 0; i < modes.size(); ++i) {
        JsonObject mode = modes.valueAt(i).toObject();
        mode.insert(u"mode"_s, u"primary"_s);
        JsonObject agents = result.object(u"agent");
        agents = Config::mergeLayers(agents, JsonObject{{modes.keyAt(i), mode}});
        result.insert(u"agent"_s, agents);
    }
    if (const QString permission = env.value(u"OPENCODE_PERMISSION"_s); !permission.isEmpty()) {
        JsonParseError error;
        const std::optional<JsonValue> value = parseJson(permission.toUtf8(), &error);
        if (!value || !value->isObject())
            return Error{ConfigTr::tr("OPENCODE_PERMISSION must be a JSON object"), u"OPENCODE_PERMISSION"_s};
        const JsonValue current = result.value(u"permission");
        result.insert(u"permission"_s,
                      current.isObject() ? Config::mergeLayers(current.toObject(), value->toObject()) : value->toObject());
    }
    // The legacy top-level `tools` map: {"bash": false} denies bash; the edit tools share "edit".
    if (const JsonObject tools = result.object(u"tools"); !tools.isEmpty()) {
        JsonObject rules;
        for (qsizetype i = 0; i < tools.size(); ++i) {
            if (!tools.valueAt(i).isBool())
                continue;
            const QString tool = tools.keyAt(i);
            const QString action = tools.valueAt(i).toBool() ? u"allow"_s : u"deny"_s;
            const bool edit = tool == u"write" || tool == u"edit" || tool == u"patch" || tool == u"multiedit";
            rules.insert(edit ? u"edit"_s : tool, action);
        }
        // Explicit permission rules win; one action for everything ("allow") already says it all.
        const JsonValue current = result.value(u"permission");
        if (!current.isString())
            result.insert(u"permission"_s, Config::mergeLayers(rules, current.toObject()));
    }

    Config config;
    config.m_json = result;
    config.m_path = weftFile;
    config.m_sources = sources;
    config.m_directories = directories;
    return config;
}

} // namespace weft
