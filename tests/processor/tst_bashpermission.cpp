// SPDX-License-Identifier: GPL-3.0-or-later
// The bash tool's permission check against command lines written to get around it: each row runs
// the real tool, with the real PermissionGate and rules parsed from an OpenCode config, and proves
// that the file the command would have deleted, created or changed is as it was.

#include "core/json.h"
#include "processor/permission.h"
#include "processor/tools/bashtool.h"
#include "processor/tools/shellsyntax.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace weft;

namespace
{

/// A project with a file to protect, a folder outside it, and the bash tool run through a
/// PermissionGate whose questions are recorded and answered with a fixed reply.
struct Sandbox {
    QTemporaryDir root;
    QString project;
    QString elsewhere;
    QString data;
    PermissionGate gate{PermissionGate::AskPolicy::Interactive};
    PermissionReply reply = PermissionReply::Reject;
    QList<PermissionRequest> asked;

    Sandbox()
    {
        project = root.path() + u"/project"_s;
        elsewhere = root.path() + u"/elsewhere"_s;
        data = root.path() + u"/data"_s;
        QDir().mkpath(project);
        QDir().mkpath(elsewhere);
        QDir().mkpath(data);
        write(project + u"/victim"_s, "keep me");
        write(elsewhere + u"/secret"_s, "secret");
        QFile(elsewhere + u"/secret"_s).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    }

    static void write(const QString &path, const QByteArray &bytes)
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    }

    /// Runs @p command (placeholders: ELSE for the outside folder) under @p config's permission.
    ToolResult run(const QString &command, const QByteArray &config)
    {
        const auto parsed = parseJson(config);
        const PermissionRuleset rules = Permission::agentRuleset(
            u"build"_s, {data, project}, Permission::fromConfig(parsed ? parsed->toObject().value(u"permission") : JsonValue()));
        ToolContext context;
        context.sessionID = u"ses_bash"_s;
        context.messageID = u"msg_bash"_s;
        context.callID = u"call_bash"_s;
        context.agent = u"build"_s;
        context.directory = project;
        context.worktree = project;
        context.dataDir = data;
        context.ask = [this, rules](const PermissionAsk &ask) {
            const PermissionRequest request = Permission::request(ask, u"ses_bash"_s, u"msg_bash"_s, u"call_bash"_s);
            return gate.ask(
                request, rules,
                [this](const PermissionRequest &question) {
                    asked.append(question);
                    gate.answer(question.id, reply);
                },
                [] { return false; });
        };
        BashTool tool;
        return tool.execute(context, JsonObject{{u"command"_s, QString(command).replace(u"ELSE"_s, elsewhere)},
                                                {u"description"_s, u"test"_s},
                                                {u"timeout"_s, 20000}});
    }

    [[nodiscard]] bool askedFor(const QString &permission) const
    {
        return std::any_of(asked.cbegin(), asked.cend(), [&](const PermissionRequest &r) { return r.permission == permission; });
    }
    [[nodiscard]] QStringList elsewhereEntries() const { return QDir(elsewhere).entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::Hidden); }
    [[nodiscard]] QByteArray victim() const
    {
        QFile f(project + u"/victim"_s);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
};

const QByteArray DenyRm = R"({"permission": {"bash": {"*": "allow", "rm *": "deny"}}})";
const QByteArray AskAllButEcho = R"({"permission": {"bash": {"*": "ask", "echo *": "allow"}}})";
const QByteArray DenyOutside = R"({"permission": {"external_directory": "deny"}})";

} // namespace

class TestBashPermission : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    /// With `"*": "allow", "rm *": "deny"`, no way of writing rm gets past the rule.
    void denyEveryForm_data()
    {
        QTest::addColumn<QString>("command");
        const QStringList forms{
            u"rm victim"_s,
            u"(rm victim)"_s,
            u"if true; then rm victim; fi"_s,
            u"if false; then :; else rm victim; fi"_s,
            u"{ rm victim; }"_s,
            u"echo $(rm victim)"_s,
            u"echo `rm victim`"_s,
            u"for f in a; do rm victim; done"_s,
            u"for ((i=0; i<1; i++)); do rm victim; done"_s,
            u"while true; do rm victim; break; done"_s,
            u"until false; do rm victim; break; done"_s,
            u"case a in a) rm victim;; esac"_s,
            u"x=$(rm victim)"_s,
            u"cat <(rm victim)"_s,
            u"echo hi > >(rm victim)"_s,
            u"echo \"$(rm victim)\""_s,
            u"echo ${x:-$(rm victim)}"_s,
            u"[[ -n $(rm victim) ]]"_s,
            u"declare x=$(rm victim)"_s,
            u"export x=$(rm victim)"_s,
            u"f() { local x=$(rm victim); }; f"_s,
            u"f() { rm victim; }; f"_s,
            u"cat <<EOF\n$(rm victim)\nEOF"_s,
            u"echo a; rm victim"_s,
            u"echo a\nrm victim"_s,
            u"true && rm victim"_s,
            u"false || rm victim"_s,
            u"echo victim | rm victim"_s,
            u"rm victim &"_s,
            u"! rm victim"_s,
            u"FOO=1 rm victim"_s,
            u"/bin/rm victim"_s,
            u"\\rm victim"_s,
            u"'rm' victim"_s,
            u"\"rm\" victim"_s,
            u"r\"\"m victim"_s,
            u"$'rm' victim"_s,
            u"$'\\x72m' victim"_s,
            u"rm -f -- ./victim"_s,
            u"rm    victim"_s,
            u"command rm victim"_s,
            u"builtin command rm victim"_s,
            u"exec rm victim"_s,
            u"env rm victim"_s,
            u"env -i FOO=1 rm victim"_s,
            u"env -S 'rm victim'"_s,
            u"nohup rm victim"_s,
            u"time rm victim"_s,
            u"nice -n 5 rm victim"_s,
            u"timeout -s KILL 5 rm victim"_s,
            u"stdbuf -oL rm victim"_s,
            u"setsid rm victim"_s,
            u"busybox rm victim"_s,
            u"sudo -u root rm victim"_s,
            u"echo victim | xargs rm"_s,
            u"xargs -I{} rm {} <<< victim"_s,
            u"find . -name victim -exec rm {} \\;"_s,
            u"find . -name victim -execdir rm {} +"_s,
            u"bash -c 'rm victim'"_s,
            u"sh -c \"rm victim\""_s,
            u"bash -lc 'cd . && rm victim'"_s,
            u"bash -c 'bash -c \"rm victim\"'"_s,
            u"eval 'rm victim'"_s,
            u"eval rm victim"_s,
            u"trap 'rm victim' EXIT"_s,
            u"flock /tmp/weft-lock -c 'rm victim'"_s,
        };
        for (const QString &form : forms)
            QTest::newRow(qPrintable(form)) << form;
    }
    void denyEveryForm()
    {
        QFETCH(QString, command);
        Sandbox box;
        box.reply = PermissionReply::Once; // even a user who would say yes is not asked
        const ToolResult result = box.run(command, DenyRm);
        QVERIFY2(!result.ok, qPrintable(result.output));
        QVERIFY2(result.error.startsWith(u"Permission denied"_s), qPrintable(result.error));
        QCOMPARE(box.victim(), QByteArray("keep me"));
        QVERIFY2(!box.askedFor(u"bash"_s), "a denied command is refused without asking");
    }

    /// Commands whose name is only known when they run: asked, since the rules restrict rm.
    void computedCommandsAreAsked_data()
    {
        QTest::addColumn<QString>("command");
        QTest::newRow("variable") << u"x=rm; $x victim"_s;
        QTest::newRow("substitution") << u"$(echo rm) victim"_s;
        QTest::newRow("quoted-variable") << u"x=rm; \"$x\" victim"_s;
        QTest::newRow("eval-variable") << u"x='rm victim'; eval \"$x\""_s;
        QTest::newRow("bash-c-variable") << u"x='rm victim'; bash -c \"$x\""_s;
        QTest::newRow("shell-from-stdin") << u"echo 'rm victim' | bash"_s;
        QTest::newRow("sh-s") << u"echo 'rm victim' | sh -s"_s;
        QTest::newRow("syntax-error") << u"rm victim )"_s;
        QTest::newRow("xargs-computed") << u"echo victim | xargs $(echo rm)"_s;
    }
    void computedCommandsAreAsked()
    {
        QFETCH(QString, command);
        Sandbox box;
        const ToolResult result = box.run(command, DenyRm);
        QVERIFY(!result.ok);
        QCOMPARE(box.victim(), QByteArray("keep me"));
    }

    /// With `"*": "ask", "echo *": "allow"`, a command hidden in an echo is still asked about.
    void askEveryHiddenCommand_data()
    {
        QTest::addColumn<QString>("command");
        const QStringList forms{
            u"echo $(touch made)"_s,
            u"echo `touch made`"_s,
            u"echo \"$(touch made)\""_s,
            u"echo $(echo $(touch made))"_s,
            u"echo ${x:=$(touch made)}"_s,
            u"echo <(touch made)"_s,
            u"echo hi; touch made"_s,
            u"echo hi && touch made"_s,
            u"echo hi | touch made"_s,
            u"echo $(bash -c 'touch made')"_s,
            u"echo $(eval touch made)"_s,
            u"echo hi > >(touch made)"_s,
            u"echo $( (touch made) )"_s,
            u"echo $({ touch made; })"_s,
        };
        for (const QString &form : forms)
            QTest::newRow(qPrintable(form)) << form;
    }
    void askEveryHiddenCommand()
    {
        QFETCH(QString, command);
        Sandbox box;
        const ToolResult result = box.run(command, AskAllButEcho);
        QVERIFY(!result.ok);
        QVERIFY2(box.askedFor(u"bash"_s), "the hidden command was not asked about");
        QVERIFY(!QFileInfo::exists(box.project + u"/made"_s));
    }

    /// What the rules allow still runs, without a question: quoted text is not a command.
    void allowedCommandsRun_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QByteArray>("config");
        QTest::addColumn<QString>("expected");
        QTest::newRow("echo") << u"echo hello"_s << AskAllButEcho << u"hello\n"_s;
        QTest::newRow("quoted-rm") << u"echo 'rm victim'"_s << DenyRm << u"rm victim\n"_s;
        QTest::newRow("word-rm") << u"echo rm victim"_s << DenyRm << u"rm victim\n"_s;
        QTest::newRow("heredoc-text") << u"cat <<'EOF'\nrm victim\nEOF"_s << DenyRm << u"rm victim\n"_s;
        QTest::newRow("dev-null") << u"echo hi > /dev/null; echo ok 2>&1"_s << DenyOutside << u"ok\n"_s;
        QTest::newRow("inside") << u"mkdir -p sub && touch sub/a && cat sub/a; echo ok"_s << DenyOutside << u"ok\n"_s;
    }
    void allowedCommandsRun()
    {
        QFETCH(QString, command);
        QFETCH(QByteArray, config);
        QFETCH(QString, expected);
        Sandbox box;
        const ToolResult result = box.run(command, config);
        QVERIFY2(result.ok, qPrintable(result.error));
        QCOMPARE(result.output, expected);
        QVERIFY(box.asked.isEmpty());
        QCOMPARE(box.victim(), QByteArray("keep me"));
    }

    /// Paths outside the project ask external_directory, as the write tool does.
    void outsideTheProject_data()
    {
        QTest::addColumn<QString>("command");
        const QStringList forms{
            u"touch ELSE/x"_s,
            u"cp /etc/hostname ELSE/"_s,
            u"cp victim ELSE/copy"_s,
            u"mv victim ELSE/"_s,
            u"mkdir ELSE/d"_s,
            u"mkdir -p ELSE/d/e"_s,
            u"cd ELSE && touch x"_s,
            u"cd ELSE; touch x"_s,
            u"pushd ELSE && touch x"_s,
            u"cd .. && touch x"_s,
            u"touch ../x"_s,
            u"echo hi > ELSE/x"_s,
            u"echo hi >> ELSE/x"_s,
            u"echo hi &> ELSE/x"_s,
            u"cat ELSE/secret"_s,
            u"cat < ELSE/secret"_s,
            u"ln -s /etc/passwd ELSE/l"_s,
            u"chmod 644 ELSE/secret"_s,
            u"rm ELSE/secret"_s,
            u"tee ELSE/x < /dev/null"_s,
            u"truncate -s 0 ELSE/secret"_s,
            u"dd if=/dev/zero of=ELSE/secret count=1"_s,
            u"cp --target-directory=ELSE victim"_s,
            u"bash -c 'touch ELSE/x'"_s,
            u"(cd ELSE && touch x)"_s,
            u"echo $(touch ELSE/x)"_s,
        };
        for (const QString &form : forms)
            QTest::newRow(qPrintable(form)) << form;
    }
    void outsideTheProject()
    {
        QFETCH(QString, command);
        Sandbox box;
        const ToolResult result = box.run(command, DenyOutside);
        QVERIFY2(!result.ok, qPrintable(result.output));
        QVERIFY2(result.error.startsWith(u"Permission denied"_s), qPrintable(result.error));
        QCOMPARE(box.elsewhereEntries(), QStringList{u"secret"_s});
        QFile secret(box.elsewhere + u"/secret"_s);
        QVERIFY(secret.open(QIODevice::ReadOnly));
        QCOMPARE(secret.readAll(), QByteArray("secret"));
        QCOMPARE(secret.permissions() & (QFileDevice::ReadOther | QFileDevice::ReadGroup), QFileDevice::Permissions());
        QVERIFY(!QFileInfo::exists(box.root.path() + u"/x"_s));
        QCOMPARE(box.victim(), QByteArray("keep me"));
    }

    /// The default rules ask (rather than deny); refusing keeps everything as it was, and the
    /// question names the folder.
    void outsideIsAskedByDefault()
    {
        Sandbox box;
        const ToolResult result = box.run(u"touch ELSE/x"_s, "{}");
        QVERIFY(!result.ok);
        QVERIFY(box.askedFor(u"external_directory"_s));
        QCOMPARE(box.asked.constFirst().patterns, QStringList{box.elsewhere + u"/*"_s});
        QCOMPARE(box.elsewhereEntries(), QStringList{u"secret"_s});
    }

    /// "Always" approves the command exactly: approving `rm *.o` does not approve `rm -rf ~ x.o`.
    void alwaysApprovesTheExactCommand()
    {
        Sandbox box;
        const QByteArray askRm = R"({"permission": {"bash": {"*": "allow", "rm *": "ask"}}})";
        Sandbox::write(box.project + u"/a.o"_s, "o");
        box.reply = PermissionReply::Always;
        QVERIFY(box.run(u"rm *.o"_s, askRm).ok);
        QCOMPARE(box.asked.size(), 1);
        QVERIFY(!QFileInfo::exists(box.project + u"/a.o"_s));

        box.reply = PermissionReply::Reject;
        const ToolResult wider = box.run(u"rm victim x.o"_s, askRm);
        QVERIFY(!wider.ok);
        QCOMPARE(box.asked.size(), 2);
        QCOMPARE(box.victim(), QByteArray("keep me"));

        // The approved command itself is not asked again.
        Sandbox::write(box.project + u"/b.o"_s, "o");
        QVERIFY(box.run(u"rm *.o"_s, askRm).ok);
        QCOMPARE(box.asked.size(), 2);
        QVERIFY(!QFileInfo::exists(box.project + u"/b.o"_s));
    }

    /// Where OpenCode's arity table names a command with more than one word, "always" approves
    /// that prefix: `git checkout *`, not `git *`.
    void alwaysApprovesArityPrefixes()
    {
        const QString project = QDir::tempPath();
        ToolContext context;
        context.directory = project;
        context.worktree = project;
        const auto always = [&](const QString &command) { return BashTool::permissions(context, command, project).command.always; };
        QCOMPARE(always(u"git checkout main"_s), QStringList{u"git checkout *"_s});
        QCOMPARE(always(u"npm run dev -- --port 3"_s), QStringList{u"npm run dev *"_s});
        QCOMPARE(always(u"rm *.o"_s), QStringList());
        QCOMPARE(always(u"touch a"_s), QStringList());
        QCOMPARE(always(u"git $(echo push) x"_s), QStringList());
        QCOMPARE(always(u"git 'che*' x"_s), QStringList());

        PermissionGate gate(PermissionGate::AskPolicy::Interactive);
        const PermissionRuleset rules = Permission::fromConfig(JsonValue(JsonObject{{u"bash"_s, u"ask"_s}}));
        const auto ask = [&](const QString &command, PermissionReply reply) {
            bool asked = false;
            PermissionAsk question = BashTool::permissions(context, command, project).command;
            gate.ask(Permission::request(question, u"ses"_s, {}, {}), rules,
                     [&](const PermissionRequest &r) {
                         asked = true;
                         gate.answer(r.id, reply);
                     },
                     [] { return false; });
            return asked;
        };
        QVERIFY(ask(u"git checkout main"_s, PermissionReply::Always));
        QVERIFY(!ask(u"git checkout -b topic"_s, PermissionReply::Reject));
        QVERIFY(ask(u"git push --force"_s, PermissionReply::Reject));
        QVERIFY(ask(u"git checkout main; rm -rf x"_s, PermissionReply::Reject));
    }

    /// An approval never outweighs a rule that denies.
    void approvalsDoNotBeatDenyRules()
    {
        PermissionGate gate(PermissionGate::AskPolicy::Interactive);
        PermissionRequest request{{}, u"ses"_s, {}, {}, u"bash"_s, {u"make"_s}, {}};
        const PermissionRuleset askAll{{u"bash"_s, u"*"_s, PermissionRule::Action::Ask}};
        QCOMPARE(gate.ask(request, askAll, [&](const PermissionRequest &r) { gate.answer(r.id, PermissionReply::Always); },
                          [] { return false; }),
                 PermissionDecision::Allow);
        const PermissionRuleset denyMake{{u"bash"_s, u"make"_s, PermissionRule::Action::Deny}};
        QCOMPARE(gate.ask(request, denyMake, {}, [] { return false; }), PermissionDecision::Deny);
    }

    /// The analyser's view of some lines, word by word.
    void analysis_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QStringList>("commands");
        QTest::addColumn<bool>("complete");
        QTest::newRow("pipeline") << u"cat a | grep -v 'x y' | wc -l"_s
                                  << QStringList{u"cat a"_s, u"grep -v x y"_s, u"wc -l"_s} << true;
        QTest::newRow("substitution-order") << u"echo $(date) x"_s << QStringList{u"echo $(date) x"_s, u"date"_s} << true;
        QTest::newRow("assignment-prefix") << u"A=1 B=\"2\" make -j4"_s << QStringList{u"make -j4"_s} << true;
        QTest::newRow("path-name") << u"/usr/bin/env FOO=1 ls"_s << QStringList{u"env FOO=1 ls"_s, u"ls"_s} << true;
        QTest::newRow("home") << u"ls ~/x \"$HOME\"/y"_s
                              << QStringList{u"ls %1/x %1/y"_s.arg(QDir::homePath())} << true;
        QTest::newRow("dynamic-arg") << u"rm \"$f\""_s << QStringList{u"rm \"$f\""_s} << true;
        QTest::newRow("bash-c") << u"bash -ec 'a; b'"_s << QStringList{u"bash -ec a; b"_s, u"a"_s, u"b"_s} << true;
        QTest::newRow("syntax-error") << u"echo (("_s << QStringList{} << false;
        QTest::newRow("empty") << QString() << QStringList{} << true;
    }
    void analysis()
    {
        QFETCH(QString, line);
        QFETCH(QStringList, commands);
        QFETCH(bool, complete);
        const ShellSyntax::Analysis a = ShellSyntax::analyze(line);
        QStringList got;
        for (const ShellSyntax::Command &c : a.commands)
            got.append(c.normalized());
        if (!commands.isEmpty() || complete)
            QCOMPARE(got, commands);
        QCOMPARE(a.complete, complete);
    }

    /// Hostile sizes: too long, or nested deeper than followed, is incomplete, never a crash.
    void hostileSizes()
    {
        const QString longLine = u"echo "_s + QString(ShellSyntax::MaxLineBytes, u'a');
        QVERIFY(!ShellSyntax::analyze(longLine).complete);
        QString nested = u"rm x"_s;
        for (int i = 0; i < 10; ++i)
            nested = u"bash -c %1"_s.arg(u"'"_s + QString(nested).replace(u"'"_s, u"'\\''"_s) + u"'"_s);
        QVERIFY(!ShellSyntax::analyze(nested).complete);
        QString deep = u"rm x"_s;
        for (int i = 0; i < 2000; ++i)
            deep = u"echo $("_s + deep + u")"_s;
        const ShellSyntax::Analysis a = ShellSyntax::analyze(deep);
        QVERIFY(!a.commands.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestBashPermission)
#include "tst_bashpermission.moc"
