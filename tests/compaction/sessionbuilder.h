// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Hand-built sessions for the compaction tests: user turns, assistant answers with tool outputs
// of a given token size (OpenCode's estimate: 4 characters per token), compaction markers and
// summaries, in memory or written to a store.

#include "core/identifier.h"
#include "core/types.h"
#include "session/sessionservice.h"

#include <QList>
#include <QString>

namespace weft::test
{

class SessionBuilder
{
public:
    explicit SessionBuilder(QString sessionID = QStringLiteral("ses_0000000000000000000000test"))
        : m_sessionID(std::move(sessionID))
    {
    }

    [[nodiscard]] const QString &sessionID() const { return m_sessionID; }
    [[nodiscard]] const QList<MessageWithParts> &messages() const { return m_messages; }
    [[nodiscard]] QList<MessageWithParts> &messages() { return m_messages; }
    [[nodiscard]] const MessageWithParts &last() const { return m_messages.last(); }

    /// A user message with one text part; returns its ID.
    QString user(const QString &text = QStringLiteral("please go on"))
    {
        Message m = Message::makeUser(Identifier::ascending(Identifier::Kind::Message), m_sessionID, tick(), QStringLiteral("build"),
                                      QStringLiteral("fake"), QStringLiteral("gpt-test"));
        m_lastUser = m.id();
        m_messages.append({m, {Part::makeText(Identifier::ascending(Identifier::Kind::Part), m_sessionID, m.id(), text)}});
        return m.id();
    }

    /// A user message with only synthetic text (the continue message of an auto compaction).
    QString syntheticUser(const QString &text)
    {
        const QString id = user(text);
        m_messages.last().parts.first().json().insert(QStringLiteral("synthetic"), true);
        return id;
    }

    /// A user message that only carries a subtask part (a tool the user ran).
    QString subtaskUser()
    {
        Message m = Message::makeUser(Identifier::ascending(Identifier::Kind::Message), m_sessionID, tick(), QStringLiteral("build"),
                                      QStringLiteral("fake"), QStringLiteral("gpt-test"));
        Part p = Part::make(Identifier::ascending(Identifier::Kind::Part), m_sessionID, m.id(), PartType::Subtask);
        p.json().insert(QStringLiteral("prompt"), QStringLiteral("run it"));
        p.json().insert(QStringLiteral("description"), QStringLiteral("a task"));
        p.json().insert(QStringLiteral("agent"), QStringLiteral("general"));
        m_lastUser = m.id();
        m_messages.append({m, {p}});
        return m.id();
    }

    /// An assistant answer to the last user message, with a text part.
    QString assistant(const QString &text = QStringLiteral("done"), const QString &finish = QStringLiteral("stop"),
                      const Tokens &tokens = {})
    {
        Message m = Message::makeAssistant(Identifier::ascending(Identifier::Kind::Message), m_sessionID, tick(), m_lastUser,
                                           QStringLiteral("fake"), QStringLiteral("gpt-test"), QStringLiteral("build"),
                                           QStringLiteral("/tmp"), QStringLiteral("/tmp"));
        m.setTokens(tokens);
        if (!finish.isEmpty())
            m.setFinish(finish);
        m.setCompleted(m.created() + 1);
        QList<Part> parts;
        if (!text.isEmpty())
            parts.append(Part::makeText(Identifier::ascending(Identifier::Kind::Part), m_sessionID, m.id(), text));
        m_messages.append({m, parts});
        return m.id();
    }

    /// A completed tool call of @p tokens output tokens on the last message; returns the part ID.
    QString tool(qint64 tokens, const QString &name = QStringLiteral("bash"), ToolStatus status = ToolStatus::Completed,
                 qint64 compacted = 0)
    {
        MessageWithParts &m = m_messages.last();
        Part p = Part::make(Identifier::ascending(Identifier::Kind::Part), m_sessionID, m.info.id(), PartType::Tool);
        p.json().insert(QStringLiteral("callID"), QStringLiteral("call_") + p.id().right(8));
        p.json().insert(QStringLiteral("tool"), name);
        const JsonObject input{{QStringLiteral("command"), QStringLiteral("ls")}};
        ToolState state;
        switch (status) {
        case ToolStatus::Completed:
            state = ToolState::completed(input, QString(tokens * 4, u'x'), QStringLiteral("ls"), {}, 1, 2);
            break;
        case ToolStatus::Error:
            state = ToolState::error(input, QString(tokens * 4, u'e'), 1, 2);
            break;
        default:
            state = ToolState::running(input, 1);
            break;
        }
        if (compacted > 0)
            state.setCompacted(compacted);
        p.setState(state);
        m.parts.append(p);
        return p.id();
    }

    /// A compaction marker (user message with a compaction part).
    QString marker(bool automatic = false, const QString &tailStartID = {})
    {
        Message m = Message::makeUser(Identifier::ascending(Identifier::Kind::Message), m_sessionID, tick(), QStringLiteral("build"),
                                      QStringLiteral("fake"), QStringLiteral("gpt-test"));
        Part p = Part::make(Identifier::ascending(Identifier::Kind::Part), m_sessionID, m.id(), PartType::Compaction);
        p.json().insert(QStringLiteral("auto"), automatic);
        if (!tailStartID.isEmpty())
            p.json().insert(QStringLiteral("tail_start_id"), tailStartID);
        m_lastUser = m.id();
        m_messages.append({m, {p}});
        return m.id();
    }

    /// The summary answer to the last marker.
    QString summary(const QString &text = QStringLiteral("## Summary"), const QString &finish = QStringLiteral("stop"),
                    qint64 outputTokens = 0)
    {
        Tokens tokens;
        tokens.output = outputTokens;
        const QString id = assistant(text, finish, tokens);
        Message &m = m_messages.last().info;
        m.json().insertAfter(u"path", QStringLiteral("summary"), true);
        m.json().insert(QStringLiteral("mode"), QStringLiteral("compaction"));
        m.json().insert(QStringLiteral("agent"), QStringLiteral("compaction"));
        if (finish.isEmpty()) {
            JsonObject time = m.json().object(u"time");
            time.remove(u"completed");
            m.json().insert(QStringLiteral("time"), time);
        }
        return id;
    }

    /// Writes every message and part through @p service.
    bool write(SessionService &service) const
    {
        for (const MessageWithParts &m : m_messages) {
            if (!service.updateMessage(m.info))
                return false;
            for (const Part &p : m.parts) {
                if (!service.updatePart(p))
                    return false;
            }
        }
        return true;
    }

private:
    qint64 tick() { return m_clock += 10; }

    QString m_sessionID;
    QString m_lastUser;
    QList<MessageWithParts> m_messages;
    qint64 m_clock = 1700000000000;
};

/// IDs of messages, for comparisons.
inline QStringList messageIds(const QList<MessageWithParts> &messages)
{
    QStringList ids;
    for (const MessageWithParts &m : messages)
        ids.append(m.info.id());
    return ids;
}

} // namespace weft::test
