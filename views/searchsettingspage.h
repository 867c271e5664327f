// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/searchhit.h"

#include <QWidget>

class QCheckBox;
class QPlainTextEdit;
class QSpinBox;

namespace weft
{

/// Settings › Search: whether sessions are indexed for search, and which (project folders in or
/// out, an age, tool outputs or not). SessionController::setSearchLimits() saves and applies them.
class SearchSettingsPage : public QWidget
{
    Q_OBJECT

public:
    explicit SearchSettingsPage(QWidget *parent = nullptr);

    void setLimits(const SearchLimits &limits);
    [[nodiscard]] SearchLimits limits() const;
    /// Whether the page shows other limits than those it was given.
    [[nodiscard]] bool hasChanges() const { return limits() != m_loaded; }

Q_SIGNALS:
    void changed();

private:
    void updateEnabled();

    SearchLimits m_loaded;
    QCheckBox *m_enabled;
    QCheckBox *m_toolOutputs;
    QSpinBox *m_maxAge;
    QPlainTextEdit *m_projects;
    QPlainTextEdit *m_excluded;
};

} // namespace weft
