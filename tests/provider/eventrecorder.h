// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Records what a Provider emits, for the provider tests.

#include "provider/provider.h"

#include <QEventLoop>
#include <QObject>
#include <QStringList>
#include <QTest>
#include <QTimer>

#include <functional>
#include <optional>

namespace weft::test
{

class EventRecorder : public QObject
{
public:
    explicit EventRecorder(Provider *provider)
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

    /// Waits for finished() or failed(), then a little more to catch anything emitted late.
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
        QTest::qWait(30);
        return endings > 0;
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
    QEventLoop *m_loop = nullptr;
};

} // namespace weft::test
