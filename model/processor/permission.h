// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// OpenCode's PermissionNext: rules {permission, pattern, action}, evaluated "last match wins"
// over the concatenation of the config's, the agent's and the session's rulesets.

#include "core/json.h"
#include "core/result.h"
#include "core/types.h"
#include "processor/tool.h"

#include <QList>
#include <QMutex>
#include <QSet>
#include <QString>
#include <QStringList>

#include <functional>
#include <initializer_list>

namespace weft
{

using PermissionRuleset = QList<PermissionRule>;

namespace Permission
{

/// OpenCode's Wildcard.match: `*` matches any run of characters (slashes included), `?` one
/// character, everything else literally; a pattern ending in " *" also matches without the
/// trailing part ("ls *" matches "ls" and "ls -la").
[[nodiscard]] bool wildcardMatch(const QString &text, const QString &pattern);

/// Concatenates rulesets in order (OpenCode's PermissionNext.merge).
[[nodiscard]] PermissionRuleset merge(std::initializer_list<PermissionRuleset> rulesets);

/// The last rule of @p rules whose permission and pattern both match; when none matches, an
/// "ask" rule for @p permission with pattern "*" (OpenCode's default).
[[nodiscard]] PermissionRule evaluate(const QString &permission, const QString &pattern, const PermissionRuleset &rules);

/// evaluate() over several rulesets concatenated: config rules, then agent rules, then session
/// rules (later ones win).
[[nodiscard]] PermissionRule evaluate(const QString &permission, const QString &pattern,
                                      std::initializer_list<PermissionRuleset> rulesets);

/// The action for a request with several patterns, as OpenCode's ask(): Deny when any pattern is
/// denied, else Ask when any asks, else Allow. No patterns evaluates the pattern "*".
[[nodiscard]] PermissionRule::Action decide(const QString &permission, const QStringList &patterns,
                                            const PermissionRuleset &rules);

/// Parses OpenCode's config `permission` value:
/// - an object in insertion order: `"edit": "deny"` (pattern "*"), or
///   `"bash": {"git *": "allow", "*": "ask"}` (one rule per pattern, in order);
/// - an array of `{permission, pattern?, action}` rules (the stored Ruleset form);
/// - a single action string: `"allow"` = every permission.
/// Patterns starting with `~/` or `$HOME` are expanded to the home folder as OpenCode does.
/// Fails on a value of another type or an unknown action, naming the JSON path.
[[nodiscard]] Result<PermissionRuleset> parseConfig(const JsonValue &permission);

/// Like parseConfig() but lenient: invalid entries are skipped (and logged).
[[nodiscard]] PermissionRuleset fromConfig(const JsonValue &permission);

/// The rules as a JSON array (the Session.Info `permission` form).
[[nodiscard]] JsonArray toJson(const PermissionRuleset &rules);
/// Rules from a JSON array of rule objects; invalid entries are skipped.
[[nodiscard]] PermissionRuleset fromJson(const JsonArray &rules);

/// Tools that a ruleset turns off entirely (OpenCode's PermissionNext.disabled): the last rule for
/// the tool's permission ("edit" for edit/write/patch/multiedit) is `deny` with pattern "*".
[[nodiscard]] QSet<QString> disabledTools(const QStringList &tools, const PermissionRuleset &rules);

/// Where the agents' default rules point.
struct Paths {
    QString dataDir;  ///< Weft's data dir: `<dataDir>/tool-output/*` is readable everywhere
    QString worktree; ///< the project's root (the plan agent may write its plan file)
};

/// The defaults every OpenCode agent starts from: everything allowed, except `doom_loop` and
/// `external_directory` (ask; the tool-output folder is allowed), `question`/`plan_enter`/
/// `plan_exit` (deny) and reading `.env` files (ask).
[[nodiscard]] PermissionRuleset defaultRules(const Paths &paths);

/// The built-in rules of OpenCode's agents, without the user's config: defaults plus
/// - build: `question`, `plan_enter` allowed;
/// - plan: edits denied except `.opencode/plans/*.md` (and the data dir's plans folder);
/// - general: `todowrite`/`todoread` denied;
/// - explore: everything denied except read-only tools and bash;
/// - compaction, title, summary: everything denied.
/// Unknown agents get the defaults.
[[nodiscard]] PermissionRuleset builtinAgentRules(const QString &agent, const Paths &paths);

/// OpenCode's assembly of an agent's ruleset: the built-in rules, the config's `permission`, the
/// config's `agent.<name>.permission`, then `<dataDir>/tool-output/*` allowed for
/// `external_directory` unless a rule explicitly denies it.
[[nodiscard]] PermissionRuleset agentRuleset(const QString &agent, const Paths &paths,
                                             const PermissionRuleset &configRules,
                                             const PermissionRuleset &agentConfigRules = {});

/// The message a tool returns when a permission is refused (what the model reads).
[[nodiscard]] QString deniedMessage(const QString &permission, const QStringList &patterns);

} // namespace Permission

/// Answers the permission questions of tools without a user interface: rules decide; `ask` is
/// refused unless auto-approve is on or an asker callback (a GUI prompt) says yes. Explicit
/// `deny` rules always win. Thread-safe.
class PermissionGate
{
public:
    struct Request {
        QString permission;
        QStringList patterns;
        JsonObject metadata;
    };
    /// What the asker callback answers for an `ask` rule.
    enum class Reply { Once, Always, Reject };
    using Asker = std::function<Reply(const Request &)>;

    explicit PermissionGate(PermissionRuleset rules = {}, bool autoApprove = false);

    void setRules(const PermissionRuleset &rules);
    [[nodiscard]] PermissionRuleset rules() const;
    /// Session rules, evaluated after (so over) the rules given to the constructor.
    void setSessionRules(const PermissionRuleset &rules);
    void setAutoApprove(bool autoApprove);
    [[nodiscard]] bool autoApprove() const;
    /// Called for `ask` results when set (instead of the auto-approve flag).
    void setAsker(Asker asker);
    /// Rules added by "always" replies (allow rules for the asked patterns), evaluated last.
    [[nodiscard]] PermissionRuleset approved() const;

    /// Decides a request. A refusal is remembered in lastDenial().
    PermissionDecision ask(const QString &permission, const QStringList &patterns, const JsonObject &metadata = {});
    /// Why the last request was refused ("rule" or "user"), with the rules that matched.
    [[nodiscard]] QString lastDenial() const;

    /// A function to put in ToolContext::ask. The gate must outlive it.
    [[nodiscard]] std::function<PermissionDecision(const QString &, const QStringList &, const JsonObject &)> askFunction();

private:
    mutable QMutex m_mutex;
    PermissionRuleset m_rules;
    PermissionRuleset m_sessionRules;
    PermissionRuleset m_approved;
    bool m_autoApprove = false;
    Asker m_asker;
    QString m_lastDenial;
};

} // namespace weft
