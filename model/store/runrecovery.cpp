// SPDX-License-Identifier: GPL-3.0-or-later
// JsonStore's recovery of runs that died (killed, crashed, a power cut): their stream journals
// applied, their messages and tool calls closed. See JsonStore::closeInterruptedRuns().

#include "jsonstore.h"
#include "sessionlock.h"

#include "core/identifier.h"
#include "core/logging.h"
#include "core/tr.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QMap>

using namespace Qt::StringLiterals;

namespace weft
{

InterruptedRuns JsonStore::closeInterruptedRuns()
{
    InterruptedRuns recovery;
    // The journals, by the session of their part.
    QMap<QString, QStringList> journals;
    const QDir streams(m_dataDir + u"/stream"_s);
    const QStringList names = streams.entryList({u"*.jsonl"_s}, QDir::Files, QDir::Name);
    for (const QString &name : names) {
        const QStringList pieces = name.chopped(6).split(u'.');
        if (pieces.size() != 2 || !Identifier::isSafeKeyComponent(pieces.at(0)) || !Identifier::isSafeKeyComponent(pieces.at(1))) {
            reportProblem(streams.filePath(name), StoreTr::tr("not a stream journal of Weft"));
            continue;
        }
        const Result<JsonValue> stored = m_storage.read({u"part"_s, pieces.at(0), pieces.at(1)});
        const QString sessionID = stored && stored->isObject() ? Part(stored->toObject()).sessionID() : QString();
        if (!Identifier::isSafeKeyComponent(sessionID)) {
            QFile::remove(streams.filePath(name)); // the journal of a part that was never written
            continue;
        }
        journals[sessionID].append(name);
    }
    QStringList sessions = SessionLock::lockFiles(m_dataDir);
    for (auto it = journals.cbegin(); it != journals.cend(); ++it) {
        if (!sessions.contains(it.key()))
            sessions.append(it.key());
    }
    for (const QString &sessionID : std::as_const(sessions)) {
        // Held while the session is repaired, so that no run starts on it meanwhile; a session
        // whose lock is held is being run by a live process and is left as it is.
        const Result<std::unique_ptr<SessionLock>> lock = SessionLock::acquire(m_dataDir, sessionID, u"recovery"_s, 0);
        if (!lock) {
            ++recovery.live;
            continue;
        }
        replayJournals(journals.value(sessionID), recovery);
        // What cannot be closed now (a full disk) is left for the next start.
        if (!closeUnfinishedMessages(sessionID, recovery))
            lock.value()->keepFile();
    }
    if (recovery.runs > 0 || recovery.streams > 0)
        qCInfo(lcStore).noquote() << "closed" << recovery.runs << "interrupted runs (" << recovery.tools
                                  << "tool calls) and completed" << recovery.streams << "streamed parts in"
                                  << recovery.sessions.join(u", "_s);
    return recovery;
}

void JsonStore::replayJournals(const QStringList &journals, InterruptedRuns &recovery)
{
    for (const QString &name : journals) {
        const QString path = m_dataDir + u"/stream/"_s + name;
        const QStringList pieces = name.chopped(6).split(u'.');
        const JsonStorage::Key key{u"part"_s, pieces.at(0), pieces.at(1)};
        Result<JsonValue> stored = m_storage.read(key);
        QFile journal(path);
        if (!stored || !stored->isObject() || !journal.open(QIODevice::ReadOnly)) {
            QFile::remove(path);
            continue;
        }
        Part part(stored->toObject());
        QString text = part.text();
        int applied = 0;
        while (!journal.atEnd()) {
            const QByteArray line = journal.readLine();
            const std::optional<JsonValue> record = parseJson(line.trimmed());
            if (!record)
                break; // a record cut short by the crash: everything before it counts
            const JsonObject o = record->toObject();
            if (o.integer(u"at", -1) != text.size())
                continue;
            text += o.string(u"delta");
            ++applied;
        }
        journal.close();
        if (applied > 0) {
            part.setText(text);
            if (!m_storage.write(key, part.json()))
                continue; // keep the journal for the next start
            qCInfo(lcStore) << "completed streamed part" << part.id() << "from its journal:" << applied << "deltas";
            ++recovery.streams;
            if (!recovery.sessions.contains(part.sessionID()))
                recovery.sessions.append(part.sessionID());
        }
        QFile::remove(path);
    }
}

bool JsonStore::closeUnfinishedMessages(const QString &sessionID, InterruptedRuns &recovery)
{
    bool all = true;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (MessageWithParts message : messagesWithParts(sessionID)) {
        if (!message.isUnfinished())
            continue;
        bool written = true;
        for (const Part &part : message.closeUnfinished(
                 u"The run was interrupted: the Weft process running it ended before it finished."_s,
                 u"Tool execution was interrupted: the Weft process running it ended"_s, now)) {
            if (part.type() == PartType::Tool)
                ++recovery.tools;
            written = writePart(part).ok() && written;
        }
        // A part that cannot be closed (a full disk) leaves the message open for the next start.
        if (!written || !writeMessage(message.info)) {
            all = false;
            continue;
        }
        ++recovery.runs;
        if (!recovery.sessions.contains(sessionID))
            recovery.sessions.append(sessionID);
    }
    return all;
}

} // namespace weft
