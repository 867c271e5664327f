// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <QWidget>

class QLabel;
class QTreeWidget;

namespace weft
{

class SessionService;

/// The right-hand pane: the files the open session changed (its session_diff), with lines added
/// and removed. The diff view itself comes with the diff pane; this lists what it will show.
class ChangesPane : public QWidget
{
    Q_OBJECT

public:
    explicit ChangesPane(SessionService *service, QWidget *parent = nullptr);

    /// Reads the session's diff off the GUI thread and lists it.
    void setSessionID(const QString &sessionID);
    [[nodiscard]] QTreeWidget *list() const { return m_list; }

private:
    void showDiffs(const QList<FileDiff> &diffs);

    SessionService *m_service;
    QString m_sessionID;
    QLabel *m_summary;
    QTreeWidget *m_list;
    QLabel *m_empty;
    int m_generation = 0;
};

} // namespace weft
