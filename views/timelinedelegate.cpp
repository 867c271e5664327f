// SPDX-License-Identifier: GPL-3.0-or-later
#include "timelinedelegate.h"
#include "timelinedelegate_p.h"

#include "core/toolnames.h"
#include "markdownrenderer.h"
#include "qt/timelinemodel.h"
#include "style.h"

#include <QAbstractItemView>
#include <QAbstractProxyModel>
#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QBuffer>
#include <QClipboard>
#include <QImageReader>
#include <QUrl>
#include <QDateTime>
#include <QFontDatabase>
#include <QHelpEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QStringTokenizer>
#include <QTextCursor>
#include <QToolTip>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
constexpr qreal CardPadding = 10;
constexpr qreal BlockGap = 7;
constexpr qreal RowGap = 6;
constexpr qreal Radius = 6;
constexpr int InputLines = 12;
constexpr int OutputLines = 16;
constexpr qreal ThumbnailHeight = 120;

/// The timeline model's index under the view's proxies (its internalId() is the row's key).
QModelIndex timelineIndex(QModelIndex index)
{
    while (const auto *proxy = qobject_cast<const QAbstractProxyModel *>(index.model()))
        index = proxy->mapToSource(index);
    return index;
}

QFont fixedFont(const QFont &font)
{
    QFont f = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    f.setPointSizeF(font.pointSizeF() * 0.9);
    return f;
}

/// The first @p max lines of @p text and how many more there are, without splitting all of a
/// large tool output.
QStringList firstLines(const QString &text, int max, int *more)
{
    QStringList lines;
    qsizetype from = 0;
    while (from <= text.size() && lines.size() < max) {
        qsizetype nl = text.indexOf(u'\n', from);
        if (nl < 0)
            nl = text.size();
        QString line = text.mid(from, std::min<qsizetype>(nl - from, 400));
        line.replace(u'\t', u"    "_s);
        lines.append(line);
        from = nl + 1;
    }
    while (!lines.isEmpty() && lines.constLast().trimmed().isEmpty() && from >= text.size())
        lines.removeLast();
    *more = from < text.size() ? int(QStringView(text).mid(from).count(u'\n')) + 1 : 0;
    return lines;
}

QString capitalized(const QString &s)
{
    return s.isEmpty() ? s : s.at(0).toUpper() + s.mid(1);
}

/// What a tool call is about, when its state has no title: the command, the file, the pattern.
/// Paths inside the project (@p root) are shown relative to it.
QString toolSubject(const Part &part, const QString &root)
{
    const ToolState state = part.state();
    QString subject = state.title();
    if (subject.isEmpty()) {
        const JsonObject input = state.input();
        for (const auto key : {u"description", u"command", u"path", u"pattern", u"url", u"query"}) {
            // `path` (2.x) or `filePath` (1.x)
            subject = (key == QStringView(u"path") ? ToolNames::filePath(input) : input.string(key)).section(u'\n', 0, 0);
            if (!subject.isEmpty())
                break;
        }
    }
    if (!root.isEmpty() && root != u"/" && subject.startsWith(root + u'/'))
        subject = subject.mid(root.size() + 1);
    return subject;
}

QString durationText(qint64 ms)
{
    if (ms <= 0)
        return {};
    if (ms < 1000)
        return QApplication::translate("weft::TimelineDelegate", "%1 ms").arg(ms);
    if (ms < 60000)
        return QApplication::translate("weft::TimelineDelegate", "%1 s")
            .arg(QLocale().toString(double(ms) / 1000.0, 'f', 1));
    return QApplication::translate("weft::TimelineDelegate", "%1 min %2 s").arg(ms / 60000).arg((ms / 1000) % 60);
}

QString timeText(qint64 ms)
{
    if (ms <= 0)
        return {};
    const QDateTime dt = QDateTime::fromMSecsSinceEpoch(ms);
    const QLocale locale;
    // Minutes are enough in a conversation; some locales' short format has seconds.
    QString time = locale.timeFormat(QLocale::ShortFormat);
    time.remove(u":ss"_s).remove(u".ss"_s);
    if (dt.date() == QDate::currentDate())
        return locale.toString(dt.time(), time);
    QString date = locale.dateFormat(QLocale::ShortFormat);
    return locale.toString(dt, date + u' ' + time);
}

void drawChevron(QPainter *p, const QPointF &center, bool expanded, const QColor &color)
{
    p->save();
    p->setRenderHint(QPainter::Antialiasing);
    p->setPen(QPen(color, 1.4, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    p->setBrush(Qt::NoBrush);
    QPainterPath path;
    if (expanded) {
        path.moveTo(center + QPointF(-3.5, -1.5));
        path.lineTo(center + QPointF(0, 2));
        path.lineTo(center + QPointF(3.5, -1.5));
    } else {
        path.moveTo(center + QPointF(-1.5, -3.5));
        path.lineTo(center + QPointF(2, 0));
        path.lineTo(center + QPointF(-1.5, 3.5));
    }
    p->drawPath(path);
    p->restore();
}

QColor statusColor(ToolStatus status, bool live, const QPalette &palette)
{
    switch (status) {
    case ToolStatus::Completed:
        return Style::positive(palette);
    case ToolStatus::Error:
        return Style::negative(palette);
    case ToolStatus::Running:
        return live ? Style::active(palette) : Style::neutral(palette);
    case ToolStatus::Pending:
        return live ? Style::dimText(palette) : Style::neutral(palette);
    case ToolStatus::Unknown:
        break;
    }
    return Style::dimText(palette);
}

} // namespace

struct TimelineDelegate::CachedLayout
{
    int revision = -1;
    int width = 0;
    std::shared_ptr<const Layout> layout;
};

struct TimelineDelegate::CachedDocument
{
    QString text;
    bool markdown = true;
    QFont font;
    QRgb base = 0; // the palette's (Markdown colours follow it)
    qreal width = 0;
    std::shared_ptr<QTextDocument> doc;
};

TimelineDelegate::TimelineDelegate(QAbstractItemView *view)
    : QAbstractItemDelegate(view)
    , m_view(view)
    // Ten screens or so of rows: a laid-out text document takes about 50 bytes per character
    // (its glyphs), and 2,000 layouts held 33 MB with all of a 3,000-message session loaded.
    // Row heights are kept apart (m_heights), so a row laid out again costs only when it shows.
    , m_layouts(300)
    , m_documents(300)
    , m_thumbnails(200)
{
    // "Copied" shows on a code block's button for a moment after a click.
    m_copiedTimer.setSingleShot(true);
    m_copiedTimer.setInterval(1500);
    connect(&m_copiedTimer, &QTimer::timeout, this, [this] {
        m_copiedCode = {};
        m_view->viewport()->update();
    });
}

TimelineDelegate::~TimelineDelegate() = default;

QString TimelineDelegate::badgeText(ToolStatus status, bool live)
{
    switch (status) {
    case ToolStatus::Pending:
        return live ? tr("Pending") : tr("Interrupted");
    case ToolStatus::Running:
        return live ? tr("Running") : tr("Interrupted");
    case ToolStatus::Completed:
        return tr("Completed");
    case ToolStatus::Error:
        return tr("Error");
    case ToolStatus::Unknown:
        break;
    }
    return tr("Unknown");
}

void TimelineDelegate::setAwaitingPermission(const QString &callID, bool waiting)
{
    if (waiting)
        m_awaiting.insert(callID);
    else
        m_awaiting.remove(callID);
}

void TimelineDelegate::invalidate(const QModelIndex &index)
{
    if (!index.isValid())
        return;
    m_layouts.remove(index.data(TimelineModel::IdRole).toString());
    // A measured row is measured again, not estimated: it is probably on screen.
    if (CachedHeight *height = m_heights.find(timelineIndex(index).internalId()); height && !height->estimated)
        height->revision = -1;
}

void TimelineDelegate::clearCaches()
{
    releaseLayouts();
    m_heights.clear();
}

void TimelineDelegate::releaseLayouts()
{
    m_layouts.clear();
    m_documents.clear();
    m_pieces.clear();
    m_thumbnails.clear();
}

void TimelineDelegate::Heights::store(quint64 key, const CachedHeight &height)
{
    if (m_rows.empty())
        m_first = key;
    if (key < m_first) {
        m_rows.insert(m_rows.begin(), m_first - key, CachedHeight{});
        m_first = key;
    }
    if (key - m_first >= m_rows.size())
        m_rows.resize(key - m_first + 1);
    CachedHeight &entry = m_rows[key - m_first];
    m_estimates += int(height.estimated) - int(entry.width > 0 && entry.estimated);
    entry = height;
}

void TimelineDelegate::Heights::setMeasured(CachedHeight *height)
{
    if (height->estimated) {
        height->estimated = false;
        --m_estimates;
    }
}

void TimelineDelegate::Heights::dropEstimates()
{
    for (CachedHeight &height : m_rows) {
        if (height.estimated)
            height = CachedHeight{};
    }
    m_estimates = 0;
}

void TimelineDelegate::Heights::clear()
{
    m_rows.clear();
    m_first = 0;
    m_estimates = 0;
}

bool TimelineDelegate::isEstimated(const QModelIndex &index) const
{
    const CachedHeight *height = m_heights.find(timelineIndex(index).internalId());
    return height && height->estimated;
}

bool TimelineDelegate::measure(const QModelIndex &index) const
{
    const QModelIndex row = timelineIndex(index);
    int before = -1;
    if (CachedHeight *height = m_heights.find(row.internalId())) {
        before = height->height;
        // No longer an estimate: layout() must not ask the view for a relayout, the caller
        // does one for all the rows it measures.
        m_heights.setMeasured(height);
    }
    const int height = layout(index)->height;
    // layout() stores the height, unless the layout came from its cache.
    m_heights.store(row.internalId(),
                    CachedHeight{row.data(TimelineModel::RevisionRole).toInt(), viewWidth(), height, false});
    return height != before;
}

void TimelineDelegate::dropEstimates()
{
    m_heights.dropEstimates();
}

int TimelineDelegate::estimatedHeight(const QModelIndex &index, int width) const
{
    // Close enough that the scroll bar does not jump when the row is measured, and cheap: no
    // Markdown, no text shaping; lines from the average character width.
    const QFontMetricsF fm(m_view->font());
    const qreal lh = fm.height();
    const qreal charWidth = std::max<qreal>(1, fm.averageCharWidth());
    const qreal column = std::min<qreal>(width - 32, std::max(560.0, charWidth * 112)) - 2 * CardPadding;
    const qreal perLine = std::max<qreal>(20, column / charWidth);
    qreal y = RowGap + lh + BlockGap + 2 * CardPadding + RowGap;
    for (const Part &part : index.data(TimelineModel::PartsRole).value<QList<Part>>()) {
        switch (part.type()) {
        case PartType::Text: {
            const QString text = part.text();
            qsizetype lines = 0;
            for (const QStringView line : QStringTokenizer(text, u'\n'))
                lines += 1 + qsizetype(line.size() / perLine);
            y += lines * lh * 1.15 + BlockGap;
            break;
        }
        case PartType::Reasoning:
            y += lh + 2 + BlockGap;
            break;
        case PartType::Tool:
            y += lh + 12 + BlockGap;
            break;
        case PartType::File:
            y += ThumbnailHeight + BlockGap;
            break;
        case PartType::Patch:
        case PartType::Retry:
        case PartType::Agent:
        case PartType::Subtask:
        case PartType::Unknown:
            y += lh + BlockGap;
            break;
        case PartType::Compaction:
        case PartType::StepStart:
        case PartType::StepFinish:
        case PartType::Snapshot:
            break;
        }
    }
    return int(std::ceil(y));
}

void TimelineDelegate::setExpanded(const QModelIndex &index, const QString &partID, bool expanded)
{
    if (expanded)
        m_expanded.insert(partID);
    else
        m_expanded.remove(partID);
    invalidate(index);
    Q_EMIT sizeHintChanged(index);
    m_view->viewport()->update();
}

int TimelineDelegate::viewWidth() const
{
    return std::max(200, m_view->viewport()->width());
}

std::shared_ptr<QTextDocument> TimelineDelegate::cachedDocument(CachedDocument *&slot, QStringView text, bool markdown,
                                                                const QFont &font, qreal width) const
{
    // Compared, not turned into a key string: a reply being written asks for hundreds of
    // pieces at every delta.
    const QRgb base = m_view->palette().color(QPalette::Base).rgba();
    if (slot && slot->text == text && slot->markdown == markdown && slot->base == base && slot->font == font) {
        if (!qFuzzyCompare(slot->width, width)) {
            slot->doc->setTextWidth(width);
            slot->width = width;
        }
        return slot->doc;
    }
    auto doc = std::make_shared<QTextDocument>();
    const QString copy = text.toString();
    if (markdown) {
        Markdown::render(doc.get(), copy, font, m_view->palette());
    } else {
        doc->setDefaultFont(font);
        doc->setDocumentMargin(0);
        doc->setPlainText(copy);
    }
    doc->setTextWidth(width);
    slot = new CachedDocument{copy, markdown, font, base, width, doc};
    return doc;
}

std::shared_ptr<QTextDocument> TimelineDelegate::document(const QString &key, QStringView text, bool markdown,
                                                          const QFont &font, qreal width) const
{
    CachedDocument *cached = m_documents.object(key);
    CachedDocument *const before = cached;
    std::shared_ptr<QTextDocument> doc = cachedDocument(cached, text, markdown, font, width);
    if (cached != before)
        m_documents.insert(key, cached, 1);
    return doc;
}

std::shared_ptr<QTextDocument> TimelineDelegate::pieceDocument(const QString &partID, qsizetype piece, QStringView text,
                                                               const QFont &font, qreal width) const
{
    std::vector<std::unique_ptr<CachedDocument>> &pieces = m_pieces[partID];
    if (qsizetype(pieces.size()) <= piece)
        pieces.resize(size_t(piece) + 1);
    CachedDocument *cached = pieces[size_t(piece)].get();
    std::shared_ptr<QTextDocument> doc = cachedDocument(cached, text, true, font, width);
    if (cached != pieces[size_t(piece)].get())
        pieces[size_t(piece)].reset(cached);
    return doc;
}

/// What the layout functions of one row share: the fonts, the column and the running y.
struct TimelineDelegate::LayoutState
{
    LayoutState(Layout &layout, const QFont &viewFont)
        : l(layout)
        , font(viewFont)
        , fm(viewFont)
        , sfm(Style::smallFont(viewFont))
        , ffm(fixedFont(viewFont))
        , lh(fm.height())
    {
    }

    /// Appends @p b and moves y past @p height (what of the block is still below y) and the gap.
    void append(const Block &b, qreal height)
    {
        y += height + BlockGap;
        l.blocks.append(b);
    }

    /// A one-line notice in the small font.
    void addLine(const QString &partID, const QString &text, Block::Tone tone)
    {
        Block b;
        b.kind = Block::Kind::Line;
        b.partID = partID;
        b.text = text;
        b.tone = tone;
        b.rect = QRectF(innerX, y, innerW, sfm.height() + 2);
        append(b, b.rect.height());
    }

    Layout &l;
    const QFont font;
    const QFontMetricsF fm;
    const QFontMetricsF sfm;
    const QFontMetricsF ffm;
    const qreal lh;
    qreal columnX = 0;
    qreal columnWidth = 0;
    qreal innerX = 0;
    qreal innerW = 0;
    qreal y = 0;
    QString root; // the project folder, for tool subjects
    // A user message with attachments: the synthetic text of their reading is not shown (the
    // file is, as a chip).
    bool hideSynthetic = false;
};

std::shared_ptr<const TimelineDelegate::Layout> TimelineDelegate::layout(const QModelIndex &index) const
{
    const QString id = index.data(TimelineModel::IdRole).toString();
    const int revision = index.data(TimelineModel::RevisionRole).toInt();
    const int width = viewWidth();
    // The fast path of every relayout: nothing but the ID, the revision and the width.
    if (CachedLayout *cached = m_layouts.object(id)) {
        if (cached->revision == revision && cached->width == width)
            return cached->layout;
    }
    auto l = std::make_shared<Layout>();
    LayoutState s(*l, m_view->font());
    layoutColumn(index, width, s);
    if (!layoutCompactionMarker(index, s)) {
        layoutHeader(index, s);
        const auto parts = index.data(TimelineModel::PartsRole).value<QList<Part>>();
        s.hideSynthetic = l->user && std::any_of(parts.cbegin(), parts.cend(), [](const Part &p) {
            return p.type() == PartType::File;
        });
        for (const Part &part : parts)
            layoutPart(part, s);
        layoutChanges(index, s);
        layoutError(index, id, s);
        layoutWorking(s);
        layoutEnd(s);
    }
    auto entry = new CachedLayout{revision, width, l};
    m_layouts.insert(id, entry, 1);
    const quint64 key = timelineIndex(index).internalId();
    const CachedHeight *previous = m_heights.find(key);
    // Laid out for painting before the view measured it (the view lays out the rows it shows
    // first, so this is rare): the view must place the rows again.
    const bool misplaced = previous && previous->estimated && previous->height != l->height;
    m_heights.store(key, CachedHeight{revision, width, l->height, false});
    if (misplaced)
        Q_EMIT const_cast<TimelineDelegate *>(this)->sizeHintChanged(index);
    return l;
}

void TimelineDelegate::layoutColumn(const QModelIndex &index, int width, LayoutState &s) const
{
    Layout &l = s.l;
    const bool isUser = index.data(TimelineModel::AuthorRole).value<Message::Role>() == Message::Role::User;
    const bool isSummary = index.data(TimelineModel::IsSummaryRole).toBool();
    bool continuation = false;
    if (!isUser && !isSummary && index.row() > 0) {
        const QModelIndex prev = index.siblingAtRow(index.row() - 1);
        continuation = prev.data(TimelineModel::AuthorRole).value<Message::Role>() == Message::Role::Assistant
            && !prev.data(TimelineModel::IsSummaryRole).toBool()
            && prev.data(TimelineModel::AgentRole).toString() == index.data(TimelineModel::AgentRole).toString()
            && prev.data(TimelineModel::InContextRole).toBool() == index.data(TimelineModel::InContextRole).toBool();
    }
    const qreal maxColumn = std::max(560.0, s.fm.averageCharWidth() * 112);
    s.columnWidth = std::min<qreal>(width - 32, maxColumn);
    s.columnX = std::max<qreal>(16, (width - s.columnWidth) / 2);
    s.innerX = s.columnX + CardPadding;
    s.innerW = s.columnWidth - 2 * CardPadding;

    l.width = width;
    l.user = isUser;
    l.summary = isSummary;
    l.card = isUser || isSummary;
    l.continuation = continuation;
    l.inContext = index.data(TimelineModel::InContextRole).toBool();
    l.running = index.data(TimelineModel::RunningRole).toBool();
    l.column = QRectF(s.columnX, continuation ? 0 : RowGap, s.columnWidth, 0);
}

bool TimelineDelegate::layoutCompactionMarker(const QModelIndex &index, LayoutState &s) const
{
    Layout &l = s.l;
    const auto compaction = index.data(TimelineModel::CompactionRole).value<TimelineModel::CompactionKind>();
    if (compaction != TimelineModel::CompactionKind::None) {
        // The point where the context starts again: a divider above the request (or alone when
        // the request has no text of its own).
        l.markerTitle = compaction == TimelineModel::CompactionKind::Auto ? tr("Conversation compacted automatically")
                                                                          : tr("Conversation compacted");
        l.markerText = tr("Earlier messages are summarised below and no longer sent to the model");
        l.markerRect = QRectF(s.columnX, RowGap * 2, s.columnWidth, s.lh + s.sfm.height() + 4);
        if (index.data(TimelineModel::TextRole).toString().trimmed().isEmpty()) {
            l.marker = true;
            l.column = l.markerRect;
            l.height = int(std::ceil(l.markerRect.bottom() + RowGap * 2));
            return true;
        }
        l.column.moveTop(l.markerRect.bottom() + RowGap * 2);
    }
    return false;
}

void TimelineDelegate::layoutHeader(const QModelIndex &index, LayoutState &s) const
{
    Layout &l = s.l;
    s.y = l.column.top() + (l.card ? CardPadding : 0);
    if (!l.continuation) {
        if (l.user) {
            l.author = tr("You");
            l.meta = timeText(index.data(TimelineModel::CreatedRole).toLongLong());
        } else {
            const QString agent = index.data(TimelineModel::AgentRole).toString();
            l.author = l.summary ? tr("Summary") : capitalized(agent.isEmpty() ? tr("assistant") : agent);
            QStringList meta;
            const QString model = index.data(TimelineModel::ModelRole).toString().section(u'/', 1);
            if (!model.isEmpty())
                meta.append(model);
            meta.append(timeText(index.data(TimelineModel::CreatedRole).toLongLong()));
            meta.removeAll(QString());
            l.meta = meta.join(u"  ·  "_s);
        }
        l.header = QRectF(s.innerX, s.y, s.innerW, s.lh);
        s.y += s.lh + BlockGap;
    }
    if (!l.user) {
        const auto tokens = index.data(TimelineModel::TokensRole).value<Tokens>();
        if (tokens.total() > 0)
            l.tokens = tr("%1 tokens").arg(Style::compactNumber(tokens.total()));
    }
    if (!l.inContext)
        l.tag = tr("Not in context");
    else if (l.summary)
        l.tag = tr("Compaction summary");
    s.root = index.data(TimelineModel::MessageRole).value<Message>().json().object(u"path").string(u"root");
}

void TimelineDelegate::layoutPart(const Part &part, LayoutState &s) const
{
    switch (part.type()) {
    case PartType::Text:
        layoutText(part, s);
        break;
    case PartType::Reasoning:
        layoutReasoning(part, s);
        break;
    case PartType::Tool:
        layoutTool(part, s);
        break;
    case PartType::File:
        layoutFile(part, s);
        break;
    case PartType::Patch:
    case PartType::Retry:
    case PartType::Agent:
    case PartType::Subtask:
    case PartType::Unknown:
        layoutNotice(part, s);
        break;
    case PartType::Compaction: // the divider above the message says it
    case PartType::StepStart:
    case PartType::StepFinish:
    case PartType::Snapshot:
        break;
    }
}

void TimelineDelegate::layoutText(const Part &part, LayoutState &s) const
{
    if (part.isIgnored() || part.text().trimmed().isEmpty() || (s.hideSynthetic && part.isSynthetic()))
        return;
    const QString text = part.text();
    // A reply being written is laid out a piece at a time (one document each, cached), so that
    // a delta renders only the last piece, not everything written so far. Once written it keeps
    // its pieces: rendering it again as one document stalled the window at the moment a long
    // reply ended (500 ms for 230 KB). A text laid out anew (another session, a new font) is
    // one document.
    const bool inPieces = s.l.running || m_pieces.contains(part.id());
    const QList<qsizetype> starts = inPieces ? Markdown::pieceStarts(text) : QList<qsizetype>();
    if (starts.isEmpty())
        m_pieces.erase(part.id()); // one piece: one document
    const qreal gap = starts.isEmpty() ? 0 : paragraphGap(s.font);
    qsizetype from = 0;
    int codeBlocks = 0;
    for (qsizetype i = 0; i <= starts.size(); ++i) {
        const qsizetype to = i < starts.size() ? starts.at(i) : text.size();
        Block b;
        b.kind = Block::Kind::Text;
        b.partID = part.id();
        b.doc = starts.isEmpty()
            ? document(part.id(), text, true, s.font, s.innerW)
            : pieceDocument(part.id(), i, QStringView(text).mid(from, to - from), s.font, s.innerW);
        b.codeBase = codeBlocks;
        if (!starts.isEmpty())
            codeBlocks += Markdown::codeBlockCount(b.doc.get());
        from = to;
        if (i > 0)
            s.y += gap - BlockGap; // as far apart as the paragraphs of one document
        b.docPos = QPointF(s.innerX, s.y);
        b.rect = QRectF(s.innerX, s.y, s.innerW, b.doc->size().height());
        s.append(b, b.rect.height());
    }
}

qreal TimelineDelegate::paragraphGap(const QFont &font) const
{
    const QString key = font.key();
    if (const auto it = m_paragraphGaps.constFind(key); it != m_paragraphGaps.cend())
        return *it;
    // (Once a font: rendering two small documents.)
    QTextDocument one;
    Markdown::render(&one, u"a"_s, font, m_view->palette());
    QTextDocument two;
    Markdown::render(&two, u"a\n\nb"_s, font, m_view->palette());
    const qreal gap = std::max<qreal>(0, two.size().height() - 2 * one.size().height());
    m_paragraphGaps.insert(key, gap);
    return gap;
}

void TimelineDelegate::layoutReasoning(const Part &part, LayoutState &s) const
{
    if (part.text().trimmed().isEmpty())
        return;
    Block b;
    b.kind = Block::Kind::Reasoning;
    b.partID = part.id();
    b.expanded = m_expanded.contains(part.id());
    const qint64 ms = part.timeField(u"end") - part.timeField(u"start");
    b.title = ms > 0 ? tr("Thought for %1").arg(durationText(ms)) : tr("Thinking");
    b.toggle = QRectF(s.innerX, s.y, std::min(s.innerW, s.fm.horizontalAdvance(b.title) + 28), s.lh + 2);
    s.y += b.toggle.height();
    if (b.expanded) {
        QFont italic = s.font;
        italic.setItalic(true);
        b.doc = document(u"r:"_s + part.id(), part.text(), true, italic, s.innerW - 14);
        b.docPos = QPointF(s.innerX + 14, s.y + 4);
        s.y += b.doc->size().height() + 4;
    }
    b.rect = QRectF(s.innerX, b.toggle.top(), s.innerW, s.y - b.toggle.top());
    s.append(b, 0);
}

void TimelineDelegate::layoutTool(const Part &part, LayoutState &s) const
{
    const ToolState state = part.state();
    Block b;
    b.kind = Block::Kind::Tool;
    b.partID = part.id();
    b.status = state.status();
    b.expanded = m_expanded.contains(part.id());
    b.title = ToolNames::displayName(part.tool());
    b.tool = part.tool();
    b.subject = toolSubject(part, s.root);
    if (state.isCompacted())
        b.note = tr("cleared from context");
    const qreal headerH = s.lh + 12;
    const QRectF card(s.innerX, s.y, s.innerW, headerH);
    b.toggle = card;
    b.asking = s.l.running && !part.callID().isEmpty() && m_awaiting.contains(part.callID())
        && (b.status == ToolStatus::Running || b.status == ToolStatus::Pending);
    const QString badge = b.asking ? tr("Needs approval") : badgeText(b.status, s.l.running);
    const bool spinner = s.l.running && b.status == ToolStatus::Running && !b.asking;
    const qreal badgeW = s.sfm.horizontalAdvance(badge) + 18 + (spinner ? 16 : 0);
    const qreal badgeH = s.sfm.height() + 4;
    b.badge = QRectF(card.right() - 8 - badgeW, card.top() + (headerH - badgeH) / 2, badgeW, badgeH);
    qreal cy = s.y + headerH;
    if (b.status == ToolStatus::Error && !b.expanded) {
        b.errorLine = state.errorText().section(u'\n', 0, 0).trimmed();
        if (!b.errorLine.isEmpty())
            cy += s.sfm.height() + 6;
    }
    if (b.expanded)
        cy = layoutToolDetails(state, b, cy, s);
    b.rect = QRectF(s.innerX, s.y, s.innerW, cy - s.y);
    s.y = cy;
    s.append(b, 0);
}

qreal TimelineDelegate::layoutToolDetails(const ToolState &state, Block &b, qreal cy, LayoutState &s) const
{
    cy += 4;
    // A shell call's input is its command line, shown as one; other inputs as their JSON.
    QString input;
    if (const QString command = ToolNames::command(b.tool, state.input()); !command.isEmpty())
        input = u"$ "_s + command;
    else if (!state.input().isEmpty())
        input = QString::fromUtf8(toJson(state.input(), 2));
    else
        input = state.raw();
    b.inputLines = firstLines(input, InputLines, &b.inputMore);
    const qreal lineH = s.ffm.height();
    if (!b.inputLines.isEmpty()) {
        b.inputRect = QRectF(s.innerX + 12, cy, s.innerW - 24,
                             s.sfm.height() + 2 + lineH * (b.inputLines.size() + (b.inputMore ? 1 : 0)));
        cy += b.inputRect.height() + 8;
    }
    QString output;
    if (state.isCompacted()) {
        b.outputCaption = tr("Output — cleared from context");
        output = state.output();
    } else if (b.status == ToolStatus::Error) {
        b.outputCaption = tr("Error");
        output = state.errorText();
        b.outputIsError = true;
    } else if (b.status == ToolStatus::Completed) {
        b.outputCaption = tr("Output");
        output = state.output();
    }
    if (!b.outputCaption.isEmpty()) {
        b.outputLines = firstLines(output, OutputLines, &b.outputMore);
        if (b.outputLines.isEmpty())
            b.outputLines.append(tr("(no output)"));
        b.outputRect = QRectF(s.innerX + 12, cy, s.innerW - 24,
                              s.sfm.height() + 2 + lineH * (b.outputLines.size() + (b.outputMore ? 1 : 0)));
        cy += b.outputRect.height() + 8;
    }
    return cy;
}

void TimelineDelegate::layoutNotice(const Part &part, LayoutState &s) const
{
    switch (part.type()) {
    case PartType::Patch: {
        const QStringList files = part.files();
        if (files.isEmpty())
            break;
        QStringList names;
        for (const QString &f : files)
            names.append(f.section(u'/', -1));
        s.addLine(part.id(),
                  Style::plural(tr("Changed %n file(s): %1", nullptr, int(files.size())).arg(names.join(u", "_s)),
                                files.size()),
                  Block::Tone::Dim);
        break;
    }
    case PartType::Retry: {
        const QString message = part.retryError().message();
        s.addLine(part.id(),
                  tr("Retried after an error (attempt %1): %2")
                      .arg(part.attempt())
                      .arg(message.isEmpty() ? part.retryError().name() : message),
                  Block::Tone::Neutral);
        break;
    }
    case PartType::Agent:
        s.addLine(part.id(), tr("Agent: @%1").arg(part.name()), Block::Tone::Dim);
        break;
    case PartType::Subtask:
        s.addLine(part.id(), tr("Subtask for @%1: %2").arg(part.agent(), part.description()), Block::Tone::Dim);
        break;
    case PartType::Unknown:
        s.addLine(part.id(), tr("A part of type “%1” (from a newer OpenCode)").arg(part.typeName()), Block::Tone::Dim);
        break;
    default:
        break;
    }
}

void TimelineDelegate::layoutFile(const Part &part, LayoutState &s) const
{
    Block b;
    b.kind = Block::Kind::File;
    b.partID = part.id();
    const QString mime = part.mime();
    QString name = part.filename();
    if (name.isEmpty())
        name = part.url().startsWith(u"data:") ? tr("pasted data") : QUrl(part.url()).fileName();
    b.text = name;
    if (mime == u"application/x-directory") {
        b.icon = u"folder"_s;
        b.subject = tr("Folder");
    } else if (mime.startsWith(u"image/")) {
        b.icon = u"image-x-generic"_s;
        b.subject = tr("Image (%1)").arg(mime.mid(6).toUpper());
    } else if (mime == u"application/pdf") {
        b.icon = u"application-pdf"_s;
        b.subject = tr("PDF");
    } else {
        b.icon = u"text-x-generic"_s;
        b.subject = mime == u"text/plain" ? tr("Text file") : mime;
    }
    const qreal lineH = s.lh + 8;
    b.rect = QRectF(s.innerX, s.y, std::min(s.innerW, s.fm.horizontalAdvance(name) + s.sfm.horizontalAdvance(b.subject) + 60),
                    lineH);
    // An image shows a thumbnail under its name, in a box of fixed height: the layout needs no
    // decoding; the picture is decoded once, when the row is first painted.
    if (mime.startsWith(u"image/") && part.url().startsWith(u"data:")) {
        const qreal side = std::min<qreal>(ThumbnailHeight, s.innerW);
        b.thumbnail = QRectF(s.innerX, s.y + lineH + 4, std::min(s.innerW, side * 2), side);
        b.url = part.url();
        b.rect.setWidth(std::max(b.rect.width(), b.thumbnail.width()));
        b.rect.setBottom(b.thumbnail.bottom());
    }
    s.append(b, b.rect.height());
}

QImage TimelineDelegate::thumbnail(const QString &partID, const QString &url, const QSize &box) const
{
    if (QImage *cached = m_thumbnails.object(partID))
        return *cached;
    QImage image;
    const qsizetype comma = url.indexOf(u',');
    if (comma > 0) {
        QByteArray bytes = QByteArray::fromBase64(QStringView(url).mid(comma + 1).toLatin1());
        QBuffer buffer(&bytes);
        QImageReader reader(&buffer);
        const QSize full = reader.size();
        const QSize device = box * m_view->devicePixelRatioF();
        if (full.isValid() && (full.width() > device.width() || full.height() > device.height()))
            reader.setScaledSize(full.scaled(device, Qt::KeepAspectRatio));
        image = reader.read();
        image.setDevicePixelRatio(m_view->devicePixelRatioF());
    }
    // A picture that cannot be decoded is remembered too, as null: it is not tried again.
    m_thumbnails.insert(partID, new QImage(image), 1);
    return image;
}

void TimelineDelegate::layoutChanges(const QModelIndex &index, LayoutState &s) const
{
    const int changedFiles = index.data(TimelineModel::ChangedFilesRole).toInt();
    if (changedFiles > 0)
        s.addLine(u"#changes"_s,
                  Style::plural(tr("%n file(s) changed in this turn", nullptr, changedFiles), changedFiles),
                  Block::Tone::Active);
}

void TimelineDelegate::layoutError(const QModelIndex &index, const QString &messageID, LayoutState &s) const
{
    const auto error = index.data(TimelineModel::ErrorRole).value<MessageError>();
    if (error.isNull())
        return;
    Block b;
    b.kind = Block::Kind::Error;
    b.tone = error.kind() == MessageError::Kind::Aborted ? Block::Tone::Neutral : Block::Tone::Negative;
    const QString title = error.kind() == MessageError::Kind::Aborted ? tr("Interrupted") : error.name();
    const QString message = error.message();
    b.text = message.isEmpty() ? title : title + u": "_s + message;
    b.doc = document(u"e:"_s + messageID, b.text, false, s.font, s.innerW - 20);
    b.docPos = QPointF(s.innerX + 10, s.y + 7);
    b.rect = QRectF(s.innerX, s.y, s.innerW, b.doc->size().height() + 14);
    s.append(b, b.rect.height());
}

void TimelineDelegate::layoutWorking(LayoutState &s) const
{
    if (!s.l.running)
        return;
    Block b;
    b.kind = Block::Kind::Working;
    b.text = tr("Working…");
    b.rect = QRectF(s.innerX, s.y, s.innerW, s.lh);
    s.append(b, s.lh);
}

void TimelineDelegate::layoutEnd(LayoutState &s) const
{
    Layout &l = s.l;
    qreal y = s.y - BlockGap;
    if (l.card) {
        y += CardPadding;
        l.cardRect = QRectF(s.columnX, l.column.top(), s.columnWidth, y - l.column.top());
    }
    l.column.setHeight(y - l.column.top());
    l.height = int(std::ceil(y + RowGap));
}

QSize TimelineDelegate::sizeHint(const QStyleOptionViewItem &, const QModelIndex &index) const
{
    // Asked for every row at every relayout: a key, a revision and one lookup.
    const QModelIndex row = timelineIndex(index);
    const quint64 key = row.internalId();
    const int revision = row.data(TimelineModel::RevisionRole).toInt();
    const int width = viewWidth();
    if (const CachedHeight *cached = m_heights.find(key); cached && cached->width == width) {
        if (cached->revision == revision)
            return QSize(width, cached->height);
        // A measured row changed (a reply streams, a tool finished): it is probably on screen.
        if (!cached->estimated)
            return QSize(width, layout(index)->height);
    }
    const int height = estimatedHeight(index, width);
    m_heights.store(key, CachedHeight{revision, width, height, true});
    return QSize(width, height);
}

void TimelineDelegate::paintBadge(QPainter *p, const QRectF &rect, ToolStatus status, bool live, bool asking,
                                  const QPalette &palette) const
{
    const QFont font = Style::smallFont(m_view->font());
    if (asking) {
        Style::drawPill(p, rect, tr("Needs approval"), Style::neutral(palette), font);
        return;
    }
    const QColor color = statusColor(status, live, palette);
    const QString text = badgeText(status, live);
    if (live && status == ToolStatus::Running) {
        Style::drawPill(p, rect, QString(), color, font);
        Style::drawSpinner(p, QPointF(rect.left() + 13, rect.center().y()), 4, m_spinnerPhase, color);
        p->save();
        p->setFont(font);
        p->setPen(color);
        p->drawText(rect.adjusted(22, 0, -8, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
        p->restore();
    } else {
        Style::drawPill(p, rect, text, color, font);
    }
}

/// What painting any block needs besides the block: the painter, the row's colours and fonts.
struct TimelineDelegate::PaintState
{
    PaintState(QPainter *painter, const QPalette &rowPalette, bool running, std::pair<int, int> selectedRange,
               const QRectF &exposedRect, const QFont &viewFont)
        : p(painter)
        , palette(rowPalette)
        , live(running)
        , selected(selectedRange)
        , exposed(exposedRect)
        , font(viewFont)
        , small(Style::smallFont(viewFont))
        , fm(viewFont)
        , text(rowPalette.color(QPalette::Text))
        , dim(Style::dimText(rowPalette))
    {
    }

    QPainter *p;
    const QPalette &palette;
    bool live; // the message runs
    std::pair<int, int> selected; // the selected characters of the block's document
    QRectF exposed; // what of the row is in view
    QFont font;
    QFont small;
    QFontMetricsF fm;
    QColor text;
    QColor dim;
};

void TimelineDelegate::paintBlock(QPainter *p, const Block &b, const QPalette &palette, bool live,
                                  std::pair<int, int> selected, const QRectF &exposed) const
{
    const PaintState s(p, palette, live, selected, exposed, m_view->font());
    switch (b.kind) {
    case Block::Kind::Text:
        paintText(b, s);
        break;
    case Block::Kind::Reasoning:
        paintReasoning(b, s);
        break;
    case Block::Kind::Tool:
        paintTool(b, s);
        break;
    case Block::Kind::File:
        paintFile(b, s);
        break;
    case Block::Kind::Line:
        paintLine(b, s);
        break;
    case Block::Kind::Error:
        paintError(b, s);
        break;
    case Block::Kind::Working:
        paintWorking(b, s);
        break;
    }
}

void TimelineDelegate::paintDocument(const Block &b, const QColor &color, bool findCurrent, const PaintState &s) const
{
    QAbstractTextDocumentLayout::PaintContext ctx;
    ctx.palette = s.palette;
    ctx.palette.setColor(QPalette::Text, color);
    ctx.clip = s.exposed.translated(-b.docPos); // the document draws only the lines in view
    addFindSelections(ctx, b.doc.get(), s.palette, findCurrent);
    addTextSelection(ctx, b.doc.get(), s.selected, s.palette);
    s.p->save();
    s.p->translate(b.docPos);
    b.doc->documentLayout()->draw(s.p, ctx);
    s.p->restore();
}

void TimelineDelegate::paintText(const Block &b, const PaintState &s) const
{
    QPainter *p = s.p;
    Markdown::paintCodeBackgrounds(p, b.doc.get(), b.docPos, s.palette);
    paintDocument(b, s.text, b.partID == m_findPart, s);
    if (m_hoveredCode.first == b.partID || m_copiedCode.first == b.partID) {
        for (const Markdown::CodeBlock &code : Markdown::codeBlocks(b.doc.get())) {
            const bool copied = m_copiedCode == std::pair(b.partID, b.codeBase + code.group);
            if (copied || m_hoveredCode == std::pair(b.partID, b.codeBase + code.group))
                paintCopyButton(p, copyButtonRect(b, code.rect), copied, s.palette);
        }
    }
}

void TimelineDelegate::paintReasoning(const Block &b, const PaintState &s) const
{
    QPainter *p = s.p;
    drawChevron(p, QPointF(b.toggle.left() + 5, b.toggle.center().y()), b.expanded, s.dim);
    QFont italic = s.font;
    italic.setItalic(true);
    p->setFont(italic);
    p->setPen(s.dim);
    p->drawText(b.toggle.adjusted(16, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, b.title);
    if (b.expanded && b.doc) {
        p->save();
        QColor bar = s.dim;
        bar.setAlphaF(0.5f);
        p->fillRect(QRectF(b.rect.left() + 4, b.docPos.y(), 2, b.doc->size().height()), bar);
        paintDocument(b, s.dim, b.partID == m_findPart, s);
        p->restore();
    }
}

void TimelineDelegate::paintTool(const Block &b, const PaintState &s) const
{
    QPainter *p = s.p;
    const QPalette &palette = s.palette;
    p->save();
    p->setRenderHint(QPainter::Antialiasing);
    const QColor base = palette.color(QPalette::Base);
    QColor border = Style::mix(base, s.text, 0.16);
    if (b.status == ToolStatus::Error)
        border = Style::mix(base, Style::negative(palette), 0.45);
    p->setPen(QPen(border, 1));
    p->setBrush(Style::mix(base, s.text, 0.035));
    p->drawRoundedRect(b.rect.adjusted(0.5, 0.5, -0.5, -0.5), 5, 5);
    p->restore();

    const QRectF header(b.rect.left(), b.rect.top(), b.rect.width(), b.toggle.height());
    drawChevron(p, QPointF(header.left() + 12, header.center().y()), b.expanded, s.dim);
    QFont bold = s.font;
    bold.setWeight(QFont::DemiBold);
    p->setFont(bold);
    p->setPen(s.text);
    const qreal nameW = QFontMetricsF(bold).horizontalAdvance(b.title);
    const QRectF nameRect(header.left() + 24, header.top(), nameW + 2, header.height());
    p->drawText(nameRect, Qt::AlignVCenter | Qt::AlignLeft, b.title);

    qreal right = b.badge.left() - 8;
    if (!b.note.isEmpty()) {
        QFont noteFont = s.small;
        noteFont.setItalic(true);
        const qreal w = QFontMetricsF(noteFont).horizontalAdvance(b.note);
        p->setFont(noteFont);
        p->setPen(Style::neutral(palette));
        p->drawText(QRectF(right - w, header.top(), w, header.height()), Qt::AlignVCenter | Qt::AlignRight, b.note);
        right -= w + 10;
    }
    if (!b.subject.isEmpty()) {
        p->setFont(s.font);
        p->setPen(s.dim);
        const QRectF subjectRect(nameRect.right() + 8, header.top(), std::max(0.0, right - nameRect.right() - 8),
                                 header.height());
        p->drawText(subjectRect, Qt::AlignVCenter | Qt::AlignLeft,
                    s.fm.elidedText(b.subject, Qt::ElideMiddle, subjectRect.width()));
    }
    paintBadge(p, b.badge, b.status, s.live, b.asking, palette);

    if (!b.errorLine.isEmpty()) {
        p->setFont(s.small);
        p->setPen(Style::negative(palette));
        const QRectF r(header.left() + 24, header.bottom() - 2, header.width() - 36, QFontMetricsF(s.small).height());
        p->drawText(r, Qt::AlignVCenter | Qt::AlignLeft,
                    QFontMetricsF(s.small).elidedText(b.errorLine, Qt::ElideRight, r.width()));
    }
    if (b.expanded)
        paintToolDetails(b, header, s);
}

void TimelineDelegate::paintToolDetails(const Block &b, const QRectF &header, const PaintState &s) const
{
    QPainter *p = s.p;
    const QPalette &palette = s.palette;
    p->save();
    QColor sep = Style::mix(palette.color(QPalette::Base), s.text, 0.12);
    p->setPen(sep);
    p->drawLine(QPointF(b.rect.left() + 1, header.bottom()), QPointF(b.rect.right() - 1, header.bottom()));
    const QFont fixed = fixedFont(s.font);
    const QFontMetricsF ffm(fixed);
    const QFontMetricsF sfm(s.small);
    const auto drawLines = [&](const QRectF &r, const QString &caption, const QStringList &lines, int more,
                               const QColor &color) {
        p->setFont(s.small);
        p->setPen(s.dim);
        p->drawText(QRectF(r.left(), r.top(), r.width(), sfm.height()), Qt::AlignLeft | Qt::AlignVCenter, caption);
        p->setFont(fixed);
        p->setPen(color);
        qreal ly = r.top() + sfm.height() + 2;
        for (const QString &line : lines) {
            p->drawText(QRectF(r.left(), ly, r.width(), ffm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                        ffm.elidedText(line, Qt::ElideRight, r.width()));
            ly += ffm.height();
        }
        if (more > 0) {
            p->setFont(s.small);
            p->setPen(s.dim);
            p->drawText(QRectF(r.left(), ly, r.width(), ffm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                        Style::plural(tr("… %n more line(s)", nullptr, more), more));
        }
    };
    if (!b.inputLines.isEmpty())
        drawLines(b.inputRect, tr("Input"), b.inputLines, b.inputMore, s.text);
    if (!b.outputCaption.isEmpty()) {
        const bool cleared = b.outputCaption != tr("Output") && !b.outputIsError;
        drawLines(b.outputRect, b.outputCaption, b.outputLines, b.outputMore,
                  b.outputIsError ? Style::negative(palette)
                      : cleared   ? s.dim
                                  : s.text);
    }
    p->restore();
}

void TimelineDelegate::paintFile(const Block &b, const PaintState &s) const
{
    QPainter *p = s.p;
    const QFontMetricsF &fm = s.fm;
    p->save();
    p->setRenderHint(QPainter::Antialiasing);
    const QColor base = s.palette.color(QPalette::Base);
    const QRectF chip(b.rect.left(), b.rect.top(), b.rect.width(), fm.height() + 8);
    p->setPen(QPen(Style::mix(base, s.text, 0.16), 1));
    p->setBrush(Style::mix(base, s.text, 0.035));
    p->drawRoundedRect(chip.adjusted(0.5, 0.5, -0.5, -0.5), 5, 5);
    const qreal side = fm.height() - 2;
    const QRectF iconRect(chip.left() + 8, chip.center().y() - side / 2, side, side);
    Style::icon(b.icon).paint(p, iconRect.toRect());
    p->setFont(s.font);
    p->setPen(s.text);
    const qreal nameX = iconRect.right() + 6;
    const QFontMetricsF sfm(s.small);
    const qreal subjectW = sfm.horizontalAdvance(b.subject);
    const QString name
        = fm.elidedText(b.text, Qt::ElideMiddle, std::max<qreal>(20, chip.right() - nameX - subjectW - 18));
    p->drawText(QRectF(nameX, chip.top(), chip.right() - nameX, chip.height()), Qt::AlignVCenter | Qt::AlignLeft, name);
    p->setFont(s.small);
    p->setPen(s.dim);
    p->drawText(QRectF(nameX + fm.horizontalAdvance(name) + 10, chip.top(), subjectW + 2, chip.height()),
                Qt::AlignVCenter | Qt::AlignLeft, b.subject);
    if (!b.thumbnail.isEmpty()) {
        const QImage image = thumbnail(b.partID, b.url, b.thumbnail.size().toSize());
        if (image.isNull()) {
            p->setPen(s.dim);
            p->drawText(b.thumbnail, Qt::AlignLeft | Qt::AlignVCenter, tr("(the image cannot be shown)"));
        } else {
            // Small pictures keep their size; larger ones fit the box.
            const QSizeF natural = QSizeF(image.size()) / image.devicePixelRatio();
            const QSizeF shown = natural.width() > b.thumbnail.width() || natural.height() > b.thumbnail.height()
                ? natural.scaled(b.thumbnail.size(), Qt::KeepAspectRatio)
                : natural;
            const QRectF target(b.thumbnail.topLeft(), shown);
            QPainterPath clip;
            clip.addRoundedRect(target, 4, 4);
            p->setClipPath(clip);
            p->drawImage(target, image);
            p->setClipping(false);
            p->setPen(QPen(Style::mix(base, s.text, 0.16), 1));
            p->setBrush(Qt::NoBrush);
            p->drawRoundedRect(target.adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
        }
    }
    p->restore();
}

void TimelineDelegate::paintLine(const Block &b, const PaintState &s) const
{
    QColor color = s.dim;
    if (b.tone == Block::Tone::Neutral)
        color = Style::neutral(s.palette);
    else if (b.tone == Block::Tone::Negative)
        color = Style::negative(s.palette);
    else if (b.tone == Block::Tone::Active)
        color = Style::active(s.palette);
    s.p->setFont(s.small);
    s.p->setPen(color);
    s.p->drawText(b.rect, Qt::AlignVCenter | Qt::AlignLeft,
                  QFontMetricsF(s.small).elidedText(b.text, Qt::ElideRight, b.rect.width()));
}

void TimelineDelegate::paintError(const Block &b, const PaintState &s) const
{
    QPainter *p = s.p;
    const QColor color = b.tone == Block::Tone::Neutral ? Style::neutral(s.palette) : Style::negative(s.palette);
    p->save();
    p->setRenderHint(QPainter::Antialiasing);
    QColor bg = color;
    bg.setAlphaF(0.10f);
    QColor border = color;
    border.setAlphaF(0.5f);
    p->setPen(QPen(border, 1));
    p->setBrush(bg);
    p->drawRoundedRect(b.rect.adjusted(0.5, 0.5, -0.5, -0.5), 5, 5);
    paintDocument(b, color, false, s);
    p->restore();
}

void TimelineDelegate::paintWorking(const Block &b, const PaintState &s) const
{
    Style::drawSpinner(s.p, QPointF(b.rect.left() + 6, b.rect.center().y()), 5, m_spinnerPhase, Style::active(s.palette));
    s.p->setFont(s.font);
    s.p->setPen(s.dim);
    s.p->drawText(b.rect.adjusted(18, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, b.text);
}

void TimelineDelegate::paint(QPainter *p, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const auto l = layout(index);
    const QPalette &palette = option.palette;
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    const QColor dim = Style::dimText(palette);
    const QFont font = m_view->font();
    const QFont small = Style::smallFont(font);

    p->save();
    p->translate(option.rect.topLeft());
    p->setClipRect(QRect(QPoint(0, 0), option.rect.size()));

    const bool selected = option.state & QStyle::State_Selected;
    if (selected) {
        p->save();
        p->setRenderHint(QPainter::Antialiasing);
        QColor hl = palette.color(QPalette::Highlight);
        hl.setAlphaF(l->card ? 0.9f : 0.10f);
        if (l->card) {
            p->setPen(QPen(hl, 2));
            p->setBrush(Qt::NoBrush);
            p->drawRoundedRect(l->cardRect.adjusted(-1, -1, 1, 1), Radius + 1, Radius + 1);
        } else {
            p->setPen(Qt::NoPen);
            p->setBrush(hl);
            p->drawRoundedRect(l->column.adjusted(0, -3, 0, 3), Radius, Radius);
        }
        p->restore();
    }

    if (!l->inContext)
        p->setOpacity(0.5);

    if (!l->markerRect.isNull()) {
        const QRectF c = l->markerRect;
        QFont bold = font;
        bold.setWeight(QFont::DemiBold);
        const QFontMetricsF bfm(bold);
        const QColor accent = Style::active(palette);
        const qreal titleW = bfm.horizontalAdvance(l->markerTitle) + 24;
        const qreal midY = c.top() + bfm.height() / 2;
        QColor line = accent;
        line.setAlphaF(0.45f);
        p->setPen(QPen(line, 1));
        p->drawLine(QPointF(c.left(), midY), QPointF(c.center().x() - titleW / 2, midY));
        p->drawLine(QPointF(c.center().x() + titleW / 2, midY), QPointF(c.right(), midY));
        p->setFont(bold);
        p->setPen(accent);
        p->drawText(QRectF(c.left(), c.top(), c.width(), bfm.height()), Qt::AlignCenter, l->markerTitle);
        p->setFont(small);
        p->setPen(dim);
        p->drawText(QRectF(c.left(), c.top() + bfm.height() + 2, c.width(), QFontMetricsF(small).height()),
                    Qt::AlignCenter, l->markerText);
        if (l->marker) {
            p->restore();
            return;
        }
    }

    if (l->card) {
        p->save();
        p->setRenderHint(QPainter::Antialiasing);
        const QColor tint = l->summary ? Style::active(palette) : palette.color(QPalette::Highlight);
        p->setPen(QPen(Style::mix(base, tint, l->summary ? 0.45 : 0.28), 1));
        p->setBrush(Style::mix(base, tint, l->summary ? 0.06 : 0.075));
        p->drawRoundedRect(l->cardRect.adjusted(0.5, 0.5, -0.5, -0.5), Radius, Radius);
        p->restore();
    }

    if (!l->header.isNull()) {
        QFont bold = font;
        bold.setWeight(QFont::DemiBold);
        const QFontMetricsF bfm(bold);
        const QFontMetricsF sfm(small);
        p->setFont(bold);
        p->setPen(l->summary ? Style::active(palette) : text);
        const qreal authorW = bfm.horizontalAdvance(l->author);
        p->drawText(QRectF(l->header.left(), l->header.top(), authorW + 1, l->header.height()),
                    Qt::AlignVCenter | Qt::AlignLeft, l->author);
        qreal right = l->header.right();
        if (!l->tag.isEmpty()) {
            const qreal w = sfm.horizontalAdvance(l->tag) + 16;
            const QRectF pill(right - w, l->header.center().y() - (sfm.height() + 2) / 2, w, sfm.height() + 2);
            Style::drawPill(p, pill, l->tag, l->inContext ? Style::active(palette) : Style::neutral(palette), small);
            right -= w + 8;
        }
        if (!l->tokens.isEmpty()) {
            const qreal w = sfm.horizontalAdvance(l->tokens);
            p->setFont(small);
            p->setPen(dim);
            p->drawText(QRectF(right - w, l->header.top(), w, l->header.height()), Qt::AlignVCenter | Qt::AlignRight,
                        l->tokens);
            right -= w + 10;
        }
        p->setFont(small);
        p->setPen(dim);
        const QRectF metaRect(l->header.left() + authorW + 10, l->header.top(),
                              std::max(0.0, right - l->header.left() - authorW - 10), l->header.height());
        p->drawText(metaRect, Qt::AlignVCenter | Qt::AlignLeft,
                    sfm.elidedText(l->meta, Qt::ElideRight, metaRect.width()));
    }

    // What of the row is in the viewport: a long reply is taller than the window, and only its
    // visible blocks (and lines of text) are drawn.
    const QRectF exposed = QRectF(m_view->viewport()->rect()).translated(-QPointF(option.rect.topLeft()));
    // The text blocks are numbered as TextPoint counts them.
    int ordinal = 0;
    for (const Block &b : l->blocks) {
        std::pair<int, int> selected;
        if (b.doc)
            selected = selectedRange(index.row(), ordinal++, b.doc->characterCount() - 1);
        if (b.rect.intersects(exposed))
            paintBlock(p, b, palette, l->running, selected, exposed);
    }
    if (!m_findPart.isEmpty()) {
        // The part of the current find match.
        for (const Block &b : l->blocks) {
            if (b.partID != m_findPart)
                continue;
            p->save();
            p->setRenderHint(QPainter::Antialiasing);
            p->setPen(QPen(Style::active(palette), 1.5));
            p->setBrush(Qt::NoBrush);
            p->drawRoundedRect(b.rect.adjusted(-4, -3, 4, 3), 5, 5);
            p->restore();
        }
    }
    p->restore();
}

TimelineDelegate::Hit TimelineDelegate::hitTest(const QModelIndex &index, const QPoint &pos) const
{
    Hit hit;
    if (!index.isValid())
        return hit;
    const auto l = layout(index);
    for (const Block &b : l->blocks) {
        if (!b.toggle.isNull() && b.toggle.contains(pos)) {
            hit.kind = Hit::Kind::Toggle;
            hit.partID = b.partID;
            return hit;
        }
        if (b.doc && QRectF(b.docPos, b.doc->size()).contains(pos)) {
            hit.partID = b.partID;
            if (b.kind == Block::Kind::Text) {
                for (const Markdown::CodeBlock &code : Markdown::codeBlocks(b.doc.get())) {
                    if (!code.rect.translated(b.docPos).contains(pos))
                        continue;
                    hit.codeGroup = b.codeBase + code.group;
                    if (copyButtonRect(b, code.rect).contains(pos)) {
                        hit.kind = Hit::Kind::CopyCode;
                        return hit;
                    }
                }
            }
            const QString anchor = b.doc->documentLayout()->anchorAt(QPointF(pos) - b.docPos);
            hit.kind = anchor.isEmpty() ? Hit::Kind::Text : Hit::Kind::Link;
            hit.link = anchor;
            return hit;
        }
        if (b.rect.contains(pos)) {
            hit.kind = b.kind == Block::Kind::Tool ? Hit::Kind::Tool
                : b.kind == Block::Kind::Line && b.partID == u"#changes" ? Hit::Kind::Changes
                                                                         : Hit::Kind::Body;
            hit.partID = b.partID;
            return hit;
        }
    }
    if (l->header.contains(pos))
        hit.kind = Hit::Kind::Header;
    else if (l->column.adjusted(0, -RowGap, 0, RowGap).contains(pos))
        hit.kind = Hit::Kind::Body;
    return hit;
}

bool TimelineDelegate::activate(const QModelIndex &index, const QPoint &pos)
{
    const Hit hit = hitTest(index, pos);
    switch (hit.kind) {
    case Hit::Kind::Toggle:
        setExpanded(index, hit.partID, !isExpanded(hit.partID));
        return true;
    case Hit::Kind::Link:
        Q_EMIT linkActivated(hit.link);
        return true;
    case Hit::Kind::Changes:
        Q_EMIT changesActivated(index);
        return true;
    case Hit::Kind::CopyCode: {
        const QString code = codeBlockText(index, hit.partID, hit.codeGroup);
        QApplication::clipboard()->setText(code);
        m_copiedCode = {hit.partID, hit.codeGroup};
        m_copiedTimer.start();
        m_view->viewport()->update();
        Q_EMIT codeCopied(code);
        return true;
    }
    default:
        return false;
    }
}

QString TimelineDelegate::toolToolTip(const Part &part, bool live) const
{
    const ToolState state = part.state();
    QStringList lines;
    lines.append(u"<b>%1</b> — %2"_s.arg(ToolNames::displayName(part.tool()).toHtmlEscaped(), badgeText(state.status(), live)));
    const qint64 ms = state.ended() - state.started();
    if (ms > 0)
        lines.append(tr("Took %1").arg(durationText(ms)));
    if (state.isCompacted())
        lines.append(
            tr("Output cleared from context on %1")
                .arg(QLocale().toString(QDateTime::fromMSecsSinceEpoch(state.compacted()), QLocale::ShortFormat)));
    if (state.status() == ToolStatus::Error)
        lines.append(state.errorText().left(300).toHtmlEscaped());
    lines.append(tr("Click to show or hide the input and output"));
    return lines.join(u"<br>"_s);
}

QString TimelineDelegate::accessibleText(const QModelIndex &index) const
{
    const bool user = index.data(TimelineModel::AuthorRole).value<Message::Role>() == Message::Role::User;
    QStringList head;
    if (user) {
        head.append(tr("You"));
    } else {
        const QString agent = index.data(TimelineModel::AgentRole).toString();
        head.append(index.data(TimelineModel::IsSummaryRole).toBool()
                        ? tr("Summary")
                        : capitalized(agent.isEmpty() ? tr("assistant") : agent));
        const QString model = index.data(TimelineModel::ModelRole).toString().section(u'/', 1);
        if (!model.isEmpty())
            head.append(model);
    }
    head.append(timeText(index.data(TimelineModel::CreatedRole).toLongLong()));
    if (!index.data(TimelineModel::InContextRole).toBool())
        head.append(tr("Not in context"));
    QStringList body;
    const QString text = index.data(TimelineModel::TextRole).toString();
    if (!text.isEmpty())
        body.append(text);
    const bool live = index.data(TimelineModel::RunningRole).toBool();
    for (const Part &p : index.data(TimelineModel::PartsRole).value<QList<Part>>()) {
        if (p.type() == PartType::Compaction) {
            body.append(tr("Asked to compact the conversation"));
            continue;
        }
        if (p.type() == PartType::File) {
            body.append(tr("Attached %1").arg(p.filename().isEmpty() ? p.mime() : p.filename()));
            continue;
        }
        if (p.type() == PartType::Subtask) {
            body.append(tr("Subtask for @%1: %2").arg(p.agent(), p.description()));
            continue;
        }
        if (p.type() != PartType::Tool)
            continue;
        // What the call is about, as its card shows it: the command, the file, the subagent's task.
        const QString title = toolSubject(p, QString());
        const QString tool = ToolNames::displayName(p.tool());
        body.append(title.isEmpty() ? tr("Tool %1: %2").arg(tool, badgeText(p.state().status(), live))
                                    : tr("Tool %1 (%2): %3").arg(tool, title, badgeText(p.state().status(), live)));
    }
    const auto error = index.data(TimelineModel::ErrorRole).value<MessageError>();
    if (!error.isNull())
        body.append(tr("Error: %1").arg(error.message()));
    if (live)
        body.append(tr("Still being written"));
    return head.join(u", "_s) + u": "_s + body.join(u'\n');
}

QString TimelineDelegate::messageToolTip(const QModelIndex &index) const
{
    const bool isUser = index.data(TimelineModel::AuthorRole).value<Message::Role>() == Message::Role::User;
    QStringList lines;
    const QDateTime created = QDateTime::fromMSecsSinceEpoch(index.data(TimelineModel::CreatedRole).toLongLong());
    lines.append(QLocale().toString(created, QLocale::LongFormat).toHtmlEscaped());
    if (!index.data(TimelineModel::InContextRole).toBool())
        lines.append(
            tr("Not in context: this message is before the last compaction and is no longer sent to the model."));
    if (isUser) {
        const QString model = index.data(TimelineModel::ModelRole).toString();
        if (!model.isEmpty())
            lines.append(tr("Model: %1").arg(model.toHtmlEscaped()));
        return lines.join(u"<br>"_s);
    }
    const QString model = index.data(TimelineModel::ModelRole).toString();
    if (!model.isEmpty())
        lines.append(tr("Model: %1").arg(model.toHtmlEscaped()));
    const qint64 completed = index.data(TimelineModel::CompletedRole).toLongLong();
    if (completed > 0)
        lines.append(tr("Took %1").arg(durationText(completed - created.toMSecsSinceEpoch())));
    const auto tokens = index.data(TimelineModel::TokensRole).value<Tokens>();
    const QLocale locale;
    lines.append(tr("Cost: %1").arg(Style::formatCost(index.data(TimelineModel::CostRole).toDouble())));
    lines.append(tr("Tokens: %1 in, %2 out, %3 reasoning, %4 cache read, %5 cache write")
                     .arg(locale.toString(tokens.input), locale.toString(tokens.output),
                          locale.toString(tokens.reasoning), locale.toString(tokens.cacheRead),
                          locale.toString(tokens.cacheWrite)));
    int step = 0;
    QStringList steps;
    for (const Part &p : index.data(TimelineModel::PartsRole).value<QList<Part>>()) {
        if (p.type() != PartType::StepFinish)
            continue;
        ++step;
        const Tokens t = p.tokens();
        steps.append(tr("Step %1: %2, %3 in, %4 out")
                         .arg(step)
                         .arg(Style::formatCost(p.cost()), Style::compactNumber(t.input + t.cacheRead + t.cacheWrite),
                              Style::compactNumber(t.output + t.reasoning)));
    }
    lines.append(steps);
    const QString finish = index.data(TimelineModel::FinishRole).toString();
    if (!finish.isEmpty())
        lines.append(tr("Finished: %1").arg(finish.toHtmlEscaped()));
    return lines.join(u"<br>"_s);
}

bool TimelineDelegate::helpEvent(QHelpEvent *event, QAbstractItemView *view, const QStyleOptionViewItem &option,
                                 const QModelIndex &index)
{
    if (event->type() != QEvent::ToolTip || !index.isValid())
        return false;
    const QPoint pos = event->pos() - option.rect.topLeft();
    const Hit hit = hitTest(index, pos);
    QString tip;
    if (hit.kind == Hit::Kind::Tool || (hit.kind == Hit::Kind::Toggle && !hit.partID.isEmpty())) {
        for (const Part &p : index.data(TimelineModel::PartsRole).value<QList<Part>>()) {
            if (p.id() == hit.partID && p.type() == PartType::Tool)
                tip = toolToolTip(p, index.data(TimelineModel::RunningRole).toBool());
        }
        if (tip.isEmpty() && hit.kind == Hit::Kind::Toggle)
            tip = tr("Click to show or hide the reasoning");
    } else if (hit.kind == Hit::Kind::Link) {
        tip = hit.link.toHtmlEscaped();
    } else if (hit.kind != Hit::Kind::None) {
        tip = messageToolTip(index);
    }
    if (tip.isEmpty()) {
        QToolTip::hideText();
        return false;
    }
    QToolTip::showText(event->globalPos(), tip, view->viewport(), option.rect);
    return true;
}

} // namespace weft

namespace weft
{

void TimelineDelegate::setFindHighlight(const QString &text, const QString &currentPartID)
{
    if (text == m_find && currentPartID == m_findPart)
        return;
    m_find = text;
    m_findPart = currentPartID;
    m_view->viewport()->update();
}

void TimelineDelegate::addFindSelections(QAbstractTextDocumentLayout::PaintContext &ctx, const QTextDocument *doc,
                                         const QPalette &palette, bool current) const
{
    if (m_find.isEmpty() || !doc)
        return;
    QTextCharFormat format;
    QColor background = current ? Style::active(palette) : QColor(0xf6, 0xc9, 0x4b);
    background.setAlphaF(current ? 0.45f : 0.55f);
    format.setBackground(background);
    // A document of a few pages has few matches; the bound keeps a pathological one cheap.
    QTextCursor cursor(const_cast<QTextDocument *>(doc));
    for (int n = 0; n < 500; ++n) {
        cursor = doc->find(m_find, cursor);
        if (cursor.isNull())
            break;
        ctx.selections.append({cursor, format});
    }
}

QRect TimelineDelegate::partRect(const QModelIndex &index, const QString &partID) const
{
    if (!index.isValid() || partID.isEmpty())
        return {};
    const auto l = layout(index);
    QRectF rect; // a reply being written has a block a piece
    for (const Block &b : l->blocks) {
        if (b.partID == partID)
            rect = rect.isNull() ? b.rect : rect.united(b.rect);
    }
    return rect.toAlignedRect();
}

} // namespace weft
