// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QStringList>

namespace weft
{

/// One run of the `git` program: every use of git in Weft (snapshots, worktrees) goes through it.
///
/// The command runs with an environment nothing outside can redirect to another repository (every
/// `GIT_*` variable of Weft's own environment is dropped: a hook or an IDE that started Weft may
/// have set GIT_DIR), never prompts for credentials, answers in the C locale, and is killed after
/// its time limit. Blocking: call it on worker threads and from the command line.
class Git
{
public:
    struct Options {
        /// Where git runs (`-C` is not used: paths in the arguments are taken as given).
        QString workingDirectory;
        /// Written to its standard input, which is then closed.
        QByteArray input;
        /// Variables set for this run only (GIT_INDEX_FILE, GIT_AUTHOR_NAME...).
        QHash<QString, QString> environment;
        int timeoutMs = 300000;
    };

    struct Output {
        /// The exit code; -1 when git did not start, crashed or timed out.
        int code = -1;
        QByteArray out;
        QByteArray err;
        bool timedOut = false;
        [[nodiscard]] bool ok() const { return code == 0; }
        /// What went wrong, for a message: git's own error lines, or why it did not run.
        [[nodiscard]] QString errorText() const;
        /// The standard output as text without its trailing newline (a hash, a branch name).
        [[nodiscard]] QString line() const;
    };

    [[nodiscard]] static Output run(const QStringList &arguments, const Options &options);
    [[nodiscard]] static Output run(const QStringList &arguments) { return run(arguments, Options()); }
    /// Whether the git program can be run (asked once per process).
    [[nodiscard]] static bool available();
};

} // namespace weft
