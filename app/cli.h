// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

namespace weft::Cli
{

/// Global options that come before the subcommand.
struct GlobalOptions {
    QString dataDir;
    QString configFile;
    /// --server URL: an OpenCode server instead of a data dir.
    QString server;
    /// --password-file FILE: the server's password (else $OPENCODE_SERVER_PASSWORD, else
    /// OpenCode 2's $OPENCODE_PASSWORD).
    QString passwordFile;
    /// --session ID: the session the window shows at start (instead of the tabs of the last time).
    QString session;
    QStringList rest; ///< the subcommand and its arguments
    bool help = false;
    bool version = false;
    QString error;
};

/// Splits `weft [--data-dir DIR] [--config FILE] SUBCOMMAND ...`.
GlobalOptions parseGlobal(const QStringList &arguments);
/// parseGlobal() of a process's arguments (in the local 8-bit encoding), for both executables.
GlobalOptions parseGlobal(int argc, char **argv);

/// True when the arguments name a subcommand (then Weft runs headless).
bool isCommand(const GlobalOptions &options);

/// Runs a subcommand; returns the process exit code.
int run(const GlobalOptions &options);

/// A command's whole process after parseGlobal(): the QCoreApplication (no display needed), the
/// logging rules for a terminal, then run(). Returns the exit code.
int runProcess(int &argc, char **argv, const GlobalOptions &options);

/// Organisation, application name and version, for the window and the command line alike (the
/// paths of QStandardPaths and QSettings follow them).
void setApplicationIdentity();

/// The top-level help text.
QString usage();

} // namespace weft::Cli
