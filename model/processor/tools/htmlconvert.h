// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// HTML to Markdown and to plain text, for the webfetch tool. A forgiving parser (unclosed
// paragraphs, list items and table cells, stray end tags, raw-text elements, entities) builds a
// small tree; the Markdown follows turndown as OpenCode configures it: ATX headings, "-" bullets,
// fenced code blocks, "*" emphasis, "**" strong, "---" rules, inline links, plus GitHub tables.
// Scripts, styles, the document head and embedded objects are dropped.

#include <QString>
#include <QStringView>
#include <QUrl>

namespace weft::Html
{

/// @p html as Markdown. Relative links and images are resolved against @p baseUrl (and a
/// `<base href>` of the document) when it is valid.
[[nodiscard]] QString toMarkdown(QStringView html, const QUrl &baseUrl = {});
/// The text of @p html without markup: one line per block, whitespace collapsed.
[[nodiscard]] QString toText(QStringView html);
/// Decodes character references: `&amp;`, `&#39;`, `&#x2014;` and the common named ones.
[[nodiscard]] QString decodeEntities(QStringView text);

} // namespace weft::Html
