// SPDX-License-Identifier: GPL-3.0-or-later
#include "toolnames.h"

#include "core/tr.h"

using namespace Qt::StringLiterals;

namespace weft::ToolNames
{

Kind kind(QStringView name)
{
    if (name == u"bash" || name == u"shell")
        return Kind::Shell;
    if (name == u"task" || name == u"subagent")
        return Kind::Subagent;
    if (name == u"read")
        return Kind::Read;
    if (name == u"write")
        return Kind::Write;
    if (name == u"edit" || name == u"multiedit")
        return Kind::Edit;
    if (name == u"apply_patch" || name == u"patch")
        return Kind::Patch;
    return Kind::Other;
}

QString displayName(QStringView name)
{
    switch (kind(name)) {
    case Kind::Shell:
        return CoreTr::tr("Shell");
    case Kind::Subagent:
        return CoreTr::tr("Subagent");
    case Kind::Read:
        return CoreTr::tr("Read");
    case Kind::Write:
        return CoreTr::tr("Write");
    case Kind::Edit:
        return CoreTr::tr("Edit");
    case Kind::Patch:
        return CoreTr::tr("Patch");
    case Kind::Other:
        break;
    }
    return name.isEmpty() ? QString() : name.left(1).toString().toUpper() + name.mid(1);
}

QString filePath(const JsonObject &input)
{
    const QString path = input.string(u"path");
    return path.isEmpty() ? input.string(u"filePath") : path;
}

QString command(QStringView name, const JsonObject &input)
{
    return kind(name) == Kind::Shell ? input.string(u"command") : QString();
}

} // namespace weft::ToolNames
