// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Weft's config file (OpenCode's format) as the settings dialog edits it: read without the
// `{env:VAR}` / `{file:path}` substitution, so that references stay references, and written back
// whole (every key Weft does not know kept, in its order) atomically with mode 0600, because the
// file may hold API keys. With what the dialog tells of the keys it shows: where a provider's key
// is read from, whether a `compaction` object is valid and which environment variables override it.

#include "core/json.h"
#include "core/result.h"

#include <QString>
#include <QStringList>

namespace weft
{

class ConfigFile
{
public:
    ConfigFile() = default;
    /// An empty config to be written to @p path (empty: Config::defaultPath()).
    explicit ConfigFile(const QString &path);

    /// Reads @p path (empty: Config::defaultPath()). A missing file is an empty config.
    [[nodiscard]] static Result<ConfigFile> read(const QString &path = {});

    [[nodiscard]] QString path() const { return m_path; }
    [[nodiscard]] bool exists() const { return m_exists; }
    /// True when the file has JSONC comments or trailing commas, which writing drops.
    [[nodiscard]] bool hasComments() const { return m_hasComments; }

    [[nodiscard]] const JsonObject &json() const { return m_json; }
    void setJson(JsonObject json) { m_json = std::move(json); }

    /// The file text write() produces: JSON.stringify(json, null, 2) and a newline.
    [[nodiscard]] static QByteArray serialise(const JsonObject &json);

    /// Checks the config as Weft reads it (Config::parse, with the environment), then replaces the
    /// file atomically (QSaveFile) with owner-only permissions set before any content is written.
    [[nodiscard]] Result<void> write();

    /// The built-in catalogue's entry of provider @p providerID (`{id, name, npm, api, env[],
    /// models}`) and of one of its models: what applies where the config says nothing. Empty
    /// when the catalogue does not know it.
    [[nodiscard]] static JsonObject knownProvider(const QString &providerID);
    [[nodiscard]] static JsonObject knownModel(const QString &providerID, const QString &modelID);
    /// The environment variables a provider's key is read from when the config gives none: those
    /// @p provider (its object in the config) names in `env`, the built-in catalogue's, and those
    /// Weft knows for @p providerID.
    [[nodiscard]] static QStringList keyVariables(const QString &providerID, const JsonObject &provider);
    /// Whether @p compaction (the config's `compaction` object) is one Weft reads, or why not.
    [[nodiscard]] static Result<void> checkCompaction(const JsonObject &compaction);
    /// The environment variables set that override the compaction settings
    /// (OPENCODE_DISABLE_AUTOCOMPACT, OPENCODE_DISABLE_PRUNE).
    [[nodiscard]] static QStringList compactionOverrides();

private:
    QString m_path;
    JsonObject m_json;
    bool m_exists = false;
    bool m_hasComments = false;
};

} // namespace weft
