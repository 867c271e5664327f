// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QStringList>

namespace weft
{

class ServerSource;
class SessionController;

/// OpenCode's background services on this machine (`opencode serve --service`, found through
/// their service files, ServiceFile) shown as sources without being asked. Each is connected with
/// the password of its file, which stays in the server layer: neither remembered nor shown.
namespace LocalServices
{
/// Connects @p controller to every OpenCode service running here (a source each, labelled as the
/// service, SessionController::addServer()) and returns those sources. Why a service file is not
/// used (others may read it, it names another machine, it is damaged) is added to @p problems;
/// a stale one (its process gone) is skipped quietly.
QList<ServerSource *> connectAll(SessionController &controller, QStringList *problems = nullptr);
} // namespace LocalServices

} // namespace weft
