// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Fake MCP servers for tests: the behaviour (FakeMcpLogic) shared by the stdio server executable
// (tests/mcp/fakemcpstdio.cpp) and the loopback streamable-HTTP server (FakeMcpHttpServer).
//
// Tools: echo {text}, add {a, b}, image, resource, fail (isError), die (the server goes away
// mid-call), hang (never answered), hostile (garbage before the answer), notify (list_changed,
// then "late" appears), big (3000 lines), "my.tool/name" (a name to sanitise). One prompt: greet.
// Three resources: notes (text), logo (a PNG blob), gone (cannot be read).

#include "core/json.h"
#include "fakellmserver.h"

#include <QList>
#include <QMutex>
#include <QObject>
#include <QThread>
#include <QPointer>
#include <QStringList>
#include <QTcpServer>
#include <QTcpSocket>

namespace weft::test
{

/// A `mcp` config entry that starts the stdio fake @p program with @p args, plus @p more keys
/// (timeout, enabled, environment).
[[nodiscard]] JsonObject fakeMcpLocal(const QString &program, const QStringList &args = {}, const JsonObject &more = {});

class FakeMcpLogic
{
public:
    struct Options {
        int pageSize = 0; ///< tools per tools/list page (0: all at once)
        QString protocolVersion; ///< answered to initialize (empty: the client's)
        bool answerInitialize = true;
    };
    /// What to do with one incoming message.
    struct Output {
        QList<JsonObject> messages; ///< to send, in order
        QList<QByteArray> garbage; ///< raw lines to send before them (hostile output)
        bool die = false; ///< go away without answering
    };

    FakeMcpLogic() = default;
    explicit FakeMcpLogic(Options options) : m_options(options) { }
    Output handle(const JsonObject &message);
    [[nodiscard]] QStringList methods() const { return m_methods; }

private:
    [[nodiscard]] QList<JsonObject> toolList() const;
    Options m_options;
    QStringList m_methods;
    bool m_late = false;
};

/// A streamable-HTTP MCP server on 127.0.0.1, on a thread of its own (a test blocks its thread
/// while it waits for an MCP call, as a run's worker thread does) (POST /mcp; answers as JSON or as an SSE stream;
/// Mcp-Session-Id; GET /mcp is 405). With legacySse, only the older HTTP+SSE transport: GET /sse
/// gives the event stream with its `endpoint`, POST /messages?session=1 answers on the stream.
class FakeMcpHttpServer : public QObject
{
    Q_OBJECT

public:
    struct Options {
        bool sse = false; ///< answer POSTs with an SSE stream instead of JSON
        bool legacySse = false;
        FakeMcpLogic::Options logic;
    };
    FakeMcpHttpServer();
    explicit FakeMcpHttpServer(Options options);
    ~FakeMcpHttpServer() override;
    /// Starts the thread and listens there; false when it could not listen.
    bool listen();
    [[nodiscard]] QString url() const;
    /// What was received so far (copies: the server thread keeps adding).
    [[nodiscard]] QList<FakeRequest> requests() const;
    [[nodiscard]] QStringList methods() const;

private:
    /// Lives on the thread.
    class Worker;
    QThread m_thread;
    Worker *m_worker = nullptr;
    quint16 m_port = 0;
    bool m_legacy = false;
};

class FakeMcpHttpServer::Worker : public QObject
{
    Q_OBJECT

public:
    explicit Worker(Options options);
    quint16 listen();
    QList<FakeRequest> requests() const;
    QStringList methods() const;

private:
    void onReadyRead(QTcpSocket *socket);
    void handle(QTcpSocket *socket, const FakeRequest &request);
    FakeMcpLogic::Output handleLocked(const JsonObject &message);
    void writeReply(QTcpSocket *socket, int status, const QByteArray &type, const QByteArray &body,
                    const QList<std::pair<QByteArray, QByteArray>> &headers = {});

    Options m_options;
    FakeMcpLogic m_logic;
    QTcpServer m_server{this};
    mutable QMutex m_mutex;
    QList<FakeRequest> m_requests;
    QHash<QTcpSocket *, QByteArray> m_buffers;
    QPointer<QTcpSocket> m_legacyStream;
    QByteArray m_sessionId = "fake-session-1";
};

} // namespace weft::test
