// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The files of a project for the composer's @mention completion: listed once (git's index, or a
// walk that skips dependency and build folders) and matched fuzzily as the user types.

#include <QString>
#include <QStringList>
#include <QStringView>

namespace weft::ProjectFiles
{

/// The files and folders under @p root as paths relative to it, folders with a trailing '/'
/// (each folder that holds a listed file): `git ls-files --cached --others --exclude-standard`
/// in a git work tree (what .gitignore hides stays out), else a walk that skips the list tool's
/// ignored folders (node_modules, build, .git, ...). At most @p max files. Blocking: call it off
/// the GUI thread.
[[nodiscard]] QStringList list(const QString &root, qsizetype max = 200000);

/// How well @p path matches @p query, or -1 when it does not: every character of the query in
/// order (case-insensitive), with more for characters that follow each other, that start a
/// name or a word (after '/', '_', '-', '.', or a lower-to-upper case change), and that fall in
/// the file name; less for longer paths.
[[nodiscard]] int score(QStringView path, QStringView query);

/// The @p limit best matches of @p query among @p paths, best first (ties: shorter, then
/// alphabetical). An empty query gives the shallowest paths.
[[nodiscard]] QStringList match(const QStringList &paths, QStringView query, qsizetype limit = 50);

} // namespace weft::ProjectFiles
