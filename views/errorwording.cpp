// SPDX-License-Identifier: GPL-3.0-or-later
#include "errorwording.h"

#include "core/types.h"
#include "style.h"

#include <QDir>

using namespace Qt::StringLiterals;

namespace weft
{

QString ErrorWording::readOnlySession()
{
    return tr("This session is read-only. Import it into Weft to continue it.");
}

QString ErrorWording::importedFolderRefused()
{
    return tr("The imported session's folder was not accepted; nothing was sent.");
}

QString ErrorWording::promptNotSent(const SessionController::PromptResult &result, const QString &model,
                                    const QString &configPath)
{
    // A model that cannot be reached is said with what to do about it.
    const QString where = QDir::toNativeSeparators(configPath);
    using Status = SessionController::PromptResult::Status;
    switch (result.status) {
    case Status::Sent:
    case Status::Steered:
    case Status::Queued:
        return {};
    case Status::NotRunnable:
        return readOnlySession();
    case Status::NoModel:
        return tr("No model is configured, so the prompt cannot be sent. Add a provider and a \"model\" "
                  "(\"provider/model\") to %1 (OpenCode's config format), start Weft with --config FILE, "
                  "or set an API key such as ANTHROPIC_API_KEY or OPENAI_API_KEY.")
            .arg(where);
    case Status::UnknownModel:
        return tr("The model %1 cannot be used: %2. Configure its provider in %3 (OpenCode's config "
                  "format) or choose another model.")
            .arg(model, result.error, where);
    case Status::NoApiKey:
        return tr("The provider %1 of the model %2 has no API key. Set %3, or give an \"apiKey\" in the "
                  "provider's \"options\" in %4, or choose another model.")
            .arg(result.providerID, result.model, result.env.join(tr(" or ")), where);
    case Status::Failed:
        return tr("The prompt could not be sent: %1").arg(result.error);
    }
    return {};
}

ErrorWording::Text ErrorWording::operationFailed(SessionController::Operation operation, const QString &error)
{
    using Operation = SessionController::Operation;
    switch (operation) {
    case Operation::Fork:
        return {tr("Fork"), tr("The session could not be forked:\n%1").arg(error)};
    case Operation::Import:
        return {tr("Copy into Weft"), tr("The session could not be copied into Weft:\n%1").arg(error)};
    case Operation::UndoCompaction:
        return {tr("Undo Compaction"), tr("The compaction could not be undone:\n%1").arg(error)};
    case Operation::Revert:
        return {};
    case Operation::Unrevert:
        return {tr("Unrevert"), tr("The reverted messages could not be brought back:\n%1").arg(error)};
    case Operation::Connect:
        return {{}, tr("Weft cannot connect to the OpenCode server: %1").arg(error)};
    case Operation::ServerRequest:
        return {{}, tr("The OpenCode server refused: %1").arg(error)};
    }
    return {};
}

QString ErrorWording::runFailed(const MessageError &error)
{
    return error.isNull() ? tr("The run failed.") : tr("The run failed: %1").arg(error.message());
}

QString ErrorWording::compactionRunFailed(const MessageError &error)
{
    return error.isNull() ? tr("The compaction ended without a summary.")
                          : tr("The compaction failed: %1").arg(error.message());
}

QString ErrorWording::compactionFailed(const MessageError &error)
{
    return error.kind() == MessageError::Kind::Aborted
        ? tr("The compaction was cancelled; the session is as it was.")
        : tr("The compaction failed; the session is as it was: %1").arg(error.message());
}

QString ErrorWording::interruptedRuns(int runs)
{
    // Closed as OpenCode closes an aborted reply: the timeline shows where each one stopped.
    return Style::plural(tr("Closed %n interrupted run(s) whose process ended before finishing; what was written is "
                            "kept.",
                            nullptr, runs),
                         runs);
}

} // namespace weft
