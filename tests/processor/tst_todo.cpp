// SPDX-License-Identifier: GPL-3.0-or-later
// The todowrite and todoread tools: OpenCode 1.1's todo/<sessionID>.json, byte for byte, what
// the tools return, permissions, input checks, and the service's announcement.

#include "processor/tool.h"
#include "session/sessionservice.h"
#include "store/jsonstore.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace weft;

namespace
{

std::shared_ptr<Tool> tool(const QString &name)
{
    for (const auto &t : builtinTools()) {
        if (t->name() == name)
            return t;
    }
    qFatal("no tool %s", qPrintable(name));
    return nullptr;
}

JsonObject parse(const QByteArray &json)
{
    const std::optional<JsonValue> v = parseJson(json);
    return v && v->isObject() ? v->toObject() : JsonObject();
}

} // namespace

class TestTodo : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::shared_ptr<SessionService> m_service;
    QString m_sessionID;
    QStringList m_asked;
    bool m_deny = false;

    ToolContext context()
    {
        ToolContext c;
        c.sessionID = m_sessionID;
        c.directory = m_dir.path();
        c.worktree = m_dir.path();
        c.dataDir = m_dir.path();
        c.abortFlag = std::make_shared<std::atomic_bool>(false);
        c.ask = [this](const PermissionAsk &a) {
            const QString &permission = a.permission;
            const QStringList &patterns = a.patterns;
            m_asked.append(permission + u' ' + patterns.join(u','));
            return m_deny ? PermissionDecision::Deny : PermissionDecision::Allow;
        };
        c.todos = [this] { return m_service->todos(m_sessionID); };
        c.setTodos = [this](const QList<Todo> &todos) { return m_service->setTodos(m_sessionID, todos); };
        return c;
    }

    ToolResult run(const QString &name, const QByteArray &input)
    {
        ToolContext c = context();
        return tool(name)->execute(c, parse(input));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        auto store = std::make_shared<JsonStore>(m_dir.path());
        QVERIFY(store->initialize());
        m_service = std::make_shared<SessionService>(store);
        SessionService::CreateOptions options;
        options.directory = m_dir.path();
        const Result<Session> session = m_service->create(options);
        QVERIFY(session);
        m_sessionID = session->id();
    }

    void init()
    {
        m_asked.clear();
        m_deny = false;
    }

    void readBeforeAnyWrite()
    {
        const ToolResult r = run(u"todoread"_s, "{}");
        QVERIFY(r.ok);
        QCOMPARE(r.output, u"[]"_s);
        QCOMPARE(r.title, u"0 todos"_s);
        QCOMPARE(m_asked, QStringList{u"todoread *"_s});
    }

    void writeStoresOpenCodesLayout()
    {
        QSignalSpy changed(m_service.get(), &SessionService::todosChanged);
        // Keys in another order and an unknown key: OpenCode keeps its four fields, in its order.
        const ToolResult r = run(u"todowrite"_s, R"({"todos": [
            {"id": "1", "content": "Read the parser", "status": "completed", "priority": "high", "extra": 1},
            {"content": "Fix the bug", "status": "in_progress", "priority": "high", "id": "2"},
            {"content": "Write tests – café", "status": "pending", "priority": "low", "id": "3"}]})");
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(m_asked, QStringList{u"todowrite *"_s});
        const QByteArray expected = R"([
  {
    "content": "Read the parser",
    "status": "completed",
    "priority": "high",
    "id": "1"
  },
  {
    "content": "Fix the bug",
    "status": "in_progress",
    "priority": "high",
    "id": "2"
  },
  {
    "content": "Write tests – café",
    "status": "pending",
    "priority": "low",
    "id": "3"
  }
])";
        QFile file(m_dir.path() + u"/storage/todo/"_s + m_sessionID + u".json"_s);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), expected);
        // The output is JSON.stringify(todos, null, 2); the title counts what is not completed.
        QCOMPARE(r.output, QString::fromUtf8(expected));
        QCOMPARE(r.title, u"2 todos"_s);
        QCOMPARE(r.metadata.array(u"todos").size(), 3);
        QCOMPARE(r.metadata.array(u"todos").at(1).toObject().string(u"status"), u"in_progress"_s);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.at(0).at(0).toString(), m_sessionID);
        QCOMPARE(changed.at(0).at(1).value<QList<Todo>>().size(), 3);

        // todoread returns the same.
        const ToolResult read = run(u"todoread"_s, "{}");
        QVERIFY(read.ok);
        QCOMPARE(read.output, QString::fromUtf8(expected));
        QCOMPARE(read.title, u"2 todos"_s);
        QCOMPARE(read.metadata, r.metadata);

        // A new store on the same folder reads it back (as OpenCode would).
        JsonStore again(m_dir.path());
        const QList<Todo> todos = again.todos(m_sessionID);
        QCOMPARE(todos.size(), 3);
        QCOMPARE(todos.at(2).content(), u"Write tests – café"_s);
        QCOMPARE(todos.at(0).id(), u"1"_s);
        QCOMPARE(todos.at(1).priority(), u"high"_s);
    }

    void emptyListReplaces()
    {
        const ToolResult r = run(u"todowrite"_s, R"({"todos": []})");
        QVERIFY(r.ok);
        QCOMPARE(r.output, u"[]"_s);
        QCOMPARE(r.title, u"0 todos"_s);
        QFile file(m_dir.path() + u"/storage/todo/"_s + m_sessionID + u".json"_s);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("[]"));
    }

    void todosAsJsonString()
    {
        // Some models send the array as a string of JSON.
        const ToolResult r = run(u"todowrite"_s,
                                 "{\"todos\": \"[{\\\"content\\\":\\\"a\\\",\\\"status\\\":\\\"pending\\\",\\\"priority\\\":\\\"medium\\\",\\\"id\\\":\\\"x\\\"}]\"}");
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.title, u"1 todos"_s);
        QCOMPARE(m_service->todos(m_sessionID).size(), 1);
    }

    void invalidInput_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("missing") << QByteArray("{}") << u"\"todos\" is required"_s;
        QTest::newRow("not-array") << QByteArray(R"({"todos": 3})") << u"must be an array"_s;
        QTest::newRow("item-not-object") << QByteArray(R"({"todos": ["a"]})") << u"todos[0]"_s;
        QTest::newRow("missing-id") << QByteArray(R"({"todos": [{"content": "a", "status": "pending", "priority": "low"}]})")
                                    << u"todos[0].id"_s;
        QTest::newRow("number-status") << QByteArray(R"({"todos": [{"content": "a", "status": 1, "priority": "low", "id": "1"}]})")
                                       << u"todos[0].status\" must be a string"_s;
    }

    void invalidInput()
    {
        QFETCH(QByteArray, input);
        QFETCH(QString, mentions);
        const QList<Todo> before = m_service->todos(m_sessionID);
        const ToolResult r = run(u"todowrite"_s, input);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(mentions), qPrintable(r.error));
        QVERIFY(r.error.contains(u"The todowrite tool was called with invalid arguments"_s));
        QVERIFY(m_asked.isEmpty());
        QCOMPARE(m_service->todos(m_sessionID), before);
    }

    void deniedWritesNothing()
    {
        const QList<Todo> before = m_service->todos(m_sessionID);
        m_deny = true;
        const ToolResult r = run(u"todowrite"_s, R"({"todos": []})");
        QVERIFY(!r.ok);
        QCOMPARE(m_service->todos(m_sessionID), before);
        QVERIFY(!run(u"todoread"_s, "{}").ok);
    }

    void storeWithoutTodoLists()
    {
        // A backend that keeps none refuses the write through the default Store::writeTodos.
        class NoTodos : public JsonStore
        {
        public:
            using JsonStore::JsonStore;
            Result<void> writeTodos(const QString &sessionID, const QList<Todo> &todos) override
            {
                return Store::writeTodos(sessionID, todos);
            }
        };
        QTemporaryDir dir;
        auto store = std::make_shared<NoTodos>(dir.path());
        QVERIFY(store->initialize());
        const Result<void> r = store->writeTodos(m_sessionID, {Todo::make(u"a"_s, u"pending"_s, u"low"_s, u"1"_s)});
        QVERIFY(!r);
        QVERIFY(r.error().message.contains(u"no todo lists"_s));
    }

    void damagedFileReadsEmptyAndIsReported()
    {
        QTemporaryDir dir;
        auto store = std::make_shared<JsonStore>(dir.path());
        QVERIFY(store->initialize());
        QVERIFY(QDir().mkpath(dir.path() + u"/storage/todo"_s));
        QFile file(dir.path() + u"/storage/todo/"_s + m_sessionID + u".json"_s);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"([{"content": "a", "status": "pending", "priority": "low", "id": "1"}, {"content": 5}])");
        file.close();
        const QList<Todo> todos = store->todos(m_sessionID);
        QCOMPARE(todos.size(), 1);
        QCOMPARE(store->problems().size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestTodo)
#include "tst_todo.moc"
