// SPDX-License-Identifier: GPL-3.0-or-later
// TimelineView: scrolling to a part (search results, find in the session) and the find highlight.

#include "qt/timelinemodel.h"
#include "timelinedelegate.h"
#include "timelineview.h"

#include <QScrollBar>
#include <QSortFilterProxyModel>

using namespace Qt::StringLiterals;

namespace weft
{

void TimelineView::setFindHighlight(const QString &text, const QString &currentPartID)
{
    m_delegate->setFindHighlight(text, currentPartID);
}

void TimelineView::revealPart(const QString &messageID, const QString &partID)
{
    if (!m_model || messageID.isEmpty())
        return;
    m_revealMessage = messageID;
    m_revealPart = partID;
    if (m_model->isLoading()) {
        connect(m_model, &TimelineModel::loaded, this, &TimelineView::revealLoaded, Qt::SingleShotConnection);
        return;
    }
    revealLoaded();
}

void TimelineView::revealLoaded()
{
    const QString messageID = std::exchange(m_revealMessage, QString());
    const QString partID = std::exchange(m_revealPart, QString());
    if (messageID.isEmpty() || !m_model)
        return;
    QModelIndex source = m_model->indexForId(messageID);
    if (!source.isValid()) {
        // An older message: load the pages down to it first, then come back.
        if (m_model->containsMessage(messageID)) {
            m_revealMessage = messageID;
            m_revealPart = partID;
            if (!m_model->fetchThrough(messageID)) {
                // A page is loading already: its end brings us back.
                connect(m_model, &TimelineModel::olderLoaded, this, &TimelineView::revealLoaded,
                        Qt::SingleShotConnection);
                return;
            }
            connect(m_model, &TimelineModel::olderLoaded, this, &TimelineView::revealLoaded, Qt::SingleShotConnection);
            return;
        }
        Q_EMIT partRevealed(messageID, partID);
        return;
    }
    const QModelIndex index = viewIndex(source);
    if (!index.isValid()) {
        Q_EMIT partRevealed(messageID, partID);
        return;
    }
    // A match inside collapsed reasoning or a tool's input and output: open it.
    if (!partID.isEmpty()) {
        for (const Part &p : index.data(TimelineModel::PartsRole).value<QList<Part>>()) {
            if (p.id() == partID && (p.type() == PartType::Reasoning || p.type() == PartType::Tool)
                && !m_delegate->isExpanded(partID))
                m_delegate->setExpanded(index, partID, true);
        }
    }
    m_pinned = false;
    setCurrentIndex(index);
    executeDelayedItemsLayout();
    const QRect row = visualRect(index);
    const QRect part = m_delegate->partRect(index, partID);
    // The part's top a little below the top of the view (or the row's, for a part not drawn),
    // so that the lines above it give context.
    const int top = part.isNull() ? row.top() : row.top() + part.top();
    const int margin = std::min(viewport()->height() / 5, 80);
    verticalScrollBar()->setValue(verticalScrollBar()->value() + top - margin);
    m_pinned = verticalScrollBar()->value() >= verticalScrollBar()->maximum() - 2;
    viewport()->update();
    Q_EMIT partRevealed(messageID, partID);
}

} // namespace weft
