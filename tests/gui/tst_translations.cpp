// SPDX-License-Identifier: GPL-3.0-or-later
// The Japanese and Simplified Chinese translations (issue 6): every message finished with the
// placeholders and accelerators of its source, the .ts files current with the code, the window
// without a visible English string in either language, and screenshots of both to
// <build>/screenshots/{ja,zh_CN}.png. The errors model/ makes (issue 16) are translated too: real
// error paths give Japanese and Chinese messages, and English ones with no translator.

#include "compactiondialog.h"
#include "errorwording.h"
#include "findbar.h"
#include "guitest.h"
#include "sourcespresenter.h"
#include "i18n.h"
#include "mainwindow.h"
#include "problemsdialog.h"
#include "qt/sessionsmodel.h"
#include "qt/timelinemodel.h"
#include "searchpanel.h"
#include "session/sessionservice.h"
#include "session/transfer.h"
#include "settingsdialog.h"
#include "store/jsonstorage.h"
#include "store/jsonstore.h"
#include "testdata.h"
#include "timelineview.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFontComboBox>
#include <QGroupBox>
#include <QHash>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocumentFragment>
#include <QToolBar>
#include <QTranslator>
#include <QTreeWidget>
#include <QXmlStreamReader>

using namespace Qt::StringLiterals;
using namespace weft;

namespace
{

struct TsMessage {
    QString context;
    QString source;
    QString comment;
    bool numerus = false;
    bool unfinished = false;
    QStringList translations; ///< one, or the numerus forms
};

struct TsFile {
    QString language;
    QList<TsMessage> messages;
    QString error;
};

TsFile readTs(const QString &path)
{
    TsFile ts;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        ts.error = file.errorString();
        return ts;
    }
    QXmlStreamReader xml(&file);
    QString context;
    TsMessage message;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            const auto name = xml.name();
            if (name == u"TS") {
                ts.language = xml.attributes().value(u"language"_s).toString();
            } else if (name == u"name") {
                context = xml.readElementText();
            } else if (name == u"message") {
                message = TsMessage{};
                message.context = context;
                message.numerus = xml.attributes().value(u"numerus"_s) == u"yes";
            } else if (name == u"source") {
                message.source = xml.readElementText();
            } else if (name == u"comment") {
                message.comment = xml.readElementText();
            } else if (name == u"translation") {
                const auto type = xml.attributes().value(u"type"_s);
                message.unfinished = type == u"unfinished" || type == u"vanished" || type == u"obsolete";
                if (!message.numerus)
                    message.translations.append(xml.readElementText());
            } else if (name == u"numerusform") {
                message.translations.append(xml.readElementText());
            }
        } else if (xml.isEndElement() && xml.name() == u"message") {
            ts.messages.append(message);
        }
    }
    if (xml.hasError())
        ts.error = xml.errorString();
    return ts;
}

QString tsPath(const QString &language)
{
    return QStringLiteral(WEFT_SOURCE_DIR "/translations/weft_") + language + u".ts"_s;
}

/// The contexts of the messages model/ makes for people (model/core/tr.h).
const QStringList &modelContextNames()
{
    static const QStringList contexts{u"weft::Core"_s,   u"weft::Store"_s,  u"weft::Session"_s,   u"weft::OpencodeDb"_s,
                                      u"weft::Server"_s, u"weft::Config"_s, u"weft::Processor"_s, u"weft::Compaction"_s,
                                      u"weft::Search"_s, u"weft::Mcp"_s,    u"weft::Diff"_s,       u"weft::Worktree"_s};
    return contexts;
}

/// "%1", "%2", "%n" (and "%L1"), sorted, with repeats.
QStringList placeholders(const QString &text)
{
    static const QRegularExpression re(u"%L?(\\d+|n)"_s);
    QStringList found;
    for (auto it = re.globalMatch(text); it.hasNext();)
        found.append(it.next().captured(1));
    found.sort();
    found.removeDuplicates(); // a translation may name an argument twice, or once where the source does twice
    return found;
}

/// The accelerator letters ("&File" -> "F"; "&&" is a literal ampersand), upper-cased.
QString accelerators(const QString &text)
{
    QString found;
    for (qsizetype i = 0; i + 1 < text.size(); ++i) {
        if (text.at(i) != u'&')
            continue;
        if (text.at(i + 1) == u'&') {
            ++i;
            continue;
        }
        if (text.at(i + 1).isLetterOrNumber())
            found.append(text.at(i + 1).toUpper());
    }
    return found;
}

QString leadingSpace(const QString &text)
{
    qsizetype i = 0;
    while (i < text.size() && text.at(i).isSpace())
        ++i;
    return text.left(i);
}

QString trailingSpace(const QString &text)
{
    qsizetype i = text.size();
    while (i > 0 && text.at(i - 1).isSpace())
        --i;
    return text.mid(i);
}

/// What a visible string may keep in Latin letters, in either language:
/// - product and protocol names, which are not translated: Weft, OpenCode, Qt, Gemini CLI, Markdown, MCP, git;
/// - technical abbreviations written in Latin letters in Japanese and Chinese software: API, URL, ID;
/// - "token", the usual word in Chinese AI tools (Japanese writes トークン);
/// - "OK", which Japanese keeps on buttons (Qt's own qtbase_ja translates it so);
/// - key names and shortcuts (Enter, Escape, Shift+F3, Ctrl+F) and the font unit "pt".
const QStringList &exemptWords()
{
    static const QStringList words{u"Weft"_s,  u"OpenCode"_s, u"Qt"_s,  u"Gemini"_s, u"CLI"_s,    u"Markdown"_s,
                                   u"API"_s,   u"URL"_s,      u"ID"_s,  u"token"_s,  u"Enter"_s,  u"Escape"_s,
                                   u"pt"_s,    u"OK"_s,       u"MCP"_s,  u"git"_s};
    return words;
}

/// Whether @p text (a visible string, with user data already removed) has Latin letters that are
/// not an exempt word: an English string that was not translated, or not translatable.
bool looksUntranslated(QString text)
{
    static const QRegularExpression url(u"[a-z]+://\\S+"_s);
    static const QRegularExpression path(u"\\S*/\\S*"_s); // file paths, "provider/model"
    static const QRegularExpression envVar(u"[A-Z][A-Z0-9]*_[A-Z0-9_]+"_s);
    static const QRegularExpression shortcut(u"(?:(?:Ctrl|Alt|Shift|Meta)\\+)+\\S+|(?<![A-Za-z])F\\d{1,2}(?![0-9])"_s);
    static const QRegularExpression letters(u"[A-Za-z]"_s);
    text = I18n::removeAccelerator(text);
    text.remove(shortcut);
    text.remove(url);
    text.remove(path);
    text.remove(envVar);
    for (const QString &word : exemptWords())
        text.remove(QRegularExpression(u"(?<![A-Za-z])"_s + QRegularExpression::escape(word) + u"(?![A-Za-z])"_s));
    return text.contains(letters);
}

} // namespace

class TestTranslations : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void tsFiles_data();
    void tsFiles();
    void tsFilesMatchSources();
    void installTranslations();
    void modelContexts();
    void modelErrors_data();
    void modelErrors();
    void checker_data();
    void checker();
    void noUntranslatedString_data();
    void noUntranslatedString();

private:
    /// Every visible string of @p root and its children that looks untranslated, as
    /// "Class objectName: text"; @p userData are the strings that come from the sessions.
    QStringList untranslatedStrings(QWidget *root, const QStringList &userData) const;

    QTemporaryDir m_settings;
};

void TestTranslations::initTestCase()
{
    QVERIFY(test::initGuiTestCase(m_settings, std::nullopt));
    QVERIFY(QDir().mkpath(QStringLiteral(WEFT_BINARY_DIR "/screenshots")));
}

void TestTranslations::cleanup()
{
    I18n::installTranslations(*QCoreApplication::instance(), QLocale(QLocale::English));
    QLocale::setDefault(QLocale::c());
}

void TestTranslations::tsFiles_data()
{
    QTest::addColumn<QString>("language");
    QTest::addRow("ja") << u"ja"_s;
    QTest::addRow("zh_CN") << u"zh_CN"_s;
}

void TestTranslations::tsFiles()
{
    QFETCH(QString, language);
    const TsFile ts = readTs(tsPath(language));
    QVERIFY2(ts.error.isEmpty(), qPrintable(ts.error));
    QCOMPARE(ts.language, language);
    QVERIFY(ts.messages.size() > 400);

    QStringList problems;
    for (const TsMessage &m : ts.messages) {
        const QString where = m.context + u" \"" + m.source + u"\": ";
        if (m.unfinished)
            problems.append(where + u"unfinished"_s);
        // Japanese and Chinese have one plural form.
        if (m.translations.size() != 1) {
            problems.append(where + u"%1 translations"_s.arg(m.translations.size()));
            continue;
        }
        const QString &t = m.translations.first();
        if (t.trimmed().isEmpty()) {
            problems.append(where + u"empty"_s);
            continue;
        }
        if (placeholders(t) != placeholders(m.source))
            problems.append(where + u"placeholders %1 instead of %2"_s.arg(placeholders(t).join(u','),
                                                                            placeholders(m.source).join(u',')));
        if (accelerators(t) != accelerators(m.source))
            problems.append(where + u"accelerator \"%1\" instead of \"%2\""_s.arg(accelerators(t), accelerators(m.source)));
        if (m.numerus != m.source.contains(u"%n"))
            problems.append(where + u"numerus mismatch"_s);
        if (leadingSpace(t) != leadingSpace(m.source) || trailingSpace(t) != trailingSpace(m.source))
            problems.append(where + u"leading or trailing spaces differ"_s);
        if (t.count(u'\n') != m.source.count(u'\n'))
            problems.append(where + u"line breaks differ"_s);
    }
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
}

void TestTranslations::tsFilesMatchSources()
{
    // What lupdate finds in the code now, against what the .ts files hold: a tr() string added or
    // changed since the last `cmake --build BUILD --target weft_lupdate` fails here.
    const QString lupdate = QStringLiteral(WEFT_LUPDATE);
    if (!QFileInfo::exists(lupdate))
        QSKIP("lupdate is not installed");
    QTemporaryDir out;
    QVERIFY(out.isValid());
    const QString fresh = out.filePath(u"fresh.ts"_s);
    QProcess process;
    process.setWorkingDirectory(QStringLiteral(WEFT_SOURCE_DIR));
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(lupdate, {u"-silent"_s, u"-no-obsolete"_s, u"-locations"_s, u"none"_s, u"views"_s, u"app"_s,
                            u"model"_s, u"-ts"_s, fresh});
    QVERIFY2(process.waitForFinished(120000), "lupdate did not finish");
    QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0,
             process.readAll().constData());

    const auto keys = [](const TsFile &ts) {
        QSet<QString> set;
        for (const TsMessage &m : ts.messages)
            set.insert(m.context + u" | " + m.source + (m.comment.isEmpty() ? QString() : u" | " + m.comment));
        return set;
    };
    const TsFile code = readTs(fresh);
    QVERIFY2(code.error.isEmpty(), qPrintable(code.error));
    const QSet<QString> inCode = keys(code);
    QVERIFY(inCode.size() > 400);
    for (const QString &language : {u"ja"_s, u"zh_CN"_s}) {
        const QSet<QString> inTs = keys(readTs(tsPath(language)));
        QStringList missing = QSet<QString>(inCode).subtract(inTs).values();
        QStringList stale = QSet<QString>(inTs).subtract(inCode).values();
        missing.sort();
        stale.sort();
        QVERIFY2(missing.isEmpty(), qPrintable(language + u": not in the .ts file (run the weft_lupdate target and translate):\n"_s + missing.join(u'\n')));
        QVERIFY2(stale.isEmpty(), qPrintable(language + u": no longer in the code (run the weft_lupdate target):\n"_s + stale.join(u'\n')));
    }
}

void TestTranslations::installTranslations()
{
    auto &app = *QCoreApplication::instance();
    QCOMPARE(I18n::availableLanguages(), QStringList({u"ja"_s, u"zh_CN"_s}));

    QStringList loaded = I18n::installTranslations(app, QLocale(QLocale::Japanese, QLocale::Japan));
    QCOMPARE(loaded.size(), 2); // weft_ja and Qt's qtbase_ja
    QCOMPARE(QCoreApplication::translate("weft::WindowActions", "&File"), u"ファイル(&F)"_s);
    QCOMPARE(QCoreApplication::translate("weft::Style", "%n min ago", nullptr, 5), u"5 分前"_s);
    QCOMPARE(QCoreApplication::translate("QPlatformTheme", "Cancel"), u"キャンセル"_s);

    // A second call replaces the first: Chinese now, nothing Japanese left.
    loaded = I18n::installTranslations(app, QLocale(QLocale::Chinese, QLocale::SimplifiedChineseScript, QLocale::China));
    QCOMPARE(loaded.size(), 2);
    QVERIFY(loaded.first().endsWith(u"weft_zh_CN.qm"_s));
    QCOMPARE(QCoreApplication::translate("weft::WindowActions", "&File"), u"文件(&F)"_s);
    QCOMPARE(QCoreApplication::translate("weft::ChangesPane", "A", "added file"), u"增"_s);

    loaded = I18n::installTranslations(app, QLocale(QLocale::English, QLocale::UnitedStates));
    QVERIFY(loaded.isEmpty());
    QCOMPARE(QCoreApplication::translate("weft::WindowActions", "&File"), u"&File"_s);
    QCOMPARE(app.findChildren<QTranslator *>().size(), 0);
}

void TestTranslations::modelContexts()
{
    // Every area of model/ has its messages in both files, each one translated into the language
    // (not the English source copied): the errors the window shows from model/ are read there.
    static const QRegularExpression cjk(u"[\\x{3040}-\\x{30ff}\\x{3400}-\\x{9fff}]"_s);
    for (const QString &language : {u"ja"_s, u"zh_CN"_s}) {
        const TsFile ts = readTs(tsPath(language));
        QVERIFY2(ts.error.isEmpty(), qPrintable(ts.error));
        QHash<QString, int> counts;
        QStringList english;
        for (const TsMessage &m : ts.messages) {
            if (!modelContextNames().contains(m.context))
                continue;
            ++counts[m.context];
            if (m.unfinished || m.translations.isEmpty() || !m.translations.first().contains(cjk))
                english.append(m.context + u" \""_s + m.source + u'"');
        }
        for (const QString &context : modelContextNames())
            QVERIFY2(counts.value(context) > 0, qPrintable(language + u": no messages of "_s + context));
        QVERIFY2(english.isEmpty(), qPrintable(language + u": not translated:\n"_s + english.join(u'\n')));
        int total = 0;
        for (int n : std::as_const(counts))
            total += n;
        QVERIFY(total > 200);
    }
}

void TestTranslations::modelErrors_data()
{
    QTest::addColumn<QLocale>("locale");
    QTest::addColumn<QString>("hostileID");
    QTest::addColumn<QString>("missingSession");
    QTest::addColumn<QString>("unsafeKey");
    QTest::addColumn<QString>("damagedJson");
    QTest::addRow("en")
        << QLocale(QLocale::English, QLocale::UnitedStates)
        << u"the ID \"../../etc\" contains a path separator or is a relative path"_s
        << u"Session not found: ses_dff058141ffeXJnTNzT8vnXcKz"_s
        << u"refusing unsafe storage key component \"..\" (empty, \".\", \"..\", a path separator, NUL or "
           u"control characters)"_s
        << u"not valid JSON ("_s;
    QTest::addRow("ja")
        << QLocale(QLocale::Japanese, QLocale::Japan)
        << u"ID「../../etc」にパス区切り文字が含まれているか、相対パスになっています"_s
        << u"セッションが見つかりません: ses_dff058141ffeXJnTNzT8vnXcKz"_s
        << u"安全でないストレージキーの要素「..」は使用できません (空、\".\"、\"..\"、パス区切り文字、NUL または制御文字)"_s
        << u"有効な JSON ではありません ("_s;
    QTest::addRow("zh_CN") << QLocale(QLocale::Chinese, QLocale::SimplifiedChineseScript, QLocale::China)
                           << u"ID“../../etc”包含路径分隔符或是相对路径"_s
                           << u"未找到会话：ses_dff058141ffeXJnTNzT8vnXcKz"_s
                           << u"拒绝不安全的存储键组成部分“..”（空、\".\"、\"..\"、路径分隔符、NUL 或控制字符）"_s
                           << u"不是有效的 JSON（"_s;
}

void TestTranslations::modelErrors()
{
    QFETCH(QLocale, locale);
    QFETCH(QString, hostileID);
    QFETCH(QString, missingSession);
    QFETCH(QString, unsafeKey);
    QFETCH(QString, damagedJson);
    const QStringList loaded = I18n::installTranslations(*QCoreApplication::instance(), locale);
    QCOMPARE(loaded.isEmpty(), locale.language() == QLocale::English);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    auto store = std::make_shared<JsonStore>(dir.path());
    QVERIFY(store->initialize());
    SessionService service(store);

    // A hostile session ID, refused before it reaches a path (model/core).
    const Result<JsonObject> hostile = Transfer::exportSession(service, u"../../etc"_s);
    QVERIFY(!hostile);
    QCOMPARE(hostile.error().message, hostileID);
    QCOMPARE(hostile.error().toString(), hostileID); // no `where`, and nothing English around it

    // A session that is not there (model/session).
    const Result<JsonObject> missing
        = test::ownRead([&] { return Transfer::exportSession(service, u"ses_dff058141ffeXJnTNzT8vnXcKz"_s); });
    QVERIFY(!missing);
    QCOMPARE(missing.error().message, missingSession);

    // The storage refuses a key that leaves its folder, and reports a damaged file (model/store).
    JsonStorage storage(dir.filePath(u"storage"_s));
    const Result<JsonValue> unsafe = storage.read({u"session"_s, u".."_s});
    QVERIFY(!unsafe);
    QCOMPARE(unsafe.error().message, unsafeKey);
    QVERIFY(storage.writeRaw({u"session"_s, u"global"_s, u"ses_damaged"_s}, "{\"id\": \"ses_damaged\", \"title\":"));
    const Result<JsonValue> damaged = storage.read({u"session"_s, u"global"_s, u"ses_damaged"_s});
    QVERIFY(!damaged);
    QVERIFY2(damaged.error().message.startsWith(damagedJson), qPrintable(damaged.error().message));
    QVERIFY(damaged.error().where.endsWith(u"/storage/session/global/ses_damaged.json"_s)); // paths stay as they are

    // An export file that is no JSON, as File > Import reads it (model/session).
    const QString file = dir.filePath(u"damaged-export.json"_s);
    QFile out(file);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write("{\"info\": ");
    out.close();
    const Result<Transfer::ImportResult> imported = Transfer::importFile(service, file);
    QVERIFY(!imported);
    QVERIFY2(imported.error().message.startsWith(damagedJson), qPrintable(imported.error().message));
    QCOMPARE(imported.error().where, file);
}

void TestTranslations::checker_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("untranslated");
    QTest::addRow("english") << u"&Open"_s << true;
    QTest::addRow("english in a translation") << u"セッション (fork)"_s << true;
    QTest::addRow("japanese") << u"開く(&O)"_s << false;
    QTest::addRow("chinese") << u"打开(&O)"_s << false;
    QTest::addRow("product name") << u"Weft にコピー"_s << false;
    QTest::addRow("product name glued") << u"复制到 Weft(&C)"_s << false;
    QTest::addRow("word starting with a product name") << u"Wefts"_s << true;
    QTest::addRow("shortcut") << u"前の一致 (Shift+Enter、Shift+F3)"_s << false;
    QTest::addRow("path") << u"データ: /home/ada/.local/share/weft"_s << false;
    QTest::addRow("variable") << u"変数名 (例: MY_PROVIDER_API_KEY)"_s << false;
}

void TestTranslations::checker()
{
    QFETCH(QString, text);
    QFETCH(bool, untranslated);
    QCOMPARE(looksUntranslated(text), untranslated);

    // The walk finds a label, a button and a menu action that show English.
    QWidget root;
    auto *label = new QLabel(text, &root);
    auto *button = new QPushButton(u"開く"_s, &root);
    auto *menuBar = new QMenuBar(&root);
    QMenu *menu = menuBar->addMenu(u"ファイル(&F)"_s);
    menu->addAction(u"Quit"_s);
    const QStringList found = untranslatedStrings(&root, {});
    QCOMPARE(!found.filter(label->text()).isEmpty(), untranslated);
    QVERIFY(!found.filter(u": Quit"_s).isEmpty());
    QVERIFY(found.filter(button->text()).isEmpty());
}

QStringList TestTranslations::untranslatedStrings(QWidget *root, const QStringList &userData) const
{
    QStringList found;
    const auto check = [&](const QObject *object, const QString &what, QString text) {
        if (text.contains(u'<'))
            text = QTextDocumentFragment::fromHtml(text).toPlainText();
        for (const QString &data : userData)
            text.replace(data, QString());
        if (looksUntranslated(text))
            found.append(QString::fromLatin1(object->metaObject()->className()) + u' ' + object->objectName() + u' '
                         + what + u": " + text.simplified());
    };

    QList<QWidget *> widgets = root->findChildren<QWidget *>();
    widgets.prepend(root);
    for (QWidget *w : std::as_const(widgets)) {
        if (w->isWindow())
            check(w, u"windowTitle"_s, w->windowTitle());
        if (auto *label = qobject_cast<QLabel *>(w))
            check(w, u"text"_s, label->text());
        if (auto *button = qobject_cast<QAbstractButton *>(w))
            check(w, u"text"_s, button->text());
        if (auto *box = qobject_cast<QGroupBox *>(w))
            check(w, u"title"_s, box->title());
        if (auto *edit = qobject_cast<QLineEdit *>(w))
            check(w, u"placeholderText"_s, edit->placeholderText());
        if (auto *spin = qobject_cast<QSpinBox *>(w))
            check(w, u"suffix"_s, spin->suffix());
        if (auto *tabs = qobject_cast<QTabWidget *>(w)) {
            for (int i = 0; i < tabs->count(); ++i)
                check(w, u"tab"_s, tabs->tabText(i));
        }
        if (auto *menu = qobject_cast<QMenu *>(w))
            check(w, u"title"_s, menu->title());
        if (auto *table = qobject_cast<QTableWidget *>(w)) {
            for (int c = 0; c < table->columnCount(); ++c)
                if (QTableWidgetItem *item = table->horizontalHeaderItem(c))
                    check(w, u"header"_s, item->text());
        }
        if (auto *tree = qobject_cast<QTreeWidget *>(w)) {
            for (int c = 0; c < tree->columnCount(); ++c)
                check(w, u"header"_s, tree->headerItem()->text(c));
        }
        // Lists and trees (not the timeline, whose rows are the conversation): what their models show.
        // The font list holds the system's font names.
        const auto inFontCombo = [](const QWidget *widget) {
            for (; widget; widget = widget->parentWidget())
                if (qobject_cast<const QFontComboBox *>(widget))
                    return true;
            return false;
        };
        if (auto *view = qobject_cast<QAbstractItemView *>(w);
            view && view->model() && !qobject_cast<TimelineView *>(w) && !inFontCombo(w)) {
            const QAbstractItemModel *model = view->model();
            std::function<void(const QModelIndex &)> rows = [&](const QModelIndex &parent) {
                for (int r = 0; r < model->rowCount(parent); ++r) {
                    for (int c = 0; c < model->columnCount(parent); ++c)
                        check(w, u"item"_s, model->index(r, c, parent).data(Qt::DisplayRole).toString());
                    rows(model->index(r, 0, parent));
                }
            };
            rows({});
            for (int c = 0; c < model->columnCount(); ++c)
                check(w, u"header"_s, model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
        }
        // Menus, tool bars and buttons show their actions' texts and tool tips.
        for (QAction *action : w->actions()) {
            if (action->isSeparator())
                continue;
            check(action, u"action text"_s, action->text());
            check(action, u"action toolTip"_s, action->toolTip());
        }
    }
    // The window's actions that no widget lists yet (context menus).
    for (QAction *action : root->findChildren<QAction *>()) {
        if (action->isSeparator() || action->text().isEmpty())
            continue;
        check(action, u"action text"_s, action->text());
    }
    found.removeDuplicates();
    return found;
}

void TestTranslations::noUntranslatedString_data()
{
    QTest::addColumn<QLocale>("locale");
    QTest::addColumn<QString>("cjkFont");
    QTest::addRow("ja") << QLocale(QLocale::Japanese, QLocale::Japan) << u"Noto Sans CJK JP"_s;
    QTest::addRow("zh_CN") << QLocale(QLocale::Chinese, QLocale::SimplifiedChineseScript, QLocale::China)
                           << u"Noto Sans CJK SC"_s;
}

void TestTranslations::noUntranslatedString()
{
    QFETCH(QLocale, locale);
    QFETCH(QString, cjkFont);
    test::useStyle(test::lightPalette());
    // The language's own glyph forms (Han characters differ between Japanese and Chinese).
    QFont font = QApplication::font();
    font.setFamilies({u"DejaVu Sans"_s, cjkFont});
    QApplication::setFont(font);
    QSettings().clear();
    QVERIFY(!I18n::installTranslations(*QCoreApplication::instance(), locale).isEmpty());
    QLocale::setDefault(locale); // dates and numbers as the system locale gives them in the app

    test::FixtureDataDir fixture;
    auto store = std::make_shared<JsonStore>(fixture.path());
    QVERIFY(store->initialize());
    auto service = std::make_shared<SessionService>(store);
    MainWindow window(test::makeController(service, fixture.path()));
    const QString open = u"ses_dff058141ffeXJnTNzT8vnXcKt"_s;
    QVERIFY(test::showAndOpen(window, open, QSize(1440, 900)));
    QVERIFY(test::settle(window));

    // The sessions' own texts (titles, folders) and the data folder are the user's, not ours.
    // The agents' names are identifiers of the config (OpenCode's "build" and "plan", or the user's
    // own), shown as they are written there.
    QStringList userData{fixture.path(), u"local"_s /* the provider added below */, u"build"_s, u"plan"_s};
    const SessionsModel *model = window.sessionsModel();
    for (int r = 0; r < model->rowCount(); ++r) {
        const QModelIndex idx = model->index(r, 0);
        userData.append(idx.data(Qt::DisplayRole).toString());
        userData.append(idx.data(SessionsModel::DirectoryRole).toString());
        userData.append(idx.data(SessionsModel::ProjectNameRole).toString());
    }
    userData.removeAll(QString());
    // Longest first, so that a title is removed before a shorter one inside it.
    std::sort(userData.begin(), userData.end(), [](const QString &a, const QString &b) { return a.size() > b.size(); });

    const QString tag = QString::fromLatin1(QTest::currentDataTag());
    const QString shots = QStringLiteral(WEFT_BINARY_DIR "/screenshots/");
    QVERIFY(window.grab().save(shots + tag + u".png"_s));

    QStringList found = untranslatedStrings(&window, userData);

    // The dialogs, as the window opens them.
    window.findBar()->show();
    found += untranslatedStrings(window.findBar(), userData);
    found += untranslatedStrings(window.sources()->searchPanel(), userData);

    QTemporaryDir config;
    SettingsDialog settings(config.filePath(u"weft.json"_s), &window);
    settings.resize(760, 560);
    settings.addProvider(u"local"_s); // the provider form filled
    for (auto page : {SettingsDialog::Page::Providers, SettingsDialog::Page::Compaction, SettingsDialog::Page::Appearance}) {
        settings.setCurrentPage(page);
        found += untranslatedStrings(&settings, userData);
    }
    settings.setCurrentPage(SettingsDialog::Page::Providers);
    settings.show();
    QVERIFY(QTest::qWaitForWindowExposed(&settings));
    QVERIFY(settings.grab().save(shots + tag + u"-settings.png"_s));
    settings.setCurrentPage(SettingsDialog::Page::Compaction);
    QVERIFY(settings.grab().save(shots + tag + u"-settings-compaction.png"_s));
    settings.hide();

    CompactionDialog compaction(open, &window);
    found += untranslatedStrings(&compaction, userData);
    compaction.setRunning();
    found += untranslatedStrings(&compaction, userData);
    compaction.show();
    QVERIFY(QTest::qWaitForWindowExposed(&compaction));
    QVERIFY(compaction.grab().save(shots + tag + u"-compaction.png"_s));
    compaction.setFailed(ErrorWording::compactionFailed(MessageError::aborted(u"stopped"_s)));
    found += untranslatedStrings(&compaction, userData);

    ProblemsDialog problems({StoreProblem{fixture.path() + u"/storage/session/broken.json"_s, u"-"_s}}, &window);
    found += untranslatedStrings(&problems, userData);

    found.removeDuplicates();
    QVERIFY2(found.isEmpty(), qPrintable(u"Visible strings in English:\n"_s + found.join(u'\n')));
}

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
