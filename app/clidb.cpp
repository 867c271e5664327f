// SPDX-License-Identifier: GPL-3.0-or-later
#include "clidb.h"
#include "clicommand.h"

#include "core/identifier.h"
#include "core/json.h"
#include "opencodedb/dbimport.h"
#include "session/transfer.h"
#include "opencodedb/opencodedatadir.h"
#include "opencodedb/opencodedbstore.h"
#include "search/searchindex.h"
#include "session/datadir.h"
#include "session/sessionservice.h"
#include "store/store.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QSettings>

#include <cstdio>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace weft::Cli
{

namespace
{

QString oneLine(const QString &text)
{
    QString s = text;
    s.replace(u"\r\n"_s, u" "_s);
    s.replace(u'\n', u' ');
    s.replace(u'\t', u' ');
    return s;
}

} // namespace

int searchCommand(const GlobalOptions &options, const QStringList &args)
{
    Command cmd(u"search"_s,
                u"Search every session of the data dir: message text, reasoning, tool calls and outputs, file paths, "
                u"errors, titles. "
                u"Words must all match; \"quoted phrases\", word* prefixes, -word exclusions and OR work too."_s,
                u"QUERY..."_s, Command::HelpOption::Last);
    cmd.addPositional(u"QUERY"_s, u"What to look for (several words are joined)."_s, u"QUERY..."_s);
    cmd.addOption({u"format"_s, u"Output format: text (default) or json."_s, u"format"_s, u"text"_s});
    cmd.addOption({u"session"_s, u"Only this session, its matches in timeline order."_s, u"SESSION_ID"_s});
    cmd.addOption({u"limit"_s, u"At most N matches (default 20; 0: all)."_s, u"N"_s, u"20"_s});
    cmd.addOption({u"rebuild"_s, u"Read every session again before searching (a QUERY is then optional)."_s});
    cmd.addOption({u"index"_s, u"The index file (default: search.db in Weft's data dir)."_s, u"FILE"_s});
    cmd.addOption({u"status"_s, u"Show how far the index is (sessions indexed of all, documents, size) without updating it."_s});
    if (const auto done = cmd.parse(args))
        return *done;
    const QString format = cmd.value(u"format"_s);
    if (format != u"json" && format != u"text")
        return fail(u"unknown format \"%1\" (json or text)"_s.arg(format), 2);
    bool limitOk = false;
    const int limit = cmd.value(u"limit"_s).toInt(&limitOk);
    if (!limitOk || limit < 0)
        return fail(u"--limit takes a number (0: all)"_s, 2);
    const QString sessionID = cmd.value(u"session"_s);
    if (cmd.isSet(u"session"_s)) {
        if (const auto bad = invalidId(sessionID, Identifier::Kind::Session))
            return *bad;
    }
    const QString query = cmd.positional().join(u' ').trimmed();
    const bool rebuild = cmd.isSet(u"rebuild"_s);
    const bool status = cmd.isSet(u"status"_s);
    if (query.isEmpty() && !rebuild && !status)
        return cmd.usageError(u"search needs a QUERY"_s);
    if (!query.isEmpty() && SearchIndex::ftsQuery(query).isEmpty())
        return fail(u"the query has no words to look for"_s, 2);

    Result<DataDir::Opened> opened = OpencodeDataDir::open(dataDirPath(options), options.dataDir.isEmpty());
    if (!opened)
        return fail(u"cannot open the data dir: "_s + opened.error().toString());
    // The index lives with Weft's data, never in OpenCode's data dir.
    QString indexFile = cmd.value(u"index"_s);
    if (indexFile.isEmpty())
        indexFile = SearchIndex::defaultFile(opened->database.isEmpty() ? opened->path : DataDir::defaultPath());
    SearchIndex index;
    if (Result<void> r = index.open(indexFile); !r)
        return fail(r.error().toString());
    // The limits of Settings › Search, so that the window and the command line keep one index.
    const SearchIndex::Limits limits = SearchIndex::Limits::read(QSettings());
    index.setLimits(limits);
    Store &store = *opened->store;
    index.addStore(opened->store); // the snippets are read from it
    if (status) {
        const Result<SearchIndex::Status> s = index.status(store);
        if (!s)
            return fail(s.error().toString());
        if (format == u"json") {
            out(toJson(JsonObject{{u"sessions"_s, s->sessions},
                                  {u"indexed"_s, s->indexed},
                                  {u"documents"_s, s->documents},
                                  {u"bytes"_s, s->bytes},
                                  {u"enabled"_s, limits.enabled},
                                  {u"file"_s, index.file()}},
                       2)
                + '\n');
        } else {
            out(u"Indexed %1 of %2 sessions (%3 documents, %4 MB) in %5%6\n"_s.arg(QLocale::system().toString(s->indexed))
                    .arg(QLocale::system().toString(s->sessions))
                    .arg(QLocale::system().toString(s->documents))
                    .arg(double(s->bytes) / 1e6, 0, 'f', 1)
                    .arg(index.file(), limits.enabled ? QString() : u" (indexing is off in Settings › Search)"_s)
                    .toUtf8());
        }
        return 0;
    }
    const Result<SearchIndex::SyncStats> synced = index.sync(store, {}, rebuild);
    reportProblems(store);
    if (!synced)
        return fail(u"cannot update the search index: "_s + synced.error().toString());
    if (rebuild)
        err(u"weft: indexed %1 sessions (%2 documents) in %3"_s.arg(synced->indexed).arg(synced->documents).arg(index.file()));
    if (query.isEmpty())
        return 0;

    SearchOptions searchOptions;
    searchOptions.source = SearchIndex::sourceKey(store);
    searchOptions.sessionID = sessionID;
    searchOptions.limit = limit == 0 ? -1 : limit;
    searchOptions.order = sessionID.isEmpty() ? SearchOptions::Order::Rank : SearchOptions::Order::Timeline;
    const Result<QList<SearchHit>> hits = index.search(query, searchOptions);
    if (!hits)
        return fail(hits.error().toString());

    if (format == u"json") {
        JsonArray array;
        for (const SearchHit &h : hits.value()) {
            JsonArray highlights;
            for (const auto &[start, length] : h.highlights)
                highlights.append(JsonArray{start, length});
            array.append(JsonObject{{u"sessionID"_s, h.sessionID},
                                    {u"messageID"_s, h.messageID},
                                    {u"partID"_s, h.partID},
                                    {u"kind"_s, h.kind},
                                    {u"sessionTitle"_s, h.sessionTitle},
                                    {u"snippet"_s, h.snippet},
                                    {u"highlights"_s, highlights},
                                    {u"rank"_s, h.rank},
                                    {u"time"_s, h.time}});
        }
        out(toJson(array, 2) + '\n');
        return 0;
    }
    if (hits->isEmpty()) {
        out("No matches.\n");
        return 0;
    }
    const bool tty = isatty(fileno(stdout)) != 0;
    const QString open = tty ? u"\x1b[1;33m"_s : u"«"_s;
    const QString close = tty ? u"\x1b[0m"_s : u"»"_s;
    // Grouped by session, sessions in the order of their best match.
    QStringList order;
    QHash<QString, QList<SearchHit>> bySession;
    for (const SearchHit &h : hits.value()) {
        if (!bySession.contains(h.sessionID))
            order.append(h.sessionID);
        bySession[h.sessionID].append(h);
    }
    QString text;
    for (const QString &id : std::as_const(order)) {
        const QList<SearchHit> &list = bySession[id];
        text += id + u"  "_s + oneLine(list.first().sessionTitle) + u'\n';
        for (const SearchHit &h : list) {
            QString where = h.kind;
            if (!h.messageID.isEmpty())
                where += u' ' + h.messageID;
            if (!h.partID.isEmpty())
                where += u' ' + h.partID;
            const QString when = h.time > 0 ? QDateTime::fromMSecsSinceEpoch(h.time).toString(u"yyyy-MM-dd HH:mm"_s) : QString();
            text += u"  %1  %2\n    %3\n"_s.arg(when, where, oneLine(h.markedSnippet(open, close)));
        }
    }
    out(text.toUtf8());
    return 0;
}

int importFromDb(const GlobalOptions &options, const QString &databaseDir, const QStringList &sessionIDs)
{
    for (const QString &id : sessionIDs) {
        if (const auto bad = invalidId(id, Identifier::Kind::Session))
            return *bad;
    }
    QString databaseFile;
    const QFileInfo info(databaseDir);
    if (info.isFile()) {
        databaseFile = info.absoluteFilePath();
    } else if (info.isDir()) {
        const QStringList databases = DataDir::databasesIn(info.absoluteFilePath());
        if (databases.isEmpty())
            return fail(u"no OpenCode database (opencode.db) in %1"_s.arg(info.absoluteFilePath()));
        databaseFile = databases.first();
    } else {
        return fail(u"no such folder: %1"_s.arg(databaseDir));
    }
    Result<std::shared_ptr<OpencodeDbStore>> source = OpencodeDbStore::open(databaseFile);
    if (!source)
        return fail(u"cannot read OpenCode's database: "_s + source.error().toString());

    const QString path = dataDirPath(options);
    if (QDir::cleanPath(QFileInfo(path).absoluteFilePath()) == QFileInfo(databaseFile).absolutePath())
        return fail(u"--data-dir is the OpenCode data dir itself; import copies into Weft's own data dir"_s, 2);
    Result<DataDir::Opened> opened = OpencodeDataDir::open(path, true);
    if (!opened)
        return fail(u"cannot open the data dir: "_s + opened.error().toString());
    if (!opened->database.isEmpty() || opened->store->isReadOnly())
        return fail(u"%1 holds an OpenCode database; import copies into a Weft (JSON) data dir"_s.arg(opened->path), 2);
    SessionService target(opened->store);
    const Result<QList<DbImport::Imported>> imported = DbImport::importSessions(*source.value(), target, sessionIDs);
    reportProblems(*source.value());
    if (!imported)
        return fail(u"nothing imported: "_s + imported.error().toString());
    int failures = 0;
    QByteArray lines;
    for (const DbImport::Imported &entry : imported.value()) {
        if (!entry.error.isEmpty()) {
            ++failures;
            err(u"weft: error: %1 was not copied: %2"_s.arg(entry.sourceID, entry.error));
            continue;
        }
        lines += entry.session.id().toUtf8() + '\n';
        if (entry.idsChanged)
            err(u"weft: note: %1 was copied as %2 (its IDs were taken in this store)"_s.arg(entry.sourceID, entry.session.id()));
        if (!entry.droppedPermissions.isEmpty())
            err(u"weft: note: %1: %2"_s.arg(entry.session.id(), Transfer::describeDropped(entry.droppedPermissions)));
        err(u"weft: note: %1 claims the directory %2; accept it with `weft session accept %1`"_s.arg(
            entry.session.id(), entry.session.directory()));
    }
    out(lines);
    if (imported->isEmpty())
        err(u"weft: note: the database holds no sessions"_s);
    return failures > 0 ? 1 : 0;
}

} // namespace weft::Cli
