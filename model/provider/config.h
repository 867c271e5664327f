// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// OpenCode's configuration format (opencode.json), read as weft.json, and the built-in model
// catalogue (resources/models.json, models.dev's shape).

#include "provider.h"
#include "usage.h"

#include "core/json.h"
#include "core/result.h"

#include <QHash>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>

class QNetworkAccessManager;

namespace weft
{

struct ModelLimit
{
    qint64 context = 0; ///< 0 = unknown
    qint64 input = 0; ///< 0 = unknown (limited by context)
    qint64 output = 0; ///< 0 = unknown
    bool operator==(const ModelLimit &) const = default;
};

/// A model as the processor needs it: where it came from, its API ID, limits, prices, abilities.
struct ModelInfo
{
    enum class Source { Config, Catalogue, Default };

    QString providerID;
    QString modelID;
    /// The ID sent to the API (`models.<id>.id`, else the model ID).
    QString apiModelID;
    QString name;
    ModelLimit limit;
    ModelCost cost;
    bool reasoning = false;
    bool toolCall = true;
    bool temperature = true;
    bool attachment = false;
    /// `modalities.input` as written ("text", "image", "pdf", "audio", "video"); empty when absent.
    QStringList modalities;
    /// `models.<id>.options` (AI SDK provider options) and `headers`, as written.
    JsonObject options;
    JsonObject headers;
    Source source = Source::Default;

    /// "provider/model".
    [[nodiscard]] QString ref() const { return providerID + u'/' + modelID; }
    /// The kinds of input the model reads (OpenCode's capabilities.input): `modalities.input`
    /// when given, else "text", plus "image" and "pdf" when `attachment` is true.
    [[nodiscard]] QStringList inputModalities() const;
    /// OpenCode's ProviderTransform.maxOutputTokens: min(limit.output, 32000), or 32000 when unknown.
    [[nodiscard]] qint64 maxOutputTokens() const;
    static constexpr qint64 OutputTokenMax = 32000;
};

/// A provider as resolved from the config, the catalogue and the environment.
struct ProviderInfo
{
    QString id;
    QString name;
    QString npm;
    ProviderProtocol protocol = ProviderProtocol::OpenAiCompatible;
    QString baseURL;
    QString apiKey;
    /// Where the key came from: "config", "auth.json", "env:<VAR>" or "" (none).
    QString apiKeySource;
    QStringList env;
    JsonObject options;
    JsonObject headers;
    qint64 timeoutMs = 300000;

    [[nodiscard]] ProviderSettings settings() const;
};

/// The built-in catalogue: `{ "<provider>": { id, name, npm, api, env[], models: { "<id>": {...} } } }`.
class ModelCatalogue
{
public:
    ModelCatalogue() = default;
    explicit ModelCatalogue(JsonObject root)
        : m_root(std::move(root))
    {
    }

    /// The resource path the application embeds the catalogue at.
    static QString resourcePath();
    /// Reads a catalogue file.
    [[nodiscard]] static Result<ModelCatalogue> load(const QString &path);
    /// The embedded catalogue (:/weft/models.json), or an empty one when it is missing.
    [[nodiscard]] static ModelCatalogue builtin();

    [[nodiscard]] bool isEmpty() const { return m_root.isEmpty(); }
    [[nodiscard]] const JsonObject &json() const { return m_root; }
    [[nodiscard]] QStringList providerIDs() const { return m_root.keys(); }
    [[nodiscard]] bool hasProvider(QStringView providerID) const { return m_root.value(providerID).isObject(); }
    [[nodiscard]] JsonObject provider(QStringView providerID) const { return m_root.object(providerID); }
    [[nodiscard]] JsonObject model(QStringView providerID, QStringView modelID) const
    {
        return provider(providerID).object(u"models").object(modelID);
    }

private:
    JsonObject m_root;
};

/// OpenCode's config: `model`, `small_model`, `provider`, `permission`, `compaction`, `agent`...
class Config
{
public:
    Config() = default;

    /// $HOME, else the user's home folder.
    [[nodiscard]] static QString homeDir(const QProcessEnvironment &env);
    /// $XDG_CONFIG_HOME/weft/weft.json (default ~/.config/weft/weft.json).
    [[nodiscard]] static QString defaultPath(const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment());
    /// Loads @p path, or defaultPath() when empty (a missing default file is an empty config; a
    /// missing explicit file is an error).
    [[nodiscard]] static Result<Config> load(const QString &path = {},
                                             const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment());
    /// Parses config text as OpenCode does: `{env:VAR}` and `{file:path}` substitution, then
    /// JSONC (comments, trailing commas). Errors name @p path and the line.
    [[nodiscard]] static Result<Config> parse(const QByteArray &text, const QString &path,
                                              const QProcessEnvironment &env
                                              = QProcessEnvironment::systemEnvironment());
    /// JSONC to JSON: comments and trailing commas become spaces, so offsets and lines stay.
    [[nodiscard]] static QByteArray stripJsonc(QByteArrayView text);

    [[nodiscard]] const JsonObject &json() const { return m_json; }
    [[nodiscard]] QString path() const { return m_path; }
    [[nodiscard]] QString model() const { return m_json.string(u"model"); }
    [[nodiscard]] QString smallModel() const { return m_json.string(u"small_model"); }
    /// `permission`: an action string ("allow") or an object of rules, as written.
    [[nodiscard]] JsonValue permission() const { return m_json.value(u"permission"); }
    [[nodiscard]] JsonObject compaction() const { return m_json.object(u"compaction"); }
    [[nodiscard]] JsonObject agent() const { return m_json.object(u"agent"); }
    [[nodiscard]] JsonObject providers() const { return m_json.object(u"provider"); }
    [[nodiscard]] JsonObject provider(QStringView providerID) const { return providers().object(providerID); }
    [[nodiscard]] QStringList disabledProviders() const;
    /// `command`: the commands of the config and of the markdown files in command/ folders.
    [[nodiscard]] JsonObject commands() const { return m_json.object(u"command"); }
    /// `instructions`: instruction files, globs and URLs.
    [[nodiscard]] QStringList instructions() const;

    /// The files this config was merged from, lowest precedence first (one file for load()).
    [[nodiscard]] QStringList sources() const { return m_sources; }
    /// The configuration folders searched for markdown agents and commands (OpenCode's
    /// `~/.config/opencode` and `.opencode` folders), as discoverConfig() found them.
    [[nodiscard]] QStringList directories() const { return m_directories; }

    /// OpenCode's merge of two config layers: objects merged key by key, @p over winning; other
    /// values replaced, except `plugin` and `instructions`, whose lists are joined without
    /// duplicates.
    [[nodiscard]] static JsonObject mergeLayers(const JsonObject &base, const JsonObject &over);

private:
    friend class ConfigDiscovery;
    JsonObject m_json;
    QString m_path;
    QStringList m_sources;
    QStringList m_directories;
};

/// Splits "provider/model" at the first '/' (model IDs may contain more slashes).
[[nodiscard]] std::optional<std::pair<QString, QString>> parseModelRef(QStringView ref);

/// Resolves providers and models (config first, catalogue second, defaults last) and makes Providers.
class ProviderFactory
{
public:
    explicit ProviderFactory(Config config = {}, ModelCatalogue catalogue = ModelCatalogue::builtin(),
                             QProcessEnvironment env = QProcessEnvironment::systemEnvironment());

    [[nodiscard]] const Config &config() const { return m_config; }
    [[nodiscard]] const ModelCatalogue &catalogue() const { return m_catalogue; }

    /// The protocol an AI SDK package speaks: "@ai-sdk/anthropic" is Anthropic, anything else
    /// OpenAI-compatible.
    [[nodiscard]] static ProviderProtocol protocolForNpm(QStringView npm);
    /// The protocol of a provider: protocolForNpm(), except that the "openai" provider with
    /// "@ai-sdk/openai" speaks the Responses API, as OpenCode's loader for it does.
    [[nodiscard]] static ProviderProtocol protocolFor(QStringView providerID, QStringView npm);
    /// API key variables for well-known providers, used when neither config nor catalogue name any.
    [[nodiscard]] static QStringList knownEnvVars(QStringView providerID);

    /// Providers named in the config or the catalogue.
    [[nodiscard]] QStringList providerIDs() const;
    [[nodiscard]] Result<ProviderInfo> providerInfo(const QString &providerID) const;
    [[nodiscard]] Result<ModelInfo> modelInfo(const QString &providerID, const QString &modelID) const;
    /// For "provider/model".
    [[nodiscard]] Result<ModelInfo> modelInfo(const QString &ref) const;

    /// The config's `model`, else the first well-known model whose provider has a key.
    [[nodiscard]] QString defaultModel() const;
    /// The config's `small_model`, else a small model of @p mainRef's provider (OpenCode's
    /// priority: haiku, gemini flash, gpt-5-nano), else @p mainRef.
    [[nodiscard]] QString smallModel(const QString &mainRef) const;

    /// A new Provider for @p providerID (owned by @p parent).
    [[nodiscard]] Result<Provider *> createProvider(const QString &providerID, QNetworkAccessManager *network = nullptr,
                                                    QObject *parent = nullptr) const;
    /// A new Provider for "provider/model".
    [[nodiscard]] Result<Provider *> create(const QString &ref, QNetworkAccessManager *network = nullptr,
                                            QObject *parent = nullptr) const;

    /// OpenCode's stored credentials: `$XDG_DATA_HOME/opencode/auth.json` (default
    /// ~/.local/share/opencode/auth.json), written by `opencode auth login`.
    [[nodiscard]] static QString authPath(const QProcessEnvironment &env);
    /// The API keys of auth.json (`{"<provider>": {"type": "api", "key": "..."}}`), read only.
    /// OAuth and well-known entries need OpenCode's login flows and are left out. A missing or
    /// damaged file gives no keys (damage is logged).
    [[nodiscard]] static QHash<QString, QString> authKeys(const QProcessEnvironment &env);

private:
    Config m_config;
    ModelCatalogue m_catalogue;
    QProcessEnvironment m_env;
    QHash<QString, QString> m_authKeys;
};

} // namespace weft
