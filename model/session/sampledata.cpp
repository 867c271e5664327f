// SPDX-License-Identifier: GPL-3.0-or-later
#include "sampledata.h"

#include "core/identifier.h"
#include "sessionservice.h"

#include <QDateTime>

using namespace Qt::StringLiterals;

namespace weft::SampleData
{

namespace
{
constexpr auto ProviderID = u"anthropic";
constexpr auto ModelID = u"claude-sonnet-4-5";

/// Builds a session message by message, with times that advance like a real conversation.
class Writer
{
public:
    Writer(SessionService &service, const Session &session, qint64 start)
        : m_service(service)
        , m_session(session)
        , m_time(start)
    {
    }

    qint64 tick(qint64 ms = 1500) { return m_time += ms; }

    QString part(const QString &messageID, PartType type, const JsonObject &fields)
    {
        Part p = Part::make(Identifier::create(Identifier::Kind::Part, false, tick(7)), m_session.id(), messageID, type);
        for (qsizetype i = 0; i < fields.size(); ++i)
            p.json().insert(fields.keyAt(i), fields.valueAt(i));
        (void)m_service.updatePart(p);
        return p.id();
    }

    QString user(const QString &text, const QString &agent = u"build"_s)
    {
        const qint64 t = tick(20000);
        Message m = Message::makeUser(Identifier::create(Identifier::Kind::Message, false, t), m_session.id(), t, agent,
                                      QString(ProviderID), QString(ModelID));
        (void)m_service.updateMessage(m);
        part(m.id(), PartType::Text, {{u"text"_s, text}});
        m_lastUser = m.id();
        return m.id();
    }

    Message assistant(const QString &agent = u"build"_s)
    {
        const qint64 t = tick();
        Message m = Message::makeAssistant(Identifier::create(Identifier::Kind::Message, false, t), m_session.id(), t,
                                           m_lastUser, QString(ProviderID), QString(ModelID), agent,
                                           m_session.directory(), m_session.directory());
        (void)m_service.updateMessage(m);
        return m;
    }

    void finish(Message &m, const Tokens &tokens, double cost, const QString &reason)
    {
        part(m.id(), PartType::StepFinish,
             {{u"reason"_s, reason}, {u"snapshot"_s, u"4b825dc642cb6eb9a060e54bf8d69288fbee4904"_s}, {u"cost"_s, cost}, {u"tokens"_s, tokens.toJson()}});
        m.setCompleted(tick(300));
        m.setCost(cost);
        m.setTokens(tokens);
        m.setFinish(reason);
        (void)m_service.updateMessage(m);
    }

    QString tool(const QString &messageID, const QString &tool, const ToolState &state)
    {
        return part(messageID, PartType::Tool,
                    {{u"callID"_s, QString(u"toolu_"_s + QString::number(m_time, 36))}, {u"tool"_s, tool}, {u"state"_s, state.json()}});
    }

    qint64 now() const { return m_time; }

private:
    SessionService &m_service;
    Session m_session;
    qint64 m_time;
    QString m_lastUser;
};

const QString s_before = uR"(#include <stdio.h>

int main(void)
{
    printf("hello\n");
    return 0;
}
)"_s;

const QString s_after = uR"(#include <stdio.h>
#include <string.h>

static void greet(const char *name)
{
    printf("hello, %s\n", name);
}

int main(int argc, char **argv)
{
    greet(argc > 1 ? argv[1] : "world");
    return 0;
}
)"_s;

} // namespace

Result<QString> create(SessionService &service, const QString &directory)
{
    const qint64 start = QDateTime::currentMSecsSinceEpoch() - 3 * 3600 * 1000;
    SessionService::CreateOptions options;
    options.directory = directory;
    options.projectID = u"global"_s;
    options.title = u"Welcome to Weft: greet the user by name"_s;
    options.now = start;
    Result<Session> created = service.create(options);
    if (!created)
        return created.error();
    const Session session = created.value();
    Writer w(service, session, start);

    // Turn 1: reading and editing, with tool calls that completed and one that failed.
    w.user(u"Make hello.c greet the user by name given on the command line, and keep it building."_s);
    Message a1 = w.assistant();
    w.part(a1.id(), PartType::StepStart, {{u"snapshot"_s, u"4b825dc642cb6eb9a060e54bf8d69288fbee4904"_s}});
    w.part(a1.id(), PartType::Reasoning,
           {{u"text"_s, u"The user wants a name argument. I should read hello.c first, then edit main and add a helper."_s},
            {u"time"_s, JsonObject{{u"start"_s, w.now()}, {u"end"_s, w.now() + 900}}}});
    w.part(a1.id(), PartType::Text, {{u"text"_s, u"I'll read `hello.c` first."_s}, {u"time"_s, JsonObject{{u"start"_s, w.now()}, {u"end"_s, w.now() + 200}}}});
    const QString file = directory + u"/hello.c"_s;
    w.tool(a1.id(), u"read"_s,
           ToolState::completed(JsonObject{{u"filePath"_s, file}}, u"<file>\n00001| #include <stdio.h>\n00002| \n00003| int main(void)\n00004| {\n00005|     printf(\"hello\\n\");\n00006|     return 0;\n00007| }\n</file>"_s,
                                u"hello.c"_s, JsonObject{{u"preview"_s, s_before}}, w.tick(), w.tick(40)));
    w.tool(a1.id(), u"edit"_s,
           ToolState::error(JsonObject{{u"filePath"_s, file}, {u"oldString"_s, u"int main()"_s}, {u"newString"_s, u"int main(int argc)"_s}},
                            u"Error: oldString not found in content"_s, w.tick(), w.tick(20)));
    w.tool(a1.id(), u"write"_s,
           ToolState::completed(JsonObject{{u"filePath"_s, file}, {u"content"_s, s_after}}, u"Wrote file successfully."_s,
                                u"hello.c"_s, JsonObject{{u"diagnostics"_s, JsonObject{}}}, w.tick(), w.tick(30)));
    w.part(a1.id(), PartType::Patch, {{u"hash"_s, u"9d1c7e0b3f2a4c5d6e7f8091a2b3c4d5e6f70812"_s}, {u"files"_s, JsonArray{file}}});
    w.finish(a1, {2400, 310, 120, 1800, 600}, 0.01434, u"tool-calls"_s);

    Message a2 = w.assistant();
    w.part(a2.id(), PartType::StepStart, {{u"snapshot"_s, u"9d1c7e0b3f2a4c5d6e7f8091a2b3c4d5e6f70812"_s}});
    w.tool(a2.id(), u"bash"_s,
           ToolState::completed(JsonObject{{u"command"_s, u"cc -Wall -o hello hello.c && ./hello Ada"_s}, {u"description"_s, u"Build and run hello"_s}},
                                u"hello, Ada\n"_s, u"Build and run hello"_s, JsonObject{{u"exit"_s, 0}}, w.tick(), w.tick(800)));
    w.part(a2.id(), PartType::Text,
           {{u"text"_s, u"Done. `hello.c` now takes a name:\n\n```c\nstatic void greet(const char *name)\n{\n    printf(\"hello, %s\\n\", name);\n}\n```\n\n"
                         u"`./hello Ada` prints `hello, Ada`; without an argument it greets the world."_s},
            {u"time"_s, JsonObject{{u"start"_s, w.now()}, {u"end"_s, w.now() + 1200}}}});
    w.finish(a2, {2900, 180, 0, 4200, 0}, 0.00927, u"stop"_s);

    // Turn 2: a retry, then tools still pending and running (an interrupted turn).
    w.user(u"Now add a --shout flag that prints the greeting in upper case."_s);
    Message a3 = w.assistant();
    w.part(a3.id(), PartType::Retry,
           {{u"attempt"_s, 1},
            {u"error"_s, MessageError::api(u"Overloaded"_s, 529, true).json()},
            {u"time"_s, JsonObject{{u"created"_s, w.tick()}}}});
    w.part(a3.id(), PartType::StepStart, {});
    w.part(a3.id(), PartType::Text, {{u"text"_s, u"I'll add option parsing and an upper-case copy of the name."_s}});
    w.tool(a3.id(), u"edit"_s,
           ToolState::running(JsonObject{{u"filePath"_s, file}, {u"oldString"_s, u"greet(argc > 1"_s}, {u"newString"_s, u"greet_loud(argc > 1"_s}},
                              w.tick(), u"hello.c"_s));
    w.tool(a3.id(), u"bash"_s, ToolState::pending(JsonObject{}, u"{\"command\": \"cc -o hel"_s));
    a3.setError(MessageError::aborted(u"The operation was aborted."_s));
    a3.setCompleted(w.tick());
    (void)service.updateMessage(a3);

    // A compaction: the user asked to condense the conversation, the model summarised it.
    const QString compactUser = w.user(u"Summarise what we did."_s);
    w.part(compactUser, PartType::Compaction, {{u"auto"_s, false}});
    Message summary = w.assistant(u"compaction"_s);
    summary.json().insert(u"summary"_s, true);
    w.part(summary.id(), PartType::Text,
           {{u"text"_s, u"## Summary\n\n- `hello.c` greets the name given as the first argument (`greet()` helper).\n"
                         u"- It builds with `cc -Wall` and `./hello Ada` prints `hello, Ada`.\n"
                         u"- Next: a `--shout` flag (started, interrupted before it was applied)."_s}});
    w.finish(summary, {5200, 160, 0, 0, 0}, 0.0180, u"stop"_s);

    (void)service.setDiff(session.id(), {FileDiff::fromContents(file, s_before, s_after, 9, 2)});
    (void)service.update(session.id(), [&](Session &s) {
        s.setSummary(9, 2, 1);
        s.setUpdated(w.now());
    }, false);

    // A child session (what the task tool makes) and a fork from the first turn.
    SessionService::CreateOptions child;
    child.directory = directory;
    child.projectID = u"global"_s;
    child.parentID = session.id();
    child.title = u"Check the build flags (@general subagent)"_s;
    child.now = start + 60000;
    if (Result<Session> c = service.create(child)) {
        Writer cw(service, c.value(), start + 60000);
        cw.user(u"Check which warnings cc -Wall -Wextra reports for hello.c."_s, u"general"_s);
        Message ca = cw.assistant(u"general"_s);
        cw.tool(ca.id(), u"bash"_s,
                ToolState::completed(JsonObject{{u"command"_s, u"cc -Wall -Wextra -c hello.c"_s}}, u""_s, u"cc -Wall -Wextra -c hello.c"_s,
                                     JsonObject{{u"exit"_s, 0}}, cw.tick(), cw.tick(500)));
        cw.part(ca.id(), PartType::Text, {{u"text"_s, u"No warnings with `-Wall -Wextra`."_s}});
        cw.finish(ca, {800, 40, 0, 0, 0}, 0.0030, u"stop"_s);
    }

    const QList<MessageWithParts> messages = service.messages(session.id());
    if (messages.size() > 3)
        (void)service.fork(session.id(), messages.at(3).info.id());

    return session.id();
}

} // namespace weft::SampleData
