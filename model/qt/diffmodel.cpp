// SPDX-License-Identifier: GPL-3.0-or-later
#include "diffmodel.h"

#include "core/async.h"

#include <QtConcurrent>

using namespace Qt::StringLiterals;

namespace weft
{

// ---- DiffModel

DiffModel::DiffModel(QObject *parent)
    : QAbstractListModel(parent)
{
}

DiffModel::~DiffModel() = default;

void DiffModel::setDiffs(const QList<FileDiff> &diffs)
{
    beginResetModel();
    m_diffs = diffs;
    m_documents = QList<std::shared_ptr<const DiffDocument>>(diffs.size());
    m_building.clear();
    ++m_generation;
    endResetModel();
}

int DiffModel::rowOfPath(const QString &path) const
{
    for (qsizetype i = 0; i < m_diffs.size(); ++i) {
        if (m_diffs.at(i).file() == path)
            return int(i);
    }
    return -1;
}

qint64 DiffModel::totalAdditions() const
{
    qint64 sum = 0;
    for (const FileDiff &d : m_diffs)
        sum += d.additions();
    return sum;
}

qint64 DiffModel::totalDeletions() const
{
    qint64 sum = 0;
    for (const FileDiff &d : m_diffs)
        sum += d.deletions();
    return sum;
}

std::shared_ptr<const DiffDocument> DiffModel::document(int row) const
{
    if (row < 0 || row >= m_diffs.size())
        return {};
    if (!m_documents.at(row))
        m_documents[row] = std::make_shared<const DiffDocument>(DiffDocument::fromFileDiff(m_diffs.at(row)));
    return m_documents.at(row);
}

std::shared_ptr<const DiffDocument> DiffModel::cachedDocument(int row) const
{
    return row >= 0 && row < m_documents.size() ? m_documents.at(row) : nullptr;
}

void DiffModel::requestDocument(int row)
{
    if (row < 0 || row >= m_diffs.size() || m_building.contains(row))
        return;
    if (m_documents.at(row)) {
        QMetaObject::invokeMethod(
            this,
            [this, row, generation = m_generation] {
                if (generation == m_generation)
                    Q_EMIT documentReady(row);
            },
            Qt::QueuedConnection);
        return;
    }
    m_building.insert(row);
    const FileDiff diff = m_diffs.at(row);
    const int generation = m_generation;
    whenFinished(
        QtConcurrent::run([diff] { return std::make_shared<const DiffDocument>(DiffDocument::fromFileDiff(diff)); }),
        this, [this, row, generation](const std::shared_ptr<const DiffDocument> &document) {
            if (generation != m_generation)
                return; // built for files no longer listed
            m_building.remove(row);
            if (!m_documents.at(row))
                m_documents[row] = document;
            Q_EMIT documentReady(row);
        });
}

int DiffModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_diffs.size());
}

QVariant DiffModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_diffs.size())
        return {};
    const FileDiff &d = m_diffs.at(index.row());
    const QString path = d.file();
    switch (role) {
    case Qt::DisplayRole:
    case FileNameRole:
        return path.section(u'/', -1);
    case Qt::ToolTipRole:
    case PathRole:
        return path;
    case DirectoryRole:
        return path.contains(u'/') ? path.section(u'/', 0, -2) : QString();
    case AdditionsRole:
        return d.additions();
    case DeletionsRole:
        return d.deletions();
    case StatusRole:
        return statusOf(d);
    case LineCountRole:
        return lineCountOf(d);
    case SizeRole:
        return sizeOf(d);
    default:
        break;
    }
    return {};
}

QHash<int, QByteArray> DiffModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert({{PathRole, "path"},
                  {FileNameRole, "fileName"},
                  {DirectoryRole, "directory"},
                  {AdditionsRole, "additions"},
                  {DeletionsRole, "deletions"},
                  {StatusRole, "status"},
                  {LineCountRole, "lineCount"},
                  {SizeRole, "size"}});
    return names;
}

} // namespace weft
