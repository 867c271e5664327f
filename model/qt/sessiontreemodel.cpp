// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessiontreemodel.h"

#include "sessionsmodel.h"

#include <QDateTime>
#include <QSet>

#include <QThread>
#include <QVersionNumber>
#include <functional>
#include <map>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace weft
{

struct SessionTreeModel::Node
{
    NodeKind kind = NodeKind::Project;
    QString key; ///< unique in the tree: "p:<project>", "g:<project>/<group>", "s:<session>"
    QString id; ///< the project or session ID
    QString label; ///< project, group and source rows
    QString toolTip; ///< source rows
    QString source; ///< the key of the source the row belongs to (empty: the primary)
    DateGroup group = DateGroup::Older;
    Node *parent = nullptr;
    int row = 0;
    std::vector<std::unique_ptr<Node>> children;

    void renumber(size_t from = 0)
    {
        for (size_t i = from; i < children.size(); ++i)
            children[i]->row = int(i);
    }
};

struct SessionTreeModel::Desired
{
    NodeKind kind = NodeKind::Project;
    QString key;
    QString id;
    QString label;
    QString toolTip;
    QString source;
    DateGroup group = DateGroup::Older;
    std::vector<Desired> children;
};

namespace
{
bool isStructural(const QList<int> &roles)
{
    if (roles.isEmpty())
        return true;
    static const QSet<int> structural{SessionsModel::TitleRole,     SessionsModel::ParentIDRole,
                                      SessionsModel::ProjectIDRole, SessionsModel::ProjectNameRole,
                                      SessionsModel::CreatedRole,   SessionsModel::UpdatedRole,
                                      SessionsModel::ArchivedRole,  SessionsModel::VersionRole};
    return std::any_of(roles.begin(), roles.end(), [](int r) { return structural.contains(r); });
}
} // namespace

SessionTreeModel::SessionTreeModel(SessionsModel *source, QObject *parent)
    : QAbstractItemModel(parent)
    , m_source(source)
    , m_primaryLabel(tr("Weft"))
    , m_root(std::make_unique<Node>())
{
    Q_ASSERT(source);
    m_midnight.setSingleShot(true);
    m_midnight.setTimerType(Qt::VeryCoarseTimer);
    connect(&m_midnight, &QTimer::timeout, this, [this] {
        rebuild();
        scheduleMidnight();
    });
    connectModel(QString(), source);
    rebuild();
    scheduleMidnight();
}

SessionTreeModel::~SessionTreeModel() = default;

void SessionTreeModel::connectModel(const QString &source, SessionsModel *model)
{
    connect(model, &QAbstractItemModel::rowsInserted, this, &SessionTreeModel::rebuild);
    connect(model, &QAbstractItemModel::rowsRemoved, this, &SessionTreeModel::rebuild);
    connect(model, &QAbstractItemModel::rowsMoved, this, &SessionTreeModel::rebuild);
    connect(model, &QAbstractItemModel::modelReset, this, &SessionTreeModel::rebuild);
    connect(model, &QAbstractItemModel::layoutChanged, this, &SessionTreeModel::rebuild);
    connect(model, &QAbstractItemModel::dataChanged, this,
            [this, source](const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles) {
                onSourceDataChanged(source, topLeft, bottomRight, roles);
            });
    connect(model, &QObject::destroyed, this, [this, source] {
        if (!source.isEmpty())
            removeSource(source);
    });
}

QString SessionTreeModel::keyPrefix(const QString &source)
{
    return source.isEmpty() ? QString() : source + QChar(0x1f);
}

void SessionTreeModel::addSource(const QString &key, SessionsModel *model, const QString &label)
{
    Q_ASSERT(!key.isEmpty() && model);
    if (key.isEmpty() || !model)
        return;
    removeSource(key);
    m_sources.push_back({key, model, label});
    connectModel(key, model);
    rebuild();
}

void SessionTreeModel::removeSource(const QString &key)
{
    const auto it = std::find_if(m_sources.begin(), m_sources.end(), [&](const ExtraSource &s) { return s.key == key; });
    if (it == m_sources.end())
        return;
    if (it->model)
        disconnect(it->model.data(), nullptr, this, nullptr);
    m_sources.erase(it);
    rebuild();
}

void SessionTreeModel::setSourceLabel(const QString &key, const QString &label)
{
    for (ExtraSource &s : m_sources) {
        if (s.key == key && s.label != label) {
            s.label = label;
            rebuild();
        }
    }
}

bool SessionTreeModel::hasSource(const QString &key) const
{
    return std::any_of(m_sources.begin(), m_sources.end(), [&](const ExtraSource &s) { return s.key == key; });
}

QStringList SessionTreeModel::sources() const
{
    QStringList keys;
    for (const ExtraSource &s : m_sources)
        keys.append(s.key);
    return keys;
}

SessionsModel *SessionTreeModel::sessionsModel(const QString &key) const
{
    if (key.isEmpty())
        return m_source;
    for (const ExtraSource &s : m_sources) {
        if (s.key == key)
            return s.model;
    }
    return nullptr;
}

QModelIndex SessionTreeModel::indexForSource(const QString &key) const
{
    return indexOf(m_byKey.value(u"src:"_s + key));
}

void SessionTreeModel::setPrimaryLabel(const QString &label)
{
    m_primaryLabel = label;
    rebuild();
}

QString SessionTreeModel::sourceLabel(const QString &source, QString *toolTip) const
{
    QString label = source.isEmpty() ? m_primaryLabel : QString();
    for (const ExtraSource &s : m_sources) {
        if (s.key == source)
            label = s.label;
    }
    const SessionsModel *model = sessionsModel(source);
    if (!model || source.isEmpty())
        return label;
    // The version that wrote the newest session, and every version for the tooltip.
    const Session *newest = nullptr;
    QList<QVersionNumber> versions;
    for (const Session &s : model->sessions()) {
        if (s.version().isEmpty())
            continue;
        if (!newest || s.updated() > newest->updated())
            newest = &s;
        const QVersionNumber v = QVersionNumber::fromString(s.version());
        if (!versions.contains(v))
            versions.append(v);
    }
    std::sort(versions.begin(), versions.end());
    if (toolTip) {
        QStringList names;
        for (const QVersionNumber &v : std::as_const(versions))
            names.append(v.toString());
        *toolTip = names.isEmpty() ? label : tr("%1\nSessions written by version %2").arg(label, names.join(u", "_s));
    }
    if (newest)
        label += u" \u2014 "_s + newest->version();
    return label;
}

QString SessionTreeModel::groupName(DateGroup group)
{
    switch (group) {
    case DateGroup::Today:
        return tr("Today");
    case DateGroup::Yesterday:
        return tr("Yesterday");
    case DateGroup::ThisWeek:
        return tr("This Week");
    case DateGroup::Older:
        return tr("Older");
    case DateGroup::Archived:
        return tr("Archived");
    }
    return {};
}

void SessionTreeModel::setCurrentDate(const QDate &date)
{
    m_currentDate = date;
    rebuild();
    scheduleMidnight();
}

QDate SessionTreeModel::currentDate() const
{
    return m_currentDate.isValid() ? m_currentDate : QDate::currentDate();
}

void SessionTreeModel::scheduleMidnight()
{
    if (m_currentDate.isValid()) {
        m_midnight.stop();
        return;
    }
    // One wake-up a day, so that "Today" becomes "Yesterday" without a periodic timer.
    const QDateTime now = QDateTime::currentDateTime();
    const QDateTime next(now.date().addDays(1), QTime(0, 0, 1));
    m_midnight.start(std::chrono::milliseconds(std::max<qint64>(1000, now.msecsTo(next))));
}

SessionTreeModel::Node *SessionTreeModel::nodeOf(const QModelIndex &index) const
{
    return index.isValid() ? static_cast<Node *>(index.internalPointer()) : m_root.get();
}

QModelIndex SessionTreeModel::indexOf(const Node *node) const
{
    if (!node || node == m_root.get())
        return {};
    return createIndex(node->row, 0, const_cast<Node *>(node));
}

QModelIndex SessionTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (column != 0 || row < 0)
        return {};
    const Node *p = nodeOf(parent);
    if (size_t(row) >= p->children.size())
        return {};
    return createIndex(row, 0, p->children[size_t(row)].get());
}

QModelIndex SessionTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    return indexOf(nodeOf(child)->parent);
}

int SessionTreeModel::rowCount(const QModelIndex &parent) const
{
    if (parent.column() > 0)
        return 0;
    return int(nodeOf(parent)->children.size());
}

int SessionTreeModel::columnCount(const QModelIndex &) const
{
    return 1;
}

bool SessionTreeModel::hasChildren(const QModelIndex &parent) const
{
    if (parent.column() > 0)
        return false;
    return !nodeOf(parent)->children.empty();
}

QModelIndex SessionTreeModel::indexForSession(const QString &sessionID, const QString &source) const
{
    return indexOf(m_byKey.value(keyPrefix(source) + u"s:"_s + sessionID));
}

QString SessionTreeModel::sourceOf(const QModelIndex &index) const
{
    if (!index.isValid() || index.model() != this)
        return {};
    return nodeOf(index)->source;
}

QString SessionTreeModel::sessionID(const QModelIndex &index) const
{
    if (!index.isValid() || index.model() != this)
        return {};
    const Node *n = nodeOf(index);
    return n->kind == NodeKind::Session ? n->id : QString();
}

QVariant SessionTreeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Node *n = nodeOf(index);
    switch (role) {
    case NodeKindRole:
        return QVariant::fromValue(n->kind);
    case DateGroupRole:
        return QVariant::fromValue(n->group);
    case ChildCountRole:
        return int(n->children.size());
    case SourceRole:
        return n->source;
    case FilterTextRole:
        if (n->kind != NodeKind::Session)
            return QString();
        if (const SessionsModel *model = sessionsModel(n->source))
            return model->indexForId(n->id).data(SessionsModel::TitleRole);
        return QString();
    default:
        break;
    }
    if (n->kind == NodeKind::Session) {
        const SessionsModel *model = sessionsModel(n->source);
        return model ? model->indexForId(n->id).data(role) : QVariant();
    }
    if (role == Qt::DisplayRole)
        return n->label;
    if (role == Qt::ToolTipRole)
        return n->toolTip.isEmpty() ? n->label : n->toolTip;
    if (role == SessionsModel::ProjectIDRole && n->kind != NodeKind::Source)
        return n->kind == NodeKind::Project ? n->id : n->parent->id;
    return {};
}

bool SessionTreeModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return false;
    const Node *n = nodeOf(index);
    if (n->kind != NodeKind::Session || !n->source.isEmpty() || !m_source)
        return false;
    return m_source->setData(m_source->indexForId(n->id), value, role);
}

Qt::ItemFlags SessionTreeModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    const Node *n = nodeOf(index);
    if (n->kind == NodeKind::Session) {
        const SessionsModel *model = sessionsModel(n->source);
        if (!model)
            return Qt::NoItemFlags;
        Qt::ItemFlags f = model->flags(model->indexForId(n->id));
        // Other sources are read-only here: their sessions are copied into Weft to be changed.
        if (!n->source.isEmpty())
            f &= ~Qt::ItemIsEditable;
        f &= ~Qt::ItemNeverHasChildren;
        if (n->children.empty())
            f |= Qt::ItemNeverHasChildren;
        return f;
    }
    return Qt::ItemIsEnabled;
}

SessionTreeModel::Desired SessionTreeModel::buildDesired()
{
    Desired root;
    if (m_sources.empty()) {
        root.children = buildProjects(QString(), m_source);
        return root;
    }
    const auto sourceNode = [&](const QString &key, const SessionsModel *model) {
        Desired d;
        d.kind = NodeKind::Source;
        d.key = u"src:"_s + key;
        d.id = key;
        d.source = key;
        d.label = sourceLabel(key, &d.toolTip);
        d.children = buildProjects(key, model);
        return d;
    };
    root.children.push_back(sourceNode(QString(), m_source));
    for (const ExtraSource &s : m_sources) {
        if (s.model)
            root.children.push_back(sourceNode(s.key, s.model));
    }
    return root;
}

std::vector<SessionTreeModel::Desired> SessionTreeModel::buildProjects(const QString &source,
                                                                       const SessionsModel *model)
{
    if (!model)
        return {};
    const QString prefix = keyPrefix(source);
    // What the tree needs of each session, read once (a JSON object's look-ups are not free).
    struct Entry
    {
        QString id, title, projectID, parentID;
        qint64 created = 0, updated = 0;
        bool archived = false;
        mutable qint64 latest = -1; ///< the newest `updated` of it and what nests under it, once known
    };
    std::vector<Entry> sessions;
    sessions.reserve(size_t(model->sessions().size()));
    for (const Session &s : model->sessions())
        sessions.push_back({s.id(), s.title(), s.projectID(), s.parentID(), s.created(), s.updated(), s.isArchived()});
    QHash<QString, const Entry *> byId;
    byId.reserve(sessions.size());
    // Forks: "<base> (fork #n)" comes from the newest earlier session titled "<base> (fork #n-1)"
    // (or "<base>" for n = 1) in the same project; SessionService::forkedTitle() names them so.
    QHash<QString, QList<const Entry *>> byTitle; // projectID + '\n' + title
    for (const Entry &s : sessions) {
        byId.insert(s.id, &s);
        byTitle[s.projectID + u'\n' + s.title].append(&s);
    }

    QHash<QString, QString> parentOf;
    for (const Entry &s : sessions) {
        const QString pid = s.parentID;
        if (!pid.isEmpty() && pid != s.id && byId.contains(pid)) {
            parentOf.insert(s.id, pid);
            continue;
        }
        if (!s.title.endsWith(u')'))
            continue;
        QString base;
        const int n = SessionsModel::forkNumber(s.title, &base);
        if (n <= 0)
            continue;
        const QString origin = n == 1 ? base : base + u" (fork #%1)"_s.arg(n - 1);
        const Entry *best = nullptr;
        for (const Entry *c : byTitle.value(s.projectID + u'\n' + origin)) {
            if (c->id == s.id || c->created > s.created)
                continue;
            if (!best || c->created > best->created)
                best = c;
        }
        if (best)
            parentOf.insert(s.id, best->id);
    }
    // Damaged data can make a cycle of parents: such sessions become roots.
    for (const Entry &s : sessions) {
        QString p = parentOf.value(s.id);
        if (p.isEmpty())
            continue;
        QSet<QString> seen{s.id};
        while (!p.isEmpty()) {
            if (seen.contains(p)) {
                parentOf.remove(s.id);
                break;
            }
            seen.insert(p);
            p = parentOf.value(p);
        }
    }

    QHash<QString, QList<const Entry *>> childrenOf;
    QHash<QString, QList<const Entry *>> rootsOf; // projectID -> roots
    for (const Entry &s : sessions) {
        const QString p = parentOf.value(s.id);
        if (p.isEmpty())
            rootsOf[s.projectID].append(&s);
        else
            childrenOf[p].append(&s);
    }
    const auto byCreated = [](const Entry *a, const Entry *b) {
        return a->created != b->created ? a->created < b->created : a->id < b->id;
    };
    for (auto &list : childrenOf)
        std::sort(list.begin(), list.end(), byCreated);

    const std::function<qint64(const Entry *)> latestOf = [&](const Entry *s) -> qint64 {
        if (s->latest >= 0)
            return s->latest;
        qint64 t = s->updated;
        for (const Entry *c : childrenOf.value(s->id))
            t = std::max(t, latestOf(c));
        s->latest = std::max<qint64>(t, 0);
        return s->latest;
    };

    const std::function<Desired(const Entry *, DateGroup)> sessionNode = [&](const Entry *s, DateGroup group) {
        Desired d;
        d.kind = NodeKind::Session;
        d.key = prefix + u"s:"_s + s->id;
        d.id = s->id;
        d.source = source;
        d.group = group;
        for (const Entry *c : childrenOf.value(s->id))
            d.children.push_back(sessionNode(c, group));
        return d;
    };

    const std::function<bool(const Entry *)> familyMatches = [&](const Entry *s) {
        if (s->title.contains(m_filter, Qt::CaseInsensitive))
            return true;
        const QList<const Entry *> children = childrenOf.value(s->id);
        return std::any_of(children.begin(), children.end(), familyMatches);
    };
    // A revealed session shows its whole family: the roots above revealed sessions.
    QSet<QString> revealedRoots;
    for (const QString &key : std::as_const(m_revealed)) {
        if (!key.startsWith(prefix) || key.mid(prefix.size()).contains(QChar(0x1f)))
            continue;
        QString id = key.mid(prefix.size());
        if (!byId.contains(id))
            continue;
        for (QString p = parentOf.value(id); !p.isEmpty(); p = parentOf.value(p))
            id = p;
        revealedRoots.insert(id);
    }
    const auto familyRevealed = [&](const Entry *s) { return revealedRoots.contains(s->id); };

    const QDate today = currentDate();
    const auto groupFor = [&](const Entry *s) {
        if (s->archived)
            return DateGroup::Archived;
        const QDate date = QDateTime::fromMSecsSinceEpoch(latestOf(s)).date();
        if (date >= today)
            return DateGroup::Today;
        if (date == today.addDays(-1))
            return DateGroup::Yesterday;
        if (date > today.addDays(-7))
            return DateGroup::ThisWeek;
        return DateGroup::Older;
    };

    QStringList projects = rootsOf.keys();
    std::sort(projects.begin(), projects.end(), [model](const QString &a, const QString &b) {
        // Sessions outside any repository ("global") go last; the others by name.
        if ((a == u"global") != (b == u"global"))
            return b == u"global";
        const int c = model->projectName(a).compare(model->projectName(b), Qt::CaseInsensitive);
        return c != 0 ? c < 0 : a < b;
    });

    std::vector<Desired> result;
    for (const QString &projectID : projects) {
        Desired project;
        project.kind = NodeKind::Project;
        project.key = prefix + u"p:"_s + projectID;
        project.id = projectID;
        project.source = source;
        project.label = model->projectName(projectID);
        QList<const Entry *> roots = rootsOf.value(projectID);
        std::sort(roots.begin(), roots.end(), [&](const Entry *a, const Entry *b) {
            const qint64 ta = latestOf(a), tb = latestOf(b);
            return ta != tb ? ta > tb : a->id > b->id;
        });
        // The pages shown: the newest families (of those that match the filter), and those revealed.
        const QString projectKey = project.key;
        const qsizetype limit = m_shownRoots.value(projectKey, m_pageSize);
        QList<const Entry *> shown;
        qsizetype hidden = 0;
        for (const Entry *s : std::as_const(roots)) {
            if (!m_filter.isEmpty() && !familyMatches(s) && !familyRevealed(s))
                continue;
            if (shown.size() < limit || familyRevealed(s))
                shown.append(s);
            else
                ++hidden;
        }
        roots = shown;
        if (hidden > 0)
            m_hiddenRoots.insert(projectKey, hidden);
        else
            m_hiddenRoots.remove(projectKey);
        std::map<DateGroup, Desired> groups;
        for (const Entry *s : roots) {
            const DateGroup g = groupFor(s);
            Desired &group = groups[g];
            if (group.key.isEmpty()) {
                group.kind = NodeKind::Group;
                group.key = prefix + u"g:%1/%2"_s.arg(projectID).arg(int(g));
                group.id = projectID;
                group.source = source;
                group.label = groupName(g);
                group.group = g;
            }
            group.children.push_back(sessionNode(s, g));
        }
        for (auto &entry : groups)
            project.children.push_back(std::move(entry.second));
        result.push_back(std::move(project));
    }
    return result;
}

QString SessionTreeModel::projectKeyOf(const Node *node) const
{
    if (node->kind == NodeKind::Group)
        node = node->parent;
    return node->kind == NodeKind::Project ? node->key : QString();
}

bool SessionTreeModel::hasMore(const QModelIndex &parent) const
{
    if (!parent.isValid() || parent.model() != this)
        return false;
    return m_hiddenRoots.value(projectKeyOf(nodeOf(parent))) > 0;
}

void SessionTreeModel::showMore(const QModelIndex &parent)
{
    if (!hasMore(parent))
        return;
    const QString key = projectKeyOf(nodeOf(parent));
    m_shownRoots[key] = m_shownRoots.value(key, m_pageSize) + m_pageSize;
    rebuild();
}

void SessionTreeModel::setPageSize(int roots)
{
    m_pageSize = std::max(1, roots);
    m_shownRoots.clear();
    rebuild();
}

void SessionTreeModel::setFilterText(const QString &text)
{
    if (text == m_filter)
        return;
    m_filter = text;
    // Each filter starts at its first page.
    m_shownRoots.clear();
    rebuild();
}

QModelIndex SessionTreeModel::revealSession(const QString &sessionID, const QString &source)
{
    if (const QModelIndex index = indexForSession(sessionID, source); index.isValid())
        return index;
    const SessionsModel *model = sessionsModel(source);
    if (sessionID.isEmpty() || !model || !model->indexForId(sessionID).isValid())
        return {};
    m_revealed.insert(keyPrefix(source) + sessionID);
    rebuild();
    return indexForSession(sessionID, source);
}

bool SessionTreeModel::isAncestor(const Node *maybeAncestor, const Node *node)
{
    for (const Node *p = node; p; p = p->parent) {
        if (p == maybeAncestor)
            return true;
    }
    return false;
}

void SessionTreeModel::moveNode(Node *node, Node *newParent, int row)
{
    Node *oldParent = node->parent;
    const int oldRow = node->row;
    if (oldParent == newParent && oldRow == row)
        return;
    const bool ok = beginMoveRows(indexOf(oldParent), oldRow, oldRow, indexOf(newParent), row);
    Q_ASSERT(ok);
    Q_UNUSED(ok)
    std::unique_ptr<Node> owned = std::move(oldParent->children[size_t(oldRow)]);
    oldParent->children.erase(oldParent->children.begin() + oldRow);
    oldParent->renumber(size_t(oldRow));
    newParent->children.insert(newParent->children.begin() + row, std::move(owned));
    node->parent = newParent;
    newParent->renumber(size_t(std::min(row, oldParent == newParent ? oldRow : row)));
    endMoveRows();
}

void SessionTreeModel::reconcile(Node *node, const Desired &desired)
{
    // Walks the desired tree top-down. Each desired node is either already in place, somewhere
    // else in the tree (moved here, keeping its subtree and the view's state of it), or new.
    // Leftovers stay until removeUndesired(): a later parent may still claim them.
    const std::function<bool(const Desired &)> allNew = [&](const Desired &d) {
        if (m_byKey.contains(d.key))
            return false;
        return std::all_of(d.children.begin(), d.children.end(), allNew);
    };
    const std::function<std::unique_ptr<Node>(const Desired &, Node *, int)> create
        = [&](const Desired &d, Node *parent, int row) {
              auto n = std::make_unique<Node>();
              n->kind = d.kind;
              n->key = d.key;
              n->id = d.id;
              n->label = d.label;
              n->toolTip = d.toolTip;
              n->source = d.source;
              n->group = d.group;
              n->parent = parent;
              n->row = row;
              m_byKey.insert(n->key, n.get());
              for (size_t i = 0; i < d.children.size(); ++i)
                  n->children.push_back(create(d.children[i], n.get(), int(i)));
              return n;
          };

    for (size_t i = 0; i < desired.children.size(); ++i) {
        const Desired &d = desired.children[i];
        Node *child = i < node->children.size() ? node->children[i].get() : nullptr;
        if (!child || child->key != d.key) {
            Node *existing = m_byKey.value(d.key);
            if (existing && !isAncestor(existing, node)) {
                moveNode(existing, node, int(i));
                child = existing;
            } else if (allNew(d)) {
                // A new subtree arrives in one insert (the first fill is one insert per project).
                beginInsertRows(indexOf(node), int(i), int(i));
                node->children.insert(node->children.begin() + qsizetype(i), create(d, node, int(i)));
                node->renumber(i);
                endInsertRows();
                continue;
            } else {
                auto n = std::make_unique<Node>();
                n->kind = d.kind;
                n->key = d.key;
                n->id = d.id;
                n->label = d.label;
                n->toolTip = d.toolTip;
                n->source = d.source;
                n->group = d.group;
                n->parent = node;
                beginInsertRows(indexOf(node), int(i), int(i));
                child = n.get();
                m_byKey.insert(d.key, child);
                node->children.insert(node->children.begin() + qsizetype(i), std::move(n));
                node->renumber(i);
                endInsertRows();
            }
        }
        if (child->label != d.label || child->group != d.group || child->toolTip != d.toolTip) {
            child->label = d.label;
            child->toolTip = d.toolTip;
            child->group = d.group;
            const QModelIndex idx = indexOf(child);
            Q_EMIT dataChanged(idx, idx, {Qt::DisplayRole, Qt::ToolTipRole, DateGroupRole});
        }
        const size_t before = child->children.size();
        reconcile(child, d);
        if (child->kind == NodeKind::Session && before != child->children.size()) {
            const QModelIndex idx = indexOf(child);
            Q_EMIT dataChanged(idx, idx, {ChildCountRole});
        }
    }
}

void SessionTreeModel::removeUndesired(Node *node, const QSet<QString> &keep)
{
    for (int row = int(node->children.size()) - 1; row >= 0; --row) {
        Node *child = node->children[size_t(row)].get();
        if (keep.contains(child->key)) {
            removeUndesired(child, keep);
            continue;
        }
        beginRemoveRows(indexOf(node), row, row);
        const std::function<void(Node *)> forget = [&](Node *n) {
            m_byKey.remove(n->key);
            for (auto &c : n->children)
                forget(c.get());
        };
        forget(child);
        node->children.erase(node->children.begin() + row);
        node->renumber(size_t(row));
        endRemoveRows();
    }
}

void SessionTreeModel::rebuild()
{
    Q_ASSERT_X(QThread::currentThread() == thread(), "SessionTreeModel", "used from a thread other than its own");
    if (!m_source)
        return;
    const Desired desired = buildDesired();
    reconcile(m_root.get(), desired);
    QSet<QString> keep;
    const std::function<void(const Desired &)> collect = [&](const Desired &d) {
        for (const Desired &c : d.children) {
            keep.insert(c.key);
            collect(c);
        }
    };
    collect(desired);
    removeUndesired(m_root.get(), keep);
}

void SessionTreeModel::onSourceDataChanged(const QString &source, const QModelIndex &topLeft,
                                           const QModelIndex &bottomRight, const QList<int> &roles)
{
    const SessionsModel *model = sessionsModel(source);
    if (!model)
        return;
    if (isStructural(roles))
        rebuild();
    const QString prefix = keyPrefix(source);
    for (int row = topLeft.row(); row <= bottomRight.row(); ++row) {
        const QString id = model->index(row).data(SessionsModel::IdRole).toString();
        if (Node *n = m_byKey.value(prefix + u"s:"_s + id)) {
            const QModelIndex idx = indexOf(n);
            QList<int> mapped = roles;
            if (roles.contains(SessionsModel::TitleRole))
                mapped.append(FilterTextRole);
            Q_EMIT dataChanged(idx, idx, mapped);
        }
    }
}

} // namespace weft
