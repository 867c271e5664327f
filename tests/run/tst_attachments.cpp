// SPDX-License-Identifier: GPL-3.0-or-later
// Attachments (issue 15): files, folders and images of a prompt as OpenCode stores them (file
// parts with the read and list tools' synthetic text), their checks and limits, the @mentions
// of a prompt, and the request bodies of both protocols, with and without image support.
#include "fakellmserver.h"
#include "runfixture.h"
#include "testdata.h"

#include "app/promptattachments.h"
#include "app/projectfiles.h"
#include "core/json.h"
#include "processor/attachments.h"
#include "processor/processor.h"
#include "provider/attachmentencoding.h"
#include "session/sessionservice.h"
#include "session/sessionstore.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace weft;
using namespace weft::test;
using namespace Qt::StringLiterals;

namespace
{

/// A 1x1 PNG.
const QByteArray TinyPng = QByteArray::fromBase64(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==");
const QByteArray TinyPdf = "%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n";

QByteArray anthropicReply()
{
    return AnthropicStream()
        .messageStart(900)
        .text(0, {u"I see it."_s})
        .messageDelta(u"end_turn"_s, 5)
        .messageStop()
        .bytes();
}

/// The user content the request sent: OpenAI's `messages[role=user].content` or Anthropic's,
/// of the last user message.
JsonArray lastUserContent(const JsonObject &body)
{
    const JsonArray messages = body.array(u"messages");
    for (qsizetype i = messages.size() - 1; i >= 0; --i) {
        const JsonObject m = messages.at(i).toObject();
        if (m.string(u"role") == u"user")
            return m.array(u"content");
    }
    return {};
}

} // namespace

class TestAttachments : public QObject
{
    Q_OBJECT

private:
    RunFixture m_fx;
    ProviderProtocol m_protocol = ProviderProtocol::OpenAiCompatible;
    QStringList m_modalities{u"text"_s, u"image"_s, u"pdf"_s};

    std::unique_ptr<Processor> makeProcessor()
    {
        ProcessorConfig config;
        config.dataDir = m_fx.data->path();
        config.generateTitles = false;
        config.maxRetries = 0;
        config.snapshots = ProcessorConfig::Snapshots::Never;
        const QUrl base = m_fx.server->baseUrl();
        const ProviderProtocol protocol = m_protocol;
        const QStringList modalities = m_modalities;
        config.resolveModel = [base, protocol, modalities](const QString &) -> Result<ResolvedModel> {
            ResolvedModel m;
            m.providerID = u"fake"_s;
            m.modelID = u"vision"_s;
            m.settings.providerID = u"fake"_s;
            m.settings.protocol = protocol;
            m.settings.baseURL = base;
            m.settings.apiKey = u"sk-test"_s;
            m.contextLimit = 100000;
            m.outputLimit = 4000;
            m.inputModalities = modalities;
            return m;
        };
        return std::make_unique<Processor>(m_fx.service, config);
    }

    /// Runs one prompt with @p attachments to its end; the user message's parts.
    QList<Part> run(const QString &text, const QList<PromptAttachment> &attachments)
    {
        auto processor = makeProcessor();
        QSignalSpy finished(processor.get(), &Processor::finished);
        PromptRequest request;
        request.sessionID = m_fx.sessionID;
        request.text = text;
        request.attachments = attachments;
        const Result<QString> started = processor->prompt(request);
        if (!started) {
            qWarning() << started.error().toString();
            return {};
        }
        if (!finished.wait(30000))
            return {};
        if (!finished.first().at(1).toBool())
            qWarning() << "run failed:" << finished.first().at(2).value<MessageError>().message();
        const QList<MessageWithParts> messages = m_fx.service->messages(m_fx.sessionID);
        for (const MessageWithParts &m : messages) {
            if (m.info.isUser())
                return m.parts;
        }
        return {};
    }

    PromptAttachment attach(const QString &relative)
    {
        const Result<PromptAttachment> a = PromptAttachments::fromPath(relative, m_fx.project->path());
        if (!a)
            qWarning() << a.error().toString();
        return a ? a.value() : PromptAttachment();
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_fx.setUp());
        m_protocol = ProviderProtocol::OpenAiCompatible;
        m_modalities = QStringList{u"text"_s, u"image"_s, u"pdf"_s};
        const QDir project(m_fx.project->path());
        QVERIFY(project.mkpath(u"src/deep"_s));
        QVERIFY(writeFile(project.filePath(u"src/main.cpp"_s), "int main()\n{\n    return 0;\n}\n"));
        QVERIFY(writeFile(project.filePath(u"src/deep/notes.md"_s), "# Notes\n"));
        QVERIFY(writeFile(project.filePath(u"shot.png"_s), TinyPng));
        QVERIFY(writeFile(project.filePath(u"paper.pdf"_s), TinyPdf));
        QByteArray binary(2048, '\0');
        binary.prepend("\x7f" "ELF");
        QVERIFY(writeFile(project.filePath(u"tool.bin"_s), binary));
    }

    void cleanup() { m_fx.tearDown(); }

    // ---- storage: OpenCode's file part, byte for byte

    void filePartRoundTripsByteForByte()
    {
        // A file part as OpenCode 1.1 stores an @mention (its schema's key order).
        const QByteArray opencode =
            "{\n"
            "  \"id\": \"prt_200fa7ecc001CDD3rN0KPmvrjm\",\n"
            "  \"sessionID\": \"ses_dff058141ffeXJnTNzT8vnXcKt\",\n"
            "  \"messageID\": \"msg_200fa7ecb001c3Nb1NHK3TNUPw\",\n"
            "  \"type\": \"file\",\n"
            "  \"mime\": \"text/plain\",\n"
            "  \"filename\": \"src/main.cpp\",\n"
            "  \"url\": \"file:///home/dev/src/demo/src/main.cpp\",\n"
            "  \"source\": {\n"
            "    \"text\": {\n"
            "      \"value\": \"@src/main.cpp\",\n"
            "      \"start\": 6,\n"
            "      \"end\": 19\n"
            "    },\n"
            "    \"type\": \"file\",\n"
            "    \"path\": \"src/main.cpp\"\n"
            "  }\n"
            "}";
        const std::optional<JsonValue> parsed = parseJson(opencode);
        QVERIFY(parsed);
        QVERIFY(Part::validate(*parsed).isEmpty());
        const Result<Part> part = Part::fromJson(*parsed);
        QVERIFY(part);
        QCOMPARE(part->type(), PartType::File);
        QCOMPARE(part->mime(), u"text/plain"_s);
        QCOMPARE(part->sourcePath(), u"src/main.cpp"_s);
        QCOMPARE(toJson(part->json(), 2), opencode);

        // Made by Weft from an attachment: the same bytes.
        PromptAttachment a;
        a.mime = u"text/plain"_s;
        a.filename = u"src/main.cpp"_s;
        a.mention = u"@src/main.cpp"_s;
        a.mentionStart = 6;
        const Part made = Part::makeFile(part->id(), part->sessionID(), part->messageID(), a.mime, a.filename,
                                         u"file:///home/dev/src/demo/src/main.cpp"_s, Attachments::source(a));
        QCOMPARE(toJson(made.json(), 2), opencode);

        // Through the store: written as OpenCode writes it, read back unchanged.
        Part stored = made;
        stored.setSessionID(m_fx.sessionID);
        const Message user = Message::makeUser(u"msg_200fa7ecb001c3Nb1NHK3TNUPw"_s, m_fx.sessionID, 1795312746000,
                                               u"build"_s, u"fake"_s, u"vision"_s);
        QVERIFY(m_fx.service->updateMessage(user));
        QVERIFY(m_fx.service->updatePart(stored));
        QFile file(m_fx.data->path() + u"/storage/part/"_s + user.id() + u'/' + stored.id() + u".json"_s);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), toJson(stored.json(), 2));
        const QList<Part> back = storeOf(*m_fx.service)->parts(m_fx.sessionID, user.id());
        QCOMPARE(back.size(), 1);
        QCOMPARE(back.first().json(), stored.json());
    }

    void syntheticTextKeepsOpenCodesKeyOrder()
    {
        const Part p = Part::makeText(u"prt_1"_s, u"ses_1"_s, u"msg_1"_s, u"hello"_s, true);
        QCOMPARE(p.json().keys(), (QStringList{u"id"_s, u"sessionID"_s, u"messageID"_s, u"type"_s, u"text"_s, u"synthetic"_s}));
    }

    // ---- checks and limits

    void fromPathDescribesWhatItFinds()
    {
        PromptAttachment a = attach(u"src/main.cpp"_s);
        QCOMPARE(a.kind, PromptAttachment::Kind::Text);
        QCOMPARE(a.mime, u"text/plain"_s);
        QCOMPARE(a.path, m_fx.project->path() + u"/src/main.cpp"_s);
        QCOMPARE(a.filename, u"main.cpp"_s);
        a = attach(u"src"_s);
        QCOMPARE(a.kind, PromptAttachment::Kind::Directory);
        QCOMPARE(a.mime, u"application/x-directory"_s);
        a = attach(u"shot.png"_s);
        QCOMPARE(a.kind, PromptAttachment::Kind::Image);
        QCOMPARE(a.mime, u"image/png"_s);
        QCOMPARE(a.size, TinyPng.size());
        a = attach(m_fx.project->path() + u"/paper.pdf"_s);
        QCOMPARE(a.kind, PromptAttachment::Kind::Pdf);
        QCOMPARE(a.mime, u"application/pdf"_s);
    }

    void fromPathRefusesWithClearMessages_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << QString() << u"empty path"_s;
        QTest::newRow("NUL") << u"src/ma\0in.cpp"_s << u"NUL"_s;
        QTest::newRow("missing") << u"nope.txt"_s << u"no such file or folder"_s;
        QTest::newRow("hostile relative, missing") << u"../../../../no/such/etc/x"_s << u"no such file or folder"_s;
        QTest::newRow("device") << u"/dev/zero"_s << u"device, pipe or socket"_s;
        QTest::newRow("binary") << u"tool.bin"_s << u"binary file"_s;
    }

    void fromPathRefusesWithClearMessages()
    {
        QFETCH(QString, path);
        QFETCH(QString, message);
        const Result<PromptAttachment> a = PromptAttachments::fromPath(path, m_fx.project->path());
        QVERIFY(!a);
        QVERIFY2(a.error().message.contains(message), qPrintable(a.error().message));
    }

    void fromPathRefusesPipesUnreadableAndHugeFiles()
    {
        const QString fifo = m_fx.project->filePath(u"pipe"_s);
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        // A FIFO is never opened (that would block until a writer comes).
        Result<PromptAttachment> a = PromptAttachments::fromPath(fifo, {});
        QVERIFY(!a);
        QVERIFY(a.error().message.contains(u"pipe"_s));

        // An image over the limit: a sparse file, refused by its size without reading it.
        const QString huge = m_fx.project->filePath(u"huge.png"_s);
        {
            QFile f(huge);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(TinyPng);
            QVERIFY(f.resize(PromptAttachment::MaxImageBytes + 1));
        }
        a = PromptAttachments::fromPath(huge, {});
        QVERIFY(!a);
        QVERIFY2(a.error().message.contains(u"too large"_s), qPrintable(a.error().message));

        if (::geteuid() == 0)
            QSKIP("root reads files of mode 000");
        const QString secret = m_fx.project->filePath(u"secret.txt"_s);
        QVERIFY(writeFile(secret, "secret\n"));
        QVERIFY(QFile::setPermissions(secret, QFileDevice::Permissions()));
        a = PromptAttachments::fromPath(secret, {});
        QVERIFY(!a);
        QVERIFY2(a.error().message.contains(u"cannot read"_s), qPrintable(a.error().message));
    }

    void pastedImages()
    {
        const QString png = u"data:image/png;base64,"_s + QString::fromLatin1(TinyPng.toBase64());
        Result<PromptAttachment> a = PromptAttachments::fromDataUrl(png, u"clipboard.png"_s);
        QVERIFY(a);
        QCOMPARE(a->kind, PromptAttachment::Kind::Image);
        QCOMPARE(a->mime, u"image/png"_s);
        QVERIFY(a->path.isEmpty());
        QCOMPARE(a->dataUrl, png);

        for (const QString &bad : {u"data:image/png,notbase64"_s, u"data:image/bmp;base64,Qk0="_s,
                                   u"data:image/png;base64,"_s, u"data:image/png;base64,@@@"_s,
                                   // says PNG, is a JPEG
                                   u"data:image/png;base64,/9j/4AAQSkZJRg=="_s, u"https://example.com/x.png"_s}) {
            a = PromptAttachments::fromDataUrl(bad, u"clipboard.png"_s);
            QVERIFY2(!a, qPrintable(bad));
        }
        const QString huge = u"data:image/png;base64,"_s + QString(PromptAttachment::MaxImageBytes / 3 * 4 + 8, u'A');
        a = PromptAttachments::fromDataUrl(huge, u"clipboard.png"_s);
        QVERIFY(!a);
        QVERIFY(a.error().message.contains(u"too large"_s));
    }

    void mentionsInsideTheProjectOnly()
    {
        const QString root = m_fx.project->path();
        QVERIFY(QFile::link(u"/etc"_s, root + u"/etc-link"_s));
        const QString text = u"Look at @src/main.cpp, then @src/deep/ and @missing.txt; not @../outside or "
                             u"@/etc/passwd or @etc-link/passwd or mail@example.com."_s;
        const QList<PromptAttachment> found = PromptAttachments::mentions(text, root);
        QCOMPARE(found.size(), 2);
        QCOMPARE(found.at(0).filename, u"src/main.cpp"_s);
        QCOMPARE(found.at(0).mention, u"@src/main.cpp"_s);
        QCOMPARE(found.at(0).mentionStart, text.indexOf(u"@src/main.cpp"_s));
        QCOMPARE(found.at(0).kind, PromptAttachment::Kind::Text);
        QCOMPARE(found.at(1).filename, u"src/deep/"_s);
        QCOMPARE(found.at(1).kind, PromptAttachment::Kind::Directory);
        const JsonObject source = Attachments::source(found.at(0));
        QCOMPARE(source.object(u"text").integer(u"end") - source.object(u"text").integer(u"start"),
                 qint64(u"@src/main.cpp"_s.size()));
        QVERIFY(PromptAttachments::mentions(text, {}).isEmpty());
    }

    // ---- the project's files for @mention completion

    void projectFilesAreListedAndMatchedFuzzily()
    {
        const QDir project(m_fx.project->path());
        QVERIFY(project.mkpath(u"node_modules/pkg"_s));
        QVERIFY(writeFile(project.filePath(u"node_modules/pkg/index.js"_s), "x"));
        QVERIFY(writeFile(project.filePath(u"src/mainwindow.cpp"_s), "x"));
        // Without git: a walk that skips dependency folders; folders are listed with a slash.
        QStringList files = ProjectFiles::list(project.path());
        QVERIFY(files.contains(u"src/main.cpp"_s));
        QVERIFY(files.contains(u"src/deep/"_s));
        QVERIFY(files.contains(u"src/"_s));
        QVERIFY(!files.join(u'\n').contains(u"node_modules"_s));

        // In a git work tree: what .gitignore hides stays out, untracked files are in.
        QVERIFY(writeFile(project.filePath(u".gitignore"_s), "*.pdf\n"));
        QProcess git;
        git.setWorkingDirectory(project.path());
        git.start(u"git"_s, {u"init"_s, u"-q"_s});
        QVERIFY(git.waitForFinished(20000));
        QCOMPARE(git.exitCode(), 0);
        files = ProjectFiles::list(project.path());
        QVERIFY(files.contains(u"src/main.cpp"_s));
        QVERIFY(!files.contains(u"paper.pdf"_s));
        QVERIFY(files.contains(u"shot.png"_s));

        QCOMPARE(ProjectFiles::match(files, u"mwin"_s).value(0), u"src/mainwindow.cpp"_s);
        QCOMPARE(ProjectFiles::match(files, u"main"_s).value(0), u"src/main.cpp"_s);
        QCOMPARE(ProjectFiles::match(files, u"SDN"_s).value(0), u"src/deep/notes.md"_s);
        QVERIFY(ProjectFiles::match(files, u"zzz"_s).isEmpty());
        QVERIFY(ProjectFiles::score(u"src/main.cpp", u"mc") > 0);
        QCOMPARE(ProjectFiles::score(u"src/main.cpp", u"pm"), -1);
        // An empty query: the shallowest first.
        QCOMPARE(ProjectFiles::match(files, u""_s, 3).size(), 3);
        QVERIFY(!ProjectFiles::match(files, u""_s, 1).first().contains(u'/') || ProjectFiles::match(files, u""_s, 1).first().endsWith(u'/'));

        // Fast on a big tree: 200,000 paths, the match of one keystroke.
        QStringList big;
        big.reserve(200000);
        for (int i = 0; i < 200000; ++i)
            big.append(u"packages/module%1/src/components/widget%2/file%3.tsx"_s.arg(i % 97).arg(i % 1013).arg(i));
        big.append(u"src/mainwindow.cpp"_s);
        QElapsedTimer timer;
        timer.start();
        const QStringList best = ProjectFiles::match(big, u"mainwin"_s, 50);
        const qint64 ms = timer.elapsed();
        qInfo("fuzzy match over %lld paths: %lld ms", qlonglong(big.size()), qlonglong(ms));
        QCOMPARE(best.value(0), u"src/mainwindow.cpp"_s);
#ifdef NDEBUG
        // A release build (211 ms on the loaded 2-core build machine); sanitized debug builds are
        // 20 times slower and only checked for the result.
        QVERIFY2(ms < 3000, qPrintable(QString::number(ms)));
#endif
    }

    // ---- provider encodings

    void encodings()
    {
        const LlmPart image = LlmPart::makeFile(u"image/png"_s, u"data:image/png;base64,AAAA"_s, u"a.png"_s);
        QCOMPARE(toJson(AttachmentEncoding::anthropicBlock(image), 0),
                 "{\"type\":\"image\",\"source\":{\"type\":\"base64\",\"media_type\":\"image/png\",\"data\":\"AAAA\"}}");
        QCOMPARE(toJson(AttachmentEncoding::openAiChatPart(image), 0),
                 "{\"type\":\"image_url\",\"image_url\":{\"url\":\"data:image/png;base64,AAAA\"}}");
        QCOMPARE(toJson(AttachmentEncoding::openAiResponsesPart(image), 0),
                 "{\"type\":\"input_image\",\"image_url\":\"data:image/png;base64,AAAA\"}");
        const LlmPart pdf = LlmPart::makeFile(u"application/pdf"_s, u"data:application/pdf;base64,JVBE"_s, u"docs/p.pdf"_s);
        QCOMPARE(toJson(AttachmentEncoding::anthropicBlock(pdf), 0),
                 "{\"type\":\"document\",\"source\":{\"type\":\"base64\",\"media_type\":\"application/pdf\",\"data\":\"JVBE\"}}");
        QCOMPARE(toJson(AttachmentEncoding::openAiChatPart(pdf), 0),
                 "{\"type\":\"file\",\"file\":{\"filename\":\"p.pdf\",\"file_data\":\"data:application/pdf;base64,JVBE\"}}");
        QCOMPARE(toJson(AttachmentEncoding::openAiResponsesPart(pdf), 0),
                 "{\"type\":\"input_file\",\"filename\":\"p.pdf\",\"file_data\":\"data:application/pdf;base64,JVBE\"}");
        const LlmPart remote = LlmPart::makeFile(u"image/jpeg"_s, u"https://example.com/a.jpg"_s);
        QCOMPARE(toJson(AttachmentEncoding::anthropicBlock(remote), 0),
                 "{\"type\":\"image\",\"source\":{\"type\":\"url\",\"url\":\"https://example.com/a.jpg\"}}");
        // Text and folders never go as files; a data: URL that is not base64 cannot go to Anthropic.
        QVERIFY(AttachmentEncoding::anthropicBlock(LlmPart::makeFile(u"text/plain"_s, u"file:///a"_s)).isEmpty());
        QVERIFY(AttachmentEncoding::openAiChatPart(LlmPart::makeFile(u"application/x-directory"_s, u"file:///a"_s)).isEmpty());
        QVERIFY(AttachmentEncoding::anthropicBlock(LlmPart::makeFile(u"image/png"_s, u"data:image/png,abc"_s)).isEmpty());
    }

    void unsupportedFilesBecomeOpenCodesText()
    {
        const QList<LlmMessage> messages{LlmMessage::make(
            LlmMessage::Role::User,
            {LlmPart::makeText(u"what is this?"_s), LlmPart::makeFile(u"image/png"_s, u"data:image/png;base64,AAAA"_s, u"a.png"_s),
             LlmPart::makeFile(u"image/png"_s, u"data:image/png;base64,"_s, u"empty.png"_s),
             LlmPart::makeFile(u"application/pdf"_s, u"data:application/pdf;base64,JVBE"_s)})};
        const QList<LlmMessage> textOnly = AttachmentEncoding::replaceUnsupported(messages, {u"text"_s});
        QCOMPARE(textOnly.first().parts.size(), 4);
        QCOMPARE(textOnly.first().parts.at(0).text, u"what is this?"_s);
        QCOMPARE(textOnly.first().parts.at(1).text,
                 u"ERROR: Cannot read \"a.png\" (this model does not support image input). Inform the user."_s);
        QCOMPARE(textOnly.first().parts.at(2).text,
                 u"ERROR: Image file is empty or corrupted. Please provide a valid image."_s);
        QCOMPARE(textOnly.first().parts.at(3).text,
                 u"ERROR: Cannot read pdf (this model does not support pdf input). Inform the user."_s);
        const QList<LlmMessage> vision = AttachmentEncoding::replaceUnsupported(messages, {u"text"_s, u"image"_s});
        QCOMPARE(vision.first().parts.at(1).type, LlmPart::Type::File);
        QCOMPARE(vision.first().parts.at(3).type, LlmPart::Type::Text);
    }

    // ---- the processor: parts stored, request bodies sent

    void promptWithAttachmentsOpenAi()
    {
        m_fx.server->enqueue(FakeReply::sse(textReply({u"Seen."_s})));
        const QString text = u"Explain @src/main.cpp please"_s;
        QList<PromptAttachment> attachments = PromptAttachments::mentions(text, m_fx.project->path());
        QCOMPARE(attachments.size(), 1);
        attachments << attach(u"src/deep"_s) << attach(u"shot.png"_s) << attach(u"paper.pdf"_s);
        const QList<Part> parts = run(text, attachments);

        // The text, then per attachment what OpenCode writes.
        QStringList kinds;
        for (const Part &p : parts)
            kinds.append(p.typeName() + (p.isSynthetic() ? u"*"_s : QString()));
        QCOMPARE(kinds, (QStringList{u"text"_s, u"text*"_s, u"text*"_s, u"file"_s, u"text*"_s, u"text*"_s, u"file"_s,
                                     u"text*"_s, u"file"_s, u"text*"_s, u"file"_s}));
        const QString main = m_fx.project->path() + u"/src/main.cpp"_s;
        QCOMPARE(parts.at(1).text(), u"Called the Read tool with the following input: {\"filePath\":\"%1\"}"_s.arg(main));
        QVERIFY(parts.at(2).text().contains(u"00003|     return 0;"_s));
        QCOMPARE(parts.at(3).mime(), u"text/plain"_s);
        QCOMPARE(parts.at(3).url(), QString::fromUtf8(QUrl::fromLocalFile(main).toEncoded()));
        QCOMPARE(parts.at(3).json().object(u"source").object(u"text").string(u"value"), u"@src/main.cpp"_s);
        QCOMPARE(parts.at(3).json().keys(), (QStringList{u"id"_s, u"sessionID"_s, u"messageID"_s, u"type"_s, u"mime"_s,
                                                         u"filename"_s, u"url"_s, u"source"_s}));
        QVERIFY(parts.at(4).text().startsWith(u"Called the list tool with the following input: {\"path\":"_s));
        QVERIFY(parts.at(5).text().contains(u"notes.md"_s));
        QCOMPARE(parts.at(6).mime(), u"application/x-directory"_s);
        QCOMPARE(parts.at(8).mime(), u"image/png"_s);
        QCOMPARE(parts.at(8).url(), u"data:image/png;base64,"_s + QString::fromLatin1(TinyPng.toBase64()));
        QVERIFY(!parts.at(8).json().contains(u"source"));
        QCOMPARE(parts.at(10).mime(), u"application/pdf"_s);
        for (qsizetype i = 1; i < parts.size(); ++i)
            QVERIFY(parts.at(i - 1).id() < parts.at(i).id());

        // The body: the synthetic texts as text, the image and the PDF as files, no text/plain file.
        QCOMPARE(m_fx.server->requests().size(), 1);
        const JsonArray content = lastUserContent(m_fx.server->requests().first().json);
        QStringList types;
        for (const JsonValue &v : content)
            types.append(v.toObject().string(u"type"));
        QCOMPARE(types, (QStringList{u"text"_s, u"text"_s, u"text"_s, u"text"_s, u"text"_s, u"text"_s, u"image_url"_s,
                                     u"text"_s, u"file"_s}));
        QCOMPARE(content.at(6).toObject().object(u"image_url").string(u"url"), parts.at(8).url());
        QCOMPARE(content.at(8).toObject().object(u"file").string(u"file_data"), parts.at(10).url());
    }

    void promptWithAttachmentsAnthropic()
    {
        m_protocol = ProviderProtocol::Anthropic;
        m_fx.server->enqueue(FakeReply::sse(anthropicReply()));
        run(u"What is in these?"_s, {attach(u"shot.png"_s), attach(u"paper.pdf"_s)});
        QCOMPARE(m_fx.server->requests().size(), 1);
        const JsonArray content = lastUserContent(m_fx.server->requests().first().json);
        QCOMPARE(content.size(), 5);
        const JsonObject image = content.at(2).toObject();
        QCOMPARE(image.string(u"type"), u"image"_s);
        QCOMPARE(image.object(u"source").string(u"type"), u"base64"_s);
        QCOMPARE(image.object(u"source").string(u"media_type"), u"image/png"_s);
        QCOMPARE(image.object(u"source").string(u"data"), QString::fromLatin1(TinyPng.toBase64()));
        const JsonObject document = content.at(4).toObject();
        QCOMPARE(document.string(u"type"), u"document"_s);
        QCOMPARE(document.object(u"source").string(u"media_type"), u"application/pdf"_s);
        QCOMPARE(document.object(u"source").string(u"data"), QString::fromLatin1(TinyPdf.toBase64()));
    }

    void modelWithoutImageSupportGetsOpenCodesText()
    {
        m_modalities = QStringList{u"text"_s};
        m_fx.server->enqueue(FakeReply::sse(textReply({u"I cannot see images."_s})));
        const QString png = u"data:image/png;base64,"_s + QString::fromLatin1(TinyPng.toBase64());
        const Result<PromptAttachment> pasted = PromptAttachments::fromDataUrl(png, u"clipboard.png"_s);
        QVERIFY(pasted);
        const QList<Part> parts = run(u"What is this?"_s, {pasted.value()});
        // Stored as given: the file is kept, only the request leaves it out.
        QCOMPARE(parts.size(), 2);
        QCOMPARE(parts.at(1).url(), png);
        const QByteArray body = m_fx.server->requests().first().body;
        QVERIFY(!body.contains("image_url"));
        QVERIFY(!body.contains(TinyPng.toBase64()));
        const JsonArray content = lastUserContent(m_fx.server->requests().first().json);
        QCOMPARE(content.size(), 2);
        QCOMPARE(content.at(1).toObject().string(u"text"),
                 u"ERROR: Cannot read \"clipboard.png\" (this model does not support image input). Inform the user."_s);
    }

    void fileGoneBeforeTheRunStarts()
    {
        m_fx.server->enqueue(FakeReply::sse(textReply({u"ok"_s})));
        PromptAttachment a = attach(u"src/main.cpp"_s);
        QVERIFY(QFile::remove(a.path));
        const QList<Part> parts = run(u"read it"_s, {a});
        QCOMPARE(parts.size(), 3);
        QVERIFY2(parts.at(2).text().startsWith(u"Read tool failed to read %1 with the following error: "_s.arg(a.path)),
                 qPrintable(parts.at(2).text()));
    }
};

QTEST_GUILESS_MAIN(TestAttachments)
#include "tst_attachments.moc"
