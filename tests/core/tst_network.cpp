// SPDX-License-Identifier: GPL-3.0-or-later
// Network::send(): credentials stay with their origin. Two loopback servers on different ports:
// a redirect from the first to the second is refused before the second hears anything; a
// redirect within the first is followed with the credentials.

#include "fakellmserver.h"

#include "core/network.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace weft;
using namespace weft::test;

namespace
{

FakeReply redirectTo(int status, const QByteArray &location)
{
    FakeReply r;
    r.status = status;
    r.framing = FakeReply::Framing::ContentLength;
    r.body = "moved";
    r.withHeader("Location", location);
    return r;
}

/// A request with every kind of credential Weft sends.
QNetworkRequest credentialed(const QUrl &url)
{
    QNetworkRequest request(url);
    request.setRawHeader("Authorization", "Bearer sk-secret");
    request.setRawHeader("x-api-key", "sk-ant-secret");
    request.setRawHeader("api-key", "azure-secret");
    request.setRawHeader("X-Custom-Token", "from-config");
    return request;
}

/// Waits for @p reply to finish.
bool finish(QNetworkReply *reply)
{
    if (reply->isFinished())
        return true;
    QSignalSpy finished(reply, &QNetworkReply::finished);
    return finished.wait(15000);
}

} // namespace

class TestNetwork : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sameOrigin_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<bool>("same");
        QTest::newRow("same") << u"http://h:1/a"_s << u"http://h:1/b?x"_s << true;
        QTest::newRow("host-case") << u"http://H:1/"_s << u"http://h:1/"_s << true;
        QTest::newRow("default-port") << u"https://h/"_s << u"https://h:443/x"_s << true;
        QTest::newRow("http-default-port") << u"http://h:80/"_s << u"http://h/"_s << true;
        QTest::newRow("port") << u"http://h:1/"_s << u"http://h:2/"_s << false;
        QTest::newRow("host") << u"http://h:1/"_s << u"http://g:1/"_s << false;
        QTest::newRow("https-to-http") << u"https://h/"_s << u"http://h/"_s << false;
        QTest::newRow("https-to-http-same-port") << u"https://h:8080/"_s << u"http://h:8080/"_s << false;
        QTest::newRow("http-to-https") << u"http://h/"_s << u"https://h/"_s << false;
        QTest::newRow("user-info-ignored") << u"http://u:p@h:1/"_s << u"http://h:1/"_s << true;
    }

    void sameOrigin()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(bool, same);
        QCOMPARE(Network::sameOrigin(QUrl(a), QUrl(b)), same);
        QCOMPARE(Network::sameOrigin(QUrl(b), QUrl(a)), same);
    }

    void otherOriginIsRefused_data()
    {
        QTest::addColumn<QByteArray>("verb");
        QTest::addColumn<int>("status");
        QTest::newRow("GET 301") << QByteArray("GET") << 301;
        QTest::newRow("GET 302") << QByteArray("GET") << 302;
        QTest::newRow("POST 303") << QByteArray("POST") << 303;
        QTest::newRow("POST 307") << QByteArray("POST") << 307;
        QTest::newRow("POST 308") << QByteArray("POST") << 308;
        QTest::newRow("DELETE 307") << QByteArray("DELETE") << 307;
    }

    void otherOriginIsRefused()
    {
        QFETCH(QByteArray, verb);
        QFETCH(int, status);
        FakeLlmServer first;
        FakeLlmServer second;
        QVERIFY(first.listen());
        QVERIFY(second.listen());
        first.enqueue(redirectTo(status, second.baseUrl(u"/elsewhere"_s).toEncoded()));
        second.enqueue(FakeReply::json(200, "{}"));
        QNetworkAccessManager manager;
        const std::unique_ptr<QNetworkReply> reply(
            Network::send(&manager, credentialed(first.baseUrl(u"/v1/x"_s)), verb, "{\"a\":1}"));
        QVERIFY(finish(reply.get()));
        QCOMPARE(first.requests().size(), 1);
        QCOMPARE(first.requests().at(0).header("authorization"), QByteArray("Bearer sk-secret"));
        QCOMPARE(second.requests().size(), 0);
        QVERIFY(reply->error() != QNetworkReply::NoError);
        const QString refusal = Network::refusal(reply.get());
        QVERIFY2(refusal.contains(u"http://127.0.0.1:%1 redirected to http://127.0.0.1:%2"_s.arg(first.port())
                                      .arg(second.port())),
                 qPrintable(refusal));
        QCOMPARE(Network::errorString(reply.get()), refusal);
    }

    /// Another host name for the same address is another origin too.
    void otherHostNameIsRefused()
    {
        FakeLlmServer first;
        QVERIFY(first.listen());
        first.enqueue(redirectTo(302, u"http://localhost:%1/x"_s.arg(first.port()).toUtf8()));
        first.enqueue(FakeReply::json(200, "{}"));
        QNetworkAccessManager manager;
        const std::unique_ptr<QNetworkReply> reply(Network::send(&manager, credentialed(first.baseUrl(u"/"_s)), "GET"));
        QVERIFY(finish(reply.get()));
        QCOMPARE(first.requests().size(), 1);
        QVERIFY(!Network::refusal(reply.get()).isEmpty());
    }

    void sameOriginIsFollowedWithCredentials_data()
    {
        QTest::addColumn<QByteArray>("verb");
        QTest::addColumn<int>("status");
        QTest::newRow("GET 302") << QByteArray("GET") << 302;
        QTest::newRow("POST 307") << QByteArray("POST") << 307;
    }

    void sameOriginIsFollowedWithCredentials()
    {
        QFETCH(QByteArray, verb);
        QFETCH(int, status);
        FakeLlmServer server;
        QVERIFY(server.listen());
        server.enqueue(redirectTo(status, "/moved/here")); // relative: the same origin
        server.enqueue(FakeReply::json(200, "{\"ok\":true}"));
        QNetworkAccessManager manager;
        const std::unique_ptr<QNetworkReply> reply(
            Network::send(&manager, credentialed(server.baseUrl(u"/v1/x"_s)), verb, "{\"a\":1}"));
        QVERIFY(finish(reply.get()));
        QCOMPARE(reply->error(), QNetworkReply::NoError);
        QVERIFY(Network::refusal(reply.get()).isEmpty());
        QCOMPARE(reply->readAll(), QByteArray("{\"ok\":true}"));
        QCOMPARE(server.requests().size(), 2);
        const FakeRequest &second = server.requests().at(1);
        QCOMPARE(second.path, QByteArray("/moved/here"));
        QCOMPARE(second.header("authorization"), QByteArray("Bearer sk-secret"));
        QCOMPARE(second.header("x-api-key"), QByteArray("sk-ant-secret"));
    }
};

QTEST_GUILESS_MAIN(TestNetwork)
#include "tst_network.moc"
