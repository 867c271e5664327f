// SPDX-License-Identifier: GPL-3.0-or-later
#include "servicefile.h"

#include "core/json.h"
#include "core/logging.h"
#include "core/tr.h"

#include <QDir>
#include <QFileInfo>
#include <QFile>
#include <QHostAddress>
#include <QRegularExpression>

#include <csignal>
#include <limits>
#include <sys/stat.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
constexpr qint64 MaxSize = 64 * 1024;

bool isLoopback(const QString &host)
{
    if (host == u"localhost")
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

bool processRuns(qint64 pid)
{
    // EPERM: a process of another user, not the user's own service.
    return pid > 0 && pid <= std::numeric_limits<pid_t>::max() && ::kill(pid_t(pid), 0) == 0;
}
} // namespace

QString ServiceFile::directory()
{
    QString state = qEnvironmentVariable("XDG_STATE_HOME");
    // The XDG rule: a relative path is ignored.
    if (state.isEmpty() || !QDir::isAbsolutePath(state))
        state = QDir::homePath() + u"/.local/state"_s;
    return state + u"/opencode"_s;
}

QString ServiceFile::pathFor(const QString &channel)
{
    return directory() + (channel.isEmpty() ? u"/service.json"_s : u"/service-%1.json"_s.arg(channel));
}

std::optional<QString> ServiceFile::channelOf(const QString &address)
{
    static const QRegularExpression re(u"^service(?::([A-Za-z0-9._-]+))?$"_s);
    const QRegularExpressionMatch match = re.match(address.trimmed());
    if (!match.hasMatch())
        return std::nullopt;
    return match.captured(1);
}

Result<ServiceFile> ServiceFile::parse(const QByteArray &json, const QString &where)
{
    const auto bad = [&](const QString &why) { return Error{why, where}; };
    const std::optional<JsonValue> value = parseJson(json);
    if (!value || !value->isObject())
        return bad(ServerTr::tr("OpenCode's service file is not valid JSON"));
    const JsonObject object = value->toObject();
    ServiceFile file;
    file.id = object.string(u"id");
    file.version = object.string(u"version");
    file.password = object.string(u"password");
    file.pid = object.value(u"pid").toInteger();
    const QString url = object.string(u"url");
    if (url.isEmpty() || file.password.isEmpty() || file.pid <= 0)
        return bad(ServerTr::tr("OpenCode's service file lacks its url, pid or password"));
    file.url = QUrl(url, QUrl::StrictMode);
    // Only the user's own machine: a file that sends Weft (and the password) elsewhere is refused.
    if (!file.url.isValid() || file.url.scheme() != u"http" || file.url.port() <= 0 || !isLoopback(file.url.host())
        || !file.url.userInfo().isEmpty() || file.url.hasQuery() || file.url.hasFragment())
        return bad(ServerTr::tr("OpenCode's service file names %1, not an http:// address on this machine (127.0.0.1)")
                       .arg(file.url.isValid() ? file.url.toDisplayString(QUrl::RemoveUserInfo) : u"an invalid address"_s));
    file.url = file.url.adjusted(QUrl::StripTrailingSlash);
    return file;
}

Result<ServiceFile> ServiceFile::read(const QString &path)
{
    struct stat st {};
    const QByteArray native = QFile::encodeName(path);
    if (::lstat(native.constData(), &st) != 0)
        return Error{ServerTr::tr("no OpenCode service runs (no %1)").arg(QDir::toNativeSeparators(path)), {}};
    if (!S_ISREG(st.st_mode))
        return Error{ServerTr::tr("OpenCode's service file is not a regular file"), path};
    if (st.st_uid != ::geteuid())
        return Error{ServerTr::tr("OpenCode's service file belongs to another user: it is not used"), path};
    // It holds the server's password: a file others may read or change is not trusted.
    if ((st.st_mode & (S_IRWXG | S_IRWXO)) != 0)
        return Error{ServerTr::tr("OpenCode's service file may be read or changed by others (mode %1, not 600): "
                                  "it is not used")
                         .arg(QString::number(st.st_mode & 07777, 8)),
                     path};
    if (st.st_size > MaxSize)
        return Error{ServerTr::tr("OpenCode's service file is too large"), path};
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error{file.errorString(), path};
    const Result<ServiceFile> parsed = parse(file.read(MaxSize), path);
    if (!parsed)
        return parsed.error();
    ServiceFile service = parsed.value();
    service.path = path;
    const QString name = QFileInfo(path).completeBaseName();
    service.channel = name.startsWith(u"service-") ? name.mid(8) : QString();
    if (!processRuns(service.pid))
        return Error{ServerTr::tr("OpenCode's service is not running (its process %1 is gone)").arg(service.pid), path};
    return service;
}

QList<ServiceFile> ServiceFile::findLocal(QStringList *problems)
{
    QList<ServiceFile> services;
    const QDir dir(directory());
    QStringList names = dir.entryList({u"service-*.json"_s}, QDir::Files | QDir::System | QDir::Hidden, QDir::Name);
    if (dir.exists(u"service.json"_s))
        names.prepend(u"service.json"_s);
    for (const QString &name : std::as_const(names)) {
        const Result<ServiceFile> service = read(dir.filePath(name));
        if (service) {
            services.append(service.value());
        } else {
            qCInfo(lcSession).noquote() << "OpenCode service:" << service.error().toString();
            // A stale file (the service died without removing it) is no one's problem.
            if (problems && !service.error().message.contains(u"not running"_s))
                problems->append(service.error().toString());
        }
    }
    return services;
}

} // namespace weft
