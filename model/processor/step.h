// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One step of a run as the parts of a run see it (SessionRun runs it; CompactionRun asks for one).

#include "processor.h"

#include <QDateTime>

#include <functional>
#include <optional>

namespace weft
{

/// The time a run stamps its messages and parts with, in milliseconds since the epoch.
inline qint64 now()
{
    return QDateTime::currentMSecsSinceEpoch();
}

/// How a step ended: the loop goes on (the model called tools), stops, or failed.
enum class StepResult { Continue, Stop, Failed };

/// What one step sends: the model, fixed messages (empty: the session's context, rebuilt for each
/// attempt) and whether the agent's tools are offered.
struct StepSpec {
    ResolvedModel model;
    QList<LlmMessage> messages;
    bool tools = true;
    /// Appended to the messages as the assistant's (OpenCode's max-steps reminder).
    QString reminder;
    std::optional<double> temperature;
    std::optional<double> topP;
};

/// Where a step's end goes: its result and the assistant message as the step left it.
using StepDone = std::function<void(StepResult result, const Message &assistant)>;

} // namespace weft
