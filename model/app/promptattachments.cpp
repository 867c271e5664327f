// SPDX-License-Identifier: GPL-3.0-or-later
#include "promptattachments.h"

#include "core/tr.h"
#include "processor/tools/toolutil.h"
#include "provider/attachmentencoding.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QMimeDatabase>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace weft::PromptAttachments
{

namespace
{

QString sizeText(qint64 bytes)
{
    return QLocale::c().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
}

/// The attachment's kind and MIME type by content (and name), or an error for what cannot go.
Result<PromptAttachment> describeFile(const QString &absolute, const QFileInfo &info)
{
    PromptAttachment a;
    a.path = absolute;
    a.filename = info.fileName();
    a.size = info.size();
    const QMimeType type = QMimeDatabase().mimeTypeForFile(info);
    const QString name = type.name();
    const bool image = imageMimeTypes().contains(name);
    if (image || name == u"application/pdf") {
        const qint64 limit = image ? PromptAttachment::MaxImageBytes : PromptAttachment::MaxPdfBytes;
        if (a.size > limit)
            return Error{ProcessorTr::tr("the %1 is too large to attach (%2; at most %3)")
                             .arg(image ? ProcessorTr::tr("image") : u"PDF"_s, sizeText(a.size), sizeText(limit)),
                         absolute};
        a.kind = image ? PromptAttachment::Kind::Image : PromptAttachment::Kind::Pdf;
        a.mime = name;
        return a;
    }
    if (ToolUtil::isBinaryFile(absolute))
        return Error{ProcessorTr::tr(
                         "cannot attach a binary file (%1): only text files, PNG, JPEG, GIF and WebP images, PDFs and "
                         "folders can be attached")
                         .arg(type.comment().isEmpty() ? name : type.comment()),
                     absolute};
    a.kind = PromptAttachment::Kind::Text;
    a.mime = u"text/plain"_s;
    return a;
}

/// Where @p path leads once symlinks are resolved, as far as it exists.
QString realPath(const QString &path)
{
    const QString canonical = QFileInfo(path).canonicalFilePath();
    return canonical.isEmpty() ? path : canonical;
}

/// The image type the first bytes of @p bytes announce (PNG, JPEG, GIF, WebP), empty for others.
QString imageTypeOf(QByteArrayView bytes)
{
    if (bytes.startsWith("\x89PNG\r\n\x1a\n"))
        return u"image/png"_s;
    if (bytes.startsWith("\xff\xd8\xff"))
        return u"image/jpeg"_s;
    if (bytes.startsWith("GIF87a") || bytes.startsWith("GIF89a"))
        return u"image/gif"_s;
    if (bytes.size() >= 12 && bytes.startsWith("RIFF") && bytes.sliced(8, 4) == "WEBP")
        return u"image/webp"_s;
    return {};
}

} // namespace

const QStringList &imageMimeTypes()
{
    static const QStringList types{u"image/png"_s, u"image/jpeg"_s, u"image/gif"_s, u"image/webp"_s};
    return types;
}

Result<PromptAttachment> fromPath(const QString &path, const QString &baseDir)
{
    if (path.isEmpty())
        return Error{ProcessorTr::tr("an empty path cannot be attached"), {}};
    if (path.contains(QChar(0)) || path.contains(u'\n'))
        return Error{ProcessorTr::tr("the path holds a NUL byte or a line break"), path};
    const QString absolute = QDir::cleanPath(QDir(baseDir).absoluteFilePath(path));
    const QFileInfo info(absolute);
    if (!info.exists())
        return Error{ProcessorTr::tr("no such file or folder"), absolute};
    if (info.isDir()) {
        if (!info.isReadable() || !info.isExecutable())
            return Error{ProcessorTr::tr("cannot read the folder: permission denied"), absolute};
        PromptAttachment a;
        a.kind = PromptAttachment::Kind::Directory;
        a.path = absolute;
        a.mime = u"application/x-directory"_s;
        a.filename = info.fileName().isEmpty() ? absolute : info.fileName();
        return a;
    }
    if (!info.isFile())
        return Error{ProcessorTr::tr("not a regular file or folder (a device, pipe or socket cannot be attached)"),
                     absolute};
    QFile file(absolute);
    if (!file.open(QIODevice::ReadOnly))
        return Error{ProcessorTr::tr("cannot read the file: %1").arg(file.errorString()), absolute};
    file.close();
    return describeFile(absolute, info);
}

Result<PromptAttachment> fromDataUrl(const QString &dataUrl, const QString &filename)
{
    const AttachmentEncoding::DataUrl data = AttachmentEncoding::parseDataUrl(dataUrl);
    if (!data.valid || !data.base64)
        return Error{ProcessorTr::tr("not a base64 data: URL"), filename};
    if (!imageMimeTypes().contains(data.mediaType))
        return Error{ProcessorTr::tr("only PNG, JPEG, GIF and WebP images can be pasted (this is %1)")
                         .arg(data.mediaType.isEmpty() ? ProcessorTr::tr("of no type") : data.mediaType),
                     filename};
    // Checked before decoding: base64 grows by a third.
    if (data.data.size() / 4 * 3 > PromptAttachment::MaxImageBytes + 3)
        return Error{ProcessorTr::tr("the image is too large to attach (at most %1)")
                         .arg(sizeText(PromptAttachment::MaxImageBytes)),
                     filename};
    const auto decoded = QByteArray::fromBase64Encoding(data.data.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded || decoded.decoded.isEmpty())
        return Error{ProcessorTr::tr("the pasted image is empty or damaged"), filename};
    if (imageTypeOf(decoded.decoded) != data.mediaType)
        return Error{ProcessorTr::tr("the pasted data is not a %1 image").arg(data.mediaType), filename};
    PromptAttachment a;
    a.kind = PromptAttachment::Kind::Image;
    a.dataUrl = dataUrl;
    a.mime = data.mediaType;
    a.filename = filename;
    a.size = decoded.decoded.size();
    return a;
}

QList<PromptAttachment> mentions(const QString &text, const QString &projectDir)
{
    QList<PromptAttachment> found;
    if (projectDir.isEmpty())
        return found;
    const QString root = realPath(QDir::cleanPath(projectDir));
    // "@" at the start or after white space, then a path; trailing punctuation is prose.
    static const QRegularExpression pattern(uR"((?:^|(?<=\s))@([^\s@`]+))"_s);
    QStringList seen;
    for (auto it = pattern.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        QString name = m.captured(1);
        while (!name.isEmpty() && u".,;:!?)]}\"'"_s.contains(name.back()))
            name.chop(1);
        if (name.isEmpty() || seen.contains(name) || QDir::isAbsolutePath(name) || name.startsWith(u'~'))
            continue;
        const QString absolute = QDir::cleanPath(root + u'/' + name);
        if (!ToolUtil::isInside(root, absolute) || !ToolUtil::isInside(root, realPath(absolute)))
            continue;
        const Result<PromptAttachment> a = fromPath(absolute, root);
        if (!a)
            continue;
        seen.append(name);
        PromptAttachment mention = a.value();
        mention.filename = name;
        mention.mention = u'@' + name;
        mention.mentionStart = m.capturedStart(0);
        found.append(mention);
    }
    return found;
}

PromptAttachment fromMcpResource(const McpResourceInfo &resource, qsizetype mentionStart)
{
    PromptAttachment a;
    a.kind = PromptAttachment::Kind::McpResource;
    a.mcpServer = resource.server;
    a.uri = resource.uri;
    a.filename = resource.name;
    // OpenCode's composer takes text for a resource that names no type.
    a.mime = resource.mimeType.isEmpty() ? u"text/plain"_s : resource.mimeType;
    a.mention = u'@' + resource.name;
    a.mentionStart = mentionStart;
    return a;
}

} // namespace weft::PromptAttachments
