// SPDX-License-Identifier: GPL-3.0-or-later
#include "diffview.h"

#include "markdownrenderer.h"
#include "style.h"

#include <KSyntaxHighlighting/AbstractHighlighter>
#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Format>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/State>
#include <KSyntaxHighlighting/Theme>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <QPointer>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QStackedWidget>
#include <QTextLayout>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>
#include <functional>
#include <vector>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
/// Characters of one line that are drawn at most (a minified file has lines of megabytes).
constexpr qsizetype MaxDrawnLine = 5000;
constexpr int TabWidth = 4;
constexpr int TextPadding = 6;
/// Lines highlighted at once while painting; more than this is done in slices between events.
constexpr int SyncHighlightLines = 600;
constexpr int HighlightSliceMs = 12;

QString settingsKey()
{
    return u"DiffView/mode"_s;
}

/// A label that elides its text in the middle (a path: the file name stays visible).
class ElidedLabel : public QLabel
{
public:
    using QLabel::QLabel;
    void setFullText(const QString &text)
    {
        m_full = text;
        setToolTip(text);
        updateGeometry();
        elide();
    }
    QSize minimumSizeHint() const override { return QSize(40, QLabel::minimumSizeHint().height()); }
    QSize sizeHint() const override { return QSize(fontMetrics().horizontalAdvance(m_full) + 4, QLabel::sizeHint().height()); }

protected:
    void resizeEvent(QResizeEvent *event) override
    {
        QLabel::resizeEvent(event);
        elide();
    }

private:
    void elide()
    {
        // The file name stays whole while it fits; the folders before it are shortened first.
        const QFontMetrics fm = fontMetrics();
        const int room = width();
        const qsizetype slash = m_full.lastIndexOf(u'/');
        const QString name = m_full.mid(slash + 1);
        QString shown = m_full;
        if (fm.horizontalAdvance(m_full) > room) {
            const QString tail = u'/' + name;
            if (slash > 0 && fm.horizontalAdvance(u"\u2026"_s + tail) <= room) {
                const QString folder = fm.elidedText(m_full.left(slash), Qt::ElideMiddle, room - fm.horizontalAdvance(tail));
                shown = (folder.isEmpty() ? u"\u2026"_s : folder) + tail;
                // elidedText may keep a folder text wider than what is left once the name is added.
                if (fm.horizontalAdvance(shown) > room)
                    shown = u"\u2026"_s + tail;
            } else {
                shown = fm.elidedText(name, Qt::ElideRight, room);
            }
        }
        setText(shown);
    }
    QString m_full;
};
} // namespace

// ---- colours

DiffColors DiffColors::fromPalette(const QPalette &palette)
{
    const bool dark = Style::isDark(palette);
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    const QColor positive = Style::positive(palette);
    const QColor negative = Style::negative(palette);
    DiffColors c;
    c.added = Style::mix(base, positive, dark ? 0.16 : 0.13);
    c.removed = Style::mix(base, negative, dark ? 0.16 : 0.11);
    c.addedWord = Style::mix(base, positive, dark ? 0.38 : 0.32);
    c.removedWord = Style::mix(base, negative, dark ? 0.38 : 0.28);
    c.addedGutter = Style::mix(base, positive, dark ? 0.24 : 0.20);
    c.removedGutter = Style::mix(base, negative, dark ? 0.24 : 0.17);
    c.gutter = Style::mix(base, text, dark ? 0.045 : 0.035);
    c.hunk = Style::mix(base, Style::active(palette), dark ? 0.12 : 0.08);
    c.hunkText = Style::mix(Style::active(palette), text, 0.25);
    c.filler = Style::mix(base, text, dark ? 0.10 : 0.09);
    c.lineNumber = Style::dimText(palette);
    c.addedSign = positive;
    c.removedSign = negative;
    return c;
}

// ---- highlighting

/// Syntax highlighting of both sides of a document, line by line with the state carried over,
/// done as far as the painted rows need and then onwards in short slices between events.
class DiffHighlighting : public KSyntaxHighlighting::AbstractHighlighter
{
public:
    DiffHighlighting(const std::shared_ptr<const DiffDocument> &doc, const QPalette &palette)
        : m_doc(doc)
    {
        setDefinition(syntaxRepository().definitionForFileName(doc->path()));
        setTheme(syntaxTheme(palette));
        m_sides[0].lines = &doc->oldLines();
        m_sides[1].lines = &doc->newLines();
        for (Side &s : m_sides)
            s.formats.resize(size_t(s.lines->size()));
        m_timer.setSingleShot(false);
        m_timer.setInterval(0);
        QObject::connect(&m_timer, &QTimer::timeout, &m_timer, [this] { continueInBackground(); });
    }

    [[nodiscard]] bool isValid() const { return definition().isValid(); }
    [[nodiscard]] QString definitionName() const { return definition().isValid() ? definition().name() : QString(); }
    void setOnProgress(std::function<void()> callback) { m_onProgress = std::move(callback); }

    /// The formats of line @p line of the old (@p side 0) or new side; null while not done yet.
    const QList<QTextLayout::FormatRange> *formats(int side, int line)
    {
        if (!isValid() || line < 0)
            return nullptr;
        Side &s = m_sides[side];
        if (line >= s.lines->size())
            return nullptr;
        if (line < s.done)
            return &s.formats[size_t(line)];
        if (line - s.done < SyncHighlightLines) {
            run(s, line + 1);
            return &s.formats[size_t(line)];
        }
        if (!m_timer.isActive())
            m_timer.start();
        return nullptr;
    }

    [[nodiscard]] int done(int side) const { return m_sides[side].done; }

protected:
    void applyFormat(int offset, int length, const KSyntaxHighlighting::Format &format) override
    {
        if (length <= 0 || format.isDefaultTextStyle(theme()))
            return;
        QTextCharFormat f;
        if (format.hasTextColor(theme()))
            f.setForeground(format.textColor(theme()));
        if (format.isBold(theme()))
            f.setFontWeight(QFont::DemiBold);
        if (format.isItalic(theme()))
            f.setFontItalic(true);
        m_current->append(QTextLayout::FormatRange{offset, length, f});
    }

private:
    struct Side {
        const QStringList *lines = nullptr;
        std::vector<QList<QTextLayout::FormatRange>> formats;
        int done = 0;
        KSyntaxHighlighting::State state;
    };

    void run(Side &s, int until)
    {
        until = std::min<int>(until, int(s.lines->size()));
        while (s.done < until) {
            m_current = &s.formats[size_t(s.done)];
            const QString &line = s.lines->at(s.done);
            s.state = highlightLine(line.size() > MaxDrawnLine ? line.left(MaxDrawnLine) : line, s.state);
            ++s.done;
        }
        m_current = nullptr;
    }

    void continueInBackground()
    {
        QElapsedTimer timer;
        timer.start();
        for (Side &s : m_sides) {
            while (s.done < s.lines->size() && !timer.hasExpired(HighlightSliceMs))
                run(s, s.done + 64);
        }
        if (m_sides[0].done >= m_sides[0].lines->size() && m_sides[1].done >= m_sides[1].lines->size())
            m_timer.stop();
        if (m_onProgress)
            m_onProgress();
    }

    std::shared_ptr<const DiffDocument> m_doc; // keeps the lines alive
    Side m_sides[2];
    QList<QTextLayout::FormatRange> *m_current = nullptr;
    QTimer m_timer;
    std::function<void()> m_onProgress;
};

// ---- DiffTextArea

DiffTextArea::DiffTextArea(Side side, QWidget *parent)
    : QAbstractScrollArea(parent)
    , m_side(side)
{
    setObjectName(side == Side::Unified ? u"diffUnified"_s : side == Side::Old ? u"diffOld"_s : u"diffNew"_s);
    setFrameShape(QFrame::NoFrame);
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setAutoFillBackground(true);
    viewport()->setBackgroundRole(QPalette::Base);
    setAccessibleName(side == Side::Unified ? tr("Diff") : side == Side::Old ? tr("Before") : tr("After"));
    connect(verticalScrollBar(), &QScrollBar::valueChanged, this, [this](int value) {
        viewport()->update();
        Q_EMIT topRowChanged(value);
    });
    connect(horizontalScrollBar(), &QScrollBar::valueChanged, viewport(), qOverload<>(&QWidget::update));
    updateMetrics();
}

void DiffTextArea::setDocument(std::shared_ptr<const DiffDocument> document, std::shared_ptr<DiffHighlighting> highlighting)
{
    m_doc = std::move(document);
    m_highlighting = std::move(highlighting);
    m_currentHunk = -1;
    updateMetrics();
    verticalScrollBar()->setValue(0);
    horizontalScrollBar()->setValue(0);
    viewport()->update();
}

int DiffTextArea::rowCount() const
{
    if (!m_doc)
        return 0;
    return int(m_side == Side::Unified ? m_doc->rows().size() : m_doc->sideRows().size());
}

int DiffTextArea::topRow() const
{
    return verticalScrollBar()->value();
}

void DiffTextArea::setTopRow(int row)
{
    verticalScrollBar()->setValue(row);
}

QRect DiffTextArea::rowRect(int row) const
{
    return QRect(0, (row - topRow()) * m_rowHeight, viewport()->width(), m_rowHeight);
}

int DiffTextArea::documentRow(int row) const
{
    if (!m_doc || row < 0 || row >= rowCount())
        return -1;
    if (m_side == Side::Unified)
        return row;
    const DiffDocument::SideRow &s = m_doc->sideRows().at(row);
    return m_side == Side::Old ? s.left : s.right;
}

void DiffTextArea::setCurrentHunk(int hunk)
{
    if (m_currentHunk == hunk)
        return;
    m_currentHunk = hunk;
    viewport()->update();
}

QString DiffTextArea::lineText(int docRow, bool oldSide) const
{
    const DiffDocument::Row &r = m_doc->rows().at(docRow);
    QString text = oldSide ? m_doc->oldLines().at(r.oldLine) : m_doc->newLines().at(r.newLine);
    if (text.endsWith(u'\r'))
        text.chop(1);
    if (text.size() > MaxDrawnLine)
        text = text.left(MaxDrawnLine) + u" …"_s;
    return text;
}

void DiffTextArea::updateMetrics()
{
    m_font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    if (font().pointSizeF() > 0)
        m_font.setPointSizeF(font().pointSizeF());
    const QFontMetricsF fm(m_font);
    m_charWidth = fm.horizontalAdvance(u'0');
    m_rowHeight = int(std::ceil(fm.height())) + 4;
    int largest = 999;
    if (m_doc) {
        if (!m_doc->oldLines().isEmpty())
            largest = std::max(largest, m_doc->oldNumber(int(m_doc->oldLines().size()) - 1));
        if (!m_doc->newLines().isEmpty())
            largest = std::max(largest, m_doc->newNumber(int(m_doc->newLines().size()) - 1));
    }
    const int digits = int(QString::number(largest).size());
    m_numberWidth = int(std::ceil(digits * m_charWidth)) + 14;
    const int signWidth = int(std::ceil(m_charWidth)) + 8;
    m_textLeft = (m_side == Side::Unified ? 2 * m_numberWidth : m_numberWidth) + signWidth;
    m_maxTextWidth = m_doc ? int(std::ceil(std::min<qsizetype>(m_doc->maxLineLength(TabWidth), MaxDrawnLine + 2) * m_charWidth))
            + 2 * TextPadding
                           : 0;
    updateScrollBars();
}

void DiffTextArea::updateScrollBars()
{
    const int visible = std::max(1, viewport()->height() / std::max(1, m_rowHeight));
    verticalScrollBar()->setRange(0, std::max(0, rowCount() - visible));
    verticalScrollBar()->setPageStep(visible);
    verticalScrollBar()->setSingleStep(1);
    int viewportWidth = viewport()->width();
    if (m_partner)
        viewportWidth = std::min(viewportWidth, m_partner->viewport()->width());
    const int textWidth = std::max(0, viewportWidth - m_textLeft);
    horizontalScrollBar()->setRange(0, std::max(0, m_maxTextWidth - textWidth));
    horizontalScrollBar()->setPageStep(textWidth);
    horizontalScrollBar()->setSingleStep(int(std::ceil(m_charWidth * 4)));
}

void DiffTextArea::resizeEvent(QResizeEvent *event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateScrollBars();
    if (m_partner)
        m_partner->updateScrollBars();
}

void DiffTextArea::changeEvent(QEvent *event)
{
    QAbstractScrollArea::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange
        || event->type() == QEvent::StyleChange) {
        updateMetrics();
        viewport()->update();
    }
}

QRectF DiffTextArea::characterRect(int row, int column) const
{
    const int docRow = documentRow(row);
    if (docRow < 0)
        return {};
    const DiffDocument::Row &r = m_doc->rows().at(docRow);
    if (r.kind == DiffDocument::RowKind::Hunk)
        return {};
    const bool oldSide = r.kind == DiffDocument::RowKind::Removed || (m_side == Side::Old);
    QTextLayout layout(lineText(docRow, oldSide), m_font);
    QTextOption option;
    option.setTabStopDistance(m_charWidth * TabWidth);
    option.setWrapMode(QTextOption::NoWrap);
    layout.setTextOption(option);
    layout.beginLayout();
    QTextLine line = layout.createLine();
    line.setLineWidth(1e6);
    layout.endLayout();
    const qreal x0 = line.cursorToX(column);
    const qreal x1 = line.cursorToX(column + 1);
    const QRect rr = rowRect(row);
    return QRectF(m_textLeft + TextPadding - horizontalScrollBar()->value() + x0, rr.top(), x1 - x0, rr.height());
}

void DiffTextArea::paintEvent(QPaintEvent *event)
{
    QPainter p(viewport());
    p.fillRect(event->rect(), palette().color(QPalette::Base));
    if (!m_doc)
        return;
    const DiffColors colors = DiffColors::fromPalette(palette());
    const int first = topRow() + std::max(0, event->rect().top() / m_rowHeight);
    const int last = std::min(rowCount() - 1, topRow() + event->rect().bottom() / m_rowHeight);
    for (int row = first; row <= last; ++row)
        paintRow(p, row, (row - topRow()) * m_rowHeight, colors);
    // The gutter's edge.
    p.setPen(Style::mix(palette().color(QPalette::Base), palette().color(QPalette::Text), 0.12));
    const int edge = m_textLeft - int(std::ceil(m_charWidth)) - 8;
    p.drawLine(edge, event->rect().top(), edge, event->rect().bottom());
}

void DiffTextArea::paintRow(QPainter &p, int row, int y, const DiffColors &colors)
{
    using RowKind = DiffDocument::RowKind;
    const int width = viewport()->width();
    const QRect rect(0, y, width, m_rowHeight);
    const int signWidth = int(std::ceil(m_charWidth)) + 8;
    const int gutterWidth = m_textLeft - signWidth;
    const int docRow = documentRow(row);

    if (docRow < 0) {
        // Filler: this side has no line where the other side has one.
        p.fillRect(QRect(0, y, gutterWidth, m_rowHeight), colors.gutter);
        QBrush hatch(colors.filler, Qt::BDiagPattern);
        p.save();
        p.setBrushOrigin(0, 0);
        p.fillRect(QRect(gutterWidth, y, width - gutterWidth, m_rowHeight), hatch);
        p.restore();
        return;
    }

    const DiffDocument::Row &r = m_doc->rows().at(docRow);
    if (r.kind == RowKind::Hunk) {
        p.fillRect(rect, colors.hunk);
        if (r.hunk == m_currentHunk)
            p.fillRect(QRect(0, y, 3, m_rowHeight), Style::active(palette()));
        const DiffDocument::Hunk &h = m_doc->hunks().at(r.hunk);
        QString header;
        if (m_side == Side::Unified)
            header = m_doc->hunkHeader(r.hunk);
        else if (m_side == Side::Old)
            header = u"@@ -%1,%2 @@"_s.arg(h.oldStart).arg(h.oldCount);
        else
            header = u"@@ +%1,%2 @@"_s.arg(h.newStart).arg(h.newCount);
        if (m_side != Side::Unified && !h.heading.isEmpty())
            header += u' ' + h.heading;
        p.setFont(m_font);
        p.setPen(colors.hunkText);
        p.drawText(QRect(gutterWidth + TextPadding - 2, y, width - gutterWidth - TextPadding, m_rowHeight),
                   Qt::AlignVCenter | Qt::AlignLeft, header);
        return;
    }

    const bool isAdded = r.kind == RowKind::Added;
    const bool isRemoved = r.kind == RowKind::Removed;
    if (isAdded || isRemoved) {
        p.fillRect(rect, isAdded ? colors.added : colors.removed);
        p.fillRect(QRect(0, y, gutterWidth, m_rowHeight), isAdded ? colors.addedGutter : colors.removedGutter);
    } else {
        p.fillRect(QRect(0, y, gutterWidth, m_rowHeight), colors.gutter);
    }

    // Line numbers.
    p.setFont(m_font);
    p.setPen(colors.lineNumber);
    const auto number = [&](int x, int n) {
        p.drawText(QRect(x, y, m_numberWidth - 8, m_rowHeight), Qt::AlignVCenter | Qt::AlignRight, QString::number(n));
    };
    const bool showOld = r.oldLine >= 0 && (m_side != Side::New);
    const bool showNew = r.newLine >= 0 && (m_side != Side::Old);
    if (m_side == Side::Unified) {
        if (showOld)
            number(0, m_doc->oldNumber(r.oldLine));
        if (showNew)
            number(m_numberWidth, m_doc->newNumber(r.newLine));
    } else if (m_side == Side::Old && showOld) {
        number(0, m_doc->oldNumber(r.oldLine));
    } else if (m_side == Side::New && showNew) {
        number(0, m_doc->newNumber(r.newLine));
    }
    if (isAdded || isRemoved) {
        p.setPen(isAdded ? colors.addedSign : colors.removedSign);
        p.drawText(QRect(gutterWidth, y, signWidth, m_rowHeight), Qt::AlignCenter, isAdded ? u"+"_s : u"\u2212"_s);
    }

    // The text, highlighted, with its changed words marked.
    const bool oldSide = isRemoved || (m_side == Side::Old);
    const QString text = lineText(docRow, oldSide);
    const int lineIndex = oldSide ? r.oldLine : r.newLine;
    QTextLayout layout(text, m_font);
    QTextOption option;
    option.setTabStopDistance(m_charWidth * TabWidth);
    option.setWrapMode(QTextOption::NoWrap);
    layout.setTextOption(option);
    if (m_highlighting) {
        if (const auto *formats = m_highlighting->formats(oldSide ? 0 : 1, lineIndex))
            layout.setFormats(*formats);
    }
    layout.beginLayout();
    QTextLine line = layout.createLine();
    line.setLineWidth(1e6);
    layout.endLayout();

    p.save();
    p.setClipRect(QRect(m_textLeft, y, std::max(0, width - m_textLeft), m_rowHeight));
    const qreal x = m_textLeft + TextPadding - horizontalScrollBar()->value();
    const qreal ty = y + (m_rowHeight - line.height()) / 2.0;
    if (isAdded || isRemoved) {
        const QList<DiffDocument::WordRange> words = m_doc->words(docRow);
        if (!words.isEmpty()) {
            p.setRenderHint(QPainter::Antialiasing);
            p.setPen(Qt::NoPen);
            p.setBrush(isAdded ? colors.addedWord : colors.removedWord);
            for (const DiffDocument::WordRange &w : words) {
                if (w.start >= text.size())
                    continue;
                const qreal x0 = line.cursorToX(w.start);
                const qreal x1 = line.cursorToX(std::min<int>(w.start + w.length, int(text.size())));
                p.drawRoundedRect(QRectF(x + x0 - 1, y + 1, x1 - x0 + 2, m_rowHeight - 2), 2.5, 2.5);
            }
        }
    }
    p.setPen(palette().color(QPalette::Text));
    layout.draw(&p, QPointF(x, ty));
    p.restore();
}

// ---- DiffView

bool DiffView::isLarge(const FileDiff &diff)
{
    return DiffModel::lineCountOf(diff) > LargeFileLines || DiffModel::sizeOf(diff) > LargeFileCharacters;
}

DiffView::DiffView(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(u"diffView"_s);

    // The actions (the pane adds them to itself so that their shortcuts work anywhere in it).
    m_nextHunk = new QAction(Style::icon(u"go-down"_s), tr("&Next Change"), this);
    m_nextHunk->setObjectName(u"nextHunk"_s);
    m_nextHunk->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Down), QKeySequence(Qt::ALT | Qt::Key_Down)});
    m_nextHunk->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_nextHunk->setToolTip(tr("Next change (%1)").arg(m_nextHunk->shortcut().toString(QKeySequence::NativeText)));
    m_previousHunk = new QAction(Style::icon(u"go-up"_s), tr("&Previous Change"), this);
    m_previousHunk->setObjectName(u"previousHunk"_s);
    m_previousHunk->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Up), QKeySequence(Qt::ALT | Qt::Key_Up)});
    m_previousHunk->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_previousHunk->setToolTip(tr("Previous change (%1)").arg(m_previousHunk->shortcut().toString(QKeySequence::NativeText)));
    connect(m_nextHunk, &QAction::triggered, this, [this] {
        if (!nextHunk())
            Q_EMIT hunkNavigationExhausted(true);
    });
    connect(m_previousHunk, &QAction::triggered, this, [this] {
        if (!previousHunk())
            Q_EMIT hunkNavigationExhausted(false);
    });
    addAction(m_nextHunk);
    addAction(m_previousHunk);

    m_unifiedAction = new QAction(Style::icon(u"view-list-text"_s), tr("&Unified"), this);
    m_unifiedAction->setObjectName(u"diffUnifiedMode"_s);
    m_unifiedAction->setCheckable(true);
    m_unifiedAction->setToolTip(tr("Unified: removed and added lines one below the other"));
    m_sideBySideAction = new QAction(Style::icon(u"view-split-left-right"_s), tr("&Side by Side"), this);
    m_sideBySideAction->setObjectName(u"diffSideBySideMode"_s);
    m_sideBySideAction->setCheckable(true);
    m_sideBySideAction->setToolTip(tr("Side by side: the file before on the left, after on the right"));
    auto *modes = new QActionGroup(this);
    modes->addAction(m_unifiedAction);
    modes->addAction(m_sideBySideAction);
    connect(m_unifiedAction, &QAction::triggered, this, [this] { setMode(Mode::Unified); });
    connect(m_sideBySideAction, &QAction::triggered, this, [this] { setMode(Mode::SideBySide); });

    // Header: path, counts, hunk position and navigation, layout.
    auto *header = new QWidget(this);
    header->setObjectName(u"diffHeader"_s);
    header->setAutoFillBackground(true);
    header->setBackgroundRole(QPalette::Window);
    auto *hl = new QHBoxLayout(header);
    hl->setContentsMargins(8, 3, 4, 3);
    hl->setSpacing(6);
    auto *path = new ElidedLabel(header);
    m_path = path;
    m_path->setObjectName(u"diffPath"_s);
    QFont bold = m_path->font();
    bold.setWeight(QFont::DemiBold);
    m_path->setFont(bold);
    m_path->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_stats = new QLabel(header);
    m_stats->setObjectName(u"diffStats"_s);
    m_hunkLabel = new QLabel(header);
    m_hunkLabel->setObjectName(u"diffHunkPosition"_s);
    QPalette dim = m_hunkLabel->palette();
    dim.setColor(QPalette::WindowText, Style::dimText(palette()));
    m_hunkLabel->setPalette(dim);
    const auto toolButton = [header](QAction *action) {
        auto *b = new QToolButton(header);
        b->setDefaultAction(action);
        b->setAutoRaise(true);
        b->setIconSize(QSize(16, 16));
        return b;
    };
    m_previousButton = toolButton(m_previousHunk);
    m_nextButton = toolButton(m_nextHunk);
    m_unifiedButton = toolButton(m_unifiedAction);
    m_sideBySideButton = toolButton(m_sideBySideAction);
    auto *separator = new QFrame(header);
    separator->setFrameShape(QFrame::VLine);
    separator->setFrameShadow(QFrame::Sunken);
    separator->setFixedHeight(16);
    hl->addWidget(m_path, 1);
    hl->addWidget(m_stats);
    hl->addSpacing(4);
    hl->addWidget(m_hunkLabel);
    hl->addWidget(m_previousButton);
    hl->addWidget(m_nextButton);
    hl->addWidget(separator);
    hl->addWidget(m_unifiedButton);
    hl->addWidget(m_sideBySideButton);

    auto *line = new QFrame(this);
    line->setFrameShape(QFrame::HLine);
    line->setFrameShadow(QFrame::Plain);
    QPalette lp = line->palette();
    lp.setColor(QPalette::WindowText, Style::mix(palette().color(QPalette::Window), palette().color(QPalette::WindowText), 0.2));
    line->setPalette(lp);

    m_unified = new DiffTextArea(DiffTextArea::Side::Unified, this);
    m_sideBySide = new QWidget(this);
    m_left = new DiffTextArea(DiffTextArea::Side::Old, m_sideBySide);
    m_right = new DiffTextArea(DiffTextArea::Side::New, m_sideBySide);
    m_left->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_left->setScrollPartner(m_right);
    m_right->setScrollPartner(m_left);
    auto *sl = new QHBoxLayout(m_sideBySide);
    sl->setContentsMargins(0, 0, 0, 0);
    sl->setSpacing(0);
    auto *middle = new QFrame(m_sideBySide);
    middle->setFrameShape(QFrame::VLine);
    middle->setFrameShadow(QFrame::Plain);
    middle->setPalette(lp);
    sl->addWidget(m_left, 1);
    sl->addWidget(middle);
    sl->addWidget(m_right, 1);

    m_notice = new QWidget(this);
    m_notice->setObjectName(u"diffNotice"_s);
    auto *nl = new QVBoxLayout(m_notice);
    nl->setContentsMargins(24, 24, 24, 24);
    nl->addStretch(1);
    m_noticeTitle = new QLabel(m_notice);
    m_noticeTitle->setObjectName(u"diffNoticeTitle"_s);
    m_noticeTitle->setAlignment(Qt::AlignCenter);
    m_noticeTitle->setWordWrap(true);
    QFont titleFont = m_noticeTitle->font();
    titleFont.setWeight(QFont::DemiBold);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.1);
    m_noticeTitle->setFont(titleFont);
    m_noticeText = new QLabel(m_notice);
    m_noticeText->setObjectName(u"diffNoticeText"_s);
    m_noticeText->setAlignment(Qt::AlignCenter);
    m_noticeText->setWordWrap(true);
    m_noticeText->setPalette(dim);
    m_showAnyway = new QPushButton(tr("Show Anyway"), m_notice);
    m_showAnyway->setObjectName(u"diffShowAnyway"_s);
    connect(m_showAnyway, &QPushButton::clicked, this, &DiffView::showAnywayRequested);
    nl->addWidget(m_noticeTitle);
    nl->addWidget(m_noticeText);
    nl->addSpacing(6);
    nl->addWidget(m_showAnyway, 0, Qt::AlignHCenter);
    nl->addStretch(2);

    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_unified);
    m_stack->addWidget(m_sideBySide);
    m_stack->addWidget(m_notice);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(header);
    layout->addWidget(line);
    layout->addWidget(m_stack, 1);

    syncScrolling();
    connect(m_unified, &DiffTextArea::topRowChanged, this, &DiffView::updateHunkFromScroll);
    connect(m_right, &DiffTextArea::topRowChanged, this, &DiffView::updateHunkFromScroll);

    m_mode = savedMode();
    (m_mode == Mode::Unified ? m_unifiedAction : m_sideBySideAction)->setChecked(true);
    showMessage(tr("Select a file to see its changes."));
}

DiffView::~DiffView() = default;

void DiffView::syncScrolling()
{
    // Both sides scroll together, vertically and horizontally.
    const auto link = [](QScrollBar *a, QScrollBar *b) {
        connect(a, &QScrollBar::valueChanged, b, [b](int v) {
            if (b->value() != v)
                b->setValue(v);
        });
        connect(a, &QScrollBar::rangeChanged, b, [a, b](int, int) {
            if (b->value() != a->value())
                b->setValue(a->value());
        });
    };
    link(m_left->verticalScrollBar(), m_right->verticalScrollBar());
    link(m_right->verticalScrollBar(), m_left->verticalScrollBar());
    link(m_left->horizontalScrollBar(), m_right->horizontalScrollBar());
    link(m_right->horizontalScrollBar(), m_left->horizontalScrollBar());
}

DiffView::Mode DiffView::savedMode()
{
    return QSettings().value(settingsKey()).toString() == u"sideBySide" ? Mode::SideBySide : Mode::Unified;
}

DiffTextArea *DiffView::activeArea() const
{
    return m_mode == Mode::Unified ? m_unified : m_right;
}

void DiffView::setMode(Mode mode)
{
    QSettings().setValue(settingsKey(), mode == Mode::SideBySide ? u"sideBySide"_s : u"unified"_s);
    (mode == Mode::Unified ? m_unifiedAction : m_sideBySideAction)->setChecked(true);
    if (mode == m_mode)
        return;
    // Keep the same line at the top.
    int docRow = -1;
    if (m_doc)
        docRow = m_mode == Mode::Unified ? m_unified->topRow() : m_doc->rowOfSide(m_right->topRow());
    m_mode = mode;
    if (m_doc && m_stack->currentWidget() != m_notice) {
        m_stack->setCurrentWidget(mode == Mode::Unified ? m_unified : m_sideBySide);
        if (docRow >= 0) {
            if (mode == Mode::Unified)
                m_unified->setTopRow(docRow);
            else
                m_right->setTopRow(m_doc->sideRowOf(docRow));
        }
    }
    Q_EMIT modeChanged(mode);
}

void DiffView::setDocument(std::shared_ptr<const DiffDocument> document)
{
    m_computing = false;
    m_doc = std::move(document);
    m_currentHunk = -1;
    m_highlighting.reset();
    if (m_doc) {
        m_highlighting = std::make_shared<DiffHighlighting>(m_doc, palette());
        if (!m_highlighting->isValid())
            m_highlighting.reset();
        else {
            QPointer<DiffView> self(this);
            m_highlighting->setOnProgress([self] {
                if (self) {
                    self->m_unified->viewport()->update();
                    self->m_left->viewport()->update();
                    self->m_right->viewport()->update();
                }
            });
        }
    }
    m_unified->setDocument(m_doc, m_highlighting);
    m_left->setDocument(m_doc, m_highlighting);
    m_right->setDocument(m_doc, m_highlighting);
    if (!m_doc) {
        showMessage(tr("Select a file to see its changes."));
        return;
    }
    if (m_doc->isEmpty()) {
        updateHeader();
        m_noticeTitle->setText(m_doc->isAdded() ? tr("Empty file added") : tr("No text changes to show"));
        m_noticeText->setText(m_doc->isAdded() ? QString()
                                               : tr("The file is binary, or too large for its contents to be recorded."));
        m_noticeText->setVisible(!m_noticeText->text().isEmpty());
        m_showAnyway->hide();
        m_stack->setCurrentWidget(m_notice);
        return;
    }
    m_stack->setCurrentWidget(m_mode == Mode::Unified ? m_unified : m_sideBySide);
    if (hunkCount() > 0) {
        m_currentHunk = 0;
        m_unified->setCurrentHunk(0);
        m_left->setCurrentHunk(0);
        m_right->setCurrentHunk(0);
    }
    updateHeader();
}

void DiffView::showLargeFileNotice(const QString &path, qint64 lines)
{
    setDocument(nullptr);
    m_path->setVisible(true);
    static_cast<ElidedLabel *>(m_path)->setFullText(path);
    m_stats->clear();
    m_hunkLabel->clear();
    m_noticeTitle->setText(tr("Large file — show anyway?"));
    m_noticeText->setText(tr("This diff has %1 lines. Showing it may take a moment.").arg(QLocale().toString(lines)));
    m_noticeText->show();
    m_showAnyway->show();
    m_stack->setCurrentWidget(m_notice);
}

void DiffView::showComputing(const QString &path)
{
    setDocument(nullptr);
    m_computing = true;
    showMessage(tr("Computing the changes…"));
    m_path->setVisible(true);
    static_cast<ElidedLabel *>(m_path)->setFullText(path);
}

bool DiffView::isShowingLargeFileNotice() const
{
    return m_stack->currentWidget() == m_notice && m_showAnyway->isVisible();
}

void DiffView::showMessage(const QString &text)
{
    m_noticeTitle->setText(text);
    m_noticeText->clear();
    m_noticeText->hide();
    m_showAnyway->hide();
    m_stack->setCurrentWidget(m_notice);
    if (!m_doc) {
        static_cast<ElidedLabel *>(m_path)->setFullText(QString());
        m_stats->clear();
        m_hunkLabel->clear();
        m_nextHunk->setEnabled(false);
        m_previousHunk->setEnabled(false);
    }
}

QString DiffView::definitionName() const
{
    return m_highlighting ? m_highlighting->definitionName() : QString();
}

int DiffView::hunkCount() const
{
    return m_doc ? int(m_doc->hunks().size()) : 0;
}

int DiffView::hunkRow(int hunk) const
{
    const DiffDocument::Hunk &h = m_doc->hunks().at(hunk);
    return m_mode == Mode::Unified ? h.row : h.sideRow;
}

void DiffView::goToHunk(int hunk)
{
    const int count = hunkCount();
    if (count == 0)
        return;
    if (hunk < 0)
        hunk = count - 1;
    hunk = std::min(hunk, count - 1);
    m_navigating = true;
    activeArea()->setTopRow(hunkRow(hunk));
    m_navigating = false;
    m_currentHunk = hunk;
    m_unified->setCurrentHunk(hunk);
    m_left->setCurrentHunk(hunk);
    m_right->setCurrentHunk(hunk);
    updateHeader();
    Q_EMIT currentHunkChanged(hunk);
}

bool DiffView::nextHunk()
{
    if (m_currentHunk + 1 >= hunkCount())
        return false;
    goToHunk(m_currentHunk + 1);
    return true;
}

bool DiffView::previousHunk()
{
    if (m_currentHunk <= 0 || hunkCount() == 0)
        return false;
    goToHunk(m_currentHunk - 1);
    return true;
}

void DiffView::updateHunkFromScroll()
{
    if (m_navigating || !m_doc || hunkCount() == 0)
        return;
    // The current hunk follows the scrolling: the last one whose header is at or above the top.
    const DiffTextArea *area = activeArea();
    const int top = area->topRow();
    int hunk = 0;
    for (int i = 0; i < hunkCount(); ++i) {
        if (hunkRow(i) <= top)
            hunk = i;
        else
            break;
    }
    if (hunk == m_currentHunk)
        return;
    m_currentHunk = hunk;
    m_unified->setCurrentHunk(hunk);
    m_left->setCurrentHunk(hunk);
    m_right->setCurrentHunk(hunk);
    updateHeader();
    Q_EMIT currentHunkChanged(hunk);
}

void DiffView::updateHeader()
{
    if (!m_doc) {
        m_nextHunk->setEnabled(false);
        m_previousHunk->setEnabled(false);
        return;
    }
    static_cast<ElidedLabel *>(m_path)->setFullText(m_doc->path());
    const QPalette pal = palette();
    m_stats->setText(u"<span style=\"color:%1\">+%2</span>&nbsp;<span style=\"color:%3\">\u2212%4</span>"_s.arg(
        Style::positive(pal).name(), QLocale().toString(m_doc->additions()), Style::negative(pal).name(),
        QLocale().toString(m_doc->deletions())));
    const int count = hunkCount();
    m_hunkLabel->setText(count > 0 ? tr("%1 of %2").arg(m_currentHunk + 1).arg(count) : QString());
    m_hunkLabel->setToolTip(count > 0 ? tr("Change %1 of %2").arg(m_currentHunk + 1).arg(count) : QString());
    // Enabled at the ends too: the pane goes on to the next or previous file.
    m_nextHunk->setEnabled(true);
    m_previousHunk->setEnabled(true);
    fitHeader();
}

void DiffView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitHeader();
}

void DiffView::fitHeader()
{
    // In a narrow pane the file's name matters more than "2 of 5" (the buttons' tooltips say it).
    QWidget *header = m_path->parentWidget();
    const QString full = m_path->toolTip();
    const QString name = full.mid(full.lastIndexOf(u'/') + 1);
    int others = header->layout()->contentsMargins().left() + header->layout()->contentsMargins().right();
    int count = 0;
    for (QWidget *w : header->findChildren<QWidget *>(Qt::FindDirectChildrenOnly)) {
        if (w != m_path && w != m_hunkLabel && !w->isHidden()) {
            others += w->sizeHint().width();
            ++count;
        }
    }
    others += (count + 1) * header->layout()->spacing() + 4;
    const int hunkWidth = m_hunkLabel->text().isEmpty() ? 0 : m_hunkLabel->sizeHint().width() + header->layout()->spacing();
    const int nameWidth = m_path->fontMetrics().horizontalAdvance(name) + 4;
    m_hunkLabel->setVisible(!m_hunkLabel->text().isEmpty() && width() - others - hunkWidth >= nameWidth);
}

} // namespace weft
