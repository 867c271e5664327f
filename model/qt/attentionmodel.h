// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <QAbstractListModel>
#include <QDateTime>

#include <functional>
#include <optional>

namespace weft
{

/// The sessions that wait on the user, across every source and sub-agent session: a permission
/// question, a question of the agent, a run that failed, and runs that finished while the user
/// looked elsewhere. One row per question (a session can ask several), one per session for the
/// outcome of its last run.
///
/// The model is fed by whoever follows the runs (the window's AttentionInbox, from the
/// SessionController's signals) with values and words it does not make itself; it keeps the
/// order (questions and failures first, oldest first, then finished runs) and drops what is dealt
/// with: an answered question, the outcome of a run once its session is opened or runs again.
/// Titles are read through the session lookup at each data() call, so a session renamed (or
/// titled by its first run) shows its new title.
class AttentionModel : public QAbstractListModel
{
    Q_OBJECT

public:
    enum class Kind {
        Permission, ///< a tool waits for permission (PermissionRequest)
        Question, ///< the agent asks (the `question` tool)
        Failed, ///< the session's last run ended with an error
        Finished, ///< the session's last run finished while another session was open
    };
    Q_ENUM(Kind)

    enum Roles {
        KindRole = Qt::UserRole + 1, ///< Kind
        SessionIdRole, ///< QString: the session that waits
        SourceRole, ///< QString: the key of its source (empty for Weft's own store)
        RequestIdRole, ///< QString: the permission or question ID (empty for a run's outcome)
        TitleRole, ///< QString: the session's title (its ID when it is not known)
        ParentIdRole, ///< QString: the parent of a sub-agent session, or empty
        ParentTitleRole, ///< QString: the parent's title, or empty
        DetailRole, ///< QString: what is asked, or the error, in words
        TimeRole, ///< QDateTime: when it came
    };
    Q_ENUM(Roles)

    /// How a session is found (for its title and parent): by source key and ID.
    using SessionLookup = std::function<std::optional<Session>(const QString &source, const QString &sessionID)>;

    explicit AttentionModel(QObject *parent = nullptr);
    ~AttentionModel() override;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    void setSessionLookup(SessionLookup lookup);

    /// A permission or question @p requestID of @p sessionID waits for an answer (shown again:
    /// its detail is updated).
    void addRequest(Kind kind, const QString &requestID, const QString &sessionID, const QString &source,
                    const QString &detail);
    /// Request @p requestID was answered, or can no longer be.
    void removeRequest(const QString &requestID);
    /// The last run of @p sessionID ended: @p kind is Failed or Finished, @p detail the error or
    /// a line about the reply. Replaces the outcome of its earlier run. The outcome of a run of
    /// the open session is not kept: the window shows it there.
    void addRunResult(Kind kind, const QString &sessionID, const QString &source, const QString &detail);
    /// Drops the outcome of @p sessionID's last run (it runs again, or was seen).
    void clearRunResult(const QString &sessionID, const QString &source);
    /// The session the user looks at: the outcome of its last run is seen, and so are those of
    /// its later runs.
    void setCurrentSession(const QString &sessionID, const QString &source);
    /// Drops everything of source @p source (a server that went away).
    void removeSource(const QString &source);

    /// The rows that want something done: questions and failed runs.
    [[nodiscard]] int waitingCount() const;
    /// The rows of runs that finished unseen.
    [[nodiscard]] int finishedCount() const;
    [[nodiscard]] QModelIndex indexForRequest(const QString &requestID) const;
    [[nodiscard]] QModelIndex indexForRunResult(const QString &sessionID, const QString &source = {}) const;

Q_SIGNALS:
    /// waitingCount() or finishedCount() changed.
    void countsChanged();

private:
    struct Entry
    {
        Kind kind = Kind::Permission;
        QString requestID;
        QString sessionID;
        QString source;
        QString detail;
        QDateTime time;
    };
    void insertEntry(const Entry &entry);
    void dropRow(int row);
    [[nodiscard]] int rowOfRunResult(const QString &sessionID, const QString &source) const;
    [[nodiscard]] std::optional<Session> lookup(const QString &source, const QString &sessionID) const;

    QList<Entry> m_entries;
    SessionLookup m_lookup;
    QString m_currentSession;
    QString m_currentSource;
};

} // namespace weft
