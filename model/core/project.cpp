// SPDX-License-Identifier: GPL-3.0-or-later
#include "project.h"

#include <QDir>
#include <QProcess>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
QString git(const QString &directory, const QStringList &args)
{
    QProcess process;
    process.setWorkingDirectory(directory);
    process.setProcessChannelMode(QProcess::SeparateChannels);
    process.start(u"git"_s, args);
    if (!process.waitForFinished(10000) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
        return {};
    return QString::fromUtf8(process.readAllStandardOutput()).trimmed();
}
} // namespace

ProjectIdentity identifyProject(const QString &directory)
{
    const ProjectIdentity global{u"global"_s, u"/"_s, {}};
    if (!QDir(directory).exists())
        return global;
    const QString top = git(directory, {u"rev-parse"_s, u"--show-toplevel"_s});
    if (top.isEmpty())
        return global;
    QStringList roots = git(directory, {u"rev-list"_s, u"--max-parents=0"_s, u"--all"_s}).split(u'\n', Qt::SkipEmptyParts);
    if (roots.isEmpty())
        return global;
    for (QString &r : roots)
        r = r.trimmed();
    std::sort(roots.begin(), roots.end());
    return {roots.first(), top, u"git"_s};
}

} // namespace weft
