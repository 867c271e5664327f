// SPDX-License-Identifier: GPL-3.0-or-later
#include "configfile.h"

#include "compaction/compaction.h"
#include "core/logging.h"
#include "core/tr.h"
#include "provider/config.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace weft
{

ConfigFile::ConfigFile(const QString &path)
    : m_path(path.isEmpty() ? Config::defaultPath() : path)
{
}

Result<ConfigFile> ConfigFile::read(const QString &path)
{
    ConfigFile config;
    config.m_path = path.isEmpty() ? Config::defaultPath() : path;
    QFile file(config.m_path);
    if (!file.exists())
        return config;
    if (!file.open(QIODevice::ReadOnly))
        return Error{ConfigTr::tr("cannot read the config file: %1").arg(file.errorString()), config.m_path};
    config.m_exists = true;
    QByteArray text = file.readAll();
    if (text.startsWith("\xEF\xBB\xBF"))
        text.remove(0, 3);
    const QByteArray json = Config::stripJsonc(text);
    config.m_hasComments = json != text;
    if (json.trimmed().isEmpty())
        return config;
    JsonParseError error;
    const std::optional<JsonValue> value = parseJson(json, &error);
    if (!value)
        return Error{ConfigTr::tr("invalid JSON: %1").arg(error.message),
                     u"%1:%2:%3"_s.arg(config.m_path).arg(error.line).arg(error.column)};
    if (!value->isObject())
        return Error{ConfigTr::tr("the config must be a JSON object"), config.m_path};
    config.m_json = value->toObject();
    return config;
}

QByteArray ConfigFile::serialise(const JsonObject &json)
{
    return toJson(json, 2) + '\n';
}

Result<void> ConfigFile::write()
{
    const QByteArray text = serialise(m_json);
    // What Weft reads back must load: a config that would not would stop every run.
    const Result<Config> check = Config::parse(text, m_path);
    if (!check)
        return check.error();

    if (!QDir().mkpath(QFileInfo(m_path).absolutePath()))
        return Error{ConfigTr::tr("cannot create the config folder"), QFileInfo(m_path).absolutePath()};
    QSaveFile file(m_path);
    if (!file.open(QIODevice::WriteOnly))
        return Error{ConfigTr::tr("cannot write the config file: %1").arg(file.errorString()), m_path};
    // Owner-only before the first byte: the file may hold API keys, and QSaveFile would give the
    // new file the old one's mode (or the umask's) otherwise.
    if (!file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner)) {
        file.cancelWriting();
        return Error{ConfigTr::tr("cannot make the config file private: %1").arg(file.errorString()), m_path};
    }
    if (file.write(text) != text.size() || !file.commit())
        return Error{ConfigTr::tr("cannot write the config file: %1").arg(file.errorString()), m_path};
    m_exists = true;
    m_hasComments = false;
    qCInfo(lcProvider) << "saved the config" << m_path;
    return {};
}

JsonObject ConfigFile::knownProvider(const QString &providerID)
{
    return ModelCatalogue::builtin().provider(providerID);
}

JsonObject ConfigFile::knownModel(const QString &providerID, const QString &modelID)
{
    return ModelCatalogue::builtin().model(providerID, modelID);
}

QStringList ConfigFile::keyVariables(const QString &providerID, const JsonObject &provider)
{
    QStringList vars;
    for (const JsonObject &o : {provider, ModelCatalogue::builtin().provider(providerID)}) {
        for (const JsonValue &v : o.array(u"env")) {
            if (v.isString() && !vars.contains(v.toString()))
                vars.append(v.toString());
        }
    }
    for (const QString &var : ProviderFactory::knownEnvVars(providerID)) {
        if (!vars.contains(var))
            vars.append(var);
    }
    return vars;
}

Result<void> ConfigFile::checkCompaction(const JsonObject &compaction)
{
    const Result<Compaction::Settings> settings = Compaction::Settings::fromConfig(compaction);
    if (!settings)
        return settings.error();
    return {};
}

QStringList ConfigFile::compactionOverrides()
{
    QStringList overrides;
    for (const char *name : {"OPENCODE_DISABLE_AUTOCOMPACT", "OPENCODE_DISABLE_PRUNE"}) {
        if (Compaction::Settings::envSwitch(qEnvironmentVariable(name)))
            overrides.append(QString::fromLatin1(name));
    }
    return overrides;
}

} // namespace weft
