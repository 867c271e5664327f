// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a search over every session finds and how it is asked, as values: the search index
// (model/search/) makes them, the controller hands them to the views.

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

class QSettings;

#include <utility>

namespace weft
{

/// One match: where it is (source, session, message, part) and the snippet around it.
struct SearchHit {
    QString source;       ///< the source's key (SearchIndex::sourceKey: the store's location)
    QString sessionID;
    QString messageID;    ///< empty for a session title
    QString partID;       ///< empty for a title or a message's error
    QString kind;         ///< title, text, reasoning, tool, file, patch, subtask, agent, retry, error
    QString sessionTitle;
    QString snippet;      ///< the matching text around the match, plain
    QList<std::pair<int, int>> highlights; ///< (start, length) of the matches in snippet, UTF-16 units
    double rank = 0;      ///< bm25: lower is a better match
    qint64 time = 0;      ///< when the message was created (the session, for a title)

    /// The snippet with the matches between @p open and @p close.
    [[nodiscard]] QString markedSnippet(const QString &open, const QString &close) const;
    bool operator==(const SearchHit &) const = default;
};

struct SearchOptions {
    enum class Order {
        Rank,     ///< best matches first (bm25)
        Timeline, ///< in the order the session shows them (for next/previous in one session)
    };
    QString source;    ///< only this source (empty: every source)
    QString sessionID; ///< only this session
    int limit = 50;
    int offset = 0;
    Order order = Order::Rank;
};

class Session;

/// What the search index covers (Settings › Search), shared by the window and `weft search`.
/// Sessions outside the limits are dropped by the index's next sync; a change of toolOutputs
/// reads every session again.
struct SearchLimits {
    QStringList projects;         ///< only sessions in these folders or below them (empty: all)
    QStringList excludedProjects; ///< never sessions in these folders or below them
    int maxAgeDays = 0;           ///< only sessions updated within this many days (0: all)
    bool toolOutputs = true;      ///< index tool outputs (capped); off: tool names and inputs only
    bool enabled = true;          ///< the window indexes at all (off: the index file is kept as it is)
    bool operator==(const SearchLimits &) const = default;
    /// Whether @p session is indexed at @p nowMs.
    [[nodiscard]] bool admits(const Session &session, qint64 nowMs) const;
    /// What changes the documents of an admitted session (stored with the index).
    [[nodiscard]] QString fingerprint() const;
    /// The "search/..." keys of the settings.
    [[nodiscard]] static SearchLimits read(const QSettings &settings);
    void write(QSettings &settings) const;
};

/// What one text of a session contributes to the index.
struct SearchDocument {
    QString messageID;
    QString partID;
    QString kind;
    QString text;
    qint64 time = 0;
};

} // namespace weft

Q_DECLARE_METATYPE(weft::SearchHit)
