// SPDX-License-Identifier: GPL-3.0-or-later
#include "config.h"

#include "core/logging.h"
#include "core/tr.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{

/// Members of @p over replace those of @p base; objects merge recursively.
JsonObject deepMerge(JsonObject base, const JsonObject &over)
{
    for (qsizetype i = 0; i < over.size(); ++i) {
        const QString &key = over.keyAt(i);
        const JsonValue &value = over.valueAt(i);
        const JsonValue &existing = base.value(key);
        if (value.isObject() && existing.isObject())
            base.insert(key, deepMerge(existing.toObject(), value.toObject()));
        else
            base.insert(key, value);
    }
    return base;
}

int lineAt(QByteArrayView text, qsizetype offset)
{
    int line = 1;
    for (qsizetype i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n')
            ++line;
    }
    return line;
}

/// The line of the member at @p keys, found by looking for each quoted key after the previous one.
int lineOfPath(QByteArrayView text, const QStringList &keys)
{
    qsizetype pos = 0;
    for (const QString &key : keys) {
        const QByteArray quoted = toJson(JsonValue(key), 0);
        const qsizetype found = text.indexOf(quoted, pos);
        if (found < 0)
            break;
        pos = found;
    }
    return lineAt(text, pos);
}

/// Schema errors of a config, with the JSON path.
struct Validator
{
    QList<std::pair<QStringList, QString>> errors;

    static QString pathString(const QStringList &keys)
    {
        QString s = u"$"_s;
        for (const QString &k : keys)
            s += u'.' + k;
        return s;
    }
    void expect(const JsonValue &v, JsonValue::Type type, const QStringList &keys)
    {
        if (!v.isUndefined() && v.type() != type)
            errors.append(
                {keys,
                 ConfigTr::tr("expected %1, found %2").arg(JsonValue::typeName(type), JsonValue::typeName(v.type()))});
    }
    void expectCount(const JsonObject &o, QStringView key, const QStringList &keys)
    {
        const JsonValue v = o.value(key);
        if (v.isUndefined())
            return;
        if (!v.isNumber() || v.toDouble() < 0)
            errors.append({keys + QStringList{key.toString()}, ConfigTr::tr("expected a number of 0 or more")});
    }
    void rates(const JsonObject &cost, const QStringList &keys)
    {
        for (QStringView k : {u"input", u"output", u"cache_read", u"cache_write"})
            expectCount(cost, k, keys);
    }
    void model(const JsonValue &v, const QStringList &keys)
    {
        expect(v, JsonValue::Type::Object, keys);
        if (!v.isObject())
            return;
        const JsonObject m = v.toObject();
        expect(m.value(u"id"), JsonValue::Type::String, keys + QStringList{u"id"_s});
        expect(m.value(u"limit"), JsonValue::Type::Object, keys + QStringList{u"limit"_s});
        expect(m.value(u"cost"), JsonValue::Type::Object, keys + QStringList{u"cost"_s});
        expect(m.value(u"options"), JsonValue::Type::Object, keys + QStringList{u"options"_s});
        for (QStringView k : {u"context", u"input", u"output"})
            expectCount(m.object(u"limit"), k, keys + QStringList{u"limit"_s});
        const JsonObject cost = m.object(u"cost");
        rates(cost, keys + QStringList{u"cost"_s});
        expect(cost.value(u"context_over_200k"), JsonValue::Type::Object,
               keys + QStringList{u"cost"_s, u"context_over_200k"_s});
        rates(cost.object(u"context_over_200k"), keys + QStringList{u"cost"_s, u"context_over_200k"_s});
    }
    void provider(const JsonValue &v, const QStringList &keys)
    {
        expect(v, JsonValue::Type::Object, keys);
        if (!v.isObject())
            return;
        const JsonObject p = v.toObject();
        expect(p.value(u"npm"), JsonValue::Type::String, keys + QStringList{u"npm"_s});
        expect(p.value(u"api"), JsonValue::Type::String, keys + QStringList{u"api"_s});
        expect(p.value(u"env"), JsonValue::Type::Array, keys + QStringList{u"env"_s});
        expect(p.value(u"options"), JsonValue::Type::Object, keys + QStringList{u"options"_s});
        const JsonObject options = p.object(u"options");
        expect(options.value(u"baseURL"), JsonValue::Type::String, keys + QStringList{u"options"_s, u"baseURL"_s});
        expect(options.value(u"apiKey"), JsonValue::Type::String, keys + QStringList{u"options"_s, u"apiKey"_s});
        expect(options.value(u"headers"), JsonValue::Type::Object, keys + QStringList{u"options"_s, u"headers"_s});
        expect(p.value(u"models"), JsonValue::Type::Object, keys + QStringList{u"models"_s});
        const JsonObject models = p.object(u"models");
        for (qsizetype i = 0; i < models.size(); ++i)
            model(models.valueAt(i), keys + QStringList{u"models"_s, models.keyAt(i)});
    }
    void config(const JsonObject &root)
    {
        for (QStringView k : {u"model", u"small_model", u"$schema"})
            expect(root.value(k), JsonValue::Type::String, {k.toString()});
        for (QStringView k : {u"compaction", u"agent"})
            expect(root.value(k), JsonValue::Type::Object, {k.toString()});
        const JsonValue permission = root.value(u"permission");
        if (!permission.isUndefined() && !permission.isObject() && !permission.isString())
            errors.append({{u"permission"_s}, ConfigTr::tr("expected object or string")});
        expect(root.value(u"provider"), JsonValue::Type::Object, {u"provider"_s});
        const JsonObject providers = root.object(u"provider");
        for (qsizetype i = 0; i < providers.size(); ++i)
            provider(providers.valueAt(i), {u"provider"_s, providers.keyAt(i)});
    }
};

CostRates readRates(const JsonObject &o)
{
    CostRates r;
    r.input = o.number(u"input");
    r.output = o.number(u"output");
    // models.dev writes cache_read / cache_write, OpenCode's runtime model cache{read, write}.
    const JsonObject cache = o.object(u"cache");
    r.cacheRead = o.value(u"cache_read").isNumber() ? o.number(u"cache_read") : cache.number(u"read");
    r.cacheWrite = o.value(u"cache_write").isNumber() ? o.number(u"cache_write") : cache.number(u"write");
    return r;
}

ModelInfo readModel(const QString &providerID, const QString &modelID, const JsonObject &m)
{
    ModelInfo info;
    info.providerID = providerID;
    info.modelID = modelID;
    info.apiModelID = m.string(u"id", modelID);
    if (info.apiModelID.isEmpty())
        info.apiModelID = modelID;
    info.name = m.string(u"name", modelID);
    const JsonObject limit = m.object(u"limit");
    info.limit.context = limit.integer(u"context");
    info.limit.input = limit.integer(u"input");
    info.limit.output = limit.integer(u"output");
    const JsonObject cost = m.object(u"cost");
    info.cost.base = readRates(cost);
    for (QStringView tier : {u"context_over_200k", u"experimentalOver200K"}) {
        if (cost.value(tier).isObject()) {
            info.cost.over200K = readRates(cost.object(tier));
            break;
        }
    }
    info.reasoning = m.boolean(u"reasoning", false);
    info.toolCall = m.boolean(u"tool_call", true);
    info.temperature = m.boolean(u"temperature", true);
    info.attachment = m.boolean(u"attachment", false);
    const JsonArray modalities = m.object(u"modalities").array(u"input");
    for (const JsonValue &v : modalities) {
        if (v.isString())
            info.modalities.append(v.toString());
    }
    info.options = m.object(u"options");
    info.headers = m.object(u"headers");
    return info;
}

QString homeDir(const QProcessEnvironment &env)
{
    const QString home = env.value(u"HOME"_s);
    return home.isEmpty() ? QDir::homePath() : home;
}

/// What one {file:} reference may bring into a config: a key or a prompt, not a data set.
constexpr qint64 FileReferenceMaxBytes = 8 * 1024 * 1024;

/// OpenCode's text substitutions: {env:VAR} first, then {file:path} outside `//` comment lines.
Result<QByteArray> substitute(QByteArray text, const QString &path, const QProcessEnvironment &env)
{
    static const QRegularExpression envPattern(uR"(\{env:([^}]+)\})"_s);
    QString s = QString::fromUtf8(text);
    {
        QString out;
        qsizetype last = 0;
        for (auto it = envPattern.globalMatch(s); it.hasNext();) {
            const QRegularExpressionMatch m = it.next();
            out += QStringView(s).mid(last, m.capturedStart() - last);
            out += env.value(m.captured(1));
            last = m.capturedEnd();
        }
        out += QStringView(s).mid(last);
        s = out;
    }

    static const QRegularExpression filePattern(uR"(\{file:[^}]+\})"_s);
    QStringList matches;
    for (auto it = filePattern.globalMatch(s); it.hasNext();)
        matches.append(it.next().captured(0));
    if (!matches.isEmpty()) {
        const QString configDir = QFileInfo(path).absolutePath();
        for (const QString &match : std::as_const(matches)) {
            const QStringList lines = s.split(u'\n');
            qsizetype lineIndex = -1;
            for (qsizetype i = 0; i < lines.size(); ++i) {
                if (lines.at(i).contains(match)) {
                    lineIndex = i;
                    break;
                }
            }
            if (lineIndex >= 0 && lines.at(lineIndex).trimmed().startsWith(u"//"))
                continue;
            QString filePath = match.mid(6, match.size() - 7);
            if (filePath.startsWith(u"~/"))
                filePath = homeDir(env) + filePath.mid(1);
            const QString resolved = QFileInfo(filePath).isAbsolute() ? filePath : QDir(configDir).filePath(filePath);
            QFile file(resolved);
            const QString where = u"%1:%2"_s.arg(path).arg(lineIndex + 1);
            if (!file.exists())
                return Error{ConfigTr::tr("bad file reference: \"%1\" %2 does not exist").arg(match, resolved), where};
            // A device or a pipe (/dev/zero, /dev/stdin, a FIFO) would be read forever.
            if (!QFileInfo(resolved).isFile())
                return Error{ConfigTr::tr("bad file reference: \"%1\" %2 is not a regular file").arg(match, resolved),
                             where};
            if (!file.open(QIODevice::ReadOnly))
                return Error{ConfigTr::tr("bad file reference: \"%1\" %2: %3").arg(match, resolved, file.errorString()),
                             where};
            // Sizes of files in /proc are 0 until read: the limit is on what is read.
            const QByteArray bytes = file.read(FileReferenceMaxBytes + 1);
            if (bytes.size() > FileReferenceMaxBytes)
                return Error{ConfigTr::tr("bad file reference: \"%1\" %2 is larger than %3 MiB")
                                 .arg(match, resolved)
                                 .arg(FileReferenceMaxBytes / (1024 * 1024)),
                             where};
            const QString content = QString::fromUtf8(bytes).trimmed();
            QByteArray escaped = toJson(JsonValue(content), 0);
            escaped = escaped.mid(1, escaped.size() - 2);
            const qsizetype at = s.indexOf(match);
            if (at >= 0)
                s.replace(at, match.size(), QString::fromUtf8(escaped));
        }
    }
    return s.toUtf8();
}

} // namespace

QStringList ModelInfo::inputModalities() const
{
    if (!modalities.isEmpty())
        return modalities;
    return attachment ? QStringList{u"text"_s, u"image"_s, u"pdf"_s} : QStringList{u"text"_s};
}

qint64 ModelInfo::maxOutputTokens() const
{
    if (limit.output <= 0)
        return OutputTokenMax;
    return std::min(limit.output, OutputTokenMax);
}

ProviderSettings ProviderInfo::settings() const
{
    ProviderSettings s;
    s.providerID = id;
    s.protocol = protocol;
    s.npm = npm;
    s.baseURL = QUrl(baseURL);
    s.apiKey = apiKey;
    s.headers = headers;
    s.timeoutMs = timeoutMs;
    return s;
}

// ---------------------------------------------------------------------------------------------

QString ModelCatalogue::resourcePath()
{
    return u":/weft/models.json"_s;
}

Result<ModelCatalogue> ModelCatalogue::load(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error{ConfigTr::tr("cannot read the model catalogue: %1").arg(file.errorString()), path};
    JsonParseError error;
    const std::optional<JsonValue> json = parseJson(file.readAll(), &error);
    if (!json)
        return Error{error.message, u"%1:%2:%3"_s.arg(path).arg(error.line).arg(error.column)};
    if (!json->isObject())
        return Error{ConfigTr::tr("the model catalogue must be a JSON object"), path};
    return ModelCatalogue(json->toObject());
}

ModelCatalogue ModelCatalogue::builtin()
{
    static const ModelCatalogue catalogue = [] {
        Result<ModelCatalogue> loaded = load(resourcePath());
        if (!loaded) {
            qCDebug(lcProvider) << "no built-in model catalogue:" << loaded.error().toString();
            return ModelCatalogue();
        }
        return std::move(loaded).value();
    }();
    return catalogue;
}

// ---------------------------------------------------------------------------------------------

QString Config::homeDir(const QProcessEnvironment &env)
{
    return weft::homeDir(env);
}

QString Config::defaultPath(const QProcessEnvironment &env)
{
    QString base = env.value(u"XDG_CONFIG_HOME"_s);
    if (base.isEmpty())
        base = homeDir(env) + u"/.config"_s;
    return base + u"/weft/weft.json"_s;
}

Result<Config> Config::load(const QString &path, const QProcessEnvironment &env)
{
    const QString file = path.isEmpty() ? defaultPath(env) : path;
    QFile f(file);
    if (!f.exists()) {
        if (path.isEmpty()) {
            Config empty;
            empty.m_path = file;
            return empty;
        }
        return Error{ConfigTr::tr("the config file does not exist"), file};
    }
    if (!f.open(QIODevice::ReadOnly))
        return Error{ConfigTr::tr("cannot read the config file: %1").arg(f.errorString()), file};
    return parse(f.readAll(), file, env);
}

QByteArray Config::stripJsonc(QByteArrayView text)
{
    QByteArray out = text.toByteArray();
    const qsizetype n = out.size();
    // Pass 1: blank comments (keeping line breaks).
    bool inString = false;
    for (qsizetype i = 0; i < n; ++i) {
        const char c = out[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '/' && i + 1 < n && out[i + 1] == '/') {
            while (i < n && out[i] != '\n' && out[i] != '\r')
                out[i++] = ' ';
        } else if (c == '/' && i + 1 < n && out[i + 1] == '*') {
            out[i] = ' ';
            out[i + 1] = ' ';
            i += 2;
            while (i < n && !(out[i] == '*' && i + 1 < n && out[i + 1] == '/')) {
                if (out[i] != '\n' && out[i] != '\r')
                    out[i] = ' ';
                ++i;
            }
            if (i < n) {
                out[i] = ' ';
                if (i + 1 < n)
                    out[i + 1] = ' ';
                ++i;
            }
        }
    }
    // Pass 2: blank commas before '}' or ']'.
    inString = false;
    for (qsizetype i = 0; i < n; ++i) {
        const char c = out[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == ',') {
            qsizetype j = i + 1;
            while (j < n && (out[j] == ' ' || out[j] == '\t' || out[j] == '\n' || out[j] == '\r'))
                ++j;
            if (j < n && (out[j] == '}' || out[j] == ']'))
                out[i] = ' ';
        }
    }
    return out;
}

Result<Config> Config::parse(const QByteArray &text, const QString &path, const QProcessEnvironment &env)
{
    Result<QByteArray> substituted = substitute(text, path, env);
    if (!substituted)
        return substituted.error();
    QByteArray json = stripJsonc(substituted.value());
    if (json.startsWith("\xEF\xBB\xBF"))
        json.replace(0, 3, "   ");

    Config config;
    config.m_path = path;
    config.m_sources = {path};
    if (json.trimmed().isEmpty())
        return config;

    JsonParseError error;
    const std::optional<JsonValue> value = parseJson(json, &error);
    if (!value)
        return Error{ConfigTr::tr("invalid JSON: %1").arg(error.message),
                     u"%1:%2:%3"_s.arg(path).arg(error.line).arg(error.column)};
    if (!value->isObject())
        return Error{ConfigTr::tr("the config must be a JSON object"), u"%1:1"_s.arg(path)};
    config.m_json = value->toObject();

    Validator validator;
    validator.config(config.m_json);
    if (!validator.errors.isEmpty()) {
        const auto &[keys, message] = validator.errors.front();
        return Error{Validator::pathString(keys) + u": "_s + message, u"%1:%2"_s.arg(path).arg(lineOfPath(json, keys))};
    }
    return config;
}

QStringList Config::disabledProviders() const
{
    QStringList out;
    for (const JsonValue &v : m_json.array(u"disabled_providers")) {
        if (v.isString())
            out.append(v.toString());
    }
    return out;
}

QStringList Config::instructions() const
{
    QStringList out;
    for (const JsonValue &v : m_json.array(u"instructions")) {
        if (v.isString() && !v.toString().isEmpty())
            out.append(v.toString());
    }
    return out;
}

JsonObject Config::mergeLayers(const JsonObject &base, const JsonObject &over)
{
    // remeda's mergeDeep: plain objects merge recursively, everything else is replaced.
    const auto merge = [](const auto &self, const JsonObject &a, const JsonObject &b) -> JsonObject {
        JsonObject out = a;
        for (qsizetype i = 0; i < b.size(); ++i) {
            const QString key = b.keyAt(i);
            const JsonValue &value = b.valueAt(i);
            const JsonValue existing = out.value(key);
            if (existing.isObject() && value.isObject())
                out.insert(key, self(self, existing.toObject(), value.toObject()));
            else
                out.insert(key, value);
        }
        return out;
    };
    JsonObject out = merge(merge, base, over);
    // OpenCode's mergeConfigConcatArrays: these lists add up across layers.
    for (const QString &key : {u"plugin"_s, u"instructions"_s}) {
        if (!base.value(key).isArray() || !over.value(key).isArray())
            continue;
        JsonArray joined;
        QSet<QString> seen;
        for (const JsonArray &list : {base.array(key), over.array(key)}) {
            for (const JsonValue &v : list) {
                const QString id = QString::fromUtf8(toJson(v, 0));
                if (!seen.contains(id)) {
                    seen.insert(id);
                    joined.append(v);
                }
            }
        }
        out.insert(key, joined);
    }
    return out;
}

std::optional<std::pair<QString, QString>> parseModelRef(QStringView ref)
{
    const qsizetype slash = ref.indexOf(u'/');
    if (slash <= 0 || slash == ref.size() - 1)
        return std::nullopt;
    return std::pair{ref.first(slash).toString(), ref.sliced(slash + 1).toString()};
}

// ---------------------------------------------------------------------------------------------

ProviderFactory::ProviderFactory(Config config, ModelCatalogue catalogue, QProcessEnvironment env)
    : m_config(std::move(config))
    , m_catalogue(std::move(catalogue))
    , m_env(std::move(env))
    , m_authKeys(authKeys(m_env))
{
}

QString ProviderFactory::authPath(const QProcessEnvironment &env)
{
    QString base = env.value(u"XDG_DATA_HOME"_s);
    if (base.isEmpty())
        base = homeDir(env) + u"/.local/share"_s;
    return base + u"/opencode/auth.json"_s;
}

QHash<QString, QString> ProviderFactory::authKeys(const QProcessEnvironment &env)
{
    QHash<QString, QString> keys;
    QFile file(authPath(env));
    if (!file.exists())
        return keys;
    if (file.size() > 1024 * 1024 || !file.open(QIODevice::ReadOnly)) {
        qCWarning(lcProvider).noquote() << "cannot read" << file.fileName();
        return keys;
    }
    JsonParseError error;
    const std::optional<JsonValue> json = parseJson(file.readAll(), &error);
    if (!json || !json->isObject()) {
        qCWarning(lcProvider).noquote() << file.fileName() << "is not a JSON object:" << error.message;
        return keys;
    }
    const JsonObject root = json->toObject();
    for (qsizetype i = 0; i < root.size(); ++i) {
        const JsonObject entry = root.valueAt(i).toObject();
        if (entry.string(u"type") == u"api" && !entry.string(u"key").isEmpty())
            keys.insert(root.keyAt(i), entry.string(u"key"));
    }
    return keys;
}

ProviderProtocol ProviderFactory::protocolForNpm(QStringView npm)
{
    return npm == u"@ai-sdk/anthropic" ? ProviderProtocol::Anthropic : ProviderProtocol::OpenAiCompatible;
}

ProviderProtocol ProviderFactory::protocolFor(QStringView providerID, QStringView npm)
{
    if (providerID == u"openai" && npm == u"@ai-sdk/openai")
        return ProviderProtocol::OpenAiResponses;
    return protocolForNpm(npm);
}

QStringList ProviderFactory::knownEnvVars(QStringView providerID)
{
    static const QList<std::pair<QStringView, QStringList>> table = {
        {u"openai", {u"OPENAI_API_KEY"_s}},
        {u"anthropic", {u"ANTHROPIC_API_KEY"_s}},
        {u"openrouter", {u"OPENROUTER_API_KEY"_s}},
        {u"deepseek", {u"DEEPSEEK_API_KEY"_s}},
        {u"google", {u"GOOGLE_GENERATIVE_AI_API_KEY"_s, u"GEMINI_API_KEY"_s}},
        {u"groq", {u"GROQ_API_KEY"_s}},
        {u"mistral", {u"MISTRAL_API_KEY"_s}},
        {u"xai", {u"XAI_API_KEY"_s}},
        {u"togetherai", {u"TOGETHER_AI_API_KEY"_s, u"TOGETHER_API_KEY"_s}},
        {u"fireworks-ai", {u"FIREWORKS_API_KEY"_s}},
        {u"deepinfra", {u"DEEPINFRA_API_KEY"_s}},
        {u"cerebras", {u"CEREBRAS_API_KEY"_s}},
        {u"moonshotai", {u"MOONSHOT_API_KEY"_s}},
    };
    for (const auto &[id, vars] : table) {
        if (id == providerID)
            return vars;
    }
    return {};
}

QStringList ProviderFactory::providerIDs() const
{
    QStringList ids = m_config.providers().keys();
    for (const QString &id : m_catalogue.providerIDs()) {
        if (!ids.contains(id))
            ids.append(id);
    }
    const QStringList disabled = m_config.disabledProviders();
    ids.removeIf([&disabled](const QString &id) { return disabled.contains(id); });
    return ids;
}

Result<ProviderInfo> ProviderFactory::providerInfo(const QString &providerID) const
{
    const JsonObject cfg = m_config.provider(providerID);
    const JsonObject cat = m_catalogue.provider(providerID);
    const bool inConfig = m_config.providers().value(providerID).isObject();
    if (!inConfig && !m_catalogue.hasProvider(providerID))
        return Error{ConfigTr::tr("unknown provider \"%1\": add it under \"provider\" in the config").arg(providerID),
                     m_config.path()};
    if (m_config.disabledProviders().contains(providerID))
        return Error{ConfigTr::tr("provider \"%1\" is disabled in the config").arg(providerID), m_config.path()};

    ProviderInfo info;
    info.id = providerID;
    info.name = cfg.string(u"name", cat.string(u"name", providerID));
    info.npm = cfg.string(u"npm", cat.string(u"npm"));
    if (info.npm.isEmpty()) {
        if (providerID == u"anthropic")
            info.npm = u"@ai-sdk/anthropic"_s;
        else if (providerID == u"openai")
            info.npm = u"@ai-sdk/openai"_s;
        else
            info.npm = u"@ai-sdk/openai-compatible"_s;
    }
    info.protocol = protocolFor(providerID, info.npm);
    info.options = deepMerge(cat.object(u"options"), cfg.object(u"options"));

    info.baseURL = info.options.string(u"baseURL");
    if (info.baseURL.isEmpty())
        info.baseURL = cfg.string(u"api", cat.string(u"api"));
    if (info.baseURL.isEmpty()) {
        if (info.protocol == ProviderProtocol::Anthropic)
            info.baseURL = u"https://api.anthropic.com/v1"_s;
        else if (info.npm == u"@ai-sdk/openai")
            info.baseURL = u"https://api.openai.com/v1"_s;
        else
            return Error{ConfigTr::tr("provider \"%1\" has no options.baseURL").arg(providerID), m_config.path()};
    }

    for (const JsonObject *source : {&cfg, &cat}) {
        for (const JsonValue &v : source->array(u"env")) {
            if (v.isString() && !info.env.contains(v.toString()))
                info.env.append(v.toString());
        }
    }
    for (const QString &var : knownEnvVars(providerID)) {
        if (!info.env.contains(var))
            info.env.append(var);
    }

    // OpenCode's precedence: the config's key, then auth.json's, then the environment's.
    info.apiKey = info.options.string(u"apiKey");
    if (!info.apiKey.isEmpty()) {
        info.apiKeySource = u"config"_s;
    } else if (const QString stored = m_authKeys.value(providerID); !stored.isEmpty()) {
        info.apiKey = stored;
        info.apiKeySource = u"auth.json"_s;
    } else {
        for (const QString &var : std::as_const(info.env)) {
            const QString value = m_env.value(var);
            if (!value.isEmpty()) {
                info.apiKey = value;
                info.apiKeySource = u"env:"_s + var;
                break;
            }
        }
    }
    info.headers = info.options.object(u"headers");
    const JsonValue timeout = info.options.value(u"timeout");
    if (timeout.isNumber())
        info.timeoutMs = std::max<qint64>(0, timeout.toInteger());
    else if (timeout.isBool() && !timeout.toBool())
        info.timeoutMs = 0;
    return info;
}

Result<ModelInfo> ProviderFactory::modelInfo(const QString &providerID, const QString &modelID) const
{
    const Result<ProviderInfo> provider = providerInfo(providerID);
    if (!provider)
        return provider.error();
    if (modelID.isEmpty())
        return Error{ConfigTr::tr("no model given for provider \"%1\"").arg(providerID), m_config.path()};
    const JsonValue configModel = m_config.provider(providerID).object(u"models").value(modelID);
    const JsonObject catalogueModel = m_catalogue.model(providerID, modelID);
    ModelInfo info = readModel(providerID, modelID, deepMerge(catalogueModel, configModel.toObject()));
    if (configModel.isObject())
        info.source = ModelInfo::Source::Config;
    else if (!catalogueModel.isEmpty())
        info.source = ModelInfo::Source::Catalogue;
    else
        info.source = ModelInfo::Source::Default;
    return info;
}

Result<ModelInfo> ProviderFactory::modelInfo(const QString &ref) const
{
    const auto parsed = parseModelRef(ref);
    if (!parsed)
        return Error{ConfigTr::tr("\"%1\" is not a model: expected provider/model").arg(ref), m_config.path()};
    return modelInfo(parsed->first, parsed->second);
}

QString ProviderFactory::defaultModel() const
{
    if (!m_config.model().isEmpty())
        return m_config.model();
    // A model of a configured provider, first.
    const JsonObject providers = m_config.providers();
    for (qsizetype i = 0; i < providers.size(); ++i) {
        const JsonObject models = providers.valueAt(i).toObject().object(u"models");
        if (!models.isEmpty() && providerInfo(providers.keyAt(i)))
            return providers.keyAt(i) + u'/' + models.keyAt(0);
    }
    static const QStringList preferred = {u"anthropic/claude-sonnet-4-5"_s, u"openai/gpt-5"_s,
                                          u"google/gemini-2.5-pro"_s, u"deepseek/deepseek-chat"_s};
    for (const QString &ref : preferred) {
        const Result<ProviderInfo> info = providerInfo(parseModelRef(ref)->first);
        if (info && !info->apiKey.isEmpty())
            return ref;
    }
    return {};
}

QString ProviderFactory::smallModel(const QString &mainRef) const
{
    if (!m_config.smallModel().isEmpty())
        return m_config.smallModel();
    const auto parsed = parseModelRef(mainRef);
    if (!parsed)
        return mainRef;
    const QString &providerID = parsed->first;
    QStringList candidates = m_config.provider(providerID).object(u"models").keys();
    candidates += m_catalogue.provider(providerID).object(u"models").keys();
    static const QStringList priority = {u"claude-haiku-4-5"_s, u"claude-haiku-4.5"_s, u"3-5-haiku"_s,
                                         u"3.5-haiku"_s,        u"gemini-2.5-flash"_s, u"gpt-5-nano"_s};
    for (const QString &wanted : priority) {
        for (const QString &model : std::as_const(candidates)) {
            if (model.contains(wanted))
                return providerID + u'/' + model;
        }
    }
    return mainRef;
}

Result<Provider *> ProviderFactory::createProvider(const QString &providerID, QNetworkAccessManager *network,
                                                   QObject *parent) const
{
    const Result<ProviderInfo> info = providerInfo(providerID);
    if (!info)
        return info.error();
    qCDebug(lcProvider) << "provider" << providerID << info->npm << info->baseURL << "key from"
                        << (info->apiKeySource.isEmpty() ? u"nowhere"_s : info->apiKeySource);
    return Provider::create(info->settings(), network, parent);
}

Result<Provider *> ProviderFactory::create(const QString &ref, QNetworkAccessManager *network, QObject *parent) const
{
    const auto parsed = parseModelRef(ref);
    if (!parsed)
        return Error{ConfigTr::tr("\"%1\" is not a model: expected provider/model").arg(ref), m_config.path()};
    return createProvider(parsed->first, network, parent);
}

} // namespace weft
