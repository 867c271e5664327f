// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The provider tests' fixture (the loopback server for each test function) and recorder of what
// a Provider emits.

#include "fakellmserver.h"
#include "provider/provider.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QObject>
#include <QStringList>
#include <QTest>
#include <QTimer>

#include <functional>
#include <optional>

namespace weft::test
{

/// A request of the provider tests: @p system, then @p user, and the `read` tool (its file path
/// required when @p required).
inline LlmRequest readRequest(const QString &providerID, const QString &modelID, qint64 maxOutputTokens,
                              const QString &system, const QString &user, bool required = false)
{
    JsonObject schema{{QStringLiteral("type"), QStringLiteral("object")},
                      {QStringLiteral("properties"),
                       JsonObject{{QStringLiteral("filePath"), JsonObject{{QStringLiteral("type"), QStringLiteral("string")}}}}}};
    if (required)
        schema.insert(QStringLiteral("required"), JsonArray{QStringLiteral("filePath")});
    LlmRequest r;
    r.providerID = providerID;
    r.modelID = modelID;
    r.maxOutputTokens = maxOutputTokens;
    r.messages = {LlmMessage::system(system), LlmMessage::user(user)};
    r.tools = {LlmToolDefinition{QStringLiteral("read"), QStringLiteral("Reads a file"), schema}};
    return r;
}

/// A provider test: the loopback LLM server (m_server), new for each test function.
class ProviderTest : public QObject
{
    Q_OBJECT

protected:
    FakeLlmServer *m_server = nullptr;

protected Q_SLOTS:
    void init()
    {
        m_server = new FakeLlmServer(this);
        QVERIFY(m_server->listen());
    }

    void cleanup()
    {
        delete m_server;
        m_server = nullptr;
    }
};

class EventRecorder : public QObject
{
public:
    explicit EventRecorder(Provider *provider)
        : m_provider(provider)
    {
        connect(provider, &Provider::event, this, [this](const LlmEvent &e) {
            if (endings > 0)
                ++eventsAfterEnd;
            events.append(e);
            if (onEvent)
                onEvent(e);
        });
        connect(provider, &Provider::finished, this, [this] {
            finished = true;
            ++endings;
            if (m_loop)
                m_loop->quit();
        });
        connect(provider, &Provider::failed, this, [this](const MessageError &e, std::optional<qint64> retry) {
            error = e;
            retryAfterMs = retry;
            ++endings;
            if (m_loop)
                m_loop->quit();
        });
    }

    /// Delivers what is on its way already (queued signals, network data read), with no sleep:
    /// whatever the provider would emit late is in endings and eventsAfterEnd after this.
    static void deliverPending()
    {
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
        QCoreApplication::sendPostedEvents();
    }

    /// Waits for finished() or failed(), then delivers what is on its way (deliverPending()).
    bool wait(int timeoutMs = 15000)
    {
        // An event loop rather than QTest::qWaitFor, which sleeps 10 ms between rounds and would
        // slow a stream of tiny packets down to a crawl.
        if (endings == 0) {
            QEventLoop loop;
            QTimer timer;
            timer.setSingleShot(true);
            connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
            timer.start(timeoutMs);
            m_loop = &loop;
            loop.exec();
            m_loop = nullptr;
        }
        deliverPending();
        return endings > 0;
    }

    /// Starts @p request on the provider and waits for its end (wait()).
    bool run(const LlmRequest &request, int timeoutMs = 15000)
    {
        m_provider->start(request);
        return wait(timeoutMs);
    }

    /// Checks that the run ended in failed() on an error response, before any event, with the
    /// error @p name, @p message and retryability. Like QVERIFY, it returns at the first check
    /// that fails: the caller goes on only while !QTest::currentTestFailed().
    void verifyErrorResponse(const QString &name, const QString &message, bool retryable) const
    {
        QVERIFY(!finished);
        QVERIFY(error);
        QCOMPARE(endings, 1);
        QVERIFY(events.isEmpty()); // no "start" for an error response
        QCOMPARE(error->name(), name);
        QCOMPARE(error->message(), message);
        QCOMPARE(error->isRetryable(), retryable);
    }

    void clear()
    {
        events.clear();
        finished = false;
        error.reset();
        retryAfterMs.reset();
        endings = 0;
        eventsAfterEnd = 0;
    }

    [[nodiscard]] QStringList types() const
    {
        QStringList out;
        for (const LlmEvent &e : events)
            out.append(LlmEvent::typeName(e.type));
        return out;
    }

    [[nodiscard]] QString joined(LlmEvent::Type type, const QString &id = {}) const
    {
        QString out;
        for (const LlmEvent &e : events) {
            if (e.type == type && (id.isEmpty() || e.id == id))
                out += e.text;
        }
        return out;
    }

    [[nodiscard]] QList<LlmEvent> ofType(LlmEvent::Type type) const
    {
        QList<LlmEvent> out;
        for (const LlmEvent &e : events) {
            if (e.type == type)
                out.append(e);
        }
        return out;
    }

    [[nodiscard]] qsizetype indexOf(LlmEvent::Type type, const QString &id = {}) const
    {
        for (qsizetype i = 0; i < events.size(); ++i) {
            if (events.at(i).type == type && (id.isEmpty() || events.at(i).id == id))
                return i;
        }
        return -1;
    }

    QList<LlmEvent> events;
    bool finished = false;
    std::optional<MessageError> error;
    std::optional<qint64> retryAfterMs;
    int endings = 0;
    int eventsAfterEnd = 0;
    std::function<void(const LlmEvent &)> onEvent;

private:
    Provider *m_provider;
    QEventLoop *m_loop = nullptr;
};

} // namespace weft::test
