// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessionlock.h"

#include "core/identifier.h"
#include "core/json.h"
#include "core/tr.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QMutex>
#include <QSysInfo>
#include <QThread>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
QMutex s_commandMutex;
QString s_command;

QString processCommand()
{
    QMutexLocker lock(&s_commandMutex);
    if (!s_command.isEmpty())
        return s_command;
    const QString name = QCoreApplication::applicationName();
    return name.isEmpty() ? u"weft"_s : name;
}

std::optional<SessionLock::Holder> readHolder(int fd)
{
    QByteArray bytes(4096, Qt::Uninitialized);
    const ssize_t n = ::pread(fd, bytes.data(), bytes.size(), 0);
    if (n <= 0)
        return std::nullopt;
    bytes.truncate(n);
    const std::optional<JsonValue> json = parseJson(bytes);
    if (!json || !json->isObject())
        return std::nullopt;
    const JsonObject o = json->toObject();
    SessionLock::Holder h;
    h.pid = o.integer(u"pid");
    h.host = o.string(u"host");
    h.command = o.string(u"command");
    h.since = o.integer(u"since");
    return h;
}
} // namespace

QString SessionLock::folder(const QString &dataDir)
{
    return dataDir + u"/run"_s;
}

QString SessionLock::path(const QString &dataDir, const QString &sessionID)
{
    return folder(dataDir) + u'/' + sessionID + u".lock"_s;
}

void SessionLock::setProcessCommand(const QString &command)
{
    QMutexLocker lock(&s_commandMutex);
    s_command = command;
}

SessionLock::SessionLock(QString path, QString sessionID, int fd)
    : m_path(std::move(path))
    , m_sessionID(std::move(sessionID))
    , m_fd(fd)
{
}

SessionLock::~SessionLock()
{
    // Removed while still held: a process that opened the old file finds it gone once it gets
    // the lock, and tries again with a new one (see acquire()).
    if (!m_keepFile)
        ::unlink(QFile::encodeName(m_path).constData());
    ::close(m_fd);
}

Result<std::unique_ptr<SessionLock>> SessionLock::acquire(const QString &dataDir, const QString &sessionID,
                                                          const QString &command, int waitMs)
{
    if (const QString why = Identifier::whyInvalid(sessionID, Identifier::Kind::Session); !why.isEmpty())
        return Error{why, {}};
    const QString dir = folder(dataDir);
    if (!QDir().mkpath(dir))
        return Error{StoreTr::tr("cannot create the folder of the session locks"), dir};
    const QString path = SessionLock::path(dataDir, sessionID);
    const QByteArray native = QFile::encodeName(path);
    const QDeadlineTimer deadline(std::max(0, waitMs));
    for (;;) {
        const int fd = ::open(native.constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0)
            return Error{StoreTr::tr("cannot open the session's lock file: %1").arg(QString::fromLocal8Bit(std::strerror(errno))), path};
        if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
            const int error = errno;
            if (error != EWOULDBLOCK && error != EINTR) {
                ::close(fd);
                return Error{StoreTr::tr("cannot lock the session: %1").arg(QString::fromLocal8Bit(std::strerror(error))), path};
            }
            const std::optional<Holder> holder = readHolder(fd);
            ::close(fd);
            // Another process may be looking (holder() takes the lock shared for an instant).
            if (!deadline.hasExpired()) {
                QThread::msleep(10);
                continue;
            }
            if (holder && holder->isThisProcess())
                return Error{StoreTr::tr("session %1 is busy: this process is running it").arg(sessionID), {}};
            return Error{StoreTr::tr("session %1 is being run by %2; wait for it to finish, or stop it there").arg(
                             sessionID, holder ? holder->describe() : StoreTr::tr("another Weft process")),
                         {}};
        }
        // The file may have been removed (and made again) by its previous holder while this
        // process waited: then this lock guards nothing.
        struct stat opened{};
        struct stat named{};
        if (::fstat(fd, &opened) != 0 || ::stat(native.constData(), &named) != 0 || opened.st_ino != named.st_ino
            || opened.st_dev != named.st_dev) {
            ::close(fd);
            continue;
        }
        JsonObject info;
        info.insert(u"pid"_s, QCoreApplication::applicationPid());
        info.insert(u"host"_s, QSysInfo::machineHostName());
        info.insert(u"command"_s, command.isEmpty() ? processCommand() : command);
        info.insert(u"since"_s, QDateTime::currentMSecsSinceEpoch());
        const QByteArray bytes = toJson(info, 0);
        // The name of the holder is a courtesy: a full disk does not stop the run.
        if (::ftruncate(fd, 0) == 0)
            (void)!::pwrite(fd, bytes.constData(), bytes.size(), 0);
        return std::unique_ptr<SessionLock>(new SessionLock(path, sessionID, fd));
    }
}

std::optional<SessionLock::Holder> SessionLock::holder(const QString &dataDir, const QString &sessionID)
{
    if (!Identifier::isSafeKeyComponent(sessionID))
        return std::nullopt;
    const int fd = ::open(QFile::encodeName(SessionLock::path(dataDir, sessionID)).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return std::nullopt;
    std::optional<Holder> result;
    if (::flock(fd, LOCK_SH | LOCK_NB) == 0) {
        ::flock(fd, LOCK_UN); // nobody holds it: its run ended, or died
    } else {
        result = readHolder(fd).value_or(Holder());
    }
    ::close(fd);
    return result;
}

QStringList SessionLock::lockFiles(const QString &dataDir)
{
    QStringList sessions;
    const QStringList names = QDir(folder(dataDir)).entryList({u"*.lock"_s}, QDir::Files, QDir::Name);
    for (const QString &name : names) {
        const QString id = name.chopped(5);
        if (Identifier::isSafeKeyComponent(id))
            sessions.append(id);
    }
    return sessions;
}

} // namespace weft
