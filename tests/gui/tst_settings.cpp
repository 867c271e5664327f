// SPDX-License-Identifier: GPL-3.0-or-later
// The settings dialog: what it saves comes back in a new dialog (a restart), an API key stored
// in the config makes the file owner-only and never reaches the log, keys Weft does not know
// survive a save, the compaction settings reach the processor's setup, appearance applies live,
// and the main window opens the dialog.

#include "appearance.h"
#include "compaction/compaction.h"
#include "core/json.h"
#include "core/logging.h"
#include "guitest.h"
#include "mainwindow.h"
#include "processor/setup.h"
#include "session/sessionservice.h"
#include "settingsdialog.h"
#include "store/jsonstore.h"
#include "style.h"
#include "testdata.h"
#include "timelineview.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFontComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLoggingCategory>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>
#include <QVBoxLayout>

#include <sys/stat.h>

using namespace Qt::StringLiterals;
using namespace weft;

namespace
{

template<typename T>
T *child(QObject *parent, const QString &name)
{
    T *found = parent->findChild<T *>(name);
    if (!found)
        qWarning("no child %s", qPrintable(name));
    return found;
}

void setCell(SettingsDialog &dialog, int row, int column, const QString &text)
{
    auto *table = child<QTableWidget>(&dialog, u"modelTable"_s);
    table->item(row, column)->setText(text);
}

QString cell(SettingsDialog &dialog, int row, int column)
{
    auto *table = child<QTableWidget>(&dialog, u"modelTable"_s);
    return table->item(row, column) ? table->item(row, column)->text() : QString();
}

void selectData(QComboBox *box, const QVariant &data)
{
    box->setCurrentIndex(box->findData(data));
}

JsonObject readJson(const QString &path)
{
    const std::optional<JsonValue> value = parseJson(test::readFile(path));
    return value ? value->toObject() : JsonObject();
}

bool writeText(const QString &path, const QByteArray &text)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(text) == text.size();
}

int fileMode(const QString &path)
{
    struct stat st {};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return -1;
    return int(st.st_mode & 07777);
}

} // namespace

class TestSettings : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void persistsAcrossRestarts();
    void apiKeyIsPrivateAndNeverLogged();
    void unknownKeysSurvive();
    void commentsAreAnnounced();
    void brokenConfigIsLeftAlone();
    void invalidInputIsRefused();
    void compactionReachesTheProcessor_data();
    void compactionReachesTheProcessor();
    void appearanceAppliesLive();
    void mainWindowOpensTheDialog();
    void screenshots();

private:
    QTemporaryDir m_settings;
    QTemporaryDir m_dir;
};

void TestSettings::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(test::initGuiTestCase(m_settings));
    // The environment must not override what the dialog saves.
    qunsetenv("OPENCODE_DISABLE_AUTOCOMPACT");
    qunsetenv("OPENCODE_DISABLE_PRUNE");
}

void TestSettings::cleanup()
{
    Appearance::Settings().save();
    Appearance::apply(Appearance::Settings());
    QApplication::setPalette(test::lightPalette());
}

void TestSettings::persistsAcrossRestarts()
{
    const QString path = m_dir.filePath(u"restart/weft.json"_s);
    {
        SettingsDialog dialog(path);
        QVERIFY(dialog.loadError().isEmpty());
        QCOMPARE(child<QListWidget>(&dialog, u"providerList"_s)->count(), 0);
        QCOMPARE(dialog.addProvider(u"local"_s), u"local"_s);
        child<QComboBox>(&dialog, u"providerNpm"_s)->setCurrentText(u"@ai-sdk/openai-compatible"_s);
        child<QLineEdit>(&dialog, u"providerName"_s)->setText(u"Local server"_s);
        child<QLineEdit>(&dialog, u"providerBaseURL"_s)->setText(u"http://127.0.0.1:11434/v1"_s);
        selectData(child<QComboBox>(&dialog, u"keySource"_s), int(SettingsDialog::KeySource::Variable));
        child<QLineEdit>(&dialog, u"apiKey"_s)->setText(u"LOCAL_API_KEY"_s);
        const int row = dialog.addModel(u"qwen3-coder"_s);
        QCOMPARE(row, 0);
        setCell(dialog, row, 1, u"Qwen3 Coder"_s);
        setCell(dialog, row, 2, u"262144"_s);
        setCell(dialog, row, 3, u"65536"_s);
        setCell(dialog, row, 4, u"0.45"_s);
        setCell(dialog, row, 5, u"1.8"_s);
        child<QComboBox>(&dialog, u"defaultModel"_s)->setCurrentText(u"local/qwen3-coder"_s);
        child<QComboBox>(&dialog, u"smallModel"_s)->setCurrentText(u"local/qwen3-coder"_s);

        dialog.setCurrentPage(SettingsDialog::Page::Compaction);
        child<QCheckBox>(&dialog, u"autoCompact"_s)->setChecked(false);
        selectData(child<QComboBox>(&dialog, u"strategy"_s), u"summary-tail"_s);
        selectData(child<QComboBox>(&dialog, u"estimator"_s), u"gemini"_s);
        child<QSpinBox>(&dialog, u"reserved"_s)->setValue(20000);

        dialog.setCurrentPage(SettingsDialog::Page::Appearance);
        selectData(child<QComboBox>(&dialog, u"theme"_s), u"dark"_s);
        child<QCheckBox>(&dialog, u"customFont"_s)->setChecked(true);
        child<QFontComboBox>(&dialog, u"fontFamily"_s)->setCurrentFont(QFont(u"DejaVu Serif"_s));
        child<QSpinBox>(&dialog, u"fontSize"_s)->setValue(13);

        QVERIFY(dialog.hasChanges());
        QSignalSpy saved(&dialog, &SettingsDialog::configSaved);
        QVERIFY2(dialog.apply(), qPrintable(dialog.errorText()));
        QCOMPARE(saved.count(), 1);
        QCOMPARE(saved.at(0).at(0).toString(), path);
        QVERIFY(!dialog.hasChanges());
    }

    // The file is OpenCode's format.
    const JsonObject json = readJson(path);
    QCOMPARE(json.string(u"$schema"), u"https://opencode.ai/config.json"_s);
    QCOMPARE(json.string(u"model"), u"local/qwen3-coder"_s);
    const JsonObject local = json.object(u"provider").object(u"local");
    QCOMPARE(local.string(u"npm"), u"@ai-sdk/openai-compatible"_s);
    QCOMPARE(local.object(u"options").string(u"apiKey"), u"{env:LOCAL_API_KEY}"_s);
    const JsonObject model = local.object(u"models").object(u"qwen3-coder");
    QCOMPARE(model.object(u"limit").integer(u"context"), 262144);
    QCOMPARE(model.object(u"cost").number(u"input"), 0.45);
    QCOMPARE(json.object(u"compaction").value(u"auto"), JsonValue(false));
    QVERIFY(!json.object(u"compaction").contains(u"prune")); // the default is not written

    // A new dialog (what a restart shows) reads it all back.
    SettingsDialog dialog(path);
    QVERIFY(dialog.selectProvider(u"local"_s));
    QCOMPARE(child<QLineEdit>(&dialog, u"providerID"_s)->text(), u"local"_s);
    QCOMPARE(child<QLineEdit>(&dialog, u"providerName"_s)->text(), u"Local server"_s);
    QCOMPARE(child<QComboBox>(&dialog, u"providerNpm"_s)->currentText(), u"@ai-sdk/openai-compatible"_s);
    QCOMPARE(child<QLineEdit>(&dialog, u"providerBaseURL"_s)->text(), u"http://127.0.0.1:11434/v1"_s);
    QCOMPARE(child<QComboBox>(&dialog, u"keySource"_s)->currentData().toInt(), int(SettingsDialog::KeySource::Variable));
    QCOMPARE(child<QLineEdit>(&dialog, u"apiKey"_s)->text(), u"LOCAL_API_KEY"_s);
    QCOMPARE(cell(dialog, 0, 0), u"qwen3-coder"_s);
    QCOMPARE(cell(dialog, 0, 1), u"Qwen3 Coder"_s);
    QCOMPARE(cell(dialog, 0, 2), u"262144"_s);
    QCOMPARE(cell(dialog, 0, 3), u"65536"_s);
    QCOMPARE(cell(dialog, 0, 4), u"0.45"_s);
    QCOMPARE(cell(dialog, 0, 5), u"1.8"_s);
    QCOMPARE(child<QComboBox>(&dialog, u"defaultModel"_s)->currentText(), u"local/qwen3-coder"_s);
    QCOMPARE(child<QComboBox>(&dialog, u"smallModel"_s)->currentText(), u"local/qwen3-coder"_s);
    QVERIFY(!child<QCheckBox>(&dialog, u"autoCompact"_s)->isChecked());
    QVERIFY(child<QCheckBox>(&dialog, u"prune"_s)->isChecked());
    QCOMPARE(child<QComboBox>(&dialog, u"strategy"_s)->currentData().toString(), u"summary-tail"_s);
    QCOMPARE(child<QComboBox>(&dialog, u"estimator"_s)->currentData().toString(), u"gemini"_s);
    QCOMPARE(child<QSpinBox>(&dialog, u"reserved"_s)->value(), 20000);
    QCOMPARE(child<QComboBox>(&dialog, u"theme"_s)->currentData().toString(), u"dark"_s);
    QVERIFY(child<QCheckBox>(&dialog, u"customFont"_s)->isChecked());
    QCOMPARE(child<QFontComboBox>(&dialog, u"fontFamily"_s)->currentFont().family(), u"DejaVu Serif"_s);
    QCOMPARE(child<QSpinBox>(&dialog, u"fontSize"_s)->value(), 13);
    QVERIFY(!dialog.hasChanges());

    // The appearance is in QSettings, where the next start reads it.
    const Appearance::Settings appearance = Appearance::Settings::load();
    QCOMPARE(appearance.theme, Appearance::Theme::Dark);
    QVERIFY(appearance.timelineFont);
    QCOMPARE(appearance.timelineFont->family(), u"DejaVu Serif"_s);
    QCOMPARE(appearance.timelineFont->pointSize(), 13);

    // The processor reads the same providers and models.
    const Result<ProcessorSetup> setup = loadProcessorSetup(path, m_dir.path());
    QVERIFY2(setup, setup ? "" : qPrintable(setup.error().toString()));
    const Result<ModelInfo> info = setup->factory->modelInfo(u"local/qwen3-coder"_s);
    QVERIFY(info);
    QCOMPARE(info->limit.context, 262144);
    QCOMPARE(info->limit.output, 65536);
    QCOMPARE(info->cost.base.output, 1.8);
}

void TestSettings::apiKeyIsPrivateAndNeverLogged()
{
    // Every message of Weft's categories, debug included, goes to the log file.
    const QString dataDir = m_dir.filePath(u"logdata"_s);
    qputenv("WEFT_DEBUG", "1");
    const QString log = Logging::start(dataDir);
    qunsetenv("WEFT_DEBUG");
    QVERIFY(!log.isEmpty());

    // An existing config that anyone may read, without a key.
    const QString path = m_dir.filePath(u"private/weft.json"_s);
    QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
    QVERIFY(writeText(path,
                      "{\n  \"provider\": {\n    \"acme\": {\n      \"npm\": \"@ai-sdk/openai-compatible\",\n"
                      "      \"options\": { \"baseURL\": \"http://127.0.0.1:9/v1\" },\n"
                      "      \"models\": { \"m1\": {} }\n    }\n  },\n  \"model\": \"acme/m1\"\n}\n"));
    QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther));
    QCOMPARE(fileMode(path), 0644);

    // A key with nothing that looks like a key (no "sk-" prefix): only not logging it keeps it
    // out of the log, not redact().
    const QString secret = u"WfT4q9ZxL2mN7pR3vB8kD1sG6hJ5cY0e"_s;
    QVERIFY(Logging::redact(u"value "_s + secret).contains(secret));
    {
        SettingsDialog dialog(path);
        QVERIFY(dialog.selectProvider(u"acme"_s));
        selectData(child<QComboBox>(&dialog, u"keySource"_s), int(SettingsDialog::KeySource::ConfigFile));
        auto *key = child<QLineEdit>(&dialog, u"apiKey"_s);
        QCOMPARE(key->echoMode(), QLineEdit::Password);
        key->setText(secret);
        QVERIFY2(dialog.apply(), qPrintable(dialog.errorText()));
    }
    QCOMPARE(fileMode(path), 0600);
    const QFile::Permissions permissions = QFile::permissions(path);
    QVERIFY(permissions & QFile::ReadOwner);
    QVERIFY(!(permissions & (QFile::ReadGroup | QFile::WriteGroup | QFile::ReadOther | QFile::WriteOther)));
    QCOMPARE(readJson(path).object(u"provider").object(u"acme").object(u"options").string(u"apiKey"), secret);

    // A new file is owner-only too, from its first byte.
    const QString fresh = m_dir.filePath(u"private/new/weft.json"_s);
    {
        SettingsDialog dialog(fresh);
        dialog.addProvider(u"other"_s);
        child<QLineEdit>(&dialog, u"providerBaseURL"_s)->setText(u"http://127.0.0.1:9/v1"_s);
        selectData(child<QComboBox>(&dialog, u"keySource"_s), int(SettingsDialog::KeySource::ConfigFile));
        child<QLineEdit>(&dialog, u"apiKey"_s)->setText(secret);
        QVERIFY2(dialog.apply(), qPrintable(dialog.errorText()));
    }
    QCOMPARE(fileMode(fresh), 0600);

    // What Weft logs while it uses the key: the setup, the provider, a request's model.
    const Result<ProcessorSetup> setup = loadProcessorSetup(path, dataDir);
    QVERIFY(setup);
    const Result<ResolvedModel> model = setup->config.resolveModel(u"acme/m1"_s);
    QVERIFY(model);
    QCOMPARE(model->settings.apiKey, secret);
    const Result<Provider *> provider = setup->factory->create(u"acme/m1"_s, nullptr, this);
    QVERIFY(provider);
    delete provider.value();
    // A failing save logs nothing of the key either.
    {
        SettingsDialog dialog(path);
        QVERIFY(dialog.selectProvider(u"acme"_s));
        dialog.addModel(QString());
        QVERIFY(!dialog.apply());
    }

    const QByteArray text = test::readFile(log);
    QVERIFY2(text.contains("saved the config"), text.constData()); // the log did record the saves
    QVERIFY2(text.contains("provider"), text.constData());
    QVERIFY2(!text.contains(secret.toUtf8()), "the API key is in the log file");
    QVERIFY(!text.contains(secret.left(12).toUtf8()));
    QLoggingCategory::setFilterRules(QString());
}

void TestSettings::unknownKeysSurvive()
{
    const QString path = m_dir.filePath(u"unknown/weft.json"_s);
    QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
    QVERIFY(writeText(m_dir.filePath(u"unknown/anthropic.key"_s), "not-a-real-key\n"));
    const QByteArray original = "{\n"
                                "  \"$schema\": \"https://opencode.ai/config.json\",\n"
                                "  \"theme\": \"tokyonight\",\n"
                                "  \"model\": \"acme/big\",\n"
                                "  \"provider\": {\n"
                                "    \"acme\": {\n"
                                "      \"npm\": \"@ai-sdk/openai-compatible\",\n"
                                "      \"name\": \"Acme\",\n"
                                "      \"options\": {\n"
                                "        \"baseURL\": \"http://127.0.0.1:9/v1\",\n"
                                "        \"apiKey\": \"{env:ACME_KEY}\",\n"
                                "        \"headers\": { \"X-Team\": \"weft\" },\n"
                                "        \"timeout\": 60000\n"
                                "      },\n"
                                "      \"models\": {\n"
                                "        \"big\": {\n"
                                "          \"name\": \"Big\",\n"
                                "          \"limit\": { \"context\": 128000, \"output\": 4096 },\n"
                                "          \"options\": { \"reasoningEffort\": \"high\" },\n"
                                "          \"cost\": { \"input\": 0.3, \"output\": 1.2, \"cache\": { \"read\": 0.03 } },\n"
                                "          \"release_date\": \"2025-01-01\"\n"
                                "        }\n"
                                "      },\n"
                                "      \"whitelist\": [\"big\"]\n"
                                "    },\n"
                                "    \"anthropic\": { \"options\": { \"apiKey\": \"{file:anthropic.key}\" } }\n"
                                "  },\n"
                                "  \"keybinds\": { \"leader\": \"ctrl+x\" },\n"
                                "  \"permission\": { \"bash\": \"ask\", \"edit\": \"allow\" },\n"
                                "  \"agent\": { \"build\": { \"temperature\": 0.2 } },\n"
                                "  \"compaction\": { \"auto\": true, \"prompt\": \"Summarize tersely.\" },\n"
                                "  \"experimental\": { \"hooks\": { \"file_edited\": {} } }\n"
                                "}\n";
    QVERIFY(writeText(path, original));

    // Opening and saving without a change rewrites nothing that was there.
    {
        SettingsDialog dialog(path);
        QVERIFY(dialog.loadError().isEmpty());
        QCOMPARE(child<QListWidget>(&dialog, u"providerList"_s)->count(), 2);
        QVERIFY(dialog.selectProvider(u"anthropic"_s));
        QCOMPARE(child<QComboBox>(&dialog, u"keySource"_s)->currentData().toInt(), int(SettingsDialog::KeySource::File));
        QCOMPARE(child<QLineEdit>(&dialog, u"apiKey"_s)->text(), u"anthropic.key"_s);
        QVERIFY(dialog.selectProvider(u"acme"_s));
        QCOMPARE(child<QComboBox>(&dialog, u"keySource"_s)->currentData().toInt(), int(SettingsDialog::KeySource::Variable));
        QCOMPARE(child<QLineEdit>(&dialog, u"apiKey"_s)->text(), u"ACME_KEY"_s);
        // One change: the base URL.
        child<QLineEdit>(&dialog, u"providerBaseURL"_s)->setText(u"http://127.0.0.1:10/v1"_s);
        QVERIFY2(dialog.apply(), qPrintable(dialog.errorText()));
    }

    JsonObject expected = parseJson(original)->toObject();
    expected.ref(u"provider"_s).objectRef().ref(u"acme"_s).objectRef().ref(u"options"_s).objectRef().insert(
        u"baseURL"_s, u"http://127.0.0.1:10/v1"_s);
    const JsonObject written = readJson(path);
    // Same keys, same values, same order.
    QCOMPARE(QString::fromUtf8(toJson(written)), QString::fromUtf8(toJson(expected)));
    // And the file loads as Weft's config, with the reference still a reference.
    QVERIFY(Config::load(path));
    QVERIFY(test::readFile(path).contains("{env:ACME_KEY}"));
}

void TestSettings::commentsAreAnnounced()
{
    const QString path = m_dir.filePath(u"comments/weft.json"_s);
    QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
    QVERIFY(writeText(path, "{\n  // my models\n  \"model\": \"acme/big\",\n  \"theme\": \"x\",\n}\n"));
    SettingsDialog dialog(path);
    QVERIFY(dialog.loadError().isEmpty());
    QVERIFY(child<QLabel>(&dialog, u"commentsNote"_s)->isVisibleTo(&dialog));
    QCOMPARE(child<QComboBox>(&dialog, u"defaultModel"_s)->currentText(), u"acme/big"_s);
    child<QComboBox>(&dialog, u"defaultModel"_s)->setCurrentText(u"acme/small"_s);
    QVERIFY2(dialog.apply(), qPrintable(dialog.errorText()));
    QVERIFY(!child<QLabel>(&dialog, u"commentsNote"_s)->isVisibleTo(&dialog));
    const JsonObject json = readJson(path);
    QCOMPARE(json.keys(), (QStringList{u"model"_s, u"theme"_s}));
    QCOMPARE(json.string(u"model"), u"acme/small"_s);
}

void TestSettings::brokenConfigIsLeftAlone()
{
    const QString path = m_dir.filePath(u"broken/weft.json"_s);
    QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
    const QByteArray broken = "{ \"model\": \"acme/big\", \"provider\": { \n";
    QVERIFY(writeText(path, broken));
    SettingsDialog dialog(path);
    QVERIFY(!dialog.loadError().isEmpty());
    QVERIFY(dialog.loadError().contains(path));
    QVERIFY(!child<QWidget>(&dialog, u"providersPage"_s)->isEnabled());
    QVERIFY(!child<QWidget>(&dialog, u"compactionPage"_s)->isEnabled());
    QVERIFY(dialog.errorText().contains(path));
    // Appearance still works; the file stays as it was.
    selectData(child<QComboBox>(&dialog, u"theme"_s), u"light"_s);
    QVERIFY(dialog.apply());
    QCOMPARE(test::readFile(path), broken);
    QCOMPARE(Appearance::Settings::load().theme, Appearance::Theme::Light);
}

void TestSettings::invalidInputIsRefused()
{
    const QString path = m_dir.filePath(u"invalid/weft.json"_s);
    SettingsDialog dialog(path);
    dialog.addProvider(u"acme"_s);
    child<QLineEdit>(&dialog, u"providerBaseURL"_s)->setText(u"http://127.0.0.1:9/v1"_s);
    const int row = dialog.addModel(u"m"_s);
    setCell(dialog, row, 2, u"lots"_s);
    QVERIFY(!dialog.apply());
    QVERIFY(dialog.errorText().contains(u"acme/m"_s));
    QVERIFY(!QFile::exists(path));
    setCell(dialog, row, 2, u"1000"_s);
    child<QLineEdit>(&dialog, u"providerID"_s)->setText(u"ac me"_s);
    QVERIFY(!dialog.apply());
    child<QLineEdit>(&dialog, u"providerID"_s)->setText(u"acme"_s);
    selectData(child<QComboBox>(&dialog, u"keySource"_s), int(SettingsDialog::KeySource::Variable));
    child<QLineEdit>(&dialog, u"apiKey"_s)->setText(u"NOT A NAME"_s);
    QVERIFY(!dialog.apply());
    QVERIFY(!QFile::exists(path));
    child<QLineEdit>(&dialog, u"apiKey"_s)->setText(u"ACME_API_KEY"_s);
    QVERIFY2(dialog.apply(), qPrintable(dialog.errorText()));
    QVERIFY(dialog.errorText().isEmpty());
    // Half a limit pair gets its other half (OpenCode's schema wants both): 0, unknown.
    const JsonObject limit = readJson(path).object(u"provider").object(u"acme").object(u"models").object(u"m").object(u"limit");
    QCOMPARE(limit.integer(u"context"), 1000);
    QVERIFY(limit.contains(u"output"));
    QCOMPARE(limit.integer(u"output"), 0);
}

void TestSettings::compactionReachesTheProcessor_data()
{
    QTest::addColumn<bool>("autoCompact");
    QTest::addColumn<bool>("prune");
    QTest::addColumn<QString>("strategy");
    QTest::addColumn<QString>("estimator");
    QTest::addColumn<int>("reserved");
    QTest::addColumn<QString>("model");
    QTest::addRow("defaults") << true << true << u"summary"_s << u"opencode"_s << 0 << QString();
    QTest::addRow("gemini-tail") << false << true << u"summary-tail"_s << u"gemini"_s << 0 << QString();
    QTest::addRow("no-prune-auto-estimate") << true << false << u"summary"_s << u"auto"_s << 32000 << u"acme/small"_s;
    QTest::addRow("all-off") << false << false << u"summary-tail"_s << u"opencode"_s << 5000 << u"acme/big"_s;
}

void TestSettings::compactionReachesTheProcessor()
{
    QFETCH(bool, autoCompact);
    QFETCH(bool, prune);
    QFETCH(QString, strategy);
    QFETCH(QString, estimator);
    QFETCH(int, reserved);
    QFETCH(QString, model);

    const QString path = m_dir.filePath(u"compaction/%1/weft.json"_s.arg(QString::fromLatin1(QTest::currentDataTag())));
    {
        SettingsDialog dialog(path);
        // Start from the opposite, so that every value is a change.
        child<QCheckBox>(&dialog, u"autoCompact"_s)->setChecked(!autoCompact);
        child<QCheckBox>(&dialog, u"prune"_s)->setChecked(!prune);
        child<QCheckBox>(&dialog, u"autoCompact"_s)->setChecked(autoCompact);
        child<QCheckBox>(&dialog, u"prune"_s)->setChecked(prune);
        selectData(child<QComboBox>(&dialog, u"strategy"_s), strategy);
        selectData(child<QComboBox>(&dialog, u"estimator"_s), estimator);
        child<QSpinBox>(&dialog, u"reserved"_s)->setValue(reserved);
        child<QComboBox>(&dialog, u"compactionModel"_s)->setCurrentText(model);
        QVERIFY2(dialog.apply(), qPrintable(dialog.errorText()));
    }

    const Result<ProcessorSetup> setup = loadProcessorSetup(path, m_dir.path());
    QVERIFY2(setup, setup ? "" : qPrintable(setup.error().toString()));
    const Result<Compaction::Settings> settings = Compaction::Settings::fromConfig(setup->config.compaction);
    QVERIFY(settings);
    QCOMPARE(settings->autoCompact, autoCompact);
    QCOMPARE(settings->prune, prune);
    QCOMPARE(Compaction::strategyName(settings->strategy), strategy);
    QCOMPARE(Compaction::estimatorName(settings->estimator), estimator);
    QCOMPARE(settings->reserved.has_value(), reserved > 0);
    if (reserved > 0)
        QCOMPARE(*settings->reserved, qint64(reserved));
    QCOMPARE(settings->model, model);
    QCOMPARE(settings->autoDisabledBy, autoCompact ? QString() : u"compaction.auto"_s);
    QCOMPARE(settings->pruneDisabledBy, prune ? QString() : u"compaction.prune"_s);

    // And a dialog opened on that file shows the same.
    SettingsDialog again(path);
    QCOMPARE(child<QCheckBox>(&again, u"autoCompact"_s)->isChecked(), autoCompact);
    QCOMPARE(child<QCheckBox>(&again, u"prune"_s)->isChecked(), prune);
    QCOMPARE(child<QComboBox>(&again, u"strategy"_s)->currentData().toString(), strategy);
    QCOMPARE(child<QComboBox>(&again, u"estimator"_s)->currentData().toString(), estimator);
    QCOMPARE(child<QSpinBox>(&again, u"reserved"_s)->value(), reserved);
    QCOMPARE(child<QComboBox>(&again, u"compactionModel"_s)->currentText(), model);
}

void TestSettings::appearanceAppliesLive()
{
    // A timeline inside a window, as in the main window.
    QWidget window;
    auto *layout = new QVBoxLayout(&window);
    auto *view = new TimelineView(&window);
    layout->addWidget(view);
    TimelineView &timeline = *view;
    window.resize(400, 300);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(!Style::isDark(timeline.palette()));
    const QString appFamily = QApplication::font().family();

    SettingsDialog dialog(m_dir.filePath(u"appearance/weft.json"_s));
    QSignalSpy changed(&dialog, &SettingsDialog::appearanceChanged);
    selectData(child<QComboBox>(&dialog, u"theme"_s), u"dark"_s);
    child<QCheckBox>(&dialog, u"customFont"_s)->setChecked(true);
    child<QFontComboBox>(&dialog, u"fontFamily"_s)->setCurrentFont(QFont(u"DejaVu Sans Mono"_s));
    child<QSpinBox>(&dialog, u"fontSize"_s)->setValue(15);
    QVERIFY(dialog.apply());
    QCOMPARE(changed.count(), 1);
    // Applied without a restart: the palette, the open timeline's font, and the dialog itself.
    QVERIFY(Style::isDark(QApplication::palette()));
    // (Widgets take a new application palette from a posted event.)
    QTRY_VERIFY(Style::isDark(timeline.palette()));
    QTRY_VERIFY(Style::isDark(dialog.palette()));
    QCOMPARE(timeline.font().family(), u"DejaVu Sans Mono"_s);
    QCOMPARE(timeline.font().pointSize(), 15);
    QVERIFY(!QFile::exists(m_dir.filePath(u"appearance/weft.json"_s))); // the config was not touched

    selectData(child<QComboBox>(&dialog, u"theme"_s), u"light"_s);
    QVERIFY(dialog.apply());
    QTRY_VERIFY(!Style::isDark(timeline.palette()));
    QCOMPARE(timeline.palette().color(QPalette::Window), Appearance::lightPalette().color(QPalette::Window));

    // From dark back to the system's: the forced palette and font are gone.
    selectData(child<QComboBox>(&dialog, u"theme"_s), u"dark"_s);
    QVERIFY(dialog.apply());
    QTRY_VERIFY(Style::isDark(timeline.palette()));
    selectData(child<QComboBox>(&dialog, u"theme"_s), u"system"_s);
    child<QCheckBox>(&dialog, u"customFont"_s)->setChecked(false);
    QVERIFY(dialog.apply());
    QCOMPARE(changed.count(), 4);
    QTRY_VERIFY(!Style::isDark(timeline.palette()));
    QCOMPARE(timeline.font().family(), appFamily);
    QVERIFY(!Appearance::Settings::load().timelineFont);
}

void TestSettings::mainWindowOpensTheDialog()
{
    test::FixtureDataDir data;
    auto service = std::make_shared<SessionService>(std::make_shared<JsonStore>(data.path()));
    const QString path = m_dir.filePath(u"window/weft.json"_s);
    QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
    QVERIFY(writeText(path, "{ \"model\": \"acme/big\" }\n"));
    Result<ProcessorSetup> setup = loadProcessorSetup(path, data.path());
    QVERIFY(setup);
    MainWindow window(test::makeController(service, data.path(), setup.value()));
    QAction *configure = window.action(u"configure"_s);
    QVERIFY(configure);
    QCOMPARE(configure->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Comma));
    QCOMPARE(configure->menuRole(), QAction::PreferencesRole);
    QVERIFY(!window.windowIcon().isNull());
    configure->trigger();
    auto *dialog = window.findChild<SettingsDialog *>();
    QVERIFY(dialog);
    QCOMPARE(dialog->configPath(), path);
    QCOMPARE(child<QComboBox>(dialog, u"defaultModel"_s)->currentText(), u"acme/big"_s);
    dialog->reject();
}

void TestSettings::screenshots()
{
    // For a human to look at: <build>/screenshots/settings-<page>-<palette>.png.
    const QString path = m_dir.filePath(u"shots/weft.json"_s);
    QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
    QVERIFY(writeText(path,
                      "{\n  \"model\": \"anthropic/claude-sonnet-4-5\",\n  \"small_model\": \"anthropic/claude-haiku-4-5\",\n"
                      "  \"provider\": {\n"
                      "    \"anthropic\": { \"options\": { \"apiKey\": \"{env:ANTHROPIC_API_KEY}\" } },\n"
                      "    \"ollama\": { \"npm\": \"@ai-sdk/openai-compatible\", \"name\": \"Ollama\",\n"
                      "      \"options\": { \"baseURL\": \"http://127.0.0.1:11434/v1\" },\n"
                      "      \"models\": { \"qwen3-coder:30b\": { \"name\": \"Qwen3 Coder 30B\", \"limit\": { \"context\": 262144, "
                      "\"output\": 65536 } },\n"
                      "        \"gpt-oss:20b\": { \"limit\": { \"context\": 131072, \"output\": 32768 }, \"cost\": { \"input\": 0, "
                      "\"output\": 0 } } } },\n"
                      "    \"deepseek\": { \"options\": { \"apiKey\": \"sk-not-a-real-key-000000\" },\n"
                      "      \"models\": { \"deepseek-chat\": { \"limit\": { \"context\": 128000, \"output\": 8192 }, \"cost\": { "
                      "\"input\": 0.28, \"output\": 0.42, \"cache_read\": 0.028 } } } }\n"
                      "  },\n  \"compaction\": { \"strategy\": \"summary-tail\", \"estimator\": \"auto\" }\n}\n"));
    QVERIFY(QDir().mkpath(QStringLiteral(WEFT_BINARY_DIR "/screenshots")));
    for (const auto &[name, palette] : {std::pair{u"light"_s, test::lightPalette()}, std::pair{u"dark"_s, test::darkPalette()}}) {
        QApplication::setPalette(palette);
        SettingsDialog dialog(path);
        dialog.resize(960, 640);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QVERIFY(dialog.selectProvider(u"ollama"_s));
        for (const auto &[page, pageName] : {std::pair{SettingsDialog::Page::Providers, u"providers"_s},
                                              std::pair{SettingsDialog::Page::Compaction, u"compaction"_s},
                                              std::pair{SettingsDialog::Page::Appearance, u"appearance"_s}}) {
            dialog.setCurrentPage(page);
            QCoreApplication::processEvents();
            const QString file = QStringLiteral(WEFT_BINARY_DIR "/screenshots/settings-%1-%2.png").arg(pageName, name);
            QVERIFY(dialog.grab().save(file));
        }
    }
}

QTEST_MAIN(TestSettings)
#include "tst_settings.moc"
