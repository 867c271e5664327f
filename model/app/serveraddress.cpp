// SPDX-License-Identifier: GPL-3.0-or-later
#include "serveraddress.h"

#include "sessioncontroller.h"
#include "server/serverclient.h"
#include "server/sshtunnel.h"

namespace weft
{

bool ServerAddress::isSsh(const QString &text)
{
    return SshTarget::isSshAddress(text);
}

Result<ServerAddress> ServerAddress::parse(const QString &text)
{
    if (isSsh(text)) {
        const Result<SshTarget> target = SshTarget::parse(text);
        if (!target)
            return target.error();
        return ServerAddress{target->url(), true, target->displayHost()};
    }
    const Result<QUrl> url = ServerClient::parseUrl(text);
    if (!url)
        return url.error();
    return ServerAddress{url.value(), false, {}};
}

ServerSource *addServer(SessionController &controller, const ServerAddress &address, const QString &password)
{
    return controller.addServer(ServerClient(address.url, address.ssh ? QString() : password));
}

} // namespace weft
