// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// OpenCode's PermissionNext: rules {permission, pattern, action}, evaluated "last match wins"
// over the concatenation of the config's, the agent's and the session's rulesets.

#include "core/json.h"
#include "core/permissionrequest.h"
#include "core/result.h"
#include "core/types.h"
#include "pendingreplies.h"
#include "processor/tool.h"

#include <QHash>
#include <QList>
#include <QMutex>
#include <QSet>
#include <QString>
#include <QStringList>

#include <functional>
#include <initializer_list>
#include <optional>

namespace weft
{

using PermissionRuleset = QList<PermissionRule>;

namespace Permission
{

/// OpenCode's Wildcard.match: `*` matches any run of characters (slashes included), `?` one
/// character, everything else literally; a pattern ending in " *" also matches without the
/// trailing part ("ls *" matches "ls" and "ls -la").
[[nodiscard]] bool wildcardMatch(const QString &text, const QString &pattern);
/// Whether @p text holds a character wildcardMatch() reads as a wildcard (`*`, `?`): such text
/// must not become an approval pattern, which would approve more than it says.
[[nodiscard]] bool hasWildcards(const QString &text);

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

/// Whether any rule for @p permission denies or asks something: where none does, a request
/// whose parts could not all be seen (PermissionAsk::unresolved) may still be allowed.
[[nodiscard]] bool restricts(const QString &permission, const PermissionRuleset &rules);

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

/// The question @p ask of the tool call @p callID (of @p messageID in @p sessionID) puts to the
/// user; its ID is the gate's to give.
[[nodiscard]] PermissionRequest request(const PermissionAsk &ask, const QString &sessionID, const QString &messageID,
                                        const QString &callID);

} // namespace Permission

/// The processor's answers to the permission questions of tools (OpenCode's PermissionNext.ask):
/// the rules decide, explicit `deny` rules always win, and an `ask` is answered by the policy:
/// at once (Allow, Deny), or by the user (Interactive: the question is announced and the asking
/// tool waits for answer()). "Always" answers are remembered per session for the processor's
/// lifetime, as allow rules evaluated after all others. Thread-safe: tools ask from their
/// runs' worker threads, the answers come from the GUI thread.
class PermissionGate
{
public:
    /// How `ask` rules are answered.
    enum class AskPolicy { Interactive, Deny, Allow };
    /// Announces a question to whoever answers it; must not block.
    using Announce = std::function<void(const PermissionRequest &request)>;

    explicit PermissionGate(AskPolicy policy = AskPolicy::Deny);

    [[nodiscard]] AskPolicy policy() const { return m_policy; }

    /// Decides @p request (its permission and patterns in its session) against @p rules followed
    /// by the session's "always" approvals: Deny when any pattern is denied, Allow when all are
    /// allowed. Otherwise the policy answers; Interactive gives the request an ID, announces it
    /// through @p announce and blocks until answer() (Once and Always allow; Always also
    /// approves the patterns for the session) or until @p aborted returns true (Deny). @p aborted
    /// is checked at least every 200 ms and after wake().
    PermissionDecision ask(PermissionRequest request, const PermissionRuleset &rules, const Announce &announce,
                           const std::function<bool()> &aborted);
    /// Whether ask() would wait for a user's answer to @p request (Interactive, and neither the
    /// rules nor the session's approvals decide it).
    [[nodiscard]] bool wouldAsk(const PermissionRequest &request, const PermissionRuleset &rules) const;
    /// Answers the question with ID @p requestID (nothing when no one waits for it).
    void answer(const QString &requestID, PermissionReply reply);
    /// Wakes the waiting questions so that they check their abort condition.
    void wake();
    /// What "always" answers approved for @p sessionID, as allow rules (exact approvals as their
    /// text), in the order given.
    [[nodiscard]] PermissionRuleset approved(const QString &sessionID) const;

private:
    /// A session's "always" answers.
    struct Approvals {
        QSet<QString> exact;         ///< permission + '\n' + pattern
        PermissionRuleset wildcards; ///< allow rules from requests' `always`
        PermissionRuleset all;       ///< everything, in order (approved())
    };
    /// The rules' action for @p request, with the session's approvals answering what they ask.
    [[nodiscard]] PermissionRule::Action decide(const PermissionRequest &request, const PermissionRuleset &rules) const;

    const AskPolicy m_policy;
    PendingReplies<PermissionReply> m_pending;
    mutable QMutex m_mutex;
    QHash<QString, Approvals> m_approved; ///< session ID -> "always" answers
};

} // namespace weft
