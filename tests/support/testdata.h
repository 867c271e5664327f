// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QFileDevice>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

namespace weft::test
{

/// The folder of the OpenCode 1.1.53 fixture (tests/data/opencode-1.1.53).
QString fixtureDir();

/// A fresh temporary data dir holding a copy of the fixture's `storage/` folder.
class FixtureDataDir
{
public:
    FixtureDataDir();
    [[nodiscard]] bool isValid() const { return m_dir.isValid(); }
    [[nodiscard]] QString path() const { return m_dir.path(); }
    [[nodiscard]] QString storage() const { return m_dir.path() + QStringLiteral("/storage"); }

private:
    QTemporaryDir m_dir;
};

/// Copies a folder tree; returns false on any failure.
bool copyTree(const QString &from, const QString &to);

/// The bytes of a file, or an empty array when it cannot be read.
QByteArray readFile(const QString &path);

/// Writes @p bytes to @p path (making its folders, replacing what was there) and, when given,
/// sets its permissions. Returns false on any failure.
[[nodiscard]] bool writeFile(const QString &path, const QByteArray &bytes, QFileDevice::Permissions permissions = {});

/// Every file under @p root (hidden ones too) as relative path -> bytes, for "nothing changed"
/// checks.
QMap<QString, QByteArray> snapshotTree(const QString &root);

/// The relative paths of every file and folder under @p root, sorted.
QStringList entriesUnder(const QString &root);

} // namespace weft::test
