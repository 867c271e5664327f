// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <QAbstractListModel>
#include <QHash>
#include <QSet>
#include <QTimer>

#include <functional>
#include <optional>

namespace weft
{

class SessionService;

/// The messages of one session, one row per message, with its parts as typed data.
///
/// Loading never blocks the GUI thread: the newest page of messages is read off the thread
/// first; older pages follow through loadOlder() as the user scrolls up. Live
/// changes arrive by one route, the SessionService's signals (from any thread; the service also
/// announces what other processes write, for the session this model follows): each changes one
/// row with the roles that kind of change can touch. A streamed text delta, already coalesced to
/// one per frame by the processor, changes the row's text roles, never the model's shape.
class TimelineModel : public QAbstractListModel
{
    Q_OBJECT

public:
    enum Roles {
        IdRole = Qt::UserRole + 1, ///< QString: the message ID
        SessionIdRole, ///< QString: the session ID
        AuthorRole, ///< weft::Message::Role: user or assistant
        CreatedRole, ///< qint64: time.created in ms since the epoch
        CompletedRole, ///< qint64: time.completed in ms, 0 while the reply runs
        TextRole, ///< QString: the visible text parts, joined by blank lines ("Copy Text")
        MarkdownRole, ///< QString: the whole message as Markdown ("Copy as Markdown")
        PartsRole, ///< QList<weft::Part>: the parts in order
        PartTypesRole, ///< QList<weft::PartType>: the type of each part, in order
        ToolStatusesRole, ///< QList<weft::ToolStatus>: the state of each tool part, in order
        TokensRole, ///< weft::Tokens: the assistant message's tokens
        CostRole, ///< double: the assistant message's cost in USD
        ErrorRole, ///< weft::MessageError: the error of the message (null without one)
        ErrorTextRole, ///< QString: the error's readable message, empty without one
        IsSummaryRole, ///< bool: the assistant summary written by a compaction
        CompactionRole, ///< CompactionKind: the user message that asked for a compaction
        InContextRole, ///< bool: false before the last completed compaction ("not in context")
        RunningRole, ///< bool: the assistant reply is still being written
        AgentRole, ///< QString: the agent ("build", "plan", "compaction", ...)
        ModelRole, ///< QString: "provider/model"
        FinishRole, ///< QString: why the reply ended ("stop", "tool-calls", ...)
        ChangedFilesRole, ///< int: files changed by this turn (a user message's summary.diffs)
        RevisionRole, ///< int: increases with every change of the row (a cache key for delegates)
        MessageRole, ///< weft::Message: the message value
    };
    Q_ENUM(Roles)

    enum class CompactionKind { None, Manual, Auto };
    Q_ENUM(CompactionKind)

    explicit TimelineModel(SessionService *service, QObject *parent = nullptr);
    ~TimelineModel() override;

    int rowCount(const QModelIndex &parent = {}) const override;
    /// Each index carries its row's key as QModelIndex::internalId(): unique among the rows
    /// this model ever had and kept while the row moves (rows are prepended a page at a time),
    /// so that a view can key per-row caches by a number instead of the message ID's string.
    QModelIndex index(int row, int column = 0, const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;
    /// True while older messages of the session are not loaded yet and none are loading.
    ///
    /// Not Qt's canFetchMore()/fetchMore(): QAbstractItemView fetches more when its *last* row
    /// is visible, which in a chat would load the whole history page by page while the user sits
    /// at the bottom. The timeline view asks for older messages near its top.
    [[nodiscard]] bool canLoadOlder() const;
    /// Loads the previous page of older messages off the GUI thread; rows are prepended.
    void loadOlder();

    /// Shows @p sessionID (empty: nothing). The rows go at once (a reset: another session is not
    /// a live change); the newest page arrives from a worker thread, then loaded().
    void setSessionID(const QString &sessionID);
    /// Shows @p sessionID of @p service, which may be another source than the one the model was
    /// made with (an OpenCode database beside Weft's store): the model then follows that
    /// service's signals. A session of the same ID in another source is another session.
    void setSession(SessionService *service, const QString &sessionID);
    [[nodiscard]] QString sessionID() const { return m_sessionID; }
    /// The service the shown session comes from.
    [[nodiscard]] SessionService *service() const { return m_service; }
    [[nodiscard]] bool isLoading() const { return m_loading; }
    /// What a screen reader says for a row (Qt::AccessibleTextRole): the words of the view that
    /// shows the rows, which knows how it draws them. @p text is given the view's index (of the
    /// revert filter, while one is between them).
    void setAccessibleText(std::function<QString(const QModelIndex &viewIndex)> text) { m_accessibleText = std::move(text); }
    [[nodiscard]] QString accessibleText(const QModelIndex &viewIndex) const
    {
        return m_accessibleText ? m_accessibleText(viewIndex) : QString();
    }
    /// How many messages one page holds (the first load and each loadOlder()).
    void setPageSize(int size) { m_pageSize = std::max(1, size); }
    [[nodiscard]] int pageSize() const { return m_pageSize; }

    [[nodiscard]] QModelIndex indexForId(const QString &messageID) const;
    /// Whether the session has @p messageID, loaded as a row or not yet.
    [[nodiscard]] bool containsMessage(const QString &messageID) const;
    /// Loads the older messages from @p messageID up to the first row in one page, off the GUI
    /// thread (olderLoaded() when they are in). False when nothing needs loading (the message is
    /// a row already, or not in the session) or a load is in progress.
    bool fetchThrough(const QString &messageID);
    /// The messageID to pass to SessionService::fork() for "Fork from here" on @p index: the new
    /// session holds everything before a user message, and everything up to and including an
    /// assistant message (the next message's ID; empty when it is the last: the whole session).
    [[nodiscard]] QString forkPoint(const QModelIndex &index) const;

    /// All messages of the session, loaded or not (while the older ones are being read, their
    /// files count).
    [[nodiscard]] int totalMessageCount() const { return int(m_older.size() + m_rows.size() + m_restIds.size()); }
    /// Tokens in context: the last assistant reply's tokens (input, output, reasoning, cache);
    /// after a compaction, the summary's output.
    [[nodiscard]] qint64 contextTokens() const { return m_contextTokens; }
    /// The session's cost: the sum over every assistant message.
    [[nodiscard]] double totalCost() const { return m_totalCost; }
    /// A reply of this session is being written.
    [[nodiscard]] bool isRunning() const { return m_running; }
    /// The model of the last message ("provider/model"), empty when none.
    [[nodiscard]] QString lastModel() const;
    /// The agent of the last user message, empty when none.
    [[nodiscard]] QString lastAgent() const;

    /// The visible text and the Markdown of a message (what TextRole and MarkdownRole answer).
    [[nodiscard]] static QString visibleText(const QList<Part> &parts);
    [[nodiscard]] static QString markdown(const Message &info, const QList<Part> &parts);

Q_SIGNALS:
    /// The newest page of the session is in.
    void loaded();
    /// A page of older messages was prepended (@p count rows).
    void olderLoaded(int count);
    /// contextTokens(), totalCost() or totalMessageCount() changed.
    void statsChanged();
    void runningChanged(bool running);

private:
    struct Row
    {
        Message info;
        QList<Part> parts;
        int revision = 0;
        bool inContext = true;
        quint64 key = 0; ///< rowKey(): unique in this model, kept while the row moves
    };
    struct Page
    {
        QList<Message> older;
        QList<MessageWithParts> messages;
    };
    /// What updateStats() and updateContextBoundary() need of the messages not loaded as rows
    /// (m_older): at 20,000 messages, walking them took 5 ms of the GUI thread at every change.
    struct OlderSummary
    {
        double cost = 0;
        bool hasSummary = false; ///< a finished summary, which may set the context boundary
    };
    [[nodiscard]] static OlderSummary summarize(const QList<Message> &older);
    struct Index
    {
        QList<Message> older; ///< the messages before the first row, in order
        OlderSummary olderSummary;
        QList<MessageWithParts> between; ///< messages that belong among the rows shown
    };

    void assertGuiThread() const;
    [[nodiscard]] QVariant roleValue(const Row &row, int role) const;
    void rebuildIndex();
    /// The row of a loaded message, or -1.
    [[nodiscard]] qsizetype rowOf(const QString &messageID) const;
    void applyMessage(const Message &message);
    /// @p grew: the part's text grew by a delta (only the text roles change).
    void applyPart(const Part &part, bool grew = false);
    void removeMessage(const QString &sessionID, const QString &messageID);
    void removePart(const QString &sessionID, const QString &messageID, const QString &partID);
    void replaceRow(qsizetype row, Row updated, const QList<int> &roles);
    void updateContextBoundary();
    void updateStats();
    void refresh();
    void watchTail();
    /// Runs @p event now, or after the load in progress (whose snapshot may not include it).
    void whenLoaded(std::function<void()> event);
    void replayQueued();
    void connectService();
    void fetchOlder(qsizetype count);
    /// Reads the infos of the messages not shown yet (@p rest, or all but the rows when the store
    /// did not list them) after the first page.
    void readOlderInfos(const QStringList &rest);
    [[nodiscard]] bool isIndexing() const { return !m_restIds.isEmpty() || !m_olderListed; }

    SessionService *m_service;
    QList<QMetaObject::Connection> m_serviceConnections;
    QString m_sessionID;
    QList<Row> m_rows;
    QList<Message> m_older; // infos of the messages before m_rows, not loaded as rows yet
    // summarize(m_older), made when asked for after a change of m_older (olderSummary()).
    mutable std::optional<OlderSummary> m_olderSummary;
    [[nodiscard]] const OlderSummary &olderSummary() const;
    // A loaded message's row is its value here minus m_rowBase: prepending a page lowers the
    // base instead of moving every entry (O(page), not O(rows), at every page of a long session).
    QHash<QString, qsizetype> m_rowById;
    qsizetype m_rowBase = 0;
    quint64 m_nextKey = 1;
    QList<std::function<void()>> m_queued;
    int m_pageSize = 60;
    int m_generation = 0;
    bool m_loading = false;
    bool m_fetching = false;
    // While the first page is in and the older messages' infos are being read (isIndexing()):
    // their IDs, listed but not read yet; none when the store could not list them (a server's
    // paged answer, m_olderListed false until they are read: the session may have any older
    // message then).
    bool m_olderListed = true;
    QSet<QString> m_restIds;
    std::function<void()> m_afterIndex; // a fetch asked for while indexing
    std::function<QString(const QModelIndex &)> m_accessibleText;
    bool m_running = false;
    qint64 m_contextTokens = 0;
    double m_totalCost = 0;
    QString m_boundaryId; // the user message of the last completed compaction
};

} // namespace weft
