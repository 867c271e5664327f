// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QWidget>

#include <functional>

class QLabel;
class QPushButton;
class QVBoxLayout;

namespace weft
{

/// A strip of in-place notices under the timeline, in the spirit of KMessageWidget: a question
/// of a tool ("may it run this?"), an error that stopped a prompt, a compaction that can be
/// undone, reverted messages. Each notice has a key (showing a notice with the same key again
/// replaces it), a kind (its colour and icon), a text and buttons.
class NoticeBar : public QWidget
{
    Q_OBJECT

public:
    enum class Kind { Information, Positive, Warning, Error, Question };

    struct Button {
        QString text;
        QString icon;          ///< icon name for Style::icon(), may be empty
        QString objectName;    ///< for tests and accessibility tools
        std::function<void()> action;
    };

    explicit NoticeBar(QWidget *parent = nullptr);
    ~NoticeBar() override;

    /// Shows (or replaces) the notice @p key. A closable notice has a close button.
    QWidget *showNotice(const QString &key, Kind kind, const QString &text, const QList<Button> &buttons = {},
                        bool closable = false);
    void removeNotice(const QString &key);
    /// Removes every notice whose key starts with @p prefix.
    void removeNotices(const QString &prefix);
    [[nodiscard]] bool hasNotice(const QString &key) const { return m_notices.contains(key); }
    [[nodiscard]] QWidget *notice(const QString &key) const { return m_notices.value(key); }
    [[nodiscard]] QString noticeText(const QString &key) const;
    [[nodiscard]] QStringList keys() const;
    /// The button @p objectName of notice @p key, or nullptr.
    [[nodiscard]] QPushButton *button(const QString &key, const QString &objectName) const;

Q_SIGNALS:
    void noticesChanged();

private:
    QVBoxLayout *m_layout;
    QHash<QString, QWidget *> m_notices;
};

} // namespace weft
