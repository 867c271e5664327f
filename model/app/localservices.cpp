// SPDX-License-Identifier: GPL-3.0-or-later
#include "localservices.h"

#include "serversource.h"
#include "sessioncontroller.h"
#include "server/serverclient.h"
#include "server/servicefile.h"

namespace weft::LocalServices
{

QList<ServerSource *> connectAll(SessionController &controller, QStringList *problems)
{
    QList<ServerSource *> sources;
    for (const ServiceFile &service : ServiceFile::findLocal(problems)) {
        ServerSource *source = controller.addServer(ServerClient(service.url, service.password));
        source->setService(true);
        sources.append(source);
    }
    return sources;
}

} // namespace weft::LocalServices
