// SPDX-License-Identifier: GPL-3.0-or-later
#include "questiondialog.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace weft
{

QuestionDialog::QuestionDialog(const JsonObject &request, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("The Agent Asks"));
    setObjectName(u"questionDialog"_s);
    auto *layout = new QVBoxLayout(this);
    int index = 0;
    for (const JsonValue &value : request.value(u"questions").toArray()) {
        const JsonObject q = value.toObject();
        auto *box = new QGroupBox(q.string(u"header"), this);
        box->setObjectName(u"question%1"_s.arg(index++));
        auto *inner = new QVBoxLayout(box);
        auto *text = new QLabel(q.string(u"question"), box);
        text->setWordWrap(true);
        text->setTextFormat(Qt::PlainText);
        inner->addWidget(text);
        const bool multiple = q.value(u"multiple").toBool();
        auto *group = new QButtonGroup(box);
        group->setExclusive(!multiple);
        Question question;
        int option = 0;
        for (const JsonValue &o : q.value(u"options").toArray()) {
            const JsonObject opt = o.toObject();
            QAbstractButton *button = multiple ? static_cast<QAbstractButton *>(new QCheckBox(opt.string(u"label"), box))
                                               : new QRadioButton(opt.string(u"label"), box);
            button->setObjectName(u"option%1"_s.arg(option++));
            button->setToolTip(opt.string(u"description"));
            group->addButton(button);
            inner->addWidget(button);
            if (!opt.string(u"description").isEmpty()) {
                auto *description = new QLabel(opt.string(u"description"), box);
                description->setWordWrap(true);
                description->setTextFormat(Qt::PlainText);
                description->setContentsMargins(24, 0, 0, 4);
                description->setForegroundRole(QPalette::PlaceholderText);
                inner->addWidget(description);
            }
            question.options.append(button);
            connect(button, &QAbstractButton::toggled, this, &QuestionDialog::validate);
        }
        // OpenCode lets the user type an answer of their own unless the question says not.
        if (q.value(u"custom").isUndefined() || q.value(u"custom").toBool()) {
            question.custom = new QLineEdit(box);
            question.custom->setObjectName(u"custom"_s);
            question.custom->setPlaceholderText(tr("Or type your own answer"));
            question.custom->setAccessibleName(tr("Your own answer"));
            inner->addWidget(question.custom);
            connect(question.custom, &QLineEdit::textChanged, this, &QuestionDialog::validate);
        }
        m_questions.append(question);
        layout->addWidget(box);
    }
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("&Answer"));
    buttons->button(QDialogButtonBox::Cancel)->setText(tr("&Decline"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    validate();
}

QList<QStringList> QuestionDialog::answers() const
{
    QList<QStringList> result;
    for (const Question &q : m_questions) {
        QStringList chosen;
        for (const QAbstractButton *button : q.options) {
            if (button->isChecked())
                chosen.append(button->text());
        }
        if (q.custom && !q.custom->text().trimmed().isEmpty())
            chosen.append(q.custom->text().trimmed());
        result.append(chosen);
    }
    return result;
}

void QuestionDialog::validate()
{
    // Every question needs an answer.
    bool complete = true;
    for (const QStringList &answer : answers())
        complete = complete && !answer.isEmpty();
    m_ok->setEnabled(complete);
}

} // namespace weft
