// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace weft
{

class Session;
class SessionService;
class UserQuestions;

/// The window's question before the first run or revert of an imported session: the directory
/// the session claims comes from someone else's file (SessionService::checkDirectoryConfirmed()).
namespace ImportedDirectory
{

/// The question's title and text for @p directory.
[[nodiscard]] QString title();
[[nodiscard]] QString question(const QString &sessionTitle, const QString &directory);

/// True when @p session (as the window holds it: not read again) may use its directory: it was
/// not imported, its directory was accepted before, or the user accepts it now (asked with
/// @p questions), which is recorded.
bool ensureAccepted(UserQuestions &questions, SessionService &service, const Session &session);

} // namespace ImportedDirectory
} // namespace weft
