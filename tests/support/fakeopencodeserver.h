// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A loopback stand-in for `opencode serve`: answers routes with bodies recorded from the real
// OpenCode 1.18.34 (tests/data/opencode-1.18.34-server, see its README), checks HTTP basic auth
// as the real server does, and streams server-sent events on `/global/event` that a test pushes
// (recorded streams replayed frame by frame, or its own). In V2-only mode (setV2Only()) it is
// OpenCode 2's server instead: the answers recorded from the V2 preview
// (tests/data/opencode-v2-preview-server) and the event stream on `/api/event`.

#include "core/json.h"
#include "fakellmserver.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QUrl>

#include <functional>

namespace weft::test
{

/// One exchange of tests/data/opencode-1.18.34-server/exchanges.json.
struct RecordedExchange {
    QString name;
    QByteArray method;
    QString path; ///< without the query
    QString query;
    int status = 0;
    JsonValue requestBody;
    JsonValue responseBody;
};

/// The recorded exchanges, in order.
[[nodiscard]] QList<RecordedExchange> recordedExchanges();
/// The exchange recorded under @p name (an empty one when there is none).
[[nodiscard]] RecordedExchange recordedExchange(const QString &name);
/// The `data:` frames of a recorded event stream (events-*.sse), each "data: ...\n\n".
[[nodiscard]] QList<QByteArray> recordedEvents(const QString &file);
/// The `data:` frames of the V2 preview's recorded `/api/event` stream, each "data: ...\n\n".
[[nodiscard]] QList<QByteArray> recordedApiEvents();
/// The answer recorded from the V2 preview for @p target (path and query, as in api-dump.json).
[[nodiscard]] JsonValue recordedApiAnswer(const QString &target);

class FakeOpencodeServer : public QObject
{
    Q_OBJECT

public:
    struct Reply {
        int status = 200;
        QByteArray body; ///< JSON (an empty body is sent with status 204 unless a status is set)
        /// Extra headers ("x-next-cursor" of a paged answer).
        QList<std::pair<QByteArray, QByteArray>> headers = {};
    };
    using Handler = std::function<Reply(const FakeRequest &request)>;

    /// @p password as OPENCODE_SERVER_PASSWORD (empty: no auth asked).
    explicit FakeOpencodeServer(const QString &password = QStringLiteral("secret"), QObject *parent = nullptr);
    ~FakeOpencodeServer() override;

    bool listen();
    [[nodiscard]] QUrl url() const;

    /// Answers @p method @p path (no query) with @p handler; replaces an earlier route.
    void route(const QByteArray &method, const QString &path, Handler handler);
    /// Answers @p method @p path with a fixed body.
    void route(const QByteArray &method, const QString &path, int status, const JsonValue &body);
    /// Answers with the recorded exchange @p name (at its own method and path).
    void routeRecorded(const QString &name);
    /// Every recorded exchange with status 200, the first of each method and path: a server in
    /// the state the recording started from. (`/global/health` included.)
    void routeAllRecorded();

    /// OpenCode 2: the event stream is `/api/event` (`{id, type, data}` events).
    void setV2Only() { m_v2Only = true; }
    /// Every GET recorded from the V2 preview (api-dump.json), the first of each path, and
    /// `GET /api/session/{id}` of each session listed.
    void routeAllRecordedV2();
    /// Sends one event of OpenCode 2's stream `{id, created, type, data}`.
    void pushApiEvent(const QString &type, const JsonObject &data);

    /// Sends @p frame ("data: ...\n\n") to every open event stream.
    void pushFrame(const QByteArray &frame);
    /// Sends one event `{directory, payload: {type, properties}}`.
    void pushEvent(const QString &type, const JsonObject &properties, const QString &directory = {});
    /// Closes every open event stream (a dropped connection).
    void dropEventStreams();
    [[nodiscard]] int openEventStreams() const;
    /// The requests received, in order (event stream connections included).
    [[nodiscard]] const QList<FakeRequest> &requests() const { return m_requests; }
    /// How many requests had @p method and @p path (no query).
    [[nodiscard]] int count(const QByteArray &method, const QString &path) const;

Q_SIGNALS:
    void requestReceived(const weft::test::FakeRequest &request);
    /// An event stream opened (after `server.connected` was sent).
    void eventStreamOpened();

private:
    void onNewConnection();
    void onReadyRead(QTcpSocket *socket);

    QTcpServer m_server;
    QByteArray m_authorization;
    QHash<QString, Handler> m_routes;
    QList<FakeRequest> m_requests;
    QHash<QTcpSocket *, QByteArray> m_buffers;
    QList<QPointer<QTcpSocket>> m_streams;
    bool m_v2Only = false;
    int m_apiEvents = 0;
};

} // namespace weft::test
