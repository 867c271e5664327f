// SPDX-License-Identifier: GPL-3.0-or-later
#include "attachmentencoding.h"

using namespace Qt::StringLiterals;

namespace weft::AttachmentEncoding
{

DataUrl parseDataUrl(QStringView url)
{
    DataUrl result;
    if (!url.startsWith(u"data:"))
        return result;
    const qsizetype comma = url.indexOf(u',');
    if (comma < 0)
        return result;
    const QStringView header = url.mid(5, comma - 5);
    result.valid = true;
    result.base64 = header.endsWith(u";base64");
    const qsizetype semicolon = header.indexOf(u';');
    result.mediaType = (semicolon < 0 ? header : header.left(semicolon)).toString();
    result.data = url.mid(comma + 1).toString();
    return result;
}

QString modality(QStringView mime)
{
    if (mime.startsWith(u"image/"))
        return u"image"_s;
    if (mime.startsWith(u"audio/"))
        return u"audio"_s;
    if (mime.startsWith(u"video/"))
        return u"video"_s;
    if (mime == u"application/pdf")
        return u"pdf"_s;
    return {};
}

namespace
{

bool isImage(const LlmPart &part)
{
    return part.type == LlmPart::Type::File && part.mime.startsWith(u"image/");
}

bool isPdf(const LlmPart &part)
{
    return part.type == LlmPart::Type::File && part.mime == u"application/pdf";
}

/// Anthropic's source: base64 data for a data: URL, the URL itself otherwise; empty for a data:
/// URL that is not base64 (the API takes no other encoding).
JsonObject anthropicSource(const LlmPart &part)
{
    if (!part.url.startsWith(u"data:"))
        return JsonObject{{u"type"_s, u"url"_s}, {u"url"_s, part.url}};
    const DataUrl data = parseDataUrl(part.url);
    if (!data.valid || !data.base64)
        return {};
    return JsonObject{{u"type"_s, u"base64"_s},
                      {u"media_type"_s, data.mediaType.isEmpty() ? part.mime : data.mediaType},
                      {u"data"_s, data.data}};
}

QString pdfName(const LlmPart &part)
{
    return part.filename.isEmpty() ? u"file.pdf"_s : part.filename.section(u'/', -1);
}

} // namespace

JsonObject anthropicBlock(const LlmPart &part)
{
    if (!isImage(part) && !isPdf(part))
        return {};
    const JsonObject source = anthropicSource(part);
    if (source.isEmpty())
        return {};
    return JsonObject{{u"type"_s, isImage(part) ? u"image"_s : u"document"_s}, {u"source"_s, source}};
}

JsonObject openAiChatPart(const LlmPart &part)
{
    if (isImage(part))
        return JsonObject{{u"type"_s, u"image_url"_s}, {u"image_url"_s, JsonObject{{u"url"_s, part.url}}}};
    if (isPdf(part))
        return JsonObject{{u"type"_s, u"file"_s},
                          {u"file"_s, JsonObject{{u"filename"_s, pdfName(part)}, {u"file_data"_s, part.url}}}};
    return {};
}

JsonObject openAiResponsesPart(const LlmPart &part)
{
    if (isImage(part))
        return JsonObject{{u"type"_s, u"input_image"_s}, {u"image_url"_s, part.url}};
    if (!isPdf(part))
        return {};
    if (part.url.startsWith(u"data:"))
        return JsonObject{{u"type"_s, u"input_file"_s}, {u"filename"_s, pdfName(part)}, {u"file_data"_s, part.url}};
    return JsonObject{{u"type"_s, u"input_file"_s}, {u"file_url"_s, part.url}};
}

QList<LlmMessage> replaceUnsupported(QList<LlmMessage> messages, const QStringList &inputModalities)
{
    for (LlmMessage &message : messages) {
        if (message.role != LlmMessage::Role::User)
            continue;
        for (LlmPart &part : message.parts) {
            if (part.type != LlmPart::Type::File)
                continue;
            if (part.mime.startsWith(u"image/") && part.url.startsWith(u"data:")) {
                const DataUrl data = parseDataUrl(part.url);
                if (data.valid && data.base64 && data.data.isEmpty()) {
                    part = LlmPart::makeText(u"ERROR: Image file is empty or corrupted. Please provide a valid image."_s);
                    continue;
                }
            }
            const QString kind = modality(part.mime);
            if (kind.isEmpty() || inputModalities.contains(kind))
                continue;
            const QString name = part.filename.isEmpty() ? kind : u'"' + part.filename + u'"';
            part = LlmPart::makeText(
                u"ERROR: Cannot read %1 (this model does not support %2 input). Inform the user."_s.arg(name, kind));
        }
    }
    return messages;
}

} // namespace weft::AttachmentEncoding
