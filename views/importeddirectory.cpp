// SPDX-License-Identifier: GPL-3.0-or-later
#include "importeddirectory.h"

#include "session/sessionservice.h"
#include "style.h"

#include <QCoreApplication>
#include <QDir>
#include <QMessageBox>
#include <QPushButton>

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

bool ensureAccepted(QWidget *parent, SessionService &service, const Session &session,
                    const std::function<bool(const QString &, const QString &)> &handler)
{
    if (service.checkDirectoryConfirmed(session))
        return true;
    const QString text = question(session.title(), session.directory());
    bool accepted = false;
    if (handler) {
        accepted = handler(title(), text);
    } else {
        QMessageBox box(QMessageBox::Question, title(), text, QMessageBox::Cancel, parent);
        QPushButton *use = box.addButton(QCoreApplication::translate("ImportedDirectory", "&Use This Folder"),
                                         QMessageBox::AcceptRole);
        use->setIcon(Style::icon(u"folder"_s));
        box.setDefaultButton(QMessageBox::Cancel);
        box.exec();
        accepted = box.clickedButton() == use;
    }
    if (!accepted)
        return false;
    if (auto r = service.confirmImportedDirectory(session); !r) {
        if (!handler)
            QMessageBox::warning(parent, title(), r.error().toString());
        return false;
    }
    return true;
}

} // namespace weft::ImportedDirectory
