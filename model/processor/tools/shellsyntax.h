// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a bash command line would run, for the bash tool's permission rules: every simple command
// in it (in command and process substitutions, subshells, groups, if/case/loops, pipelines,
// assignments, function bodies and heredocs too) and every file it redirects to or from. The line
// is parsed by tree-sitter's bash grammar, as OpenCode does; what that cannot see (syntax errors,
// a command whose name is computed, `eval` of an expansion, a shell reading its script from
// standard input) marks the analysis incomplete.

#include <QList>
#include <QString>
#include <QStringList>

namespace weft::ShellSyntax
{

/// Command lines longer than this are not parsed (the analysis is incomplete).
inline constexpr qsizetype MaxLineBytes = 256 * 1024;
/// How deep commands inside other commands' arguments are followed (`sudo env bash -c '…'`).
inline constexpr int MaxNesting = 6;

/// A word of a command after quote removal.
struct Word {
    QString text;       ///< its value when known, else its source text
    bool known = true;  ///< false: it holds an expansion (`$x`, `$(…)`) whose value is unknown
};

/// One simple command.
struct Command {
    /// Its source text with the redirections written on it (OpenCode's permission pattern); for a
    /// command found inside another's arguments (`sudo rm x`: `rm x`), its words joined.
    QString text;
    QList<Word> words;      ///< name first; prefix assignments (`A=1 cmd`) and redirections left out
    qsizetype position = 0; ///< byte offset in the analysed line (its outermost command's, for nested ones)
    int nesting = 0;        ///< 0: written on the line; 1 and more: inside another command's arguments

    [[nodiscard]] bool hasKnownName() const { return !words.isEmpty() && words.constFirst().known; }
    /// The name as run: its last path component (`/bin/rm` is `rm`).
    [[nodiscard]] QString name() const;
    /// The words' values joined with spaces, the name as name() gives it (`\rm -f 'a b'`: `rm -f a b`).
    [[nodiscard]] QString normalized() const;
};

/// A file a redirection writes or reads (`> f`, `>> f`, `< f`, `&> f`); not `>&2`.
struct Redirect {
    Word target;
    qsizetype position = 0;
};

struct Analysis {
    QList<Command> commands; ///< in source order (a command before those nested in its arguments)
    QList<Redirect> redirects;
    /// False when parts of the line could not be seen; problem says which.
    bool complete = true;
    QString problem;

    void markIncomplete(const QString &why);
};

/// Analyses @p line as bash would run it.
[[nodiscard]] Analysis analyze(const QString &line);

/// OpenCode's BashArity.prefix: how many leading words name the command (`git checkout main`:
/// `git checkout`; `npm run dev`: `npm run dev`; unknown commands: the first word).
[[nodiscard]] qsizetype arity(const QStringList &words);

} // namespace weft::ShellSyntax
