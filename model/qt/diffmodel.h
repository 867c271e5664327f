// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"
#include "diff/diffdocument.h"

#include <QAbstractListModel>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

#include <memory>

namespace weft
{

/// The files of a diff scope (a session's session_diff or one turn's summary.diffs), one row per
/// file: name, folder, lines added and removed. It wraps the documents model/diff builds: the
/// diff of each file is built on first use, on the GUI thread (document()) or off it
/// (requestDocument()), and kept.
class DiffModel : public QAbstractListModel
{
    Q_OBJECT

public:
    enum Role {
        PathRole = Qt::UserRole + 1, ///< QString: the path as the diff names it
        FileNameRole, ///< QString: the last path component
        DirectoryRole, ///< QString: the folders before it ("" at the top)
        AdditionsRole, ///< qint64
        DeletionsRole, ///< qint64
        StatusRole, ///< QString: "added", "deleted" or "modified"
        LineCountRole, ///< qint64: lines of the longer side (the large-file guard)
        SizeRole, ///< qint64: characters of text behind the diff
    };

    explicit DiffModel(QObject *parent = nullptr);
    ~DiffModel() override;

    void setDiffs(const QList<FileDiff> &diffs);
    [[nodiscard]] const QList<FileDiff> &diffs() const { return m_diffs; }
    [[nodiscard]] FileDiff diff(int row) const
    {
        return row >= 0 && row < m_diffs.size() ? m_diffs.at(row) : FileDiff();
    }
    [[nodiscard]] int rowOfPath(const QString &path) const;
    [[nodiscard]] qint64 totalAdditions() const;
    [[nodiscard]] qint64 totalDeletions() const;

    /// The diff of file @p row, built now (on the calling thread) unless already built.
    [[nodiscard]] std::shared_ptr<const DiffDocument> document(int row) const;
    /// The diff of file @p row if it is built already, else null (nothing is built).
    [[nodiscard]] std::shared_ptr<const DiffDocument> cachedDocument(int row) const;
    /// Builds the diff of file @p row on the global thread pool and keeps it; documentReady(row)
    /// follows through the event loop (also when it was built already). A build still running
    /// when setDiffs() replaces the files is dropped: no documentReady() for it.
    void requestDocument(int row);
    /// Whether a build of file @p row started by requestDocument() is running.
    [[nodiscard]] bool isBuilding(int row) const { return m_building.contains(row); }

    /// See DiffDocument::statusOf().
    [[nodiscard]] static QString statusOf(const FileDiff &diff) { return DiffDocument::statusOf(diff); }
    /// Lines of the longer side of @p diff (counted, not diffed: cheap).
    [[nodiscard]] static qint64 lineCountOf(const FileDiff &diff) { return DiffDocument::lineCountOf(diff); }
    [[nodiscard]] static qint64 sizeOf(const FileDiff &diff) { return DiffDocument::sizeOf(diff); }

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

Q_SIGNALS:
    /// The diff of file @p row asked for with requestDocument() is built (cachedDocument()).
    void documentReady(int row);

private:
    QList<FileDiff> m_diffs;
    mutable QList<std::shared_ptr<const DiffDocument>> m_documents;
    QSet<int> m_building;
    /// Counts setDiffs() calls: a build started for other files is dropped.
    int m_generation = 0;
};

} // namespace weft
