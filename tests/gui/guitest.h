// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Shared set-up of the GUI tests: settings in a temporary folder, a fixed style and palette, and
// no store read on the GUI thread (issue 34) but the test's own, each in a StoreReads::AllowHere.

#include "mainwindow.h"
#include "testcontroller.h"
#include "qt/sessionsmodel.h"
#include "qt/timelinemodel.h"
#include "store/storereads.h"
#include "timelineview.h"

#include <QApplication>
#include <QFont>
#include <QPalette>
#include <QSettings>
#include <QStandardPaths>
#include <QStyleFactory>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

namespace weft::test
{

/// Settings and standard paths of the test go to a temporary folder, never the user's.
inline void isolateSettings(const QTemporaryDir &dir)
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("weft-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("weft-gui-tests"));
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
}

/// A light palette close to KDE's Breeze.
inline QPalette lightPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(0xef, 0xf0, 0xf1));
    p.setColor(QPalette::WindowText, QColor(0x23, 0x26, 0x29));
    p.setColor(QPalette::Base, QColor(0xfc, 0xfc, 0xfc));
    p.setColor(QPalette::AlternateBase, QColor(0xf7, 0xf7, 0xf7));
    p.setColor(QPalette::Text, QColor(0x23, 0x26, 0x29));
    p.setColor(QPalette::Button, QColor(0xf4, 0xf5, 0xf6));
    p.setColor(QPalette::ButtonText, QColor(0x23, 0x26, 0x29));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0xae, 0xe9));
    p.setColor(QPalette::HighlightedText, QColor(0xfc, 0xfc, 0xfc));
    p.setColor(QPalette::ToolTipBase, QColor(0xf7, 0xf7, 0xf7));
    p.setColor(QPalette::ToolTipText, QColor(0x23, 0x26, 0x29));
    p.setColor(QPalette::Link, QColor(0x29, 0x80, 0xb9));
    p.setColor(QPalette::PlaceholderText, QColor(0x70, 0x7d, 0x8a));
    p.setColor(QPalette::Light, QColor(0xff, 0xff, 0xff));
    p.setColor(QPalette::Midlight, QColor(0xf7, 0xf7, 0xf7));
    p.setColor(QPalette::Mid, QColor(0xc0, 0xc4, 0xc8));
    p.setColor(QPalette::Dark, QColor(0x88, 0x8e, 0x93));
    p.setColor(QPalette::Shadow, QColor(0x47, 0x4d, 0x54));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(0xa0, 0xa4, 0xa8));
    return p;
}

/// A dark palette close to KDE's Breeze Dark.
inline QPalette darkPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x20, 0x23, 0x26));
    p.setColor(QPalette::WindowText, QColor(0xfc, 0xfc, 0xfc));
    p.setColor(QPalette::Base, QColor(0x14, 0x16, 0x18));
    p.setColor(QPalette::AlternateBase, QColor(0x1d, 0x1f, 0x22));
    p.setColor(QPalette::Text, QColor(0xfc, 0xfc, 0xfc));
    p.setColor(QPalette::Button, QColor(0x29, 0x2c, 0x30));
    p.setColor(QPalette::ButtonText, QColor(0xfc, 0xfc, 0xfc));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0xae, 0xe9));
    p.setColor(QPalette::HighlightedText, QColor(0xfc, 0xfc, 0xfc));
    p.setColor(QPalette::ToolTipBase, QColor(0x29, 0x2c, 0x30));
    p.setColor(QPalette::ToolTipText, QColor(0xfc, 0xfc, 0xfc));
    p.setColor(QPalette::Link, QColor(0x1d, 0x99, 0xf3));
    p.setColor(QPalette::PlaceholderText, QColor(0xa1, 0xa9, 0xb1));
    p.setColor(QPalette::Light, QColor(0x40, 0x45, 0x4b));
    p.setColor(QPalette::Midlight, QColor(0x33, 0x37, 0x3c));
    p.setColor(QPalette::Mid, QColor(0x1b, 0x1d, 0x20));
    p.setColor(QPalette::Dark, QColor(0x10, 0x11, 0x13));
    p.setColor(QPalette::Shadow, QColor(0x0a, 0x0b, 0x0c));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(0x6e, 0x73, 0x78));
    return p;
}

inline void useStyle(const QPalette &palette)
{
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QApplication::setPalette(palette);
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSize(10);
    QApplication::setFont(font);
}

/// A store read on the GUI thread ends the test (StoreReads::OnGuiThread::Abort): the window
/// reads off it, and the test's own reads there say so (ownRead(), StoreReads::AllowHere). Unless
/// WEFT_STORE_READ_CHECK is set: "report" lists every such read and goes on.
inline void checkGuiThreadReads()
{
    if (!qEnvironmentVariableIsSet("WEFT_STORE_READ_CHECK"))
        StoreReads::setPolicy(StoreReads::OnGuiThread::Abort);
}

/// What every GUI test's initTestCase() does: settings in @p settings (isolateSettings()), the
/// Fusion style with @p palette (none: the test chooses the style itself) and
/// checkGuiThreadReads(). False when @p settings is not usable.
[[nodiscard]] inline bool initGuiTestCase(const QTemporaryDir &settings,
                                          const std::optional<QPalette> &palette = lightPalette())
{
    if (!settings.isValid())
        return false;
    isolateSettings(settings);
    if (palette)
        useStyle(*palette);
    checkGuiThreadReads();
    return true;
}

/// What @p read gives, read on the GUI thread on purpose: the test's own look at the store (the
/// allowance ends with the read, before any event loop runs).
template<typename Read>
auto ownRead(Read &&read)
{
    const StoreReads::AllowHere allowed;
    return read();
}

/// The result of @p future, the GUI thread's events running meanwhile; an error when it does not
/// finish within @p timeoutMs.
template<typename T> Result<T> awaitResult(QFuture<Result<T>> future, int timeoutMs = 10000)
{
    if (!QTest::qWaitFor([&] { return future.isFinished(); }, timeoutMs))
        return Error{QStringLiteral("not finished after %1 ms").arg(timeoutMs), {}};
    return future.result();
}

/// Waits for the session list of @p window, opens @p sessionID of @p source (Weft's own store when
/// empty) and waits for its timeline; false when any of it fails or times out.
inline bool openAndLoad(MainWindow &window, const QString &sessionID, const QString &source = {})
{
    if (!window.sessionsModel()->isLoaded()) {
        QSignalSpy loaded(window.sessionsModel(), &SessionsModel::loaded);
        if (!loaded.wait(5000))
            return false;
    }
    QSignalSpy loaded(window.timelineModel(), &TimelineModel::loaded);
    if (!window.openSession(sessionID, source))
        return false;
    return !window.timelineModel()->isLoading() || loaded.wait(5000);
}

/// Shows @p window, then opens @p sessionID as openAndLoad() does.
inline bool showAndOpen(MainWindow &window, const QString &sessionID, QSize size = QSize(1200, 800))
{
    window.resize(size);
    window.show();
    return QTest::qWaitForWindowExposed(&window) && openAndLoad(window, sessionID);
}

/// Delivers what is posted (layout requests, resizes, queued calls and results): what a widget
/// shows once the event loop turns after a change, with no sleep.
inline void deliverPosted()
{
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    QCoreApplication::sendPostedEvents(); // what the first round posted
}

/// Brings @p window to what it shows once idle, with no sleep: delivers what is posted (queued
/// model updates, deferred layouts and repaints), then waits until the timeline has measured its
/// rows. Before a grab, and before reading a row's place after a scroll.
inline bool settle(MainWindow &window)
{
    deliverPosted();
    const bool measured = QTest::qWaitFor([&] { return !window.timelineView()->hasPendingMeasurements(); });
    deliverPosted();
    return measured;
}

} // namespace weft::test
