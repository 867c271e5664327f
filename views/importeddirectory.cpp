// SPDX-License-Identifier: GPL-3.0-or-later
#include "importeddirectory.h"

#include "session/sessionservice.h"
#include "userquestions.h"

#include <QCoreApplication>
#include <QDir>

using namespace Qt::StringLiterals;

namespace weft::ImportedDirectory
{

QString title()
{
    return QCoreApplication::translate("ImportedDirectory", "Imported Session");
}

QString question(const QString &sessionTitle, const QString &directory)
{
    return QCoreApplication::translate(
               "ImportedDirectory",
               "“%1” was imported from a file. It works in this folder, which the file chose:\n\n%2\n\n"
               "The agent will read, change and run commands there, and a revert changes files there. Use this "
               "folder?")
        .arg(sessionTitle,
             directory.isEmpty() ? QCoreApplication::translate("ImportedDirectory", "(no folder)")
                                 : QDir::toNativeSeparators(directory));
}

bool ensureAccepted(UserQuestions &questions, SessionService &service, const Session &session)
{
    if (service.checkDirectoryConfirmed(session))
        return true;
    if (!questions.confirm({title(), question(session.title(), session.directory()),
                            QCoreApplication::translate("ImportedDirectory", "&Use This Folder"), u"folder"_s,
                            false, false}))
        return false;
    if (auto r = service.confirmImportedDirectory(session); !r) {
        questions.warn(title(), r.error().toString());
        return false;
    }
    return true;
}

} // namespace weft::ImportedDirectory
