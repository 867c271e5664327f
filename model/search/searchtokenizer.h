// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/result.h"

#include <QSqlDatabase>
#include <QStringList>

namespace weft::SearchTokenizer
{

/// The FTS5 tokenizer Weft's search index uses: SQLite's `unicode61` for every script that
/// separates words, and overlapping character bigrams for Chinese, Japanese and Korean text
/// (which does not), with a unigram at every position too so that a one-character query
/// matches. `unicode61` alone indexes a whole CJK run as one word (a query for 検索 misses
/// 全文検索の); the `trigram` tokenizer misses every two-character word (検索, 数据). Token
/// offsets point into the original text, so FTS5's highlight() and snippet() work unchanged.
/// Arguments after the name go to `unicode61` (`tokenize = 'weft remove_diacritics 2'`).
inline constexpr char Name[] = "weft";

/// The rank of the index's documents, registered with the tokenizer (an FTS5 function:
/// `rank = 'weft_rank()'`): bm25 (k1 1.2, b 0.75) without term frequencies, which an index
/// without positions does not keep (FTS5's bm25() gives 0 there): every matched term counts
/// once, so shorter documents rank first, and a document in the title column weighs four
/// times. Lower is better, as with bm25().
inline constexpr char RankFunction[] = "weft_rank";

/// True when this build can register the tokenizer (it was linked with SQLite's C API).
[[nodiscard]] bool isAvailable();

/// Registers the tokenizer on @p db, an open QSQLITE connection. Each connection that uses an
/// index made with it must register it.
[[nodiscard]] Result<void> registerOn(QSqlDatabase &db);

/// The tokens of @p text, as FTS5 gets them for a document (@p query false) or a query; a token
/// at the same position as the one before it is prefixed with "+". For tests.
[[nodiscard]] QStringList tokens(QSqlDatabase &db, const QString &text, bool query);

} // namespace weft::SearchTokenizer
