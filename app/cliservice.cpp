// SPDX-License-Identifier: GPL-3.0-or-later
#include "cliservice.h"

#include "server/serverclient.h"
#include "server/serverstore.h"
#include "server/servicefile.h"

using namespace Qt::StringLiterals;

namespace weft::Cli
{

Result<ServerConnection> connectService(const QString &channel, const GlobalOptions &options)
{
    if (!options.passwordFile.isEmpty())
        return Error{u"--password-file goes with an http:// server; the service's password is in its service file"_s, {}};
    const Result<ServiceFile> service = ServiceFile::read(ServiceFile::pathFor(channel));
    if (!service)
        return service.error();
    Result<std::shared_ptr<ServerStore>> store
        = ServerClient::wait(ServerStore::connect(ServerClient(service->url, service->password)));
    if (!store)
        return store.error();
    ServerConnection connection;
    connection.store = store.value();
    return connection;
}

} // namespace weft::Cli
