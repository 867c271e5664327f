// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Fake MCP servers for tests: the behaviour (FakeMcpLogic) shared by the stdio server executable
// (tests/mcp/fakemcpstdio.cpp) and the loopback streamable-HTTP server (FakeMcpHttpServer).
//
// Tools: echo {text}, add {a, b}, image, resource, fail (isError), die (the server goes away
// mid-call), hang (never answered), hostile (garbage before the answer), notify (list_changed,
// then "late" appears), big (3000 lines), "my.tool/name" (a name to sanitise). One prompt: greet.

#include "core/json.h"
#include "fakellmserver.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTcpServer>
#include <QTcpSocket>

namespace weft::test
{

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

    explicit FakeMcpLogic(Options options = {}) : m_options(options) { }
    Output handle(const JsonObject &message);
    [[nodiscard]] QStringList methods() const { return m_methods; }

private:
    [[nodiscard]] QList<JsonObject> toolList() const;
    Options m_options;
    QStringList m_methods;
    bool m_late = false;
};

/// A streamable-HTTP MCP server on 127.0.0.1 (POST /mcp; answers as JSON or as an SSE stream;
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
    explicit FakeMcpHttpServer(Options options = {}, QObject *parent = nullptr);
    bool listen();
    [[nodiscard]] QString url() const;
    [[nodiscard]] const QList<FakeRequest> &requests() const { return m_requests; }
    [[nodiscard]] QStringList methods() const { return m_logic.methods(); }

Q_SIGNALS:
    void requestReceived();

private:
    void onReadyRead(QTcpSocket *socket);
    void handle(QTcpSocket *socket, const FakeRequest &request);
    void writeReply(QTcpSocket *socket, int status, const QByteArray &type, const QByteArray &body,
                    const QList<std::pair<QByteArray, QByteArray>> &headers = {});

    Options m_options;
    FakeMcpLogic m_logic;
    QTcpServer m_server;
    QList<FakeRequest> m_requests;
    QHash<QTcpSocket *, QByteArray> m_buffers;
    QPointer<QTcpSocket> m_legacyStream;
    QByteArray m_sessionId = "fake-session-1";
};

} // namespace weft::test
