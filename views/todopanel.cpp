// SPDX-License-Identifier: GPL-3.0-or-later
#include "todopanel.h"

#include "qt/todomodel.h"

#include <QLabel>

#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace weft
{

TodoPanel::TodoPanel(QWidget *parent) : QFrame(parent), m_model(new TodoModel(this))
{
    connect(m_model, &QAbstractItemModel::modelReset, this, &TodoPanel::showTodos);
    setObjectName(u"todoPanel"_s);
    setFrameShape(QFrame::StyledPanel);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 6);
    layout->setSpacing(2);
    m_header = new QToolButton(this);
    m_header->setObjectName(u"todoHeader"_s);
    m_header->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_header->setAutoRaise(true);
    m_header->setToolTip(tr("Show or hide the todo list"));
    connect(m_header, &QToolButton::clicked, this, [this] {
        m_folded = !m_folded;
        updateFolded();
    });
    m_list = new QLabel(this);
    m_list->setObjectName(u"todoList"_s);
    m_list->setTextFormat(Qt::RichText);
    m_list->setWordWrap(true);
    m_list->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_header);
    layout->addWidget(m_list);
    updateFolded();
    hide();
}

void TodoPanel::setSession(SessionService *service, const QString &sessionID)
{
    m_model->setSession(service, sessionID);
}

const QList<Todo> &TodoPanel::todos() const
{
    return m_model->todos();
}

QString TodoPanel::headerText() const
{
    return tr("Todo · %1 of %2 done").arg(m_model->completed()).arg(m_model->rowCount());
}

QString TodoPanel::listText() const
{
    QStringList lines;
    for (const Todo &todo : todos()) {
        const QString status = todo.status();
        const QString mark = status == u"completed"     ? u"☑"_s
                             : status == u"in_progress" ? u"▶"_s
                             : status == u"cancelled"   ? u"☒"_s
                                                        : u"☐"_s;
        lines.append(mark + u' ' + todo.content());
    }
    return lines.join(u'\n');
}

void TodoPanel::showTodos()
{
    const QList<Todo> &todos = m_model->todos();
    setVisible(!todos.isEmpty());
    m_header->setText(headerText());
    QString html;
    const QStringList lines = listText().split(u'\n');
    for (qsizetype i = 0; i < todos.size(); ++i) {
        const QString status = todos.at(i).status();
        QString line = lines.at(i).toHtmlEscaped();
        if (status == u"completed" || status == u"cancelled")
            line = u"<span style=\"text-decoration: line-through; color: palette(placeholder-text);\">"_s + line + u"</span>"_s;
        else if (status == u"in_progress")
            line = u"<b>"_s + line + u"</b>"_s;
        html += (i ? u"<br>"_s : QString()) + line;
    }
    m_list->setText(html);
}

void TodoPanel::updateFolded()
{
    m_header->setArrowType(m_folded ? Qt::RightArrow : Qt::DownArrow);
    m_list->setVisible(!m_folded);
}

} // namespace weft
