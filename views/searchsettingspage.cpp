// SPDX-License-Identifier: GPL-3.0-or-later
#include "searchsettingspage.h"

#include <QCheckBox>
#include <QDir>
#include <QFormLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
QStringList folders(const QPlainTextEdit *edit)
{
    QStringList out;
    for (const QString &line : edit->toPlainText().split(u'\n')) {
        const QString folder = line.trimmed();
        // Only absolute folders: a session's directory is one.
        if (!folder.isEmpty() && QDir::isAbsolutePath(folder))
            out.append(QDir::cleanPath(folder));
    }
    return out;
}
} // namespace

SearchSettingsPage::SearchSettingsPage(QWidget *parent)
    : QWidget(parent)
    , m_enabled(new QCheckBox(tr("&Index sessions for search"), this))
    , m_toolOutputs(new QCheckBox(tr("Index &tool outputs (their first and last few KB, each once per session)"), this))
    , m_maxAge(new QSpinBox(this))
    , m_projects(new QPlainTextEdit(this))
    , m_excluded(new QPlainTextEdit(this))
{
    setObjectName(u"searchPage"_s);
    m_enabled->setObjectName(u"searchEnabled"_s);
    m_toolOutputs->setObjectName(u"searchToolOutputs"_s);
    m_maxAge->setObjectName(u"searchMaxAge"_s);
    m_maxAge->setRange(0, 3650);
    m_maxAge->setSpecialValueText(tr("all sessions"));
    m_maxAge->setSuffix(tr(" days"));
    m_maxAge->setAccessibleName(tr("Only sessions updated within"));
    m_projects->setObjectName(u"searchProjects"_s);
    m_projects->setAccessibleName(tr("Only these project folders"));
    m_projects->setPlaceholderText(tr("Every project (one folder per line)"));
    m_excluded->setObjectName(u"searchExcludedProjects"_s);
    m_excluded->setAccessibleName(tr("Never these project folders"));
    m_excluded->setPlaceholderText(tr("None (one folder per line)"));
    for (QPlainTextEdit *edit : {m_projects, m_excluded}) {
        edit->setTabChangesFocus(true);
        edit->setMaximumHeight(fontMetrics().lineSpacing() * 5);
    }

    auto *hint = new QLabel(tr("The index is built in the background at idle priority and waits while a session runs "
                               "or you type. Turning it off keeps the index file as it is; turning it on again "
                               "goes on from there. Sessions outside these limits are dropped from it."),
                            this);
    hint->setWordWrap(true);
    hint->setForegroundRole(QPalette::PlaceholderText);

    auto *form = new QFormLayout;
    form->addRow(tr("Only sessions updated within:"), m_maxAge);
    form->addRow(tr("Only these project folders:"), m_projects);
    form->addRow(tr("Never these project folders:"), m_excluded);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_enabled);
    layout->addWidget(m_toolOutputs);
    layout->addLayout(form);
    layout->addWidget(hint);
    layout->addStretch(1);

    for (QCheckBox *box : {m_enabled, m_toolOutputs})
        connect(box, &QCheckBox::toggled, this, &SearchSettingsPage::changed);
    connect(m_enabled, &QCheckBox::toggled, this, &SearchSettingsPage::updateEnabled);
    connect(m_maxAge, &QSpinBox::valueChanged, this, &SearchSettingsPage::changed);
    for (QPlainTextEdit *edit : {m_projects, m_excluded})
        connect(edit, &QPlainTextEdit::textChanged, this, &SearchSettingsPage::changed);
}

void SearchSettingsPage::setLimits(const SearchLimits &limits)
{
    m_loaded = limits;
    m_enabled->setChecked(limits.enabled);
    m_toolOutputs->setChecked(limits.toolOutputs);
    m_maxAge->setValue(limits.maxAgeDays);
    m_projects->setPlainText(limits.projects.join(u'\n'));
    m_excluded->setPlainText(limits.excludedProjects.join(u'\n'));
    m_loaded = this->limits(); // as the page reads it back
    updateEnabled();
}

SearchLimits SearchSettingsPage::limits() const
{
    SearchLimits limits;
    limits.enabled = m_enabled->isChecked();
    limits.toolOutputs = m_toolOutputs->isChecked();
    limits.maxAgeDays = m_maxAge->value();
    limits.projects = folders(m_projects);
    limits.excludedProjects = folders(m_excluded);
    return limits;
}

void SearchSettingsPage::updateEnabled()
{
    for (QWidget *w : std::initializer_list<QWidget *>{m_toolOutputs, m_maxAge, m_projects, m_excluded})
        w->setEnabled(m_enabled->isChecked());
}

} // namespace weft
