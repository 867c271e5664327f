// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/searchhit.h"
#include "core/types.h"

#include <QAbstractListModel>
#include <QDialog>
#include <QFuture>
#include <QHash>
#include <QPointer>
#include <QStyledItemDelegate>
#include <QThreadPool>
#include <QTimer>

#include <functional>
#include <optional>

class QLabel;
class QLineEdit;
class QListView;

namespace weft
{

class SessionController;

/// One result row: the hit and what the panel found out about its message.
struct SearchResult {
    SearchHit hit;
    std::optional<Message::Role> role; ///< the message's author, when the hit is in a message
    QString sourceLabel;               ///< "Weft", "OpenCode (…)"
};

/// The results of a search across every session, as a list model.
class SearchResultsModel : public QAbstractListModel
{
    Q_OBJECT

public:
    enum Roles {
        HitRole = Qt::UserRole + 1, ///< weft::SearchHit
        TitleRole,                  ///< QString: the session's title
        SnippetRole,                ///< QString: the text around the match
        DetailRole,                 ///< QString: "You · 12 May 14:02 · text", the source
        SourceLabelRole,            ///< QString
    };
    Q_ENUM(Roles)

    using QAbstractListModel::QAbstractListModel;
    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    void setResults(const QList<SearchResult> &results);
    [[nodiscard]] const QList<SearchResult> &results() const { return m_results; }

    /// "You", "Assistant", "Session title" and the like, for a result's detail line.
    [[nodiscard]] static QString whatText(const SearchResult &result);

private:
    QList<SearchResult> m_results;
};

/// Paints a result: the session title and source, the message's author, time and kind, and the
/// snippet with its matches in bold on the highlight colour.
class SearchResultDelegate : public QStyledItemDelegate
{
    Q_OBJECT

public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

/// Search across every session of every source (Edit > Search All Sessions…, Ctrl+Shift+F): a
/// query field that searches as you type (debounced, the query runs off the GUI thread) and the
/// results, best first. Enter or a double click opens a result (hitActivated()).
class SearchPanel : public QDialog
{
    Q_OBJECT

public:
    /// Searches with @p controller's index (SessionController::searcher()); @p controller must
    /// outlive the panel.
    explicit SearchPanel(SessionController *controller, QWidget *parent = nullptr);
    ~SearchPanel() override;

    /// The label of each source key shown in the results ("Weft", "OpenCode (…)").
    void setSourceLabels(const QHash<QString, QString> &labels) { m_sourceLabels = labels; }
    /// Called off the GUI thread for each hit in a message: the message's author.
    void setRoleResolver(std::function<std::optional<Message::Role>(const SearchHit &)> resolver)
    {
        m_roleResolver = std::move(resolver);
    }

    [[nodiscard]] QLineEdit *queryEdit() const { return m_query; }
    [[nodiscard]] QListView *resultsView() const { return m_view; }
    [[nodiscard]] SearchResultsModel *resultsModel() const { return m_model; }
    [[nodiscard]] bool isSearching() const { return m_searching || m_debounce.isActive(); }

    /// Sets the query and searches at once (no typing delay).
    void search(const QString &query);
    /// Opens the current result.
    void activateCurrent();

Q_SIGNALS:
    /// The results of the current query are in.
    void resultsReady(int count);
    void hitActivated(const weft::SearchHit &hit);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void runSearch();

    SessionController *m_controller;
    QLineEdit *m_query;
    QListView *m_view;
    QLabel *m_status;
    SearchResultsModel *m_model;
    QTimer m_debounce;
    QHash<QString, QString> m_sourceLabels;
    std::function<std::optional<Message::Role>(const SearchHit &)> m_roleResolver;
    QThreadPool m_pool; // the queries, one at a time; the panel waits for them when it goes
    int m_generation = 0;
    bool m_searching = false;
    bool m_activateWhenReady = false; // Enter was pressed before the results were in
};

} // namespace weft
