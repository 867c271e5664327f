// SPDX-License-Identifier: GPL-3.0-or-later
#include "searchtokenizer.h"

#include "core/sqlitehandle.h"
#include "core/tr.h"

#include <vector>

using namespace Qt::StringLiterals;

namespace weft::SearchTokenizer
{

#ifdef WEFT_HAVE_SQLITE3_API

namespace
{

bool isCjk(char32_t c)
{
    return (c >= 0x3005 && c <= 0x3007) || (c >= 0x3021 && c <= 0x3029) || (c >= 0x3031 && c <= 0x3035)
        || (c >= 0x3040 && c <= 0x309F) // Hiragana
        || (c >= 0x30A0 && c <= 0x30FF && c != 0x30FB) // Katakana, without the middle dot
        || (c >= 0x3130 && c <= 0x318F) // Hangul compatibility Jamo
        || (c >= 0x31F0 && c <= 0x31FF) // Katakana phonetic extensions
        || (c >= 0x3400 && c <= 0x4DBF) // CJK extension A
        || (c >= 0x4E00 && c <= 0x9FFF) // CJK unified ideographs
        || (c >= 0x1100 && c <= 0x11FF) // Hangul Jamo
        || (c >= 0xAC00 && c <= 0xD7AF) // Hangul syllables
        || (c >= 0xF900 && c <= 0xFAFF) // CJK compatibility ideographs
        || (c >= 0xFF66 && c <= 0xFF9F) // half-width Katakana
        || (c >= 0x20000 && c <= 0x323AF); // CJK extensions B to H
}

/// Decodes the UTF-8 code point at @p i; invalid bytes count as one non-CJK byte each.
char32_t decode(const unsigned char *s, int n, int i, int *length)
{
    const unsigned char c = s[i];
    auto cont = [&](int k) { return i + k < n && (s[i + k] & 0xC0) == 0x80; };
    if (c < 0x80) {
        *length = 1;
        return c;
    }
    if ((c & 0xE0) == 0xC0 && cont(1)) {
        *length = 2;
        return char32_t(c & 0x1F) << 6 | (s[i + 1] & 0x3F);
    }
    if ((c & 0xF0) == 0xE0 && cont(1) && cont(2)) {
        *length = 3;
        return char32_t(c & 0x0F) << 12 | char32_t(s[i + 1] & 0x3F) << 6 | (s[i + 2] & 0x3F);
    }
    if ((c & 0xF8) == 0xF0 && cont(1) && cont(2) && cont(3)) {
        *length = 4;
        return char32_t(c & 0x07) << 18 | char32_t(s[i + 1] & 0x3F) << 12 | char32_t(s[i + 2] & 0x3F) << 6 | (s[i + 3] & 0x3F);
    }
    *length = 1;
    return 0xFFFD;
}

using TokenCallback = int (*)(void *, int, const char *, int, int, int);

struct Tokenizer {
    fts5_tokenizer inner{};
    Fts5Tokenizer *innerInstance = nullptr;
};

struct Forward {
    void *context;
    TokenCallback callback;
    int offset;
};

int forwardToken(void *context, int flags, const char *token, int length, int start, int end)
{
    auto *f = static_cast<Forward *>(context);
    return f->callback(f->context, flags, token, length, start + f->offset, end + f->offset);
}

int create(void *userData, const char **args, int argCount, Fts5Tokenizer **out)
{
    auto *api = static_cast<fts5_api *>(userData);
    auto *t = new Tokenizer;
    void *innerUserData = nullptr;
    int rc = api->xFindTokenizer(api, "unicode61", &innerUserData, &t->inner);
    if (rc == SQLITE_OK)
        rc = t->inner.xCreate(innerUserData, args, argCount, &t->innerInstance);
    if (rc != SQLITE_OK) {
        delete t;
        return rc;
    }
    *out = reinterpret_cast<Fts5Tokenizer *>(t);
    return SQLITE_OK;
}

void destroy(Fts5Tokenizer *instance)
{
    auto *t = reinterpret_cast<Tokenizer *>(instance);
    if (t->innerInstance)
        t->inner.xDelete(t->innerInstance);
    delete t;
}

int tokenize(Fts5Tokenizer *instance, void *context, int flags, const char *text, int length, TokenCallback callback)
{
    auto *t = reinterpret_cast<Tokenizer *>(instance);
    const auto *s = reinterpret_cast<const unsigned char *>(text);
    const bool query = (flags & FTS5_TOKENIZE_QUERY) != 0;
    int segment = 0; // start of the current run of non-CJK text
    int i = 0;
    std::vector<int> starts;
    auto flush = [&](int end) -> int {
        if (end <= segment)
            return SQLITE_OK;
        Forward f{context, callback, segment};
        return t->inner.xTokenize(t->innerInstance, &f, flags, text + segment, end - segment, forwardToken);
    };
    while (i < length) {
        int n = 0;
        if (!isCjk(decode(s, length, i, &n))) {
            i += n;
            continue;
        }
        if (int rc = flush(i); rc != SQLITE_OK)
            return rc;
        starts.clear();
        int j = i;
        while (j < length) {
            int m = 0;
            if (!isCjk(decode(s, length, j, &m)))
                break;
            starts.push_back(j);
            j += m;
        }
        starts.push_back(j);
        const int count = int(starts.size()) - 1;
        for (int k = 0; k < count; ++k) {
            const int a = starts[size_t(k)], b = starts[size_t(k) + 1];
            int rc = SQLITE_OK;
            if (query) {
                // A query is a phrase of bigrams; a single character stays a unigram.
                if (count == 1)
                    rc = callback(context, 0, text + a, b - a, a, b);
                else if (k + 1 < count)
                    rc = callback(context, 0, text + a, starts[size_t(k) + 2] - a, a, starts[size_t(k) + 2]);
            } else if (k + 1 < count) {
                // The bigram first: highlight() takes a position's offsets from its first token,
                // so a phrase of bigrams covers its last character too.
                const int c = starts[size_t(k) + 2];
                rc = callback(context, 0, text + a, c - a, a, c);
                if (rc == SQLITE_OK)
                    rc = callback(context, FTS5_TOKEN_COLOCATED, text + a, b - a, a, b);
            } else {
                rc = callback(context, 0, text + a, b - a, a, b);
            }
            if (rc != SQLITE_OK)
                return rc;
        }
        i = j;
        segment = j;
    }
    return flush(length);
}

fts5_tokenizer s_methods{create, destroy, tokenize};

/// RankFunction: bm25 with every matched term counted once (an index without positions knows
/// no term frequencies), k1 1.2, b 0.75; a document with a title weighs four times.
void rank(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *context, int, sqlite3_value **)
{
    sqlite3_int64 rows = 0, total = 0;
    int title = 0, length = 0;
    api->xRowCount(fts, &rows);
    api->xColumnTotalSize(fts, -1, &total);
    api->xColumnSize(fts, 0, &title);
    api->xColumnSize(fts, -1, &length);
    const double average = rows > 0 && total > 0 ? double(total) / double(rows) : 1.0;
    constexpr double k1 = 1.2, b = 0.75;
    const double score = (k1 + 1.0) / (1.0 + k1 * (1.0 - b + b * double(length) / average));
    sqlite3_result_double(context, -(title > 0 ? 4.0 : 1.0) * score);
}

fts5_api *fts5Of(sqlite3 *db)
{
    fts5_api *api = nullptr;
    sqlite3_stmt *statement = nullptr;
    if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, nullptr) == SQLITE_OK) {
        sqlite3_bind_pointer(statement, 1, static_cast<void *>(&api), "fts5_api_ptr", nullptr);
        sqlite3_step(statement);
    }
    sqlite3_finalize(statement);
    return api;
}

struct Collected {
    QStringList tokens;
    const char *text;
};

int collect(void *context, int flags, const char *token, int length, int, int)
{
    auto *c = static_cast<Collected *>(context);
    QString t = QString::fromUtf8(token, length);
    if (flags & FTS5_TOKEN_COLOCATED)
        t.prepend(u'+');
    c->tokens.append(t);
    return SQLITE_OK;
}

} // namespace

bool isAvailable()
{
    return true;
}

Result<void> registerOn(QSqlDatabase &db)
{
    sqlite3 *handle = sqliteHandleOf(db);
    if (!handle)
        return Error{SearchTr::tr("not an open SQLite connection"), {}};
    fts5_api *api = fts5Of(handle);
    if (!api)
        return Error{SearchTr::tr("this SQLite has no FTS5"), {}};
    if (api->xCreateTokenizer(api, Name, api, &s_methods, nullptr) != SQLITE_OK
        || api->xCreateFunction(api, RankFunction, nullptr, rank, nullptr) != SQLITE_OK)
        return Error{
            SearchTr::tr("cannot register the search tokenizer: %1").arg(QString::fromUtf8(sqlite3_errmsg(handle))),
            {}};
    return {};
}

QStringList tokens(QSqlDatabase &db, const QString &text, bool query)
{
    sqlite3 *handle = sqliteHandleOf(db);
    fts5_api *api = handle ? fts5Of(handle) : nullptr;
    if (!api)
        return {};
    Fts5Tokenizer *instance = nullptr;
    if (create(api, nullptr, 0, &instance) != SQLITE_OK)
        return {};
    const QByteArray utf8 = text.toUtf8();
    Collected c{{}, utf8.constData()};
    tokenize(instance, &c, query ? FTS5_TOKENIZE_QUERY : FTS5_TOKENIZE_DOCUMENT, utf8.constData(), int(utf8.size()), collect);
    destroy(instance);
    return c.tokens;
}

#else

bool isAvailable()
{
    return false;
}

Result<void> registerOn(QSqlDatabase &)
{
    return Error{SearchTr::tr("this build of Weft has no SQLite C API for its search tokenizer"), {}};
}

QStringList tokens(QSqlDatabase &, const QString &, bool)
{
    return {};
}

#endif

} // namespace weft::SearchTokenizer
