// SPDX-License-Identifier: GPL-3.0-or-later
#include "logging.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QMutex>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

Q_LOGGING_CATEGORY(lcStore, "weft.store", QtInfoMsg)
Q_LOGGING_CATEGORY(lcSession, "weft.session", QtInfoMsg)
Q_LOGGING_CATEGORY(lcProcessor, "weft.processor", QtInfoMsg)
Q_LOGGING_CATEGORY(lcProvider, "weft.provider", QtInfoMsg)
Q_LOGGING_CATEGORY(lcUi, "weft.ui", QtInfoMsg)

namespace weft::Logging
{

namespace
{
QMutex s_mutex;
QFile *s_file = nullptr;
QString s_path;
QtMessageHandler s_previous = nullptr;
bool s_debug = false;

const char *levelName(QtMsgType type)
{
    switch (type) {
    case QtDebugMsg:
        return "DEBUG";
    case QtInfoMsg:
        return "INFO ";
    case QtWarningMsg:
        return "WARN ";
    case QtCriticalMsg:
        return "ERROR";
    case QtFatalMsg:
        return "FATAL";
    }
    return "?";
}

void handler(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    const bool toFile = type != QtDebugMsg || s_debug;
    if (toFile) {
        QMutexLocker locker(&s_mutex);
        if (s_file) {
            // OpenCode's log line shape: LEVEL  time  +elapsed service=... message
            const QByteArray line = QByteArray(levelName(type)) + "  "
                + QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs).toUtf8() + " service="
                + QByteArray(context.category ? context.category : "default") + ' ' + redact(message).toUtf8() + '\n';
            s_file->write(line);
            s_file->flush();
        }
    }
    // The terminal keeps what a user should see: warnings and worse (and everything Qt prints
    // when the user asked for it with QT_LOGGING_RULES).
    // (QtInfoMsg sorts after QtFatalMsg in the enum: compare by name, not by value.)
    const bool serious = type == QtWarningMsg || type == QtCriticalMsg || type == QtFatalMsg;
    if (s_previous && (serious || qEnvironmentVariableIsSet("QT_LOGGING_RULES")))
        s_previous(type, context, redact(message));
}
} // namespace

QString redact(const QString &text)
{
    static const QRegularExpression patterns(
        uR"((sk-[A-Za-z0-9_\-]{8,}|sk-ant-[A-Za-z0-9_\-]{8,}|(?i:bearer)\s+[A-Za-z0-9._\-]{8,}|(?i:x-api-key|api[_-]?key|authorization)["']?\s*[:=]\s*["']?[A-Za-z0-9._\-]{6,}))"_s);
    if (!text.contains(u"sk-") && !text.contains(u"earer", Qt::CaseInsensitive) && !text.contains(u"key", Qt::CaseInsensitive)
        && !text.contains(u"uthorization", Qt::CaseInsensitive))
        return text;
    QString out = text;
    out.replace(patterns, u"***"_s);
    return out;
}

QString start(const QString &dataDir, int keep)
{
    const QString dir = dataDir + u"/log"_s;
    if (!QDir().mkpath(dir))
        return {};
    // Rotate: keep the newest `keep - 1` logs, then add this run's.
    QStringList logs = QDir(dir).entryList({u"*.log"_s}, QDir::Files, QDir::Name);
    while (logs.size() >= keep && !logs.isEmpty())
        QFile::remove(dir + u'/' + logs.takeFirst());

    const QString name = QDateTime::currentDateTime().toString(u"yyyy-MM-ddTHHmmss"_s) + u".log"_s;
    auto *file = new QFile(dir + u'/' + name);
    if (!file->open(QIODevice::Append | QIODevice::Text)) {
        delete file;
        return {};
    }
    {
        QMutexLocker locker(&s_mutex);
        delete s_file;
        s_file = file;
        s_path = file->fileName();
        s_debug = qEnvironmentVariableIntValue("WEFT_DEBUG") > 0;
    }
    if (!s_previous)
        s_previous = qInstallMessageHandler(handler);
    // The file takes info and above (debug with WEFT_DEBUG); the handler keeps the terminal to
    // warnings, whatever a command line run filtered before.
    if (!qEnvironmentVariableIsSet("QT_LOGGING_RULES"))
        QLoggingCategory::setFilterRules(s_debug ? u"weft.*.debug=true"_s : u"weft.*.info=true"_s);
    return s_path;
}

QString currentFile()
{
    QMutexLocker locker(&s_mutex);
    return s_path;
}

} // namespace weft::Logging
