// SPDX-License-Identifier: GPL-3.0-or-later
// What a screen reader finds in the window, read through Qt's accessibility tree (the interfaces
// AT-SPI is fed from): each timeline row says who wrote it, when, its text and its tool calls
// with their state in words; every control a user can reach with the keyboard has a name.

#include "guitest.h"
#include "mainwindow.h"
#include "qt/timelinemodel.h"
#include "session/sessionservice.h"
#include "store/jsonstore.h"
#include "testdata.h"
#include "timelineview.h"

#include <QAccessible>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace weft;

namespace
{
const QString MainID = u"ses_dff058141ffeXJnTNzT8vnXcKt"_s;
}

class TestAccessibility : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(test::initGuiTestCase(m_settings));
    }

    void timelineRowsAreRead()
    {
        test::FixtureDataDir data;
        auto service = std::make_shared<SessionService>(std::make_shared<JsonStore>(data.path()));
        MainWindow window(test::makeController(service, data.path()));
        QVERIFY(test::showAndOpen(window, MainID));
        TimelineView *view = window.timelineView();
        QAccessibleInterface *list = QAccessible::queryAccessibleInterface(view);
        QVERIFY(list);
        QCOMPARE(list->text(QAccessible::Name), u"Conversation"_s);
        QCOMPARE(list->childCount(), view->model()->rowCount());
        QStringList rows;
        for (int i = 0; i < list->childCount(); ++i) {
            QAccessibleInterface *row = list->child(i);
            QVERIFY(row);
            rows.append(row->text(QAccessible::Name));
        }
        // Every row is read, none is empty or only its time.
        for (const QString &row : std::as_const(rows))
            QVERIFY2(row.contains(u": "_s) && row.section(u": "_s, 1).trimmed().size() > 0, qPrintable(row));
        // A message of the user: who and what.
        const QString user = rows.filter(u"make it big again"_s).value(0);
        QVERIFY2(user.startsWith(u"You, "_s), qPrintable(user));
        QVERIFY(user.contains(u"Not in context"_s));
        // A reply with a tool call: the tool and its state in words, not a colour.
        const QStringList tools = rows.filter(u"Tool Shell"_s); // a bash call, by what it is
        QVERIFY(!tools.isEmpty());
        QVERIFY2(tools.first().startsWith(u"Build, m1, "_s), qPrintable(tools.first()));
        QVERIFY2(tools.first().contains(u"Completed"_s), qPrintable(tools.first()));
        // A failed tool says so in words too.
        QVERIFY2(!rows.filter(QRegularExpression(u"Tool \\w+.*: Error"_s)).isEmpty(), qPrintable(rows.join(u'\n')));
        // The compaction's summary says it is one.
        QVERIFY(!rows.filter(QRegularExpression(u"^Summary, "_s)).isEmpty());
    }

    void everyControlHasAName()
    {
        test::FixtureDataDir data;
        auto service = std::make_shared<SessionService>(std::make_shared<JsonStore>(data.path()));
        MainWindow window(test::makeController(service, data.path()));
        QVERIFY(test::showAndOpen(window, MainID));
        // Walk the accessibility tree from the window: each control that takes keyboard focus
        // has a name (its text, its label or its accessible name).
        QStringList unnamed;
        int checked = 0;
        for (QWidget *w : window.findChildren<QWidget *>()) {
            if (!w->isVisibleTo(&window) || !(w->focusPolicy() & Qt::TabFocus) || !w->isEnabled())
                continue;
            QAccessibleInterface *iface = QAccessible::queryAccessibleInterface(w);
            QVERIFY(iface);
            ++checked;
            if (iface->text(QAccessible::Name).trimmed().isEmpty())
                unnamed.append(QString::fromLatin1(w->metaObject()->className()) + u' ' + w->objectName());
        }
        QVERIFY2(checked >= 8, qPrintable(QString::number(checked)));
        QVERIFY2(unnamed.isEmpty(), qPrintable(u"controls without a name: "_s + unnamed.join(u", "_s)));
    }

private:
    QTemporaryDir m_settings;
};

QTEST_MAIN(TestAccessibility)
#include "tst_accessibility.moc"
