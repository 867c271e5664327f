// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The instruction files OpenCode adds to the system prompt (its Instruction.system): the
// project's AGENTS.md (or CLAUDE.md, or CONTEXT.md), the user's global AGENTS.md (or
// ~/.claude/CLAUDE.md), and the config's `instructions` files and globs.

#include "provider/config.h"

#include <QList>
#include <QProcessEnvironment>
#include <QString>

#include <functional>

class QNetworkAccessManager;

namespace weft
{

/// One instruction file as the model sees it: "Instructions from: <source>\n<text>".
struct Instruction {
    QString source; ///< the absolute path (or URL)
    QString text;

    [[nodiscard]] QString render() const;
    bool operator==(const Instruction &) const = default;
};

class Instructions
{
public:
    /// Instruction files larger than this are left out (with a warning in the log).
    static constexpr qint64 MaxFileBytes = 1024 * 1024;

    /// The files, in OpenCode's order, each once:
    ///  - the project's: the first of AGENTS.md, CLAUDE.md, CONTEXT.md found in @p directory or a
    ///    folder above it up to @p worktree, every such file of that name (nearest first) and its
    ///    `.local.md` variant (unless OPENCODE_DISABLE_PROJECT_CONFIG);
    ///  - the user's: the first group found of OPENCODE_CONFIG_DIR/AGENTS(.local).md,
    ///    ~/.config/opencode/AGENTS(.local).md, ~/.claude/CLAUDE(.local).md (CLAUDE.md files not
    ///    with OPENCODE_DISABLE_CLAUDE_CODE(_PROMPT));
    ///  - the config's `instructions`: `~/` expanded, absolute paths and globs as written, relative
    ///    ones looked for in @p directory and every folder above it up to @p worktree.
    /// Empty files are left out. URLs in `instructions` are listed by urls(), not read here.
    [[nodiscard]] static QList<Instruction> load(const Config &config, const QString &directory,
                                                 const QString &worktree,
                                                 const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment());
    /// The paths load() reads, without reading them.
    [[nodiscard]] static QStringList paths(const Config &config, const QString &directory, const QString &worktree,
                                           const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment());
    /// The http(s) URLs of the config's `instructions`.
    [[nodiscard]] static QStringList urls(const Config &config);
    /// Fetches @p urls with @p network, all at once (at most 5 s each, as OpenCode), without
    /// waiting: @p done gets the texts in the order of @p urls once the last request has ended,
    /// from the event loop of @p network's thread. Failures are left out with a warning in the log.
    static void fetch(QNetworkAccessManager *network, const QStringList &urls,
                      std::function<void(const QList<Instruction> &)> done, int timeoutMs = 5000);

    /// Files matching the glob @p pattern relative to @p folder (`*`, `?`, `[...]`, `{a,b}`, `**`).
    [[nodiscard]] static QStringList glob(const QString &folder, const QString &pattern);
};

} // namespace weft
