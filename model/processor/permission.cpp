// SPDX-License-Identifier: GPL-3.0-or-later
#include "permission.h"

#include "core/identifier.h"
#include "core/logging.h"
#include "core/tr.h"

#include <QDir>
#include <QMutexLocker>
#include <QRegularExpression>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
using Action = PermissionRule::Action;

PermissionRule rule(const QString &permission, const QString &pattern, Action action)
{
    return PermissionRule{permission, pattern, action};
}

std::optional<Action> parseAction(const JsonValue &value)
{
    if (!value.isString())
        return std::nullopt;
    const QString &s = value.toString();
    if (s == u"allow")
        return Action::Allow;
    if (s == u"ask")
        return Action::Ask;
    if (s == u"deny")
        return Action::Deny;
    return std::nullopt;
}

QString expandHome(const QString &pattern)
{
    const QString home = QDir::homePath();
    if (pattern.startsWith(u"~/"))
        return home + pattern.mid(1);
    if (pattern == u"~")
        return home;
    if (pattern.startsWith(u"$HOME/"))
        return home + pattern.mid(5);
    if (pattern.startsWith(u"$HOME"))
        return home + pattern.mid(5);
    return pattern;
}

QString relativeTo(const QString &base, const QString &path)
{
    if (base.isEmpty())
        return path;
    return QDir(base).relativeFilePath(path);
}

} // namespace

namespace Permission
{

bool hasWildcards(const QString &text)
{
    return text.contains(u'*') || text.contains(u'?');
}

bool wildcardMatch(const QString &text, const QString &pattern)
{
    // Fast paths for the common patterns.
    if (pattern == u"*")
        return true;
    if (!hasWildcards(pattern))
        return text == pattern;

    QString regex;
    regex.reserve(pattern.size() * 2 + 8);
    QString literal;
    auto flush = [&] {
        if (!literal.isEmpty()) {
            regex += QRegularExpression::escape(literal);
            literal.clear();
        }
    };
    for (const QChar c : pattern) {
        if (c == u'*') {
            flush();
            regex += u".*"_s;
        } else if (c == u'?') {
            flush();
            regex += u'.';
        } else {
            literal += c;
        }
    }
    flush();
    // "ls *" also matches "ls": the trailing " *" is optional.
    if (pattern.endsWith(u" *") && regex.endsWith(u"\\ .*"))
        regex = regex.first(regex.size() - 4) + u"( .*)?"_s;
    else if (pattern.endsWith(u" *") && regex.endsWith(u" .*"))
        regex = regex.first(regex.size() - 3) + u"( .*)?"_s;
    const QRegularExpression re(u"\\A(?:"_s + regex + u")\\z"_s, QRegularExpression::DotMatchesEverythingOption);
    if (!re.isValid()) {
        qCWarning(lcProcessor) << "invalid wildcard pattern" << pattern << re.errorString();
        return false;
    }
    return re.match(text).hasMatch();
}

PermissionRuleset merge(std::initializer_list<PermissionRuleset> rulesets)
{
    PermissionRuleset merged;
    for (const PermissionRuleset &r : rulesets)
        merged += r;
    return merged;
}

PermissionRule evaluate(const QString &permission, const QString &pattern, const PermissionRuleset &rules)
{
    for (qsizetype i = rules.size() - 1; i >= 0; --i) {
        const PermissionRule &r = rules.at(i);
        if (wildcardMatch(permission, r.permission) && wildcardMatch(pattern, r.pattern))
            return r;
    }
    return rule(permission, u"*"_s, Action::Ask);
}

PermissionRule evaluate(const QString &permission, const QString &pattern, std::initializer_list<PermissionRuleset> rulesets)
{
    return evaluate(permission, pattern, merge(rulesets));
}

PermissionRule::Action decide(const QString &permission, const QStringList &patterns, const PermissionRuleset &rules)
{
    const QStringList list = patterns.isEmpty() ? QStringList{u"*"_s} : patterns;
    bool ask = false;
    for (const QString &pattern : list) {
        const Action action = evaluate(permission, pattern, rules).action;
        if (action == Action::Deny)
            return Action::Deny;
        if (action == Action::Ask)
            ask = true;
    }
    return ask ? Action::Ask : Action::Allow;
}

bool restricts(const QString &permission, const PermissionRuleset &rules)
{
    return std::any_of(rules.cbegin(), rules.cend(), [&](const PermissionRule &r) {
        return r.action != Action::Allow && wildcardMatch(permission, r.permission);
    });
}

Result<PermissionRuleset> parseConfig(const JsonValue &permission)
{
    PermissionRuleset rules;
    const QString root = u"permission"_s;
    if (permission.isUndefined() || permission.isNull())
        return rules;
    if (permission.isString()) {
        const auto action = parseAction(permission);
        if (!action)
            return Error{
                ProcessorTr::tr("unknown action \"%1\" (expected allow, ask or deny)").arg(permission.toString()),
                root};
        rules.append(rule(u"*"_s, u"*"_s, *action));
        return rules;
    }
    if (permission.isArray()) {
        const JsonArray array = permission.toArray();
        for (qsizetype i = 0; i < array.size(); ++i) {
            const QString where = u"%1[%2]"_s.arg(root).arg(i);
            const JsonValue &item = array.at(i);
            if (!item.isObject())
                return Error{ProcessorTr::tr("expected a rule object {permission, pattern, action}"), where};
            const JsonObject o = item.toObject();
            if (!o.value(u"permission").isString() || o.string(u"permission").isEmpty())
                return Error{ProcessorTr::tr("missing \"permission\" (a string)"), where};
            const JsonValue pattern = o.value(u"pattern");
            if (!pattern.isUndefined() && !pattern.isString())
                return Error{ProcessorTr::tr("\"pattern\" must be a string"), where};
            const auto action = parseAction(o.value(u"action"));
            if (!action)
                return Error{ProcessorTr::tr("\"action\" must be allow, ask or deny"), where};
            rules.append(rule(o.string(u"permission"), expandHome(pattern.toString(u"*"_s)), *action));
        }
        return rules;
    }
    if (!permission.isObject())
        return Error{ProcessorTr::tr("expected an object, an array of rules or an action, not %1")
                         .arg(JsonValue::typeName(permission.type())),
                     root};
    const JsonObject object = permission.toObject();
    for (qsizetype i = 0; i < object.size(); ++i) {
        const QString &key = object.keyAt(i);
        const JsonValue &value = object.valueAt(i);
        const QString where = root + u'.' + key;
        if (value.isString()) {
            const auto action = parseAction(value);
            if (!action)
                return Error{
                    ProcessorTr::tr("unknown action \"%1\" (expected allow, ask or deny)").arg(value.toString()),
                    where};
            rules.append(rule(key, u"*"_s, *action));
            continue;
        }
        if (!value.isObject())
            return Error{ProcessorTr::tr("expected an action or an object of pattern: action"), where};
        const JsonObject patterns = value.toObject();
        for (qsizetype j = 0; j < patterns.size(); ++j) {
            const auto action = parseAction(patterns.valueAt(j));
            if (!action)
                return Error{ProcessorTr::tr("expected allow, ask or deny"), where + u'.' + patterns.keyAt(j)};
            rules.append(rule(key, expandHome(patterns.keyAt(j)), *action));
        }
    }
    return rules;
}

PermissionRuleset fromConfig(const JsonValue &permission)
{
    auto parsed = parseConfig(permission);
    if (parsed)
        return parsed.value();
    qCWarning(lcProcessor).noquote() << "ignoring invalid permission config:" << parsed.error().toString();
    // Keep what is valid: parse entry by entry.
    PermissionRuleset rules;
    if (permission.isObject()) {
        const JsonObject object = permission.toObject();
        for (qsizetype i = 0; i < object.size(); ++i) {
            auto one = parseConfig(JsonValue(JsonObject{{object.keyAt(i), object.valueAt(i)}}));
            if (one) {
                rules += one.value();
            } else if (object.valueAt(i).isObject()) {
                const JsonObject patterns = object.valueAt(i).toObject();
                for (qsizetype j = 0; j < patterns.size(); ++j) {
                    if (const auto action = parseAction(patterns.valueAt(j)))
                        rules.append(rule(object.keyAt(i), expandHome(patterns.keyAt(j)), *action));
                }
            }
        }
    } else if (permission.isArray()) {
        for (const JsonValue &item : permission.toArray()) {
            auto one = parseConfig(JsonValue(JsonArray{item}));
            if (one)
                rules += one.value();
        }
    }
    return rules;
}

JsonArray toJson(const PermissionRuleset &rules)
{
    JsonArray array;
    array.reserve(rules.size());
    for (const PermissionRule &r : rules)
        array.append(r.toJson());
    return array;
}

PermissionRuleset fromJson(const JsonArray &rules)
{
    PermissionRuleset result;
    for (const JsonValue &v : rules) {
        if (auto r = PermissionRule::fromJson(v.toObject()))
            result.append(*r);
    }
    return result;
}

QSet<QString> disabledTools(const QStringList &tools, const PermissionRuleset &rules)
{
    static const QStringList editTools{u"edit"_s, u"write"_s, u"patch"_s, u"multiedit"_s, u"apply_patch"_s};
    QSet<QString> result;
    for (const QString &tool : tools) {
        const QString permission = editTools.contains(tool) ? u"edit"_s : tool;
        for (qsizetype i = rules.size() - 1; i >= 0; --i) {
            const PermissionRule &r = rules.at(i);
            if (!wildcardMatch(permission, r.permission))
                continue;
            if (r.pattern == u"*" && r.action == Action::Deny)
                result.insert(tool);
            break;
        }
    }
    return result;
}

static QString toolOutputGlob(const Paths &paths)
{
    return QDir::cleanPath(paths.dataDir + u"/tool-output"_s) + u"/*"_s;
}

PermissionRuleset defaultRules(const Paths &paths)
{
    PermissionRuleset r{
        rule(u"*"_s, u"*"_s, Action::Allow),
        rule(u"doom_loop"_s, u"*"_s, Action::Ask),
        rule(u"external_directory"_s, u"*"_s, Action::Ask),
    };
    if (!paths.dataDir.isEmpty())
        r.append(rule(u"external_directory"_s, toolOutputGlob(paths), Action::Allow));
    r += PermissionRuleset{
        rule(u"question"_s, u"*"_s, Action::Deny),
        rule(u"plan_enter"_s, u"*"_s, Action::Deny),
        rule(u"plan_exit"_s, u"*"_s, Action::Deny),
        rule(u"read"_s, u"*"_s, Action::Allow),
        rule(u"read"_s, u"*.env"_s, Action::Ask),
        rule(u"read"_s, u"*.env.*"_s, Action::Ask),
        rule(u"read"_s, u"*.env.example"_s, Action::Allow),
    };
    return r;
}

PermissionRuleset builtinAgentRules(const QString &agent, const Paths &paths)
{
    PermissionRuleset r = defaultRules(paths);
    if (agent == u"build") {
        r += {rule(u"question"_s, u"*"_s, Action::Allow), rule(u"plan_enter"_s, u"*"_s, Action::Allow)};
    } else if (agent == u"plan") {
        r += {rule(u"question"_s, u"*"_s, Action::Allow), rule(u"plan_exit"_s, u"*"_s, Action::Allow)};
        if (!paths.dataDir.isEmpty())
            r.append(rule(u"external_directory"_s, QDir::cleanPath(paths.dataDir + u"/plans"_s) + u"/*"_s, Action::Allow));
        r.append(rule(u"edit"_s, u"*"_s, Action::Deny));
        r.append(rule(u"edit"_s, u".opencode/plans/*.md"_s, Action::Allow));
        if (!paths.dataDir.isEmpty()) {
            const QString plans = QDir::cleanPath(paths.dataDir + u"/plans"_s) + u"/*.md"_s;
            r.append(rule(u"edit"_s, relativeTo(paths.worktree, plans), Action::Allow));
        }
    } else if (agent == u"general") {
        r += {rule(u"todoread"_s, u"*"_s, Action::Deny), rule(u"todowrite"_s, u"*"_s, Action::Deny)};
    } else if (agent == u"explore") {
        r.append(rule(u"*"_s, u"*"_s, Action::Deny));
        for (const QString &tool : {u"grep"_s, u"glob"_s, u"list"_s, u"bash"_s, u"webfetch"_s, u"websearch"_s,
                                    u"codesearch"_s, u"read"_s})
            r.append(rule(tool, u"*"_s, Action::Allow));
        r.append(rule(u"external_directory"_s, u"*"_s, Action::Ask));
        if (!paths.dataDir.isEmpty())
            r.append(rule(u"external_directory"_s, toolOutputGlob(paths), Action::Allow));
    } else if (agent == u"compaction" || agent == u"title" || agent == u"summary") {
        r.append(rule(u"*"_s, u"*"_s, Action::Deny));
    }
    return r;
}

PermissionRuleset agentRuleset(const QString &agent, const Paths &paths, const PermissionRuleset &configRules,
                               const PermissionRuleset &agentConfigRules)
{
    PermissionRuleset r = merge({builtinAgentRules(agent, paths), configRules, agentConfigRules});
    if (!paths.dataDir.isEmpty()) {
        const QString glob = toolOutputGlob(paths);
        const bool explicitDeny = std::any_of(r.cbegin(), r.cend(), [&](const PermissionRule &x) {
            return x.permission == u"external_directory" && x.action == Action::Deny && x.pattern == glob;
        });
        if (!explicitDeny)
            r.append(rule(u"external_directory"_s, glob, Action::Allow));
    }
    return r;
}

QString deniedMessage(const QString &permission, const QStringList &patterns)
{
    QString what = patterns.isEmpty() ? u"*"_s : patterns.join(u", "_s);
    if (what.size() > 300)
        what = what.left(300) + u"..."_s;
    return u"Permission denied: the user or a permission rule refused \"%1\" for %2. "
           u"Do not retry this call; choose another approach or ask the user."_s.arg(permission, what);
}

PermissionRequest request(const PermissionAsk &ask, const QString &sessionID, const QString &messageID, const QString &callID)
{
    return PermissionRequest{{},        sessionID,     messageID,  callID, ask.permission, ask.patterns,
                             ask.metadata, ask.always, ask.unresolved};
}

} // namespace Permission

// -------------------------------------------------------------------------------------------------

PermissionGate::PermissionGate(AskPolicy policy)
    : m_policy(policy)
{
}

Action PermissionGate::decide(const PermissionRequest &request, const PermissionRuleset &rules) const
{
    const QStringList patterns = request.patterns.isEmpty() ? QStringList{u"*"_s} : request.patterns;
    QMutexLocker locker(&m_mutex);
    const auto approvals = m_approved.constFind(request.sessionID);
    const auto exactly = [&](const QString &pattern) {
        return approvals != m_approved.cend() && approvals->exact.contains(request.permission + u'\n' + pattern);
    };
    const auto byWildcard = [&](const QString &pattern) {
        return approvals != m_approved.cend()
            && Permission::evaluate(request.permission, pattern, approvals->wildcards).action == Action::Allow;
    };
    bool ask = false;
    bool allExact = true;
    for (const QString &pattern : patterns) {
        const Action action = Permission::evaluate(request.permission, pattern, rules).action;
        if (action == Action::Deny)
            return Action::Deny;
        const bool exact = exactly(pattern);
        allExact = allExact && exact;
        if (action == Action::Ask && !exact && (request.unresolved || !byWildcard(pattern)))
            ask = true;
    }
    // What could not be seen may be anything a rule restricts; only the user's approval of
    // exactly this request lets it through then.
    if (!ask && request.unresolved && !allExact && Permission::restricts(request.permission, rules))
        ask = true;
    return ask ? Action::Ask : Action::Allow;
}

PermissionDecision PermissionGate::ask(PermissionRequest request, const PermissionRuleset &rules,
                                       const Announce &announce, const std::function<bool()> &aborted)
{
    const Action action = decide(request, rules);
    if (action == Action::Deny)
        return PermissionDecision::Deny;
    if (action == Action::Allow)
        return PermissionDecision::Allow;
    switch (m_policy) {
    case AskPolicy::Allow:
        // Approving what would be asked is for tools, not for a model that repeats itself: a
        // doom loop stops the run unless a rule allows it explicitly.
        if (request.permission == u"doom_loop") {
            qCInfo(lcProcessor) << "doom loop: denied although asks are approved";
            return PermissionDecision::Deny;
        }
        return PermissionDecision::Allow;
    case AskPolicy::Deny:
        qCInfo(lcProcessor) << "permission" << request.permission << "needs approval; denied (no one to ask)";
        return PermissionDecision::Deny;
    case AskPolicy::Interactive:
        break;
    }
    request.id = Identifier::ascending(Identifier::Kind::Permission);
    m_pending.open(request.id);
    if (announce)
        announce(request);
    const std::optional<PermissionReply> reply = m_pending.wait(request.id, aborted);
    if (!reply || *reply == PermissionReply::Reject)
        return PermissionDecision::Deny;
    if (*reply == PermissionReply::Always) {
        QMutexLocker locker(&m_mutex);
        Approvals &approvals = m_approved[request.sessionID];
        for (const QString &pattern : std::as_const(request.patterns)) {
            approvals.exact.insert(request.permission + u'\n' + pattern);
            approvals.all.append({request.permission, pattern, Action::Allow});
        }
        for (const QString &pattern : std::as_const(request.always)) {
            approvals.wildcards.append({request.permission, pattern, Action::Allow});
            approvals.all.append({request.permission, pattern, Action::Allow});
        }
    }
    return PermissionDecision::Allow;
}

bool PermissionGate::wouldAsk(const PermissionRequest &request, const PermissionRuleset &rules) const
{
    return m_policy == AskPolicy::Interactive && decide(request, rules) == Action::Ask;
}

void PermissionGate::answer(const QString &requestID, PermissionReply reply)
{
    m_pending.answer(requestID, reply);
}

void PermissionGate::wake()
{
    m_pending.wake();
}

PermissionRuleset PermissionGate::approved(const QString &sessionID) const
{
    QMutexLocker locker(&m_mutex);
    return m_approved.value(sessionID).all;
}

} // namespace weft
