// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace weft
{

/// Store reads on a window's GUI thread (issue 34): a read may wait for the disk or a server while
/// the window can neither paint nor answer. Every read of a Store calls check() first; the window
/// reads off the GUI thread (QtConcurrent, SessionService's futures) and hands the values back.
namespace StoreReads
{
/// What a read on the GUI thread does.
enum class OnGuiThread {
    Allow, ///< nothing: a release build
    Report, ///< a critical message naming the read: a debug build
    Abort, ///< qFatal: the tests (WEFT_STORE_READ_CHECK=fatal), where a read there is a bug
};
/// Set by setPolicy(), else by the environment variable WEFT_STORE_READ_CHECK (off, report or
/// fatal), else Report in a build with assertions and Allow without.
[[nodiscard]] OnGuiThread policy();
void setPolicy(OnGuiThread policy);
/// Whether the calling thread is a window's GUI thread: the application's thread while a
/// QGuiApplication exists (never on the command line, which has none).
[[nodiscard]] bool onGuiThread();
/// What a Store read named @p read does first: applies the policy when on the GUI thread, unless
/// an AllowHere lives on the calling thread.
void check(const char *read);

/// Allows the store reads of the calling thread while it lives: a test's own set-up and checks,
/// which read on the GUI thread on purpose. Keep it around those reads only, never around an event
/// loop (QTRY_*, QSignalSpy::wait): the window's reads there would pass unseen. Not for the
/// application.
class AllowHere
{
public:
    AllowHere();
    ~AllowHere();
    AllowHere(const AllowHere &) = delete;
    AllowHere &operator=(const AllowHere &) = delete;
};
} // namespace StoreReads

} // namespace weft
