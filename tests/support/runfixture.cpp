// SPDX-License-Identifier: GPL-3.0-or-later
#include "runfixture.h"

#include "session/sessionservice.h"
#include "store/jsonstore.h"
#include "store/storereads.h"

#include <QFile>
#include <QProcess>

using namespace Qt::StringLiterals;

namespace weft::test
{

bool RunFixture::setUp()
{
    const StoreReads::AllowHere ownReads; // the fixture's own set-up, on the test's thread
    data = std::make_unique<QTemporaryDir>();
    project = std::make_unique<QTemporaryDir>();
    if (!data->isValid() || !project->isValid()) {
        qWarning("cannot make the temporary folders");
        return false;
    }
    auto store = std::make_shared<JsonStore>(data->path());
    if (const Result<void> initialized = store->initialize(); !initialized) {
        qWarning("%s", qPrintable(initialized.error().toString()));
        return false;
    }
    service = std::make_shared<SessionService>(store);
    server = std::make_unique<FakeLlmServer>();
    if (!server->listen()) {
        qWarning("the fake LLM server cannot listen");
        return false;
    }
    SessionService::CreateOptions options;
    options.directory = project->path();
    options.title = u"A test session"_s;
    const Result<Session> created = service->create(options);
    if (!created) {
        qWarning("%s", qPrintable(created.error().toString()));
        return false;
    }
    sessionID = created->id();
    return true;
}

void RunFixture::tearDown()
{
    service.reset();
    server.reset();
    project.reset();
    data.reset();
    sessionID.clear();
}

QString RunFixture::writeConfig(const JsonObject &extra) const
{
    const QString path = data->filePath(u"weft.json"_s);
    return writeFakeProviderConfig(path, server->baseUrl(), extra) ? path : QString();
}

bool writeFakeProviderConfig(const QString &path, const QUrl &baseUrl, const JsonObject &extra)
{
    const JsonObject limit{{u"context"_s, 100000}, {u"output"_s, 4000}};
    const JsonObject cost{{u"input"_s, 3}, {u"output"_s, 15}};
    const JsonObject fake{
        {u"npm"_s, u"@ai-sdk/openai-compatible"_s},
        {u"options"_s, JsonObject{{u"baseURL"_s, baseUrl.toString()}, {u"apiKey"_s, u"sk-test-key"_s}}},
        {u"models"_s, JsonObject{{u"gpt-test"_s, JsonObject{{u"limit"_s, limit}, {u"cost"_s, cost}}}}},
    };
    JsonObject config{
        {u"$schema"_s, u"https://opencode.ai/config.json"_s},
        {u"model"_s, u"fake/gpt-test"_s},
        {u"small_model"_s, u"fake/gpt-test"_s},
        {u"provider"_s, JsonObject{{u"fake"_s, fake}}},
        {u"permission"_s, JsonObject{{u"bash"_s, u"ask"_s}}},
    };
    for (const QString &key : extra.keys())
        config.insert(key, extra.value(key));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    return f.write("// the test's config\n" + toJson(config, 2)) > 0;
}

QByteArray textReply(const QStringList &pieces, qint64 prompt, qint64 completion)
{
    OpenAiStream s;
    s.role();
    for (const QString &p : pieces)
        s.text(p);
    s.finish(u"stop"_s).usage(prompt, completion).done();
    return s.bytes();
}

QByteArray bashCallReply(const QString &callID, const QString &command)
{
    OpenAiStream s;
    s.role().text(u"Let me run it."_s);
    const QString args
        = QString::fromUtf8(toJson(JsonObject{{u"command"_s, command}, {u"description"_s, u"Run it"_s}}, 0));
    s.toolCallStart(0, callID, u"bash"_s, args.left(6));
    s.toolCallArguments(0, args.mid(6));
    s.finish(u"tool_calls"_s).usage(3200, 40).done();
    return s.bytes();
}

Part firstToolPart(const QList<MessageWithParts> &messages)
{
    for (const MessageWithParts &m : messages) {
        for (const Part &p : m.parts) {
            if (p.type() == PartType::Tool)
                return p;
        }
    }
    return {};
}

bool git(const QString &dir, const QStringList &args)
{
    QProcess process;
    process.setWorkingDirectory(dir);
    process.start(u"git"_s, args);
    if (!process.waitForFinished(20000) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        qWarning() << "git" << args << "failed:" << process.readAllStandardError();
        return false;
    }
    return true;
}

bool makeGitRepository(const QString &dir)
{
    return git(dir, {u"init"_s, u"-q"_s})
        && git(dir, {u"-c"_s, u"user.email=t@e"_s, u"-c"_s, u"user.name=t"_s, u"commit"_s, u"-q"_s,
                     u"--allow-empty"_s, u"-m"_s, u"root"_s});
}

JsonArray storageQuestions()
{
    auto option = [](const QString &label, const QString &description) {
        return JsonObject{{u"label"_s, label}, {u"description"_s, description}};
    };
    return JsonArray{
        JsonObject{{u"question"_s, u"Which database?"_s},
                   {u"header"_s, u"Database"_s},
                   {u"options"_s, JsonArray{option(u"Postgres"_s, u"The usual"_s), option(u"SQLite"_s, u"Simple"_s)}}},
        JsonObject{{u"question"_s, u"Which features?"_s},
                   {u"header"_s, u"Features"_s},
                   {u"multiple"_s, true},
                   {u"options"_s, JsonArray{option(u"Search"_s, u"FTS"_s), option(u"Export"_s, u"JSON"_s),
                                            option(u"Sync"_s, u"Later"_s)}}},
        JsonObject{{u"question"_s, u"Anything else?"_s}, {u"header"_s, u"Else"_s}, {u"options"_s, JsonArray{}}}};
}

void clearProviderKeys()
{
    for (const char *key : {"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENROUTER_API_KEY", "GEMINI_API_KEY",
                            "GOOGLE_GENERATIVE_AI_API_KEY", "XAI_API_KEY", "GROQ_API_KEY", "DEEPSEEK_API_KEY",
                            "MISTRAL_API_KEY"})
        qunsetenv(key);
}

} // namespace weft::test
