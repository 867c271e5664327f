// SPDX-License-Identifier: GPL-3.0-or-later
#include "searchpanel.h"

#include "app/sessioncontroller.h"
#include "core/async.h"
#include "style.h"

#include <QApplication>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QLocale>
#include <QPainter>
#include <QPushButton>
#include <QTextLayout>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
constexpr int TypingDelayMs = 200;
constexpr int ResultLimit = 100;
constexpr int Padding = 7;
constexpr int SnippetLines = 2;

/// When a hit's message was written: its time today, else its date and time.
QString hitTimeText(qint64 ms)
{
    if (ms <= 0)
        return {};
    const QDateTime dt = QDateTime::fromMSecsSinceEpoch(ms);
    const QLocale locale;
    if (dt.date() == QDate::currentDate())
        return locale.toString(dt.time(), QLocale::ShortFormat);
    return locale.toString(dt, QLocale::ShortFormat);
}
} // namespace

// ---- SearchResultsModel

int SearchResultsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_results.size());
}

QString SearchResultsModel::whatText(const SearchResult &r)
{
    const QString kind = r.hit.kind;
    QString what;
    if (kind == u"title")
        return tr("Session title");
    if (r.role)
        what = *r.role == Message::Role::User ? tr("You") : tr("Assistant");
    QString part;
    if (kind == u"reasoning")
        part = tr("reasoning");
    else if (kind == u"tool")
        part = tr("tool call");
    else if (kind == u"file")
        part = tr("attached file");
    else if (kind == u"patch")
        part = tr("changed files");
    else if (kind == u"subtask")
        part = tr("subtask");
    else if (kind == u"agent")
        part = tr("agent");
    else if (kind == u"retry")
        part = tr("retried error");
    else if (kind == u"error")
        part = tr("error");
    if (what.isEmpty())
        return part;
    return part.isEmpty() ? what : tr("%1, %2").arg(what, part);
}

QVariant SearchResultsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const SearchResult &r = m_results.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case TitleRole:
        return r.hit.sessionTitle.isEmpty() ? tr("Untitled session") : r.hit.sessionTitle;
    case Qt::ToolTipRole:
        return r.hit.markedSnippet(u"<b>"_s, u"</b>"_s);
    case HitRole:
        return QVariant::fromValue(r.hit);
    case SnippetRole:
        return r.hit.snippet;
    case DetailRole: {
        QStringList parts{whatText(r), hitTimeText(r.hit.time)};
        parts.removeAll(QString());
        return parts.join(u"  ·  "_s);
    }
    case SourceLabelRole:
        return r.sourceLabel;
    default:
        return {};
    }
}

void SearchResultsModel::setResults(const QList<SearchResult> &results)
{
    // A new query is a new list: the one reset the model does.
    beginResetModel();
    m_results = results;
    endResetModel();
}

// ---- SearchResultDelegate

QSize SearchResultDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &) const
{
    const QFontMetrics fm(option.font);
    const QFontMetrics sfm(Style::smallFont(option.font));
    return QSize(300, Padding * 2 + fm.height() + 2 + sfm.height() + 4 + fm.lineSpacing() * SnippetLines);
}

void SearchResultDelegate::paint(QPainter *p, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QStyle *style = opt.widget ? opt.widget->style() : QApplication::style();
    opt.text.clear();
    style->drawPrimitive(QStyle::PE_PanelItemViewItem, &opt, p, opt.widget);

    const bool selected = opt.state & QStyle::State_Selected;
    const QPalette &pal = opt.palette;
    const QColor text = pal.color(selected ? QPalette::HighlightedText : QPalette::Text);
    const QColor dim = selected ? Style::mix(text, pal.color(QPalette::Highlight), 0.25) : Style::dimText(pal);
    const QFont font = opt.font;
    QFont bold = font;
    bold.setWeight(QFont::DemiBold);
    const QFont small = Style::smallFont(font);
    const QFontMetrics fm(font), bfm(bold), sfm(small);
    const QRect r = opt.rect.adjusted(Padding + 2, Padding, -Padding - 2, -Padding);

    p->save();
    // Line 1: the session, and the source on the right.
    const QString source = index.data(SearchResultsModel::SourceLabelRole).toString();
    const int sourceW = source.isEmpty() ? 0 : std::min(sfm.horizontalAdvance(source), r.width() / 3);
    p->setFont(small);
    p->setPen(dim);
    if (sourceW > 0)
        p->drawText(QRect(r.right() - sourceW, r.top(), sourceW, bfm.height()), Qt::AlignRight | Qt::AlignVCenter,
                    sfm.elidedText(source, Qt::ElideMiddle, sourceW));
    p->setFont(bold);
    p->setPen(text);
    const QRect titleRect(r.left(), r.top(), r.width() - sourceW - 10, bfm.height());
    p->drawText(titleRect, Qt::AlignLeft | Qt::AlignVCenter,
                bfm.elidedText(index.data(SearchResultsModel::TitleRole).toString(), Qt::ElideRight, titleRect.width()));

    // Line 2: who and when.
    int y = r.top() + bfm.height() + 2;
    p->setFont(small);
    p->setPen(dim);
    p->drawText(QRect(r.left(), y, r.width(), sfm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                sfm.elidedText(index.data(SearchResultsModel::DetailRole).toString(), Qt::ElideRight, r.width()));
    y += sfm.height() + 4;

    // The snippet: its matches in bold on a highlight, wrapped on two lines at most.
    const auto hit = index.data(SearchResultsModel::HitRole).value<SearchHit>();
    QString snippet = hit.snippet;
    snippet.replace(u'\n', u' ').replace(u'\t', u' ');
    QList<QTextLayout::FormatRange> formats;
    QColor mark = Style::active(pal);
    mark.setAlphaF(selected ? 0.55f : 0.25f);
    for (const auto &[start, length] : hit.highlights) {
        if (start < 0 || start >= snippet.size())
            continue;
        QTextLayout::FormatRange range;
        range.start = start;
        range.length = std::min<int>(length, int(snippet.size()) - start);
        range.format.setFontWeight(QFont::Bold);
        range.format.setBackground(mark);
        formats.append(range);
    }
    QTextLayout layout(snippet, font);
    QTextOption textOption;
    textOption.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout.setTextOption(textOption);
    layout.setFormats(formats);
    layout.beginLayout();
    qreal ly = 0;
    int lines = 0;
    while (lines < SnippetLines) {
        QTextLine line = layout.createLine();
        if (!line.isValid())
            break;
        line.setLineWidth(r.width());
        line.setPosition(QPointF(0, ly));
        ly += line.height();
        ++lines;
    }
    layout.endLayout();
    p->setPen(text);
    p->setClipRect(QRect(r.left(), y, r.width(), r.bottom() - y + 1));
    layout.draw(p, QPointF(r.left(), y));
    p->restore();
}

// ---- SearchPanel

SearchPanel::SearchPanel(SessionController *controller, QWidget *parent)
    : QDialog(parent)
    , m_controller(controller)
    , m_query(new QLineEdit(this))
    , m_view(new QListView(this))
    , m_status(new QLabel(this))
    , m_model(new SearchResultsModel(this))
{
    setObjectName(u"searchPanel"_s);
    setWindowTitle(tr("Search All Sessions"));
    setModal(false);
    resize(720, 560);

    m_query->setObjectName(u"searchQuery"_s);
    m_query->setPlaceholderText(tr("Search every session: words, \"a phrase\", prefix*, -excluded"));
    m_query->setClearButtonEnabled(true);
    m_query->addAction(Style::icon(u"edit-find"_s), QLineEdit::LeadingPosition);
    m_query->setAccessibleName(tr("Search"));
    m_query->installEventFilter(this);

    m_view->setObjectName(u"searchResults"_s);
    m_view->setModel(m_model);
    m_view->setItemDelegate(new SearchResultDelegate(m_view));
    m_view->setUniformItemSizes(true);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_view->setAccessibleName(tr("Results"));
    m_view->installEventFilter(this);
    connect(m_view, &QListView::activated, this, [this](const QModelIndex &) { activateCurrent(); });

    m_status->setObjectName(u"searchStatus"_s);
    m_status->setTextInteractionFlags(Qt::NoTextInteraction);
    QPalette statusPalette = m_status->palette();
    statusPalette.setColor(QPalette::WindowText, Style::dimText(palette()));
    m_status->setPalette(statusPalette);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    QPushButton *open = buttons->addButton(tr("&Open"), QDialogButtonBox::AcceptRole);
    open->setObjectName(u"searchOpen"_s);
    open->setAutoDefault(false);
    connect(open, &QPushButton::clicked, this, &SearchPanel::activateCurrent);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_query);
    layout->addWidget(m_view, 1);
    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_status, 1);
    bottom->addWidget(buttons);
    layout->addLayout(bottom);

    m_debounce.setSingleShot(true);
    m_debounce.setInterval(TypingDelayMs);
    connect(&m_debounce, &QTimer::timeout, this, &SearchPanel::runSearch);
    connect(m_query, &QLineEdit::textChanged, this, [this] {
        ++m_generation;
        m_activateWhenReady = false;
        m_debounce.start();
    });
    if (m_controller)
        connect(m_controller, &SessionController::searchProgress, this, [this](int done, int total) {
            if (done < total)
                m_status->setText(tr("Indexing sessions: %1 of %2…").arg(done).arg(total));
        });
}

SearchPanel::~SearchPanel()
{
    // A query in flight uses the index: it ends (a few milliseconds) before the panel goes.
    m_pool.waitForDone();
}

void SearchPanel::showEvent(QShowEvent *event)
{
    QDialog::showEvent(event);
    m_query->setFocus(Qt::ShortcutFocusReason);
    m_query->selectAll();
}

void SearchPanel::search(const QString &query)
{
    m_query->setText(query);
    runSearch();
}

void SearchPanel::runSearch()
{
    m_debounce.stop();
    const int generation = ++m_generation;
    const QString query = m_query->text().trimmed();
    const bool open = m_controller && m_controller->canSearch();
    if (!open || !SessionController::isSearchQuery(query)) {
        m_searching = false;
        m_activateWhenReady = false;
        m_model->setResults({});
        if (query.isEmpty() || !m_controller || open)
            m_status->setText(QString());
        else if (!SessionController::searchLimits().enabled)
            m_status->setText(tr("Indexing is off: turn it on in Settings › Search."));
        else
            m_status->setText(tr("The search index is not available."));
        Q_EMIT resultsReady(0);
        return;
    }
    m_searching = true;
    m_status->setText(tr("Searching…"));
    const SessionController::Searcher search = m_controller->searcher();
    const auto labels = m_sourceLabels;
    const auto resolver = m_roleResolver;
    m_pool.setMaxThreadCount(1);
    const QFuture<QList<SearchResult>> future = QtConcurrent::run(&m_pool, [search, query, labels, resolver] {
        QList<SearchResult> results;
        SearchOptions options;
        options.limit = ResultLimit;
        const Result<QList<SearchHit>> hits = search(query, options);
        if (!hits)
            return results;
        for (const SearchHit &hit : hits.value()) {
            SearchResult r{hit, std::nullopt, labels.value(hit.source)};
            if (resolver && !hit.messageID.isEmpty())
                r.role = resolver(hit);
            results.append(r);
        }
        return results;
    });
    whenFinished(future, this, [this, generation, query](const QList<SearchResult> &results) {
        if (generation != m_generation)
            return;
        m_searching = false;
        m_model->setResults(results);
        if (!results.isEmpty())
            m_view->setCurrentIndex(m_model->index(0));
        m_status->setText(results.isEmpty()
                              ? tr("Nothing found for “%1”.").arg(query)
                              : Style::plural(tr("%n result(s)", nullptr, int(results.size())), results.size()));
        Q_EMIT resultsReady(int(results.size()));
        if (std::exchange(m_activateWhenReady, false))
            activateCurrent();
    });
}

void SearchPanel::activateCurrent()
{
    const QModelIndex current = m_view->currentIndex();
    if (!current.isValid())
        return;
    Q_EMIT hitActivated(current.data(SearchResultsModel::HitRole).value<SearchHit>());
}

bool SearchPanel::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::KeyPress) {
        auto *ke = static_cast<QKeyEvent *>(event);
        if (watched == m_query) {
            // The arrows move through the results while the focus stays in the field.
            if (ke->key() == Qt::Key_Down || ke->key() == Qt::Key_Up || ke->key() == Qt::Key_PageDown
                || ke->key() == Qt::Key_PageUp) {
                QApplication::sendEvent(m_view, event);
                return true;
            }
            if (ke->key() == Qt::Key_Return || ke->key() == Qt::Key_Enter) {
                if (isSearching()) {
                    m_activateWhenReady = true;
                    if (!m_searching)
                        runSearch();
                } else {
                    activateCurrent();
                }
                return true;
            }
        } else if (watched == m_view && (ke->key() == Qt::Key_Return || ke->key() == Qt::Key_Enter)) {
            activateCurrent();
            return true;
        }
    }
    return QDialog::eventFilter(watched, event);
}

} // namespace weft
