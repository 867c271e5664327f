// SPDX-License-Identifier: GPL-3.0-or-later
// A stdio MCP server for tests (see tests/support/fakemcpserver.h): one JSON-RPC message per line
// on stdin and stdout. Options:
//   --page-size N        tools/list pages of N tools
//   --protocol VERSION   answer initialize with this protocol version
//   --no-initialize      never answer initialize
//   --exit-at-start      write an error to stderr and exit with code 2 at once
#include "fakemcpserver.h"

#include <QCoreApplication>

#include <cstdio>
#include <iostream>
#include <string>

using namespace Qt::StringLiterals;
using namespace weft;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    test::FakeMcpLogic::Options options;
    for (qsizetype i = 1; i < args.size(); ++i) {
        if (args.at(i) == u"--page-size" && i + 1 < args.size())
            options.pageSize = args.at(++i).toInt();
        else if (args.at(i) == u"--protocol" && i + 1 < args.size())
            options.protocolVersion = args.at(++i);
        else if (args.at(i) == u"--no-initialize")
            options.answerInitialize = false;
        else if (args.at(i) == u"--exit-at-start") {
            std::fputs("fake-mcp: cannot start: FAKE_TOKEN is not set\n", stderr);
            return 2;
        }
    }
    std::fprintf(stderr, "fake-mcp: ready (pid %lld)\n", static_cast<long long>(QCoreApplication::applicationPid()));
    test::FakeMcpLogic logic(options);
    std::string line;
    while (std::getline(std::cin, line)) {
        std::optional<JsonValue> message = parseJson(QByteArrayView(line.data(), qsizetype(line.size())));
        if (!message || !message->isObject())
            continue;
        const JsonObject object = message->toObject();
        if (object.string(u"method") == u"notifications/cancelled")
            std::fprintf(stderr, "fake-mcp: cancelled request %lld\n",
                         static_cast<long long>(object.object(u"params").integer(u"requestId")));
        if (object.string(u"method") == u"tools/call")
            std::fprintf(stderr, "fake-mcp: call %s as request %lld\n",
                         qPrintable(object.object(u"params").string(u"name")),
                         static_cast<long long>(object.integer(u"id")));
        const test::FakeMcpLogic::Output out = logic.handle(object);
        if (out.die) {
            std::fputs("fake-mcp: dying on purpose\n", stderr);
            std::fflush(stderr);
            return 3;
        }
        for (const QByteArray &garbage : out.garbage)
            std::cout << garbage.constData() << '\n';
        for (const JsonObject &reply : out.messages)
            std::cout << toJson(reply, 0).constData() << '\n';
        std::cout.flush();
    }
    return 0;
}
