// SPDX-License-Identifier: GPL-3.0-or-later
#include "searchhit.h"

#include <QStringView>

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

} // namespace weft
