// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The layout of a timeline row, shared by the files that implement TimelineDelegate
// (timelinedelegate.cpp paints it, timelinetext.cpp selects and copies its text).

#include "timelinedelegate.h"

#include <QFont>
#include <QRectF>
#include <QStringList>

namespace weft
{

struct TimelineDelegate::Block
{
    enum class Kind { Text, Reasoning, Tool, Line, Error, Working, File };
    enum class Tone { Dim, Neutral, Negative, Active };
    Kind kind = Kind::Text;
    QString partID;
    QRectF rect;
    QRectF toggle;
    bool expanded = false;
    std::shared_ptr<QTextDocument> doc;
    QPointF docPos;
    /// Text: the code blocks of its part in the pieces above it. A code block's number in its
    /// part (hover, copy) is codeBase plus its group in this block's document.
    int codeBase = 0;
    // tool
    QString title;
    /// Tool blocks: the tool's name as the session stores it (title is the name shown).
    QString tool;
    QString subject;
    QString note;
    ToolStatus status = ToolStatus::Unknown;
    bool asking = false; // waiting for a permission answer
    QRectF badge;
    QStringList inputLines;
    int inputMore = 0;
    QRectF inputRect;
    QStringList outputLines;
    int outputMore = 0;
    QRectF outputRect;
    QString outputCaption;
    bool outputIsError = false;
    QString errorLine;
    // line
    QString text;
    Tone tone = Tone::Dim;
    // file: the type's icon, the name (text) and the kind (subject); an image's thumbnail box
    QString icon;
    QRectF thumbnail;
    QString url; // an image's data: URL (shared, not copied)
};

struct TimelineDelegate::Layout
{
    int width = 0;
    int height = 0;
    bool marker = false;
    bool card = false;
    bool user = false;
    bool summary = false;
    bool continuation = false;
    bool inContext = true;
    bool running = false;
    QRectF column;
    QRectF cardRect;
    QRectF header;
    QString author;
    QString meta;
    QString tokens;
    QString tag;
    QRectF markerRect;
    QString markerTitle;
    QString markerText;
    QList<Block> blocks;
};

} // namespace weft
