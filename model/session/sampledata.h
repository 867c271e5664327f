// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/result.h"

#include <QString>

namespace weft
{

class SessionService;

/// Sample sessions for a new user's first start, written through the session operations: a
/// conversation with tool calls in every state, a session diff, a compaction, a fork and a child
/// session, so that every part of the window has something real to show.
namespace SampleData
{
/// Writes the samples for a project in @p directory. Returns the main sample session's ID.
Result<QString> create(SessionService &service, const QString &directory);
}

} // namespace weft
