// SPDX-License-Identifier: GPL-3.0-or-later
#include "userquestions.h"

#include "questiondialog.h"
#include "style.h"

#include <QMessageBox>
#include <QPushButton>

namespace weft
{

UserQuestions::~UserQuestions() = default;

DialogQuestions::DialogQuestions(QWidget *parent)
    : m_parent(parent)
{
}

bool DialogQuestions::confirm(const Confirmation &confirmation)
{
    QMessageBox box(confirmation.destructive ? QMessageBox::Warning : QMessageBox::Question, confirmation.title,
                    confirmation.text, QMessageBox::Cancel, m_parent);
    QPushButton *go = box.addButton(confirmation.button, confirmation.destructive ? QMessageBox::DestructiveRole
                                                                                  : QMessageBox::AcceptRole);
    if (!confirmation.icon.isEmpty())
        go->setIcon(Style::icon(confirmation.icon));
    if (confirmation.goAheadByDefault)
        box.setDefaultButton(go);
    else
        box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == go;
}

void DialogQuestions::warn(const QString &title, const QString &text)
{
    QMessageBox::warning(m_parent, title, text);
}

std::optional<QList<QStringList>> DialogQuestions::answer(const JsonObject &request)
{
    QuestionDialog dialog(request, m_parent);
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    return dialog.answers();
}

} // namespace weft
