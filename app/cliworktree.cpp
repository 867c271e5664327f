// SPDX-License-Identifier: GPL-3.0-or-later
#include "cliworktree.h"

#include "clicommand.h"

#include "app/sessionworktree.h"

#include "core/json.h"

#include <QDir>
#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace weft::Cli
{

namespace
{
/// The worktree named @p name (its folder's name, or its path) among @p all.
std::optional<Worktree> findByName(const QList<Worktree> &all, const QString &name)
{
    const QString path = QFileInfo(name).canonicalFilePath();
    for (const Worktree &w : all) {
        if (w.main)
            continue;
        if (QFileInfo(w.path).fileName() == name || (!path.isEmpty() && QFileInfo(w.path).canonicalFilePath() == path))
            return w;
    }
    return std::nullopt;
}

QString shortHash(const QString &hash)
{
    return hash.left(10);
}

int list(const Worktrees &trees, const QStringList &args)
{
    Command cmd(u"worktree list"_s, u"List the worktrees of the repository of the current directory."_s);
    cmd.addOption({u"format"_s, u"Output format: table (default) or json."_s, u"FORMAT"_s, u"table"_s});
    if (const auto done = cmd.parse(args))
        return *done;
    const QString format = cmd.value(u"format"_s);
    if (format != u"json" && format != u"table")
        return cmd.usageError(u"--format must be json or table"_s);
    if (!cmd.positional().isEmpty())
        return cmd.usageError(u"worktree list takes no arguments"_s);
    const Result<QList<Worktree>> all = trees.list();
    if (!all)
        return fail(all.error().toString());
    JsonArray array;
    QList<QStringList> rows;
    for (const Worktree &w : all.value()) {
        WorktreeStatus state;
        if (!w.main && !w.prunable) {
            if (const Result<WorktreeStatus> read = trees.status(w))
                state = read.value();
        }
        array.append(JsonObject{{u"path"_s, w.path},
                                {u"branch"_s, w.branch},
                                {u"head"_s, w.head},
                                {u"base"_s, w.base},
                                {u"main"_s, w.main},
                                {u"prunable"_s, w.prunable},
                                {u"uncommitted"_s, qint64(state.uncommitted.size())},
                                {u"commits"_s, state.commits}});
        QString changes;
        if (w.main)
            changes = u"(main checkout)"_s;
        else if (w.prunable)
            changes = u"(folder gone)"_s;
        else
            changes = u"%1 commit(s), %2 uncommitted"_s.arg(state.commits).arg(state.uncommitted.size());
        rows.append({w.main ? QString() : QFileInfo(w.path).fileName(), w.branch.isEmpty() ? u"(detached)"_s : w.branch,
                     shortHash(w.base), changes, w.path});
    }
    if (format == u"json") {
        out(toJson(array, 2) + '\n');
        return 0;
    }
    const QStringList header{u"Name"_s, u"Branch"_s, u"Base"_s, u"Changes"_s, u"Path"_s};
    QList<qsizetype> widths;
    for (qsizetype c = 0; c < header.size(); ++c) {
        qsizetype width = header.at(c).size();
        for (const QStringList &row : std::as_const(rows))
            width = qMax(width, row.at(c).size());
        widths.append(width);
    }
    const auto line = [&widths](const QStringList &cells) {
        QStringList padded;
        for (qsizetype c = 0; c < cells.size(); ++c)
            padded.append(c + 1 < cells.size() ? cells.at(c).leftJustified(widths.at(c)) : cells.at(c));
        outLine(padded.join(u"  "_s));
    };
    line(header);
    for (const QStringList &row : std::as_const(rows))
        line(row);
    return 0;
}

int apply(const Worktrees &trees, const QStringList &args)
{
    Command cmd(u"worktree apply"_s, u"Bring a worktree's work into the main checkout."_s, u"NAME"_s);
    cmd.addPositional(u"NAME"_s, u"The worktree's folder name or path."_s);
    cmd.addOption({u"mode"_s,
                   u"merge (default: a merge commit of its branch), rebase (its branch onto the main checkout's, "
                   u"then fast-forward) or diff (everything it changed, uncommitted too, as uncommitted changes)."_s,
                   u"MODE"_s, u"merge"_s});
    if (const auto done = cmd.parse(args))
        return *done;
    if (cmd.positional().size() != 1)
        return cmd.usageError(u"worktree apply needs one NAME"_s);
    const QString mode = cmd.value(u"mode"_s);
    const ApplyMode applyMode = mode == u"rebase" ? ApplyMode::Rebase : mode == u"diff" ? ApplyMode::Diff : ApplyMode::Merge;
    if (mode != u"merge" && mode != u"rebase" && mode != u"diff")
        return cmd.usageError(u"--mode must be merge, rebase or diff"_s);
    const Result<QList<Worktree>> all = trees.list();
    if (!all)
        return fail(all.error().toString());
    const std::optional<Worktree> w = findByName(all.value(), cmd.positional().first());
    if (!w)
        return fail(u"no worktree \"%1\" in %2 (see: weft worktree list)"_s.arg(cmd.positional().first(), trees.mainPath()));
    const Result<ApplyResult> applied = trees.apply(*w, applyMode);
    if (!applied)
        return fail(applied.error().toString());
    if (!applied->clean()) {
        err(u"weft: conflicts in %1:"_s.arg(applied->conflicts.size()));
        for (const QString &file : applied->conflicts)
            err(u"  "_s + file);
        err(applyMode == ApplyMode::Diff ? u"weft: the conflicts are marked in those files of the main checkout"_s
                                         : u"weft: nothing was changed; resolve by hand, or apply with --mode diff"_s);
        return 1;
    }
    outLine(u"Applied %1 to %2."_s.arg(w->branch.isEmpty() ? w->path : w->branch, trees.mainPath()));
    return 0;
}

int remove(const Worktrees &trees, const QStringList &args)
{
    Command cmd(u"worktree remove"_s, u"Remove a worktree's folder (its branch and commits stay)."_s, u"NAME"_s);
    cmd.addPositional(u"NAME"_s, u"The worktree's folder name or path."_s);
    cmd.addOption({u"force"_s, u"Remove it even with uncommitted changes (they are lost)."_s});
    if (const auto done = cmd.parse(args))
        return *done;
    if (cmd.positional().size() != 1)
        return cmd.usageError(u"worktree remove needs one NAME"_s);
    const Result<QList<Worktree>> all = trees.list();
    if (!all)
        return fail(all.error().toString());
    const std::optional<Worktree> w = findByName(all.value(), cmd.positional().first());
    if (!w)
        return fail(u"no worktree \"%1\" in %2 (see: weft worktree list)"_s.arg(cmd.positional().first(), trees.mainPath()));
    if (const Result<void> removed = trees.remove(*w, cmd.isSet(u"force"_s)); !removed)
        return fail(removed.error().toString() + (cmd.isSet(u"force"_s) ? QString() : u" (--force removes it anyway)"_s));
    outLine(u"Removed %1."_s.arg(w->path));
    return 0;
}
} // namespace

int worktreeCommand(const GlobalOptions &options, const QStringList &args)
{
    Q_UNUSED(options)
    const QString sub = args.value(0);
    if (sub.isEmpty() || sub == u"--help" || sub == u"-h" || sub == u"help") {
        outLine(u"Usage: weft worktree list|apply NAME|remove NAME\n\n"
                u"The git worktrees of the repository of the current directory: `weft run --worktree NAME`\n"
                u"runs a session in one of its own.\n\nRun `weft worktree COMMAND --help` for a command's options."_s);
        return sub.isEmpty() ? 2 : 0;
    }
    if (sub != u"list" && sub != u"apply" && sub != u"remove")
        return fail(u"unknown worktree command \"%1\" (list, apply or remove)"_s.arg(sub), 2);
    const Result<Worktrees> trees = Worktrees::open(QDir::currentPath());
    if (!trees)
        return fail(trees.error().toString());
    const QStringList rest = args.mid(1);
    if (sub == u"list")
        return list(trees.value(), rest);
    if (sub == u"apply")
        return apply(trees.value(), rest);
    return remove(trees.value(), rest);
}

Result<QString> worktreeForRun(const QString &name, bool runSetup)
{
    if (const QString why = Worktrees::whyInvalidName(name); !why.isEmpty())
        return Error{why, {}};
    const Result<Worktrees> trees = Worktrees::open(QDir::currentPath());
    if (!trees)
        return trees.error();
    const Result<QList<Worktree>> all = trees->list();
    if (!all)
        return all.error();
    if (const std::optional<Worktree> existing = findByName(all.value(), name)) {
        err(u"weft: in worktree %1 (%2)"_s.arg(existing->path, existing->branch));
        return existing->path;
    }
    // As the window makes one (SessionController::createSession()).
    if (runSetup && !SessionWorktree::setupScript(trees->mainPath()).isEmpty())
        err(u"weft: running the setup script %1"_s.arg(SessionWorktree::setupScriptName()));
    const Result<SessionWorktree::Made> created = SessionWorktree::create(QDir::currentPath(), {.name = name}, runSetup);
    if (!created)
        return created.error();
    const Worktree &made = created->worktree;
    err(u"weft: made worktree %1 (branch %2 from %3)"_s.arg(made.path, made.branch, shortHash(made.base)));
    return created->directory;
}

} // namespace weft::Cli
