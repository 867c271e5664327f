// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Weft's config file (OpenCode's format) as the settings dialog edits it: read without the
// `{env:VAR}` / `{file:path}` substitution, so that references stay references, and written back
// whole (every key Weft does not know kept, in its order) atomically with mode 0600, because the
// file may hold API keys.

#include "core/json.h"
#include "core/result.h"

#include <QString>

namespace weft
{

class ConfigFile
{
public:
    ConfigFile() = default;
    /// An empty config to be written to @p path.
    explicit ConfigFile(const QString &path)
        : m_path(path)
    {
    }

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

private:
    QString m_path;
    JsonObject m_json;
    bool m_exists = false;
    bool m_hasComments = false;
};

} // namespace weft
