// SPDX-License-Identifier: GPL-3.0-or-later
// The decoder of OpenCode's V2 `session_message` rows (SessionMessageV2): the rows of one
// session, as OpencodeDbStore reads them, mapped to V1 messages with parts. The input is up to
// eight rows separated by "\n~~~\n", each its type on the first line and its data column after.

#include "fuzzcommon.h"

#include "opencodedb/sessionmessagev2.h"

using namespace weft;
using namespace Qt::StringLiterals;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    QList<SessionMessageV2::Row> rows;
    qint64 seq = 0;
    for (const QByteArray &field : fuzz::fields(data, size)) {
        const qsizetype newline = field.indexOf('\n');
        SessionMessageV2::Row row;
        row.id = u"msg_e0e0e0e0e0e0%1aaaaaaaaaa"_s.arg(seq, 4, 10, QLatin1Char('0'));
        row.sessionID = u"ses_fuzz"_s;
        row.type = QString::fromUtf8(newline < 0 ? field : field.first(newline));
        row.data = newline < 0 ? QByteArray() : field.sliced(newline + 1);
        row.seq = ++seq;
        row.timeCreated = 1700000000000 + seq;
        rows.append(row);
    }
    const JsonObject path{{u"cwd"_s, u"/home/dev/src/demo"_s}, {u"root"_s, u"/home/dev/src/demo"_s}};
    const QList<MessageWithParts> messages
        = SessionMessageV2::sessionToV1(rows, path, [](const SessionMessageV2::Row &, const QString &) { });
    for (const MessageWithParts &m : messages)
        (void)toJson(m.toJson(), 0);

    // One row alone, as the follower maps a row that changed (readV2Message).
    for (const SessionMessageV2::Row &row : rows) {
        SessionMessageV2::Context context;
        context.path = path;
        if (SessionMessageV2::isUser(row.type) && rows.size() > 1)
            context.answer = SessionMessageV2::answerOf(rows.last().data);
        QString why;
        if (const std::optional<MessageWithParts> m = SessionMessageV2::toV1(row, context, &why))
            (void)toJson(m->toJson(), 0);
    }
    return 0;
}
