// SPDX-License-Identifier: GPL-3.0-or-later
// The decoders of OpenCode's V1 database rows (OpencodeDbStore: session, message and part rows
// into OpenCode's JSON), through the store's own reads of a real OpenCode 1.18.34 database
// (tests/data/opencode-1.18.34) copied once into a temporary folder. Each input rewrites the
// columns of one session, one message and one part, separated by "\n~~~\n":
//   message.data, part.data, session.title, session.permission, session.revert, session.model,
//   session.summary_diffs, session.metadata
// (a missing field is NULL), then reads them back as the app does.

#include "fuzzcommon.h"

#include "opencodedb/opencodedbstore.h"

#include <QFile>
#include <QSqlDatabase>
#include <QSqlQuery>

#include <cstdlib>

using namespace weft;
using namespace Qt::StringLiterals;

namespace
{

const QString SessionId = u"ses_fuzzfuzzfuzzfuzzfuzzfuzz"_s;
const QString MessageId = u"msg_fuzzfuzzfuzzfuzzfuzzfuzz"_s;
const QString PartId = u"prt_fuzzfuzzfuzzfuzzfuzzfuzz"_s;

[[noreturn]] void setupFailed(const QString &what)
{
    std::fprintf(stderr, "fuzz_dbrow_v1: %s\n", qPrintable(what));
    std::abort();
}

struct Fixture {
    QSqlDatabase writer;
    std::shared_ptr<OpencodeDbStore> store;

    Fixture()
    {
        const QString file = fuzz::tempDir() + u"/opencode.db"_s;
        if (!QFile::copy(QStringLiteral(WEFT_SOURCE_DIR "/tests/data/opencode-1.18.34/opencode.db"), file))
            setupFailed(u"cannot copy the fixture database"_s);
        QFile::setPermissions(file, QFile::ReadOwner | QFile::WriteOwner);
        writer = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"fuzz-writer"_s);
        writer.setDatabaseName(file);
        if (!writer.open())
            setupFailed(u"cannot open the copy"_s);
        // One session of our own, copied from the fixture's first, with one message and one part.
        exec(u"PRAGMA synchronous = OFF"_s);
        exec(u"CREATE TEMP TABLE fuzz_session AS SELECT * FROM session ORDER BY id LIMIT 1"_s);
        exec(u"UPDATE fuzz_session SET id = ?"_s, {SessionId});
        exec(u"INSERT INTO session SELECT * FROM fuzz_session"_s);
        exec(u"INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, 1, 1, '{}')"_s,
             {MessageId, SessionId});
        exec(u"INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, 1, 1, '{}')"_s,
             {PartId, MessageId, SessionId});
        Result<std::shared_ptr<OpencodeDbStore>> opened = OpencodeDbStore::open(file);
        if (!opened)
            setupFailed(opened.error().message);
        store = *opened;
    }

    void exec(const QString &sql, const QVariantList &binds = {}, bool mayFail = false)
    {
        QSqlQuery q(writer);
        q.prepare(sql);
        for (const QVariant &b : binds)
            q.addBindValue(b);
        if (!q.exec() && !mayFail)
            setupFailed(sql);
    }
};

QVariant field(const QList<QByteArray> &fields, qsizetype i)
{
    return i < fields.size() ? QVariant(QString::fromUtf8(fields.at(i))) : QVariant(QMetaType(QMetaType::QString));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz::ensureApp();
    static Fixture *fixture = [] {
        auto *f = new Fixture;
        // Closed before Qt's own statics go: the store's per-thread connections would otherwise
        // be dropped when the main thread ends, after QtSql's connection list is gone.
        std::atexit([] {
            fixture->store.reset();
            fixture->writer.close();
            fixture->writer = QSqlDatabase();
            QSqlDatabase::removeDatabase(u"fuzz-writer"_s);
        });
        return f;
    }();
    const QList<QByteArray> fields = fuzz::fields(data, size);
    fixture->exec(u"UPDATE message SET data = ? WHERE id = ?"_s, {field(fields, 0), MessageId}, true);
    fixture->exec(u"UPDATE part SET data = ? WHERE id = ?"_s, {field(fields, 1), PartId}, true);
    fixture->exec(u"UPDATE session SET title = coalesce(?, ''), permission = ?, revert = ?, model = ?, "
                  u"summary_diffs = ?, metadata = ? WHERE id = ?"_s,
                  {field(fields, 2), field(fields, 3), field(fields, 4), field(fields, 5), field(fields, 6),
                   field(fields, 7), SessionId},
                  true);

    OpencodeDbStore &store = *fixture->store;
    if (const std::optional<weft::Session> s = store.session(SessionId))
        (void)toJson(s->json(), 0);
    for (const MessageWithParts &m : store.messagesWithParts(SessionId))
        (void)toJson(m.toJson(), 0);
    (void)store.message(SessionId, MessageId);
    (void)store.parts(SessionId, MessageId);
    (void)store.sessionDiff(SessionId);
    return 0;
}

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    // The copy of the fixture database and its store,
    // once, before libFuzzer's per-input timeout applies.
    static const char warm[] = "{}";
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(warm), sizeof warm - 1);
    return 0;
}
