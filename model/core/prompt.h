// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A prompt as values: its text, agent, model and what goes along with it (files, folders, pasted
// images, MCP servers' resources). What the composer makes, the controller checks and the
// processor runs (model/processor: ResolvedPrompt, Attachments::toParts).

#include "core/types.h"

#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

namespace weft
{

/// One file, folder or pasted image attached to a prompt.
struct PromptAttachment
{
    enum class Kind { Text, Directory, Image, Pdf, McpResource };

    Kind kind = Kind::Text;
    QString path;     ///< absolute path of the file or folder; empty for pasted data
    QString dataUrl;  ///< pasted data ("data:image/png;base64,..."), when there is no path
    QString mime;     ///< "text/plain", "application/x-directory", "image/png", "application/pdf"
    QString filename; ///< the name stored in the part: a mention's path, else the file's name
                      ///< (a resource's name)
    /// An MCP resource: the server that offers it and its URI.
    QString mcpServer;
    QString uri;
    qint64 size = 0;  ///< bytes on disk (or decoded), 0 for a folder
    /// An @mention: "@path" as written in the prompt and where it starts (OpenCode's
    /// `source.text`); empty and -1 for a file attached otherwise.
    QString mention;
    qsizetype mentionStart = -1;

    [[nodiscard]] bool isImage() const { return kind == Kind::Image; }
    bool operator==(const PromptAttachment &) const = default;

    /// The largest image and PDF that are attached: beyond that providers refuse the request
    /// (OpenAI takes images up to 20 MB, Anthropic requests up to 32 MB).
    static constexpr qint64 MaxImageBytes = 20 * 1024 * 1024;
    static constexpr qint64 MaxPdfBytes = 32 * 1024 * 1024;
};

/// How a prompt sent while its session runs reaches it (OpenCode 2's `delivery`).
enum class PromptDelivery {
    Default, ///< the receiver's choice: an OpenCode 2 server steers, Weft's own runs queue
    Steer, ///< into the running turn: a user message after its current step, which it answers
    Queue, ///< the next prompt, sent when the run has ended
};

/// A prompt to run.
struct PromptRequest {
    QString sessionID;  ///< empty: a new session in `directory`
    QString directory;  ///< for a new session
    QString text;
    QString agent;      ///< empty: "build"
    QString model;      ///< "provider/model"; empty: the agent's, else the last one used, else the default
    /// A command to run (ProcessorConfig::availableCommands(), without the '/'); `text` is then
    /// its arguments. Its `agent` and `model` win over the request's, as in OpenCode.
    QString command;
    /// Whether `text` of the form "/name arguments" runs command `name` when the session's
    /// project has one by that name, as OpenCode's prompt box does (other text starting with '/',
    /// a path say, is sent as written).
    bool slashCommands = false;
    /// Files, folders and images sent along: they become file parts (and the synthetic text
    /// of their reading) of the user message, after its text (Attachments::toParts).
    QList<PromptAttachment> attachments;
    /// The session `sessionID` as the caller holds it (a window's list), so that checkPrompt()
    /// does not read it again (on a window's GUI thread); none: checkPrompt() reads it.
    std::optional<Session> session;
};

} // namespace weft

Q_DECLARE_METATYPE(weft::PromptAttachment)
