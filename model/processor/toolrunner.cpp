// SPDX-License-Identifier: GPL-3.0-or-later
#include "toolrunner.h"
#include "step.h"

#include "core/identifier.h"
#include "tools/questiontool.h"

#include <QDateTime>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{

/// A tool's attachments as OpenCode stores them in the tool state: file parts with their own IDs.
JsonArray toolAttachments(const JsonArray &files, const QString &sessionID, const QString &messageID)
{
    JsonArray parts;
    for (const JsonValue &file : files) {
        JsonObject part{{u"id"_s, Identifier::ascending(Identifier::Kind::Part)},
                        {u"sessionID"_s, sessionID},
                        {u"messageID"_s, messageID}};
        const JsonObject fields = file.toObject();
        for (qsizetype i = 0; i < fields.size(); ++i)
            part.insert(fields.keyAt(i), fields.valueAt(i));
        parts.append(part);
    }
    return parts;
}
} // namespace

ToolRunner::ToolRunner(QString sessionID, Host host, QObject *parent)
    : QObject(parent)
    , m_sessionID(std::move(sessionID))
    , m_host(std::move(host))
{
}

ToolRunner::~ToolRunner()
{
    // The calls that still run use the host: they end first.
    if (m_pool)
        m_pool->waitForDone();
}

QThreadPool *ToolRunner::pool()
{
    if (!m_pool) {
        m_pool = std::make_unique<QThreadPool>();
        m_pool->setObjectName(u"weft-tools-"_s + m_sessionID.right(8));
        // Enough for the calls of one step; a `task` call holds its thread for the sub-agent.
        m_pool->setMaxThreadCount(16);
    }
    return m_pool.get();
}

void ToolRunner::run(const QString &messageID, const QList<Part> &calls,
                     std::function<void(const QList<Outcome> &)> done)
{
    if (calls.isEmpty())
        return done({});
    // The doom loop is judged in the order the model issued the calls.
    QList<bool> repeated;
    for (const Part &call : calls)
        repeated.append(isDoomLoop(call.tool(), call.state().input()));
    struct Batch {
        QList<Outcome> outcomes;
        qsizetype remaining = 0;
        std::function<void(const QList<Outcome> &)> done;
    };
    auto batch = std::make_shared<Batch>();
    batch->outcomes.resize(calls.size());
    batch->remaining = calls.size();
    batch->done = std::move(done);
    for (qsizetype i = 0; i < calls.size(); ++i) {
        offThread<Outcome>([this, messageID, call = calls.at(i), repeated = repeated.at(i)] {
            return execute(messageID, call, repeated);
        }, [this, batch, i](Outcome outcome) {
            batch->outcomes[i] = std::move(outcome);
            if (--batch->remaining > 0)
                return;
            m_host.flush();
            batch->done(batch->outcomes);
        });
    }
}

ToolRunner::Outcome ToolRunner::execute(const QString &messageID, Part part, bool repeated)
{
    Outcome outcome;
    const ToolState state = part.state();
    const JsonObject input = state.input();
    const qint64 start = now();
    auto fail = [&](const QString &message) {
        part.setState(ToolState::error(input, message, start, now()));
        m_host.writePart(part);
    };
    if (aborted()) {
        fail(u"Tool execution aborted"_s);
        return outcome;
    }
    std::shared_ptr<Tool> tool;
    for (const std::shared_ptr<Tool> &t : std::as_const(m_tools)) {
        if (t->name() == part.tool())
            tool = t;
    }
    if (!tool) {
        QStringList names;
        for (const std::shared_ptr<Tool> &t : std::as_const(m_tools))
            names.append(t->name());
        fail(u"Unknown tool \"%1\". Available tools: %2"_s.arg(part.tool(), names.join(u", "_s)));
        return outcome;
    }
    if (!state.json().string(u"inputError").isEmpty()) {
        fail(u"Invalid input for tool %1: %2"_s.arg(part.tool(), state.json().string(u"inputError")));
        return outcome;
    }
    if (repeated
        && m_host.ask(PermissionAsk{u"doom_loop"_s, {part.tool()}, {}, false,
                                    JsonObject{{u"tool"_s, part.tool()}, {u"input"_s, input}}},
                      messageID, part.callID())
            == PermissionDecision::Deny) {
        outcome.doomLoop = u"Doom loop detected: the tool \"%1\" was called three times in a row with the same input. "
                           u"The run was stopped."_s.arg(part.tool());
        fail(outcome.doomLoop);
        return outcome;
    }

    part.setState(ToolState::running(input, start));
    m_host.writePart(part);
    ToolContext context = m_host.context(messageID, part, input, start);
    const ToolResult result = tool->execute(context, input);
    m_host.flush();
    if (aborted() && !result.ok) {
        fail(u"Tool execution aborted"_s);
        return outcome;
    }
    if (result.ok) {
        ToolState state = ToolState::completed(input, result.output, result.title, result.metadata, start, now());
        if (!result.attachments.isEmpty())
            state.json().insert(u"attachments"_s, toolAttachments(result.attachments, m_sessionID, messageID));
        part.setState(state);
    } else
        part.setState(ToolState::error(input, result.error, start, now(), result.metadata));
    m_host.writePart(part);
    outcome.dismissed = !result.ok && tool->name() == u"question" && result.error == QuestionTool::DismissedError;
    return outcome;
}

bool ToolRunner::isDoomLoop(const QString &tool, const JsonObject &input)
{
    // Doom loop: the same call three times in a row.
    const QByteArray signature = tool.toUtf8() + toJson(input, 0);
    m_recentCalls.append(signature);
    if (m_recentCalls.size() > 3)
        m_recentCalls.removeFirst();
    return m_recentCalls.size() == 3 && m_recentCalls.at(0) == signature && m_recentCalls.at(1) == signature;
}

} // namespace weft
