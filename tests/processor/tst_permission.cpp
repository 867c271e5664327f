// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/json.h"
#include "processor/permission.h"

#include <QDir>
#include <QElapsedTimer>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>

using namespace Qt::StringLiterals;
using namespace weft;

using Action = PermissionRule::Action;
Q_DECLARE_METATYPE(weft::PermissionRule::Action)

namespace
{
PermissionRule R(const QString &permission, const QString &pattern, Action action)
{
    return PermissionRule{permission, pattern, action};
}

JsonValue parse(const char *text)
{
    JsonParseError error;
    auto v = parseJson(QByteArrayView(text), &error);
    if (!v)
        qFatal("bad test JSON: %s", qPrintable(error.toString()));
    return *v;
}

QString describe(const PermissionRuleset &rules)
{
    QStringList out;
    for (const PermissionRule &r : rules)
        out.append(r.permission + u' ' + r.pattern + u' ' + PermissionRule::actionName(r.action));
    return out.join(u" | "_s);
}
} // namespace

class TestPermission : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void wildcard_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<bool>("expected");
        QTest::newRow("exact") << u"bash"_s << u"bash"_s << true;
        QTest::newRow("exact-mismatch") << u"bash"_s << u"bas"_s << false;
        QTest::newRow("star-all") << u"anything at all"_s << u"*"_s << true;
        QTest::newRow("star-empty") << QString() << u"*"_s << true;
        QTest::newRow("empty-empty") << QString() << QString() << true;
        QTest::newRow("empty-pattern") << u"x"_s << QString() << false;
        QTest::newRow("question") << u"edit"_s << u"ed?t"_s << true;
        QTest::newRow("question-one-char-only") << u"edit"_s << u"e?t"_s << false;
        QTest::newRow("prefix") << u"git status"_s << u"git *"_s << true;
        QTest::newRow("trailing-space-star-optional") << u"git"_s << u"git *"_s << true;
        QTest::newRow("trailing-needs-space") << u"gitk"_s << u"git *"_s << false;
        QTest::newRow("ls-not-lsblk") << u"lsblk"_s << u"ls *"_s << false;
        QTest::newRow("other-command") << u"rm -rf /"_s << u"git *"_s << false;
        QTest::newRow("star-crosses-slashes") << u"/home/u/project/.env"_s << u"*.env"_s << true;
        QTest::newRow("env-dot") << u"src/a.env.local"_s << u"*.env.*"_s << true;
        QTest::newRow("dot-literal") << u"axb"_s << u"a.b"_s << false;
        QTest::newRow("plus-literal") << u"a+b"_s << u"a+b"_s << true;
        QTest::newRow("parens-literal") << u"f(x)"_s << u"f(*)"_s << true;
        QTest::newRow("brackets-literal") << u"a[1]"_s << u"a[1]"_s << true;
        QTest::newRow("regex-class-not-special") << u"a1"_s << u"a[1]"_s << false;
        QTest::newRow("dollar-caret") << u"^a$"_s << u"^a$"_s << true;
        QTest::newRow("multiline-dotall") << u"echo a\necho b"_s << u"echo *"_s << true;
        QTest::newRow("middle-stars") << u"foo/bar/baz.md"_s << u"foo*baz*"_s << true;
        QTest::newRow("anchored-start") << u"xgit status"_s << u"git *"_s << false;
        QTest::newRow("plans") << u".opencode/plans/a.md"_s << u".opencode/plans/*.md"_s << true;
        QTest::newRow("plans-other-ext") << u".opencode/plans/a.txt"_s << u".opencode/plans/*.md"_s << false;
        QTest::newRow("permission-wildcard") << u"external_directory"_s << u"external_*"_s << true;
    }
    void wildcard()
    {
        QFETCH(QString, text);
        QFETCH(QString, pattern);
        QFETCH(bool, expected);
        QCOMPARE(Permission::wildcardMatch(text, pattern), expected);
    }

    void evaluate_data()
    {
        QTest::addColumn<PermissionRuleset>("rules");
        QTest::addColumn<QString>("permission");
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<Action>("expected");
        QTest::newRow("no-rules-ask") << PermissionRuleset{} << u"bash"_s << u"ls"_s << Action::Ask;
        QTest::newRow("allow-all") << PermissionRuleset{R(u"*"_s, u"*"_s, Action::Allow)} << u"edit"_s << u"a.txt"_s
                                   << Action::Allow;
        QTest::newRow("last-wins-deny") << PermissionRuleset{R(u"*"_s, u"*"_s, Action::Allow), R(u"bash"_s, u"*"_s, Action::Deny)}
                                        << u"bash"_s << u"ls"_s << Action::Deny;
        QTest::newRow("last-wins-allow") << PermissionRuleset{R(u"bash"_s, u"*"_s, Action::Deny), R(u"*"_s, u"*"_s, Action::Allow)}
                                         << u"bash"_s << u"ls"_s << Action::Allow;
        QTest::newRow("pattern-specific") << PermissionRuleset{R(u"bash"_s, u"*"_s, Action::Ask), R(u"bash"_s, u"git *"_s, Action::Allow)}
                                          << u"bash"_s << u"git log"_s << Action::Allow;
        QTest::newRow("pattern-specific-other") << PermissionRuleset{R(u"bash"_s, u"*"_s, Action::Ask), R(u"bash"_s, u"git *"_s, Action::Allow)}
                                                << u"bash"_s << u"rm -rf x"_s << Action::Ask;
        QTest::newRow("general-after-specific") << PermissionRuleset{R(u"bash"_s, u"git *"_s, Action::Allow), R(u"bash"_s, u"*"_s, Action::Deny)}
                                                << u"bash"_s << u"git log"_s << Action::Deny;
        QTest::newRow("other-permission-untouched") << PermissionRuleset{R(u"bash"_s, u"*"_s, Action::Deny)} << u"edit"_s << u"x"_s
                                                    << Action::Ask;
        QTest::newRow("permission-wildcard") << PermissionRuleset{R(u"ed*"_s, u"*"_s, Action::Deny)} << u"edit"_s << u"x"_s
                                             << Action::Deny;
        QTest::newRow("env-ask") << PermissionRuleset{R(u"read"_s, u"*"_s, Action::Allow), R(u"read"_s, u"*.env"_s, Action::Ask),
                                                      R(u"read"_s, u"*.env.example"_s, Action::Allow)}
                                 << u"read"_s << u"/p/.env"_s << Action::Ask;
        QTest::newRow("env-example-allow") << PermissionRuleset{R(u"read"_s, u"*"_s, Action::Allow), R(u"read"_s, u"*.env"_s, Action::Ask),
                                                                R(u"read"_s, u"*.env.example"_s, Action::Allow)}
                                           << u"read"_s << u"/p/.env.example"_s << Action::Allow;
    }
    void evaluate()
    {
        QFETCH(PermissionRuleset, rules);
        QFETCH(QString, permission);
        QFETCH(QString, pattern);
        QFETCH(Action, expected);
        const PermissionRule r = Permission::evaluate(permission, pattern, rules);
        QCOMPARE(r.action, expected);
        if (rules.isEmpty()) {
            QCOMPARE(r.permission, permission);
            QCOMPARE(r.pattern, u"*"_s);
        }
    }

    void sessionOverConfig()
    {
        const PermissionRuleset config{R(u"edit"_s, u"*"_s, Action::Deny)};
        const PermissionRuleset agent{R(u"edit"_s, u"src/*"_s, Action::Ask)};
        const PermissionRuleset session{R(u"edit"_s, u"src/main.cpp"_s, Action::Allow)};
        QCOMPARE(Permission::evaluate(u"edit"_s, u"src/main.cpp"_s, {config, agent, session}).action, Action::Allow);
        QCOMPARE(Permission::evaluate(u"edit"_s, u"src/other.cpp"_s, {config, agent, session}).action, Action::Ask);
        QCOMPARE(Permission::evaluate(u"edit"_s, u"docs/a.md"_s, {config, agent, session}).action, Action::Deny);
        // The order of the rulesets decides, not their content.
        QCOMPARE(Permission::evaluate(u"edit"_s, u"src/main.cpp"_s, {session, agent, config}).action, Action::Deny);
        QCOMPARE(describe(Permission::merge({config, session})), u"edit * deny | edit src/main.cpp allow"_s);
    }

    void decideSeveralPatterns_data()
    {
        QTest::addColumn<QStringList>("patterns");
        QTest::addColumn<Action>("expected");
        QTest::newRow("all-allowed") << QStringList{u"git status"_s, u"git diff"_s} << Action::Allow;
        QTest::newRow("one-asks") << QStringList{u"git status"_s, u"make"_s} << Action::Ask;
        QTest::newRow("one-denied") << QStringList{u"git status"_s, u"make"_s, u"rm -rf /"_s} << Action::Deny;
        QTest::newRow("none-means-star") << QStringList{} << Action::Ask;
    }
    void decideSeveralPatterns()
    {
        QFETCH(QStringList, patterns);
        QFETCH(Action, expected);
        const PermissionRuleset rules{R(u"bash"_s, u"*"_s, Action::Ask), R(u"bash"_s, u"git *"_s, Action::Allow),
                                      R(u"bash"_s, u"rm *"_s, Action::Deny)};
        QCOMPARE(Permission::decide(u"bash"_s, patterns, rules), expected);
    }

    void parseObjectForm()
    {
        const JsonValue config = parse("{\"edit\": \"deny\", \"bash\": {\"git *\": \"allow\", \"*\": \"ask\", \"rm *\": \"deny\"}, \"*\": \"allow\"}");
        auto rules = Permission::parseConfig(config);
        QVERIFY2(rules.ok(), qPrintable(rules.ok() ? QString() : rules.error().toString()));
        QCOMPARE(describe(rules.value()), u"edit * deny | bash git * allow | bash * ask | bash rm * deny | * * allow"_s);
        // Last match wins: the trailing "*": "allow" overrides everything before it, as in OpenCode.
        QCOMPARE(Permission::evaluate(u"edit"_s, u"a.txt"_s, rules.value()).action, Action::Allow);
        // Without it, the order inside the bash object decides.
        auto bashOnly = Permission::parseConfig(parse("{\"bash\": {\"*\": \"ask\", \"git *\": \"allow\", \"git push *\": \"deny\"}}"));
        QVERIFY(bashOnly.ok());
        QCOMPARE(Permission::evaluate(u"bash"_s, u"git status"_s, bashOnly.value()).action, Action::Allow);
        QCOMPARE(Permission::evaluate(u"bash"_s, u"git push origin"_s, bashOnly.value()).action, Action::Deny);
        QCOMPARE(Permission::evaluate(u"bash"_s, u"make"_s, bashOnly.value()).action, Action::Ask);
    }

    void parseArrayForm()
    {
        const JsonValue config = parse("[{\"permission\": \"edit\", \"pattern\": \"*\", \"action\": \"deny\"}, {\"permission\": \"edit\", \"pattern\": \"docs/*\", \"action\": \"allow\"}, {\"permission\": \"bash\", \"action\": \"ask\"}]");
        auto rules = Permission::parseConfig(config);
        QVERIFY(rules.ok());
        QCOMPARE(describe(rules.value()), u"edit * deny | edit docs/* allow | bash * ask"_s);
        QCOMPARE(Permission::evaluate(u"edit"_s, u"docs/a.md"_s, rules.value()).action, Action::Allow);
        QCOMPARE(Permission::evaluate(u"edit"_s, u"src/a.cpp"_s, rules.value()).action, Action::Deny);
        // The stored form round-trips.
        QCOMPARE(describe(Permission::fromJson(Permission::toJson(rules.value()))), describe(rules.value()));
    }

    void parseActionString()
    {
        auto rules = Permission::parseConfig(JsonValue(u"deny"_s));
        QVERIFY(rules.ok());
        QCOMPARE(describe(rules.value()), u"* * deny"_s);
        QVERIFY(Permission::parseConfig(JsonValue()).ok());
        QVERIFY(Permission::parseConfig(JsonValue()).value().isEmpty());
    }

    void parseHomeExpansion()
    {
        auto rules = Permission::parseConfig(parse("{\"external_directory\": {\"~/projects/*\": \"allow\", \"$HOME/tmp/*\": \"allow\", \"~\": \"deny\"}}"));
        QVERIFY(rules.ok());
        QCOMPARE(rules.value().size(), 3);
        QCOMPARE(rules.value().at(0).pattern, QDir::homePath() + u"/projects/*"_s);
        QCOMPARE(rules.value().at(1).pattern, QDir::homePath() + u"/tmp/*"_s);
        QCOMPARE(rules.value().at(2).pattern, QDir::homePath());
    }

    void parseErrors_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("where");
        QTest::newRow("unknown-action") << u"{\"edit\": \"maybe\"}"_s << u"permission.edit"_s;
        QTest::newRow("nested-unknown-action") << u"{\"bash\": {\"ls\": \"yes\"}}"_s << u"permission.bash.ls"_s;
        QTest::newRow("number-value") << u"{\"bash\": 3}"_s << u"permission.bash"_s;
        QTest::newRow("number-root") << u"42"_s << u"permission"_s;
        QTest::newRow("bad-root-string") << u"\"sometimes\""_s << u"permission"_s;
        QTest::newRow("array-item-not-object") << u"[\"edit\"]"_s << u"permission[0]"_s;
        QTest::newRow("array-missing-permission") << u"[{\"action\": \"allow\"}]"_s << u"permission[0]"_s;
        QTest::newRow("array-bad-action") << u"[{\"permission\": \"edit\", \"action\": \"no\"}]"_s << u"permission[0]"_s;
        QTest::newRow("array-bad-pattern") << u"[{\"permission\": \"edit\", \"pattern\": 1, \"action\": \"allow\"}]"_s
                                           << u"permission[0]"_s;
    }
    void parseErrors()
    {
        QFETCH(QString, json);
        QFETCH(QString, where);
        auto v = parseJson(json.toUtf8());
        QVERIFY(v);
        auto rules = Permission::parseConfig(*v);
        QVERIFY(!rules.ok());
        QCOMPARE(rules.error().where, where);
        QVERIFY(!rules.error().message.isEmpty());
    }

    void lenientFromConfig()
    {
        const PermissionRuleset rules =
            Permission::fromConfig(parse("{\"edit\": \"deny\", \"bash\": {\"git *\": \"allow\", \"x\": \"bogus\"}, \"webfetch\": 3, \"*\": \"ask\"}"));
        QCOMPARE(describe(rules), u"edit * deny | bash git * allow | * * ask"_s);
        const PermissionRuleset fromArray = Permission::fromConfig(parse("[{\"permission\": \"edit\", \"action\": \"deny\"}, 5]"));
        QCOMPARE(describe(fromArray), u"edit * deny"_s);
    }

    void disabledTools()
    {
        const PermissionRuleset rules{R(u"*"_s, u"*"_s, Action::Allow), R(u"edit"_s, u"*"_s, Action::Deny),
                                      R(u"bash"_s, u"*"_s, Action::Deny), R(u"bash"_s, u"git *"_s, Action::Allow),
                                      R(u"task"_s, u"general"_s, Action::Deny)};
        const QSet<QString> off = Permission::disabledTools({u"edit"_s, u"write"_s, u"bash"_s, u"read"_s, u"task"_s}, rules);
        QCOMPARE(off, (QSet<QString>{u"edit"_s, u"write"_s}));
    }

    void builtinAgents_data()
    {
        QTest::addColumn<QString>("agent");
        QTest::addColumn<QString>("permission");
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<Action>("expected");
        const QString data = u"/data/weft"_s;
        QTest::newRow("build-edit") << u"build"_s << u"edit"_s << u"src/a.cpp"_s << Action::Allow;
        QTest::newRow("build-bash") << u"build"_s << u"bash"_s << u"make"_s << Action::Allow;
        QTest::newRow("build-external") << u"build"_s << u"external_directory"_s << u"/etc/*"_s << Action::Ask;
        QTest::newRow("build-tool-output") << u"build"_s << u"external_directory"_s << data + u"/tool-output/*"_s << Action::Allow;
        QTest::newRow("build-doom-loop") << u"build"_s << u"doom_loop"_s << u"read"_s << Action::Ask;
        QTest::newRow("build-env") << u"build"_s << u"read"_s << u"/p/.env"_s << Action::Ask;
        QTest::newRow("build-env-example") << u"build"_s << u"read"_s << u"/p/.env.example"_s << Action::Allow;
        QTest::newRow("build-question") << u"build"_s << u"question"_s << u"*"_s << Action::Allow;
        QTest::newRow("plan-edit") << u"plan"_s << u"edit"_s << u"src/a.cpp"_s << Action::Deny;
        QTest::newRow("plan-plan-file") << u"plan"_s << u"edit"_s << u".opencode/plans/1700000000000-calm-moon.md"_s << Action::Allow;
        QTest::newRow("plan-plan-other-ext") << u"plan"_s << u"edit"_s << u".opencode/plans/x.txt"_s << Action::Deny;
        QTest::newRow("plan-read") << u"plan"_s << u"read"_s << u"/p/a.cpp"_s << Action::Allow;
        QTest::newRow("plan-external-plans") << u"plan"_s << u"external_directory"_s << data + u"/plans/*"_s << Action::Allow;
        QTest::newRow("general-todowrite") << u"general"_s << u"todowrite"_s << u"*"_s << Action::Deny;
        QTest::newRow("general-edit") << u"general"_s << u"edit"_s << u"a"_s << Action::Allow;
        QTest::newRow("explore-edit") << u"explore"_s << u"edit"_s << u"a"_s << Action::Deny;
        QTest::newRow("explore-grep") << u"explore"_s << u"grep"_s << u"TODO"_s << Action::Allow;
        QTest::newRow("compaction-anything") << u"compaction"_s << u"read"_s << u"a"_s << Action::Deny;
        QTest::newRow("title-anything") << u"title"_s << u"bash"_s << u"ls"_s << Action::Deny;
        QTest::newRow("unknown-agent-defaults") << u"custom"_s << u"edit"_s << u"a"_s << Action::Allow;
    }
    void builtinAgents()
    {
        QFETCH(QString, agent);
        QFETCH(QString, permission);
        QFETCH(QString, pattern);
        QFETCH(Action, expected);
        const Permission::Paths paths{u"/data/weft"_s, u"/p"_s};
        QCOMPARE(Permission::evaluate(permission, pattern, Permission::builtinAgentRules(agent, paths)).action, expected);
    }

    void agentRulesetAssembly()
    {
        const Permission::Paths paths{u"/data/weft"_s, u"/p"_s};
        const PermissionRuleset config = Permission::fromConfig(parse("{\"bash\": {\"*\": \"ask\", \"git *\": \"allow\"}}"));
        const PermissionRuleset agentConfig = Permission::fromConfig(parse("{\"edit\": \"deny\"}"));
        const PermissionRuleset build = Permission::agentRuleset(u"build"_s, paths, config, agentConfig);
        QCOMPARE(Permission::evaluate(u"bash"_s, u"git diff"_s, build).action, Action::Allow);
        QCOMPARE(Permission::evaluate(u"bash"_s, u"make"_s, build).action, Action::Ask);
        QCOMPARE(Permission::evaluate(u"edit"_s, u"a.cpp"_s, build).action, Action::Deny);
        QCOMPARE(Permission::evaluate(u"external_directory"_s, u"/data/weft/tool-output/*"_s, build).action, Action::Allow);
        // The config comes after the agent's built-in rules, as in OpenCode: it can open plan up.
        const PermissionRuleset plan = Permission::agentRuleset(u"plan"_s, paths, Permission::fromConfig(parse("{\"edit\": \"allow\"}")));
        QCOMPARE(Permission::evaluate(u"edit"_s, u"src/a.cpp"_s, plan).action, Action::Allow);
        // An explicit deny of the tool-output folder is respected.
        const PermissionRuleset denied = Permission::agentRuleset(
            u"build"_s, paths, {R(u"external_directory"_s, u"/data/weft/tool-output/*"_s, Action::Deny)});
        QCOMPARE(Permission::evaluate(u"external_directory"_s, u"/data/weft/tool-output/*"_s, denied).action, Action::Deny);
    }

    void gatePolicies()
    {
        const PermissionRuleset rules{R(u"*"_s, u"*"_s, Action::Allow), R(u"bash"_s, u"*"_s, Action::Ask),
                                      R(u"bash"_s, u"rm *"_s, Action::Deny)};
        auto request = [](const QString &permission, const QStringList &patterns) {
            return PermissionRequest{{}, u"ses_a"_s, u"msg_a"_s, u"call_a"_s, permission, patterns, {}};
        };
        int announced = 0;
        auto announce = [&](const PermissionRequest &) { ++announced; };
        // Headless: rules decide, `ask` is refused.
        PermissionGate headless(PermissionGate::AskPolicy::Deny);
        QCOMPARE(headless.ask(request(u"edit"_s, {u"a.txt"_s}), rules, announce, {}), PermissionDecision::Allow);
        QCOMPARE(headless.ask(request(u"bash"_s, {u"make"_s}), rules, announce, {}), PermissionDecision::Deny);
        // Auto-approve answers `ask`, but deny rules win over it.
        PermissionGate approving(PermissionGate::AskPolicy::Allow);
        QCOMPARE(approving.ask(request(u"bash"_s, {u"make"_s}), rules, announce, {}), PermissionDecision::Allow);
        QCOMPARE(approving.ask(request(u"bash"_s, {u"make"_s, u"rm -rf build"_s}), rules, announce, {}),
                 PermissionDecision::Deny);
        // ... but not a doom loop: a model repeating itself stops, unless a rule allows it.
        const PermissionRuleset withDoom = Permission::merge({rules, {R(u"doom_loop"_s, u"*"_s, Action::Ask)}});
        QCOMPARE(approving.ask(request(u"doom_loop"_s, {u"read"_s}), withDoom, announce, {}), PermissionDecision::Deny);
        const PermissionRuleset doomAllowed = Permission::merge({withDoom, {R(u"doom_loop"_s, u"*"_s, Action::Allow)}});
        QCOMPARE(approving.ask(request(u"doom_loop"_s, {u"read"_s}), doomAllowed, announce, {}), PermissionDecision::Allow);
        // Later rules (the session's) win over earlier ones (the config's and the agent's).
        const PermissionRuleset session = Permission::merge({rules, {R(u"bash"_s, u"make*"_s, Action::Allow)}});
        QCOMPARE(headless.ask(request(u"bash"_s, {u"make all"_s}), session, announce, {}), PermissionDecision::Allow);
        QCOMPARE(headless.ask(request(u"bash"_s, {u"cmake ."_s}), session, announce, {}), PermissionDecision::Deny);
        // No one was asked: only the interactive policy announces.
        QCOMPARE(announced, 0);
    }

    void gateInteractive()
    {
        PermissionGate gate(PermissionGate::AskPolicy::Interactive);
        QCOMPARE(gate.policy(), PermissionGate::AskPolicy::Interactive);
        const PermissionRuleset rules{R(u"*"_s, u"*"_s, Action::Ask), R(u"read"_s, u"*"_s, Action::Allow)};
        QList<PermissionRequest> asked;
        PermissionReply reply = PermissionReply::Once;
        auto announce = [&](const PermissionRequest &r) {
            asked.append(r);
            gate.answer(r.id, reply); // answered at once, as a receiver on another thread would
        };
        auto request = [](const QString &session, const QString &permission, const QStringList &patterns,
                          const JsonObject &metadata = {}) {
            return PermissionRequest{{}, session, u"msg_a"_s, u"call_a"_s, permission, patterns, metadata};
        };
        QCOMPARE(gate.ask(request(u"ses_a"_s, u"read"_s, {u"a.txt"_s}), rules, announce, {}),
                 PermissionDecision::Allow);
        QVERIFY(asked.isEmpty()); // allowed by a rule: not asked

        QCOMPARE(gate.ask(request(u"ses_a"_s, u"edit"_s, {u"a.txt"_s}, JsonObject{{u"diff"_s, u"..."_s}}), rules,
                          announce, {}),
                 PermissionDecision::Allow);
        QCOMPARE(asked.size(), 1);
        QVERIFY(!asked.first().id.isEmpty());
        QCOMPARE(asked.first().sessionID, u"ses_a"_s);
        QCOMPARE(asked.first().callID, u"call_a"_s);
        QCOMPARE(asked.first().permission, u"edit"_s);
        QCOMPARE(asked.first().metadata.string(u"diff"), u"..."_s);
        QCOMPARE(gate.ask(request(u"ses_a"_s, u"edit"_s, {u"a.txt"_s}), rules, announce, {}),
                 PermissionDecision::Allow);
        QCOMPARE(asked.size(), 2); // "once" is not remembered
        QVERIFY(asked.at(0).id != asked.at(1).id);

        reply = PermissionReply::Always;
        QCOMPARE(gate.ask(request(u"ses_a"_s, u"edit"_s, {u"b.txt"_s}), rules, announce, {}),
                 PermissionDecision::Allow);
        QCOMPARE(describe(gate.approved(u"ses_a"_s)), u"edit b.txt allow"_s);
        QCOMPARE(gate.ask(request(u"ses_a"_s, u"edit"_s, {u"b.txt"_s}), rules, announce, {}),
                 PermissionDecision::Allow);
        QCOMPARE(asked.size(), 3); // remembered: not asked again
        // ... for that session only.
        QVERIFY(gate.approved(u"ses_b"_s).isEmpty());
        reply = PermissionReply::Reject;
        QCOMPARE(gate.ask(request(u"ses_b"_s, u"edit"_s, {u"b.txt"_s}), rules, announce, {}), PermissionDecision::Deny);
        QCOMPARE(asked.size(), 4);
        QCOMPARE(gate.ask(request(u"ses_a"_s, u"bash"_s, {u"ls"_s}), rules, announce, {}), PermissionDecision::Deny);
        // An explicit deny in the rules is not asked, even after "always".
        const PermissionRuleset denying = Permission::merge({rules, {R(u"edit"_s, u"c.txt"_s, Action::Deny)}});
        QCOMPARE(gate.ask(request(u"ses_a"_s, u"edit"_s, {u"c.txt"_s}), denying, announce, {}),
                 PermissionDecision::Deny);
        QCOMPARE(asked.size(), 5);
        // An answer to a question no one waits for changes nothing.
        gate.answer(u"per_unknown"_s, PermissionReply::Always);
        QCOMPARE(describe(gate.approved(u"ses_a"_s)), u"edit b.txt allow"_s);
    }

    void gateAnswerFromAnotherThread()
    {
        PermissionGate gate(PermissionGate::AskPolicy::Interactive);
        const PermissionRuleset rules{R(u"*"_s, u"*"_s, Action::Ask)};
        const PermissionRequest request{{}, u"ses_a"_s, {}, {}, u"bash"_s, {u"make"_s}, {}};
        QString id;
        std::unique_ptr<QThread> answerer;
        auto announce = [&](const PermissionRequest &r) {
            id = r.id;
            answerer.reset(QThread::create([&gate, r] {
                QThread::msleep(50);
                gate.answer(r.id, PermissionReply::Once);
            }));
            answerer->start();
        };
        QCOMPARE(gate.ask(request, rules, announce, {}), PermissionDecision::Allow);
        QVERIFY(!id.isEmpty());
        answerer->wait();
    }

    void gateAbortedWhileWaiting()
    {
        PermissionGate gate(PermissionGate::AskPolicy::Interactive);
        const PermissionRuleset rules{R(u"*"_s, u"*"_s, Action::Ask)};
        std::atomic_bool aborted = false;
        std::unique_ptr<QThread> aborter;
        auto announce = [&](const PermissionRequest &) {
            aborter.reset(QThread::create([&] {
                QThread::msleep(50);
                aborted = true;
                gate.wake();
            }));
            aborter->start();
        };
        QElapsedTimer timer;
        timer.start();
        QCOMPARE(gate.ask(PermissionRequest{{}, u"ses_a"_s, {}, {}, u"bash"_s, {u"make"_s}, {}}, rules, announce,
                          [&] { return aborted.load(); }),
                 PermissionDecision::Deny);
        QVERIFY(timer.elapsed() < 5000);
        aborter->wait();
        QVERIFY(gate.approved(u"ses_a"_s).isEmpty());
    }

    void deniedMessageIsReadable()
    {
        const QString message = Permission::deniedMessage(u"bash"_s, {u"rm -rf /"_s});
        QVERIFY(message.contains(u"Permission denied"_s));
        QVERIFY(message.contains(u"bash"_s));
        QVERIFY(message.contains(u"rm -rf /"_s));
    }
};

QTEST_GUILESS_MAIN(TestPermission)
#include "tst_permission.moc"
