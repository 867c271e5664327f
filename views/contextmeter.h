// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

namespace weft
{

/// How full the model's context is: the tokens of the last reply against the model's limit, the
/// auto-compaction threshold marked on the bar, and what the session has cost so far.
class ContextMeter : public QWidget
{
    Q_OBJECT

public:
    explicit ContextMeter(QWidget *parent = nullptr);

    void setTokens(qint64 tokens);
    [[nodiscard]] qint64 tokens() const { return m_tokens; }
    /// The model's context limit in tokens; 0 when unknown (only the count is shown).
    void setLimit(qint64 limit);
    [[nodiscard]] qint64 limit() const { return m_limit; }
    /// Where auto-compaction starts, as a fraction of the limit (0: not shown).
    void setThreshold(double fraction);
    void setCost(double usd);
    [[nodiscard]] double cost() const { return m_cost; }
    /// "12.3k / 200k tokens (6%)"
    [[nodiscard]] QString text() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    void refresh();

    qint64 m_tokens = 0;
    qint64 m_limit = 0;
    double m_threshold = 0;
    double m_cost = 0;
};

} // namespace weft
