// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Files of a user message (LlmPart::Type::File) as each wire protocol wants them, and what a
// model that cannot read a kind of file gets instead (OpenCode's ProviderTransform.message).
// One place for every protocol, so that a new one (the OpenAI Responses API) calls the same code.

#include "llm.h"

#include <QString>
#include <QStringList>
#include <QStringView>

namespace weft::AttachmentEncoding
{

/// A `data:` URL taken apart.
struct DataUrl
{
    QString mediaType; ///< "image/png"; empty when the URL names none
    QString data;      ///< the payload as written (base64 when @c base64)
    bool base64 = false;
    bool valid = false; ///< a data: URL with a comma
};
[[nodiscard]] DataUrl parseDataUrl(QStringView url);

/// OpenCode's mimeToModality: "image", "audio", "video", "pdf", or empty for anything else.
[[nodiscard]] QString modality(QStringView mime);

/// The Anthropic Messages content block of a file: `{"type": "image", "source": ...}` for
/// images, `{"type": "document", "source": ...}` for PDFs, with a base64 source for data: URLs
/// and a url source otherwise. Empty for other files (their text travels as synthetic text).
[[nodiscard]] JsonObject anthropicBlock(const LlmPart &part);
/// The OpenAI chat-completions content part of a file: `{"type": "image_url", "image_url":
/// {"url": ...}}` for images, `{"type": "file", "file": {"filename", "file_data"}}` for PDFs.
/// Empty for other files.
[[nodiscard]] JsonObject openAiChatPart(const LlmPart &part);
/// The OpenAI Responses API content item of a file: `{"type": "input_image", "image_url": ...}`
/// for images, `{"type": "input_file", "filename", "file_data"}` for PDFs (a data: URL) or
/// `{"type": "input_file", "file_url"}` (any other URL). Empty for other files.
[[nodiscard]] JsonObject openAiResponsesPart(const LlmPart &part);

/// OpenCode's unsupportedParts: every file of a user message whose modality the model does not
/// take (@p inputModalities: "image", "pdf", ...) becomes the text "ERROR: Cannot read "name"
/// (this model does not support image input). Inform the user."; an image whose data: URL is
/// empty becomes "ERROR: Image file is empty or corrupted. Please provide a valid image.".
[[nodiscard]] QList<LlmMessage> replaceUnsupported(QList<LlmMessage> messages, const QStringList &inputModalities);

} // namespace weft::AttachmentEncoding
