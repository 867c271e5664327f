// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <QDialog>

class QTreeWidget;

namespace weft
{

/// Lists the damaged files the store found and skipped: where, and why.
class ProblemsDialog : public QDialog
{
    Q_OBJECT

public:
    explicit ProblemsDialog(const QList<StoreProblem> &problems, QWidget *parent = nullptr);
    [[nodiscard]] QTreeWidget *list() const { return m_list; }

private:
    QTreeWidget *m_list;
};

} // namespace weft
