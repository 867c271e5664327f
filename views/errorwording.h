// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/sessioncontroller.h"

#include <QCoreApplication>
#include <QString>

namespace weft
{

class MessageError;

/// What the window says when a prompt is not sent, a run or a compaction fails, an operation on a
/// session fails, or runs of a dead process were closed: the controller's values in words. No
/// widget here; the window chooses where each text shows (a notice, a dialog, the status bar).
class ErrorWording
{
    Q_DECLARE_TR_FUNCTIONS(weft::ErrorWording)

public:
    /// A dialog's title and its text.
    struct Text
    {
        QString title;
        QString text;
    };

    /// Why the prompt of @p result was not sent (for @p model, the composer's choice; @p configPath
    /// is the config file to fix); empty when it was sent.
    [[nodiscard]] static QString promptNotSent(const SessionController::PromptResult &result, const QString &model,
                                               const QString &configPath);
    /// A prompt to a session that is not run here (OpenCode's folder, a read-only store).
    [[nodiscard]] static QString readOnlySession();
    /// A prompt to an imported session whose folder the user did not accept.
    [[nodiscard]] static QString importedFolderRefused();
    /// The failure of @p operation with the controller's @p error: a dialog's title and text, no
    /// title for a notice's text (connecting, a server's refusal), nothing for a revert (the
    /// changes pane that asked for it says it).
    [[nodiscard]] static Text operationFailed(SessionController::Operation operation, const QString &error);
    /// A run that ended with @p error before a reply could show it.
    [[nodiscard]] static QString runFailed(const MessageError &error);
    /// The run of the compaction dialog that ended with @p error (no summary was written).
    [[nodiscard]] static QString compactionRunFailed(const MessageError &error);
    /// A compaction that finished without success: cancelled (@p error aborted) or failed.
    [[nodiscard]] static QString compactionFailed(const MessageError &error);
    /// @p runs interrupted runs closed at start or when the process running them died.
    [[nodiscard]] static QString interruptedRuns(int runs);
};

} // namespace weft
