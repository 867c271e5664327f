// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QTimer>
#include <QWidget>

class QAction;
class QLabel;
class QLineEdit;
class QToolButton;

namespace weft
{

class TimelineView;

/// Find in the open session (Ctrl+F), under the timeline as in Kate and Konsole: a text field,
/// previous / next (Enter and Shift+Enter in the field, F3 and Shift+F3), "3 of 17" and a close
/// button (Escape).
///
/// Matches are every case-insensitive occurrence of the text in what the session holds: message
/// text, reasoning, tool inputs and outputs, file names, errors (the texts the search index keeps,
/// SessionController::searchDocuments()). They are found in the timeline's model (which first
/// loads the older pages it has not loaded yet), off the GUI thread, and again when the session changes live. Going to a match scrolls
/// the timeline to its part (TimelineView::revealPart, which loads older messages when needed), highlights the text in
/// the messages and frames the part.
class FindBar : public QWidget
{
    Q_OBJECT

public:
    struct Match
    {
        QString messageID;
        QString partID;
        int occurrence = 0; ///< the n-th occurrence in the part's text
        qint64 time = 0; ///< the message's creation time
        bool operator==(const Match &) const = default;
    };

    explicit FindBar(TimelineView *view, QWidget *parent = nullptr);
    ~FindBar() override;

    /// Shows the bar with the focus in the field, its text selected.
    void activate();
    [[nodiscard]] QLineEdit *edit() const { return m_edit; }
    [[nodiscard]] QAction *findNextAction() const { return m_nextAction; }
    [[nodiscard]] QAction *findPreviousAction() const { return m_previousAction; }
    [[nodiscard]] const QList<Match> &matches() const { return m_matches; }
    [[nodiscard]] int matchCount() const { return int(m_matches.size()); }
    /// The current match, -1 when none is.
    [[nodiscard]] int currentIndex() const { return m_index; }
    /// "3 of 17", "17 matches", "No matches".
    [[nodiscard]] QString statusText() const;
    [[nodiscard]] bool isSearching() const { return m_searching || m_debounce.isActive(); }

public Q_SLOTS:
    void findNext();
    void findPrevious();
    void closeBar();
    /// Finds again (the session changed, or its messages did).
    void refresh();

Q_SIGNALS:
    /// The matches for the current text are in.
    void searched(int count);
    /// A match became current (-1: none).
    void currentChanged(int index);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void search(bool navigate);
    /// Shows the matches a search for @p text in @p sessionID found.
    void showMatches(const QString &text, const QString &sessionID, const QList<Match> &matches);
    void step(int delta);
    void goTo(int index);
    void updateStatus();

    TimelineView *m_view;
    QLineEdit *m_edit;
    QToolButton *m_previous;
    QToolButton *m_next;
    QToolButton *m_close;
    QLabel *m_status;
    QAction *m_nextAction;
    QAction *m_previousAction;
    QTimer m_debounce;
    QTimer m_refresh;
    QList<Match> m_matches;
    QString m_searchedText;
    QString m_searchedSession;
    int m_index = -1;
    int m_generation = 0;
    bool m_searching = false;
    bool m_waitingForRows = false; // a search waits for the model's first page
    bool m_navigateWhenDone = false;
    int m_pendingStep = 0;
};

} // namespace weft
