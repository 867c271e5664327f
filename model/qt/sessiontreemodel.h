// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "sessionsmodel.h"

#include <QAbstractItemModel>
#include <QDate>
#include <QHash>
#include <QPointer>
#include <QSet>
#include <QTimer>

#include <memory>
#include <vector>

namespace weft
{

/// The sidebar's tree over a SessionsModel: project → date group (Today, Yesterday, This Week,
/// Older, Archived) → root sessions → their children (parentID) and forks ("(fork #n)" of the
/// session they were forked from), nested.
///
/// Every change of the flat model is mapped to the smallest set of row moves, inserts, removes
/// and dataChanged, so that expansion and selection in the view survive live updates: a session
/// that becomes active moves from "Yesterday" to "Today" with beginMoveRows, it is never removed
/// and re-added.
///
/// More sources of sessions (OpenCode's database beside Weft's own store) can be added with
/// addSource(): the tree then starts with one row per source ("Weft", "OpenCode (…) — 1.18.34"),
/// each holding its projects, groups and sessions. The same session ID may be in two sources (a
/// session copied into Weft keeps its ID): a session row is identified by source and ID.
///
/// Session rows answer every SessionsModel role; the roles below are added.
///
/// A project shows its newest root sessions (with their families) one page at a time
/// (pageSize()): the sidebar asks for the next page with hasMore()/showMore() on the project
/// or one of its groups as it scrolls to the end of what is shown, so that a data dir of 30,000
/// sessions makes a tree (and a view) of a few hundred rows. setFilterText() pages over the
/// matching families instead; revealSession() brings in a session that is not shown yet.
class SessionTreeModel : public QAbstractItemModel
{
    Q_OBJECT

public:
    enum Roles {
        NodeKindRole = Qt::UserRole + 100, ///< NodeKind: what the row is
        DateGroupRole, ///< DateGroup: the group of a group row (and of the sessions below it)
        FilterTextRole, ///< QString: what the sidebar filter matches (empty for group rows)
        ChildCountRole, ///< int: sessions nested under a session row
        SourceRole, ///< QString: the key of the row's source (empty for the primary source)
    };
    Q_ENUM(Roles)

    enum class NodeKind { Project, Group, Session, Source };
    Q_ENUM(NodeKind)

    enum class DateGroup { Today, Yesterday, ThisWeek, Older, Archived };
    Q_ENUM(DateGroup)

    explicit SessionTreeModel(SessionsModel *source, QObject *parent = nullptr);
    ~SessionTreeModel() override;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    /// True on a project row, or a group row, of a project that has root sessions not shown yet.
    /// (Not canFetchMore(): QTreeView fetches each expanded parent as it lays it out, all pages.)
    [[nodiscard]] bool hasMore(const QModelIndex &parent) const;
    /// Shows the next page of root sessions of the project of @p parent.
    void showMore(const QModelIndex &parent);

    /// How many root sessions of a project each page shows (default 100).
    void setPageSize(int roots);
    [[nodiscard]] int pageSize() const { return m_pageSize; }
    /// Shows only the families (a root session and what nests under it) in which a session's
    /// title contains @p text (case-insensitively), paged like the whole tree; empty shows all.
    /// The families come from every session of the sources, shown or not.
    void setFilterText(const QString &text);
    /// The row of @p sessionID of @p source, made part of the tree first when its family was
    /// not shown yet (beyond the pages shown, or filtered out); invalid when there is no such
    /// session.
    QModelIndex revealSession(const QString &sessionID, const QString &source = {});

    [[nodiscard]] SessionsModel *sourceModel() const { return m_source; }
    [[nodiscard]] QModelIndex indexForSession(const QString &sessionID, const QString &source = {}) const;
    [[nodiscard]] QString sessionID(const QModelIndex &index) const;
    /// The source of a row (empty: the primary source).
    [[nodiscard]] QString sourceOf(const QModelIndex &index) const;

    /// Shows the sessions of @p model as their own source, a top-level row labelled @p label
    /// followed by " — <version>", the version that wrote the source's newest session. With a
    /// source added, the primary source's projects move (beginMoveRows) under a row of their own
    /// (primaryLabel()). @p key must not be empty.
    void addSource(const QString &key, SessionsModel *model, const QString &label);
    void removeSource(const QString &key);
    [[nodiscard]] bool hasSource(const QString &key) const;
    /// Renames source @p key (a server's connection state changed).
    void setSourceLabel(const QString &key, const QString &label);
    /// The keys of the added sources, in the order they were added.
    [[nodiscard]] QStringList sources() const;
    /// The sessions of @p key (the primary's for an empty key), null when there is no such source.
    [[nodiscard]] SessionsModel *sessionsModel(const QString &key) const;
    [[nodiscard]] QModelIndex indexForSource(const QString &key) const;
    void setPrimaryLabel(const QString &label);
    [[nodiscard]] QString primaryLabel() const { return m_primaryLabel; }

    /// The date the groups are computed against; invalid (the default) means today, and the
    /// model regroups itself at midnight.
    void setCurrentDate(const QDate &date);
    [[nodiscard]] QDate currentDate() const;

    [[nodiscard]] static QString groupName(DateGroup group);

private:
    struct Node;
    struct Desired;

    void rebuild();
    void reconcile(Node *node, const Desired &desired);
    void removeUndesired(Node *node, const QSet<QString> &keep);
    void moveNode(Node *node, Node *newParent, int row);
    [[nodiscard]] QModelIndex indexOf(const Node *node) const;
    [[nodiscard]] Node *nodeOf(const QModelIndex &index) const;
    [[nodiscard]] static bool isAncestor(const Node *maybeAncestor, const Node *node);
    void onSourceDataChanged(const QString &source, const QModelIndex &topLeft, const QModelIndex &bottomRight,
                             const QList<int> &roles);
    void connectModel(const QString &source, SessionsModel *model);
    void scheduleMidnight();
    [[nodiscard]] Desired buildDesired();
    [[nodiscard]] std::vector<Desired> buildProjects(const QString &source, const SessionsModel *model);
    /// The key of the project a project or group row belongs to (empty for other rows).
    [[nodiscard]] QString projectKeyOf(const Node *node) const;
    [[nodiscard]] QString sourceLabel(const QString &source, QString *toolTip = nullptr) const;
    [[nodiscard]] static QString keyPrefix(const QString &source);

    struct ExtraSource {
        QString key;
        QPointer<SessionsModel> model;
        QString label;
    };

    QPointer<SessionsModel> m_source;
    std::vector<ExtraSource> m_sources;
    QString m_primaryLabel;
    std::unique_ptr<Node> m_root;
    QHash<QString, Node *> m_byKey;
    QDate m_currentDate;
    QTimer m_midnight;
    int m_pageSize = 100;
    QString m_filter;
    QHash<QString, qsizetype> m_shownRoots; // project key -> roots shown when more than a page
    QHash<QString, qsizetype> m_hiddenRoots; // project key -> roots not shown (after the last rebuild)
    QSet<QString> m_revealed; // keyPrefix(source) + session ID: shown whatever the pages and the filter
};

} // namespace weft
