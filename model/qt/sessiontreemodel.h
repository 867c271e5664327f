// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "sessionsmodel.h"

#include <QAbstractItemModel>
#include <QDate>
#include <QHash>
#include <QPointer>
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
/// Session rows answer every SessionsModel role; the roles below are added.
class SessionTreeModel : public QAbstractItemModel
{
    Q_OBJECT

public:
    enum Roles {
        NodeKindRole = Qt::UserRole + 100, ///< NodeKind: what the row is
        DateGroupRole, ///< DateGroup: the group of a group row (and of the sessions below it)
        FilterTextRole, ///< QString: what the sidebar filter matches (empty for group rows)
        ChildCountRole, ///< int: sessions nested under a session row
    };
    Q_ENUM(Roles)

    enum class NodeKind { Project, Group, Session };
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

    [[nodiscard]] SessionsModel *sourceModel() const { return m_source; }
    [[nodiscard]] QModelIndex indexForSession(const QString &sessionID) const;
    [[nodiscard]] QString sessionID(const QModelIndex &index) const;

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
    void onSourceDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles);
    void scheduleMidnight();
    [[nodiscard]] Desired buildDesired() const;

    QPointer<SessionsModel> m_source;
    std::unique_ptr<Node> m_root;
    QHash<QString, Node *> m_byKey;
    QDate m_currentDate;
    QTimer m_midnight;
};

} // namespace weft
