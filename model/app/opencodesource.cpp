// SPDX-License-Identifier: GPL-3.0-or-later
#include "opencodesource.h"

#include "core/logging.h"
#include "opencodedb/opencodedatadir.h"
#include "session/datadir.h"
#include "session/sessionservice.h"
#include "store/store.h"
#include "qt/sessionsmodel.h"

#include <QDir>
#include <QFileInfo>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace weft
{

OpencodeSource::OpencodeSource(QObject *parent)
    : QObject(parent)
{
}

OpencodeSource::~OpencodeSource()
{
    close();
}

bool OpencodeSource::looksLikeDataDir(const QString &dir)
{
    if (dir.isEmpty() || !QFileInfo(dir).isDir())
        return false;
    return !DataDir::databasesIn(dir).isEmpty() || QFileInfo(QDir(dir).filePath(u"storage"_s)).isDir();
}

QString OpencodeSource::label() const
{
    QString dir = QDir::toNativeSeparators(m_dataDir);
    const QString home = QDir::toNativeSeparators(QDir::homePath());
    if (dir.startsWith(home + QDir::separator()))
        dir = u"~"_s + dir.mid(home.size());
    return tr("OpenCode (%1)").arg(dir);
}

Result<void> OpencodeSource::open(const QString &dataDir)
{
    close();
    if (!looksLikeDataDir(dataDir))
        return Error{tr("This folder holds no OpenCode sessions (no opencode.db and no storage folder)."), dataDir};
    Result<DataDir::Opened> opened = OpencodeDataDir::open(dataDir, false);
    if (!opened)
        return opened.error();
    m_dataDir = opened->path;
    m_warning = opened->warning;
    m_key = opened->store->location();
    m_service = std::make_shared<SessionService>(opened->store);
    const int generation = ++m_generation;
    // The sessions model is made once the watcher knows the state it starts from, so that no
    // change falls between the first load and the live changes.
    const auto makeOnce = [this, generation] {
        if (generation == m_generation && !m_sessions)
            makeModel();
    };
    connect(m_service.get(), &SessionService::watchingStarted, this, makeOnce);
    m_service->startWatching();
    if (!m_service->watcher())
        QTimer::singleShot(0, this, makeOnce); // a store nobody else writes: nothing to wait for
    qCInfo(lcSession) << "showing OpenCode's sessions of" << m_key;
    return {};
}

void OpencodeSource::makeModel()
{
    m_sessions = new SessionsModel(m_service.get(), this);
    m_ready = true;
    Q_EMIT ready();
}

void OpencodeSource::close()
{
    if (!m_service)
        return;
    Q_EMIT aboutToClose();
    ++m_generation;
    m_ready = false;
    m_service->stopWatching();
    delete m_sessions.data();
    m_service.reset();
    m_dataDir.clear();
    m_key.clear();
    m_warning.clear();
}

} // namespace weft
