// SPDX-License-Identifier: GPL-3.0-or-later
// The remembered OpenCode servers (model/server/rememberedservers.*): the settings file that
// holds their passwords is the user's alone from its first byte, whatever the umask.
#include "app/rememberedservers.h"

#include <QDir>
#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace Qt::StringLiterals;
using namespace weft;

namespace
{
mode_t modeOf(const QString &path)
{
    struct stat st{};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return 0;
    return st.st_mode & 07777;
}

/// Sets the umask for the scope of a test.
struct Umask {
    explicit Umask(mode_t mask) : old(::umask(mask)) { }
    ~Umask() { ::umask(old); }
    mode_t old;
};
} // namespace

class TestRememberedServers : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void newFileIsPrivate()
    {
        const Umask permissive(022);
        QTemporaryDir home;
        const QString folder = home.path() + u"/config/weft"_s;
        const QString file = folder + u"/weft.conf"_s;
        const QList<RememberedServers::Entry> servers{{u"http://127.0.0.1:4096"_s, u"s3cret-password"_s, true},
                                                      {u"http://10.0.0.2:4096"_s, {}, false}};
        {
            QSettings settings(file, QSettings::NativeFormat);
            QVERIFY(RememberedServers::write(settings, servers));
        }
        QCOMPARE(modeOf(folder), mode_t(0700));
        QCOMPARE(modeOf(file), mode_t(0600));
        // Only the settings file is there: no copy or temporary file beside it.
        QCOMPARE(QDir(folder).entryList(QDir::Files | QDir::Hidden | QDir::System), QStringList{u"weft.conf"_s});
        QSettings again(file, QSettings::NativeFormat);
        QCOMPARE(RememberedServers::read(again), servers);
    }

    void existingFileIsTightened()
    {
        // A settings file (and folder) made world-readable by an earlier Weft, holding other
        // settings: made private before the password goes in, the other settings kept.
        const Umask permissive(022);
        QTemporaryDir home;
        const QString folder = home.path() + u"/weft"_s;
        const QString file = folder + u"/weft.conf"_s;
        QVERIFY(QDir().mkpath(folder));
        {
            QSettings settings(file, QSettings::NativeFormat);
            settings.setValue(u"window/geometry"_s, u"kept"_s);
        }
        QCOMPARE(modeOf(folder), mode_t(0755));
        QCOMPARE(modeOf(file), mode_t(0644));
        {
            QSettings settings(file, QSettings::NativeFormat);
            QVERIFY(RememberedServers::write(settings, {{u"http://127.0.0.1:4096"_s, u"pw"_s, false}}));
        }
        QCOMPARE(modeOf(folder), mode_t(0700));
        QCOMPARE(modeOf(file), mode_t(0600));
        QSettings again(file, QSettings::NativeFormat);
        QCOMPARE(again.value(u"window/geometry"_s).toString(), u"kept"_s);
        QCOMPARE(RememberedServers::read(again).size(), 1);
    }

    void makePrivateBeforeAnyByte()
    {
        // What write() does first: the file exists, empty and 0600, before a setting is written,
        // so the settings' rewrite (QSaveFile, which copies an existing file's mode) never makes
        // a world-readable file.
        const Umask permissive(0);
        QTemporaryDir home;
        const QString file = home.path() + u"/new/weft.conf"_s;
        QVERIFY(RememberedServers::makePrivate(file));
        QCOMPARE(modeOf(home.path() + u"/new"_s), mode_t(0700));
        QCOMPARE(modeOf(file), mode_t(0600));
        QCOMPARE(QFileInfo(file).size(), 0);
    }
};

QTEST_GUILESS_MAIN(TestRememberedServers)
#include "tst_rememberedservers.moc"
