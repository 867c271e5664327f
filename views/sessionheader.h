// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QLabel;

namespace weft
{

class ContextMeter;

/// Above the timeline: the open session's title, where it runs and what it changed, and the
/// context meter.
class SessionHeader : public QWidget
{
    Q_OBJECT

public:
    explicit SessionHeader(QWidget *parent = nullptr);

    void setTitle(const QString &title);
    void setDetails(const QString &details);
    [[nodiscard]] ContextMeter *meter() const { return m_meter; }
    [[nodiscard]] QString title() const;

protected:
    void paintEvent(QPaintEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    static void elide(QLabel *label, const QString &text);

    QString m_fullTitle;
    QString m_fullDetails;
    QLabel *m_title;
    QLabel *m_details;
    ContextMeter *m_meter;
};

} // namespace weft
