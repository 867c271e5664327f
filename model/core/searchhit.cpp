// SPDX-License-Identifier: GPL-3.0-or-later
#include "searchhit.h"

#include "types.h"

#include <QDir>
#include <QSettings>
#include <QStringView>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace weft
{

QString SearchHit::markedSnippet(const QString &open, const QString &close) const
{
    QString out;
    int pos = 0;
    for (const auto &[start, length] : highlights) {
        if (start < pos)
            continue;
        out += QStringView(snippet).mid(pos, start - pos) + open + QStringView(snippet).mid(start, length) + close;
        pos = start + length;
    }
    out += QStringView(snippet).mid(pos);
    return out;
}

bool SearchLimits::admits(const Session &session, qint64 nowMs) const
{
    auto within = [dir = session.directory()](const QStringList &folders) {
        return std::any_of(folders.cbegin(), folders.cend(), [&dir](const QString &f) {
            const QString folder = QDir::cleanPath(f);
            return dir == folder || dir.startsWith(folder.endsWith(u'/') ? folder : folder + u'/');
        });
    };
    if (!projects.isEmpty() && !within(projects))
        return false;
    if (within(excludedProjects))
        return false;
    return maxAgeDays <= 0 || session.updated() >= nowMs - qint64(maxAgeDays) * 24 * 3600 * 1000;
}

SearchLimits SearchLimits::read(const QSettings &settings)
{
    SearchLimits limits;
    limits.projects = settings.value(u"search/projects"_s).toStringList();
    limits.excludedProjects = settings.value(u"search/excludedProjects"_s).toStringList();
    limits.maxAgeDays = qMax(0, settings.value(u"search/maxAgeDays"_s, 0).toInt());
    limits.toolOutputs = settings.value(u"search/toolOutputs"_s, true).toBool();
    limits.enabled = settings.value(u"search/enabled"_s, true).toBool();
    return limits;
}

void SearchLimits::write(QSettings &settings) const
{
    settings.setValue(u"search/projects"_s, projects);
    settings.setValue(u"search/excludedProjects"_s, excludedProjects);
    settings.setValue(u"search/maxAgeDays"_s, maxAgeDays);
    settings.setValue(u"search/toolOutputs"_s, toolOutputs);
    settings.setValue(u"search/enabled"_s, enabled);
}

QString SearchLimits::fingerprint() const
{
    return toolOutputs ? u"outputs"_s : u"no-outputs"_s;
}

} // namespace weft
