// SPDX-License-Identifier: GPL-3.0-or-later
// A provider's stream handler, through Provider::start() as a run calls it: a network access
// manager that answers every request with the fuzz input as a 200 text/event-stream response,
// delivered in chunks (the first byte of the input picks their sizes). Compiled once per
// protocol (WEFT_FUZZ_PROTOCOL: 0 chat completions, 1 Anthropic, 2 Responses).
//
// Checked: no crash or sanitizer report, and the provider's contract: exactly one of finished()
// or failed(), finished() only after a FinishStep event.

#include "fuzzcommon.h"

#include "provider/provider.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>

#include <cstdlib>
#include <cstring>

using namespace weft;
using namespace Qt::StringLiterals;

namespace
{

/// A finished-on-demand reply whose body the target pushes.
class FuzzReply : public QNetworkReply
{
public:
    FuzzReply(const QNetworkRequest &request, QObject *parent)
        : QNetworkReply(parent)
    {
        setRequest(request);
        setUrl(request.url());
        setOperation(QNetworkAccessManager::PostOperation);
        setAttribute(QNetworkRequest::HttpStatusCodeAttribute, 200);
        setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("text/event-stream"));
        open(QIODevice::ReadOnly | QIODevice::Unbuffered);
    }

    void abort() override { }
    bool isSequential() const override { return true; }
    qint64 bytesAvailable() const override { return m_body.size() - m_read + QNetworkReply::bytesAvailable(); }

    void push(QByteArrayView chunk)
    {
        m_body.append(chunk);
        Q_EMIT readyRead();
    }
    void end()
    {
        setFinished(true);
        Q_EMIT finished();
    }
    void announce() { Q_EMIT metaDataChanged(); }

protected:
    qint64 readData(char *data, qint64 maxSize) override
    {
        const qint64 n = std::min<qint64>(maxSize, m_body.size() - m_read);
        if (n > 0)
            std::memcpy(data, m_body.constData() + m_read, size_t(n));
        m_read += n;
        return n;
    }

private:
    QByteArray m_body;
    qint64 m_read = 0;
};

class FuzzNetwork : public QNetworkAccessManager
{
public:
    FuzzReply *last = nullptr;

protected:
    QNetworkReply *createRequest(Operation, const QNetworkRequest &request, QIODevice *) override
    {
        last = new FuzzReply(request, this);
        return last;
    }
};

LlmRequest request()
{
    LlmRequest r;
    r.providerID = u"fuzz"_s;
    r.modelID = u"fuzz-model"_s;
    r.maxOutputTokens = 8000;
    r.messages = {LlmMessage::system(u"You are Weft."_s), LlmMessage::user(u"Read /tmp/a"_s)};
    r.tools = {LlmToolDefinition{u"read"_s, u"Reads a file"_s,
                                 JsonObject{{u"type"_s, u"object"_s},
                                            {u"properties"_s, JsonObject{{u"filePath"_s, JsonObject{{u"type"_s, u"string"_s}}}}}}}};
    return r;
}

[[noreturn]] void broken(const char *what)
{
    std::fprintf(stderr, "fuzz provider stream: %s\n", what);
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz::ensureApp();
    if (size == 0)
        return 0;
    static FuzzNetwork *network = new FuzzNetwork;
    const unsigned step = data[0];
    const QByteArrayView body = fuzz::bytes(data + 1, size - 1);

    ProviderSettings settings;
    settings.providerID = u"fuzz"_s;
    settings.baseURL = QUrl(u"http://fuzz.invalid/v1"_s);
    settings.apiKey = u"key"_s;
#if WEFT_FUZZ_PROTOCOL == 0
    settings.protocol = ProviderProtocol::OpenAiCompatible;
    settings.npm = u"@ai-sdk/openai-compatible"_s;
#elif WEFT_FUZZ_PROTOCOL == 1
    settings.protocol = ProviderProtocol::Anthropic;
    settings.npm = u"@ai-sdk/anthropic"_s;
#else
    settings.protocol = ProviderProtocol::OpenAiResponses;
    settings.npm = u"@ai-sdk/openai"_s;
#endif
    {
        std::unique_ptr<Provider> provider(Provider::create(settings, network));
        int ends = 0;
        bool finishedAfterFinishStep = true;
        LlmEvent::Type lastType = LlmEvent::Type::Start;
        QObject::connect(provider.get(), &Provider::event, provider.get(), [&](const LlmEvent &e) { lastType = e.type; });
        QObject::connect(provider.get(), &Provider::finished, provider.get(), [&] {
            ++ends;
            finishedAfterFinishStep = lastType == LlmEvent::Type::FinishStep;
        });
        QObject::connect(provider.get(), &Provider::failed, provider.get(), [&] { ++ends; });

        network->last = nullptr;
        provider->start(request());
        if (!network->last)
            broken("start() made no request");
        QPointer<FuzzReply> reply = network->last;
        reply->announce();
        qsizetype at = 0;
        unsigned n = 0;
        while (reply && at < body.size()) {
            // 1 to 64 bytes at a time, in a pattern the first byte chooses.
            const qsizetype length = std::min<qsizetype>(1 + ((step >> (n % 4)) * 7 + n) % 64, body.size() - at);
            ++n;
            reply->push(body.sliced(at, length));
            at += length;
        }
        if (reply)
            reply->end();
        if (ends != 1)
            broken(ends == 0 ? "the stream ended without finished() or failed()" : "more than one finished() or failed()");
        if (!finishedAfterFinishStep)
            broken("finished() without a FinishStep event before it");
    }
    // The replies the provider dropped with deleteLater().
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    return 0;
}

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    // The application and the network access manager,
    // once, before libFuzzer's per-input timeout applies.
    static const char warm[] = "\x01" "data: {}\n\n";
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(warm), sizeof warm - 1);
    return 0;
}
