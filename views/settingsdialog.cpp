// SPDX-License-Identifier: GPL-3.0-or-later
#include "settingsdialog.h"

#include "composer.h"

#include "appearance.h"
#include "desktopnotifier.h"
#include "mcpserverspage.h"
#include "searchsettingspage.h"
#include "app/mcpservers.h"
#include "style.h"
#include "worktreepresenter.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFontComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{

enum Column { ColID, ColName, ColContext, ColOutput, ColInput, ColOutputCost, ColCacheRead, ColCacheWrite, ColCount };

/// How a value of the config shows in a text field: numbers as JavaScript writes them.
QString display(const JsonValue &value)
{
    if (value.isNumber())
        return QString::fromLatin1(formatJsNumber(value.toDouble()));
    if (value.isString())
        return value.toString();
    return {};
}

std::optional<double> parseNumber(const QString &text)
{
    bool ok = false;
    double value = QLocale::c().toDouble(text.trimmed(), &ok);
    if (!ok)
        value = QLocale().toDouble(text.trimmed(), &ok);
    if (!ok || value < 0 || !std::isfinite(value))
        return std::nullopt;
    return value;
}

/// Sets @p key of @p object from @p text: unchanged text keeps the value as read (even one Weft
/// would not write), an empty one removes the key. False when the text is not a number.
bool setNumber(JsonObject &object, const QString &key, const QString &text)
{
    const JsonValue &original = object.value(key);
    if (text.trimmed() == display(original))
        return true;
    if (text.trimmed().isEmpty()) {
        object.remove(key);
        return true;
    }
    const std::optional<double> value = parseNumber(text);
    if (!value)
        return false;
    object.insert(key, *value);
    return true;
}

void setString(JsonObject &object, const QString &key, const QString &text)
{
    if (text.isEmpty())
        object.remove(key);
    else if (object.value(key).toString() != text || !object.value(key).isString())
        object.insert(key, text);
}

/// Puts @p child under @p key, or removes the key when @p child is empty.
void setObject(JsonObject &object, const QString &key, const JsonObject &child)
{
    if (child.isEmpty())
        object.remove(key);
    else
        object.insert(key, child);
}

const QRegularExpression &referencePattern()
{
    static const QRegularExpression re(u"^\\{(env|file):([^}]+)\\}$"_s);
    return re;
}

} // namespace

SettingsDialog::SettingsDialog(const QString &configPath, QWidget *parent)
    : QDialog(parent)
{
    setObjectName(u"settingsDialog"_s);
    setWindowTitle(tr("Configure"));

    m_pageList = new QListWidget(this);
    m_pageList->setObjectName(u"settingsPages"_s);
    m_pageList->setIconSize(QSize(22, 22));
    m_pageList->setSpacing(2);
    m_pageList->setMaximumWidth(160);
    m_pageList->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Expanding);
    m_pages = new QStackedWidget(this);
    connect(m_pageList, &QListWidget::currentRowChanged, m_pages, &QStackedWidget::setCurrentIndex);

    m_error = new QLabel(this);
    m_error->setObjectName(u"settingsError"_s);
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->hide();

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Apply | QDialogButtonBox::Cancel, this);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_buttons->button(QDialogButtonBox::Apply), &QPushButton::clicked, this, &SettingsDialog::apply);

    addPage(createProvidersPage(), tr("Providers"), u"network-server"_s);
    addPage(createCompactionPage(), tr("Compaction"), u"weft-compact"_s);
    addPage(createAppearancePage(), tr("Appearance"), u"preferences-desktop-color"_s);
    addPage(new McpServersPage(new McpServers(this), this), tr("MCP Servers"), u"network-connect"_s);
    addPage(createNotificationsPage(), tr("Notifications"), u"preferences-desktop-notification"_s);
    m_searchPage = new SearchSettingsPage(this);
    m_searchPage->setLimits(SearchLimits::read(QSettings()));
    connect(m_searchPage, &SearchSettingsPage::changed, this, &SettingsDialog::updateButtons);
    addPage(m_searchPage, tr("Search"), u"edit-find"_s);

    auto *body = new QHBoxLayout;
    body->addWidget(m_pageList);
    body->addWidget(m_pages, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(body, 1);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);

    Result<ConfigFile> config = ConfigFile::read(configPath);
    if (config) {
        m_config = std::move(config).value();
    } else {
        m_loadError = config.error().toString();
        m_config = ConfigFile(configPath);
    }
    loadConfig();
    loadAppearance();
    m_pageList->setCurrentRow(0);
    updateButtons();
    resize(960, 640);
}

SettingsDialog::~SettingsDialog() = default;

void SettingsDialog::addPage(QWidget *page, const QString &title, const QString &icon)
{
    auto *item = new QListWidgetItem(Style::icon(icon), title, m_pageList);
    item->setSizeHint(QSize(0, 34));
    m_pages->addWidget(page);
}

void SettingsDialog::setCurrentPage(Page page)
{
    m_pageList->setCurrentRow(int(page));
}

SettingsDialog::Page SettingsDialog::currentPage() const
{
    return Page(m_pages->currentIndex());
}

QString SettingsDialog::errorText() const
{
    return m_error->text();
}

// ---- pages -----------------------------------------------------------------------------------

QWidget *SettingsDialog::createProvidersPage()
{
    m_providersPage = new QWidget(this);
    m_providersPage->setObjectName(u"providersPage"_s);

    m_commentsNote = new QLabel(
        tr("This file has comments. Saving here writes it again without them; everything else is kept."), this);
    m_commentsNote->setObjectName(u"commentsNote"_s);
    m_commentsNote->setWordWrap(true);
    m_commentsNote->hide();

    // The provider list.
    m_providerList = new QListWidget(this);
    m_providerList->setObjectName(u"providerList"_s);
    auto *addProviderButton = new QPushButton(Style::icon(u"list-add"_s), tr("Add"), this);
    addProviderButton->setObjectName(u"addProvider"_s);
    addProviderButton->setToolTip(tr("Add a provider"));
    m_removeProvider = new QPushButton(Style::icon(u"list-remove"_s), tr("Remove"), this);
    m_removeProvider->setObjectName(u"removeProvider"_s);
    m_removeProvider->setToolTip(tr("Remove the selected provider from the config"));
    connect(addProviderButton, &QPushButton::clicked, this, [this] { addProvider(); });
    connect(m_removeProvider, &QPushButton::clicked, this, &SettingsDialog::removeProvider);
    connect(m_providerList, &QListWidget::currentRowChanged, this, &SettingsDialog::showProvider);
    auto *listBox = new QWidget(this);
    auto *listLayout = new QVBoxLayout(listBox);
    listLayout->setContentsMargins(0, 0, 0, 0);
    listLayout->addWidget(m_providerList, 1);
    auto *listButtons = new QHBoxLayout;
    listButtons->addWidget(addProviderButton);
    listButtons->addWidget(m_removeProvider);
    listLayout->addLayout(listButtons);

    // The selected provider.
    m_providerForm = new QWidget(this);
    m_providerID = new QLineEdit(this);
    m_providerID->setObjectName(u"providerID"_s);
    m_providerID->setToolTip(tr("The name models are referred to by: provider/model"));
    m_providerName = new QLineEdit(this);
    m_providerName->setObjectName(u"providerName"_s);
    m_npm = new QComboBox(this);
    m_npm->setObjectName(u"providerNpm"_s);
    m_npm->setEditable(true);
    m_npm->addItems({QString(), u"@ai-sdk/openai-compatible"_s, u"@ai-sdk/anthropic"_s, u"@ai-sdk/openai"_s});
    m_npm->setToolTip(tr("The AI SDK package OpenCode uses for this provider. Weft speaks the Anthropic "
                         "protocol for @ai-sdk/anthropic and the OpenAI-compatible one for the others."));
    m_baseURL = new QLineEdit(this);
    m_baseURL->setObjectName(u"providerBaseURL"_s);
    m_keySource = new QComboBox(this);
    m_keySource->setObjectName(u"keySource"_s);
    m_keySource->addItem(tr("From the environment"), int(KeySource::Environment));
    m_keySource->addItem(tr("Stored in the config file"), int(KeySource::ConfigFile));
    m_keySource->addItem(tr("From an environment variable"), int(KeySource::Variable));
    m_keySource->addItem(tr("From a file"), int(KeySource::File));
    m_key = new QLineEdit(this);
    m_key->setObjectName(u"apiKey"_s);
    m_key->setEchoMode(QLineEdit::Password);
    m_keyHint = new QLabel(this);
    m_keyHint->setObjectName(u"keyHint"_s);
    m_keyHint->setWordWrap(true);
    m_keyHint->setForegroundRole(QPalette::PlaceholderText);
    auto *keyRow = new QHBoxLayout;
    keyRow->addWidget(m_keySource);
    keyRow->addWidget(m_key, 1);

    m_models = new QTableWidget(0, ColCount, this);
    m_models->setObjectName(u"modelTable"_s);
    m_models->setHorizontalHeaderLabels({tr("Model"), tr("Name"), tr("Context"), tr("Output"), tr("In $/M"),
                                         tr("Out $/M"), tr("Cached $/M"), tr("Cache write $/M")});
    m_models->horizontalHeaderItem(ColID)->setToolTip(tr("The model's ID at the provider"));
    m_models->horizontalHeaderItem(ColContext)->setToolTip(tr("Context window, in tokens"));
    m_models->horizontalHeaderItem(ColOutput)->setToolTip(tr("Longest answer, in tokens"));
    m_models->horizontalHeaderItem(ColInput)->setToolTip(tr("US dollars per million input tokens"));
    m_models->horizontalHeaderItem(ColOutputCost)->setToolTip(tr("US dollars per million output tokens"));
    m_models->horizontalHeaderItem(ColCacheRead)->setToolTip(tr("US dollars per million input tokens read from the cache"));
    m_models->horizontalHeaderItem(ColCacheWrite)->setToolTip(tr("US dollars per million input tokens written to the cache"));
    m_models->verticalHeader()->hide();
    m_models->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_models->horizontalHeader()->setSectionResizeMode(ColName, QHeaderView::Interactive);
    m_models->horizontalHeader()->setStretchLastSection(true);
    m_models->setColumnWidth(ColName, 110);
    m_models->setWordWrap(false);
    m_models->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_models->setSelectionMode(QAbstractItemView::SingleSelection);
    auto *addModelButton = new QPushButton(Style::icon(u"list-add"_s), tr("Add Model"), this);
    addModelButton->setObjectName(u"addModel"_s);
    m_removeModel = new QPushButton(Style::icon(u"list-remove"_s), tr("Remove Model"), this);
    m_removeModel->setObjectName(u"removeModel"_s);
    connect(addModelButton, &QPushButton::clicked, this, [this] {
        const int row = addModel();
        if (row >= 0)
            m_models->editItem(m_models->item(row, ColID));
    });
    connect(m_removeModel, &QPushButton::clicked, this, &SettingsDialog::removeModel);
    auto *modelButtons = new QHBoxLayout;
    modelButtons->addStretch(1);
    modelButtons->addWidget(addModelButton);
    modelButtons->addWidget(m_removeModel);

    auto *form = new QFormLayout;
    form->addRow(tr("&ID:"), m_providerID);
    form->addRow(tr("&Name:"), m_providerName);
    form->addRow(tr("&Package:"), m_npm);
    form->addRow(tr("&Base URL:"), m_baseURL);
    auto *keyLabel = new QLabel(tr("API &key:"), this);
    keyLabel->setBuddy(m_keySource);
    form->addRow(keyLabel, keyRow);
    form->addRow(QString(), m_keyHint);
    auto *formLayout = new QVBoxLayout(m_providerForm);
    formLayout->setContentsMargins(0, 0, 0, 0);
    formLayout->addLayout(form);
    formLayout->addWidget(new QLabel(tr("Models:"), this));
    formLayout->addWidget(m_models, 1);
    formLayout->addLayout(modelButtons);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(listBox);
    splitter->addWidget(m_providerForm);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({140, 600});

    m_defaultModel = new QComboBox(this);
    m_defaultModel->setObjectName(u"defaultModel"_s);
    m_defaultModel->setEditable(true);
    m_defaultModel->lineEdit()->setPlaceholderText(tr("Chosen by Weft from the keys it finds"));
    m_smallModel = new QComboBox(this);
    m_smallModel->setObjectName(u"smallModel"_s);
    m_smallModel->setEditable(true);
    m_smallModel->lineEdit()->setPlaceholderText(tr("A small model of the default model's provider"));
    m_smallModel->setToolTip(tr("Used for session titles and other small tasks"));
    auto *defaults = new QFormLayout;
    defaults->addRow(tr("&Default model:"), m_defaultModel);
    defaults->addRow(tr("&Small model:"), m_smallModel);

    auto *path = new QLabel(this);
    path->setObjectName(u"configPathLabel"_s);
    path->setWordWrap(true);
    path->setTextInteractionFlags(Qt::TextSelectableByMouse);
    path->setForegroundRole(QPalette::PlaceholderText);

    auto *layout = new QVBoxLayout(m_providersPage);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_commentsNote);
    layout->addWidget(splitter, 1);
    layout->addLayout(defaults);
    layout->addWidget(path);

    // Edits go into the provider being shown at once, so that the list and the model choices
    // follow.
    connect(m_providerID, &QLineEdit::textChanged, this, [this](const QString &text) {
        if (m_loading)
            return;
        if (ProviderEntry *entry = currentEntry()) {
            entry->id = text.trimmed();
            m_providerList->currentItem()->setText(entry->id);
            updateModelChoices();
        }
        markConfigChanged();
    });
    for (QLineEdit *edit : {m_providerName, m_baseURL, m_key})
        connect(edit, &QLineEdit::textChanged, this, &SettingsDialog::markConfigChanged);
    connect(m_npm, &QComboBox::currentTextChanged, this, &SettingsDialog::markConfigChanged);
    connect(m_keySource, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_loading)
            m_key->clear();
        updateKeyWidgets();
        markConfigChanged();
    });
    connect(m_models, &QTableWidget::cellChanged, this, [this](int, int column) {
        if (m_loading)
            return;
        if (column == ColID) {
            storeProvider();
            updateModelChoices();
        }
        markConfigChanged();
    });
    connect(m_models, &QTableWidget::itemSelectionChanged, this,
            [this] { m_removeModel->setEnabled(!m_models->selectedItems().isEmpty()); });
    for (QComboBox *box : {m_defaultModel, m_smallModel})
        connect(box, &QComboBox::currentTextChanged, this, &SettingsDialog::markConfigChanged);
    return m_providersPage;
}

QWidget *SettingsDialog::createCompactionPage()
{
    m_compactionPage = new QWidget(this);
    m_compactionPage->setObjectName(u"compactionPage"_s);

    m_autoCompact = new QCheckBox(tr("Compact &automatically when the context is full"), this);
    m_autoCompact->setObjectName(u"autoCompact"_s);
    m_prune = new QCheckBox(tr("&Prune old tool outputs before they fill the context"), this);
    m_prune->setObjectName(u"prune"_s);

    m_strategy = new QComboBox(this);
    m_strategy->setObjectName(u"strategy"_s);
    // The values of `compaction.strategy` and `compaction.estimator` (the config file's format).
    m_strategy->addItem(tr("Summarize the whole conversation (OpenCode)"), u"summary"_s);
    m_strategy->addItem(tr("Summarize the older 70%, keep the newest 30% (Gemini CLI)"), u"summary-tail"_s);

    m_estimator = new QComboBox(this);
    m_estimator->setObjectName(u"estimator"_s);
    m_estimator->addItem(tr("Characters ÷ 4 (OpenCode)"), u"opencode"_s);
    m_estimator->addItem(tr("By kind of character (Gemini CLI; closer for Chinese and Japanese)"), u"gemini"_s);
    m_estimator->addItem(tr("The larger of the two"), u"auto"_s);

    m_reserved = new QSpinBox(this);
    m_reserved->setObjectName(u"reserved"_s);
    m_reserved->setRange(0, 10'000'000);
    m_reserved->setSingleStep(1000);
    m_reserved->setGroupSeparatorShown(true);
    m_reserved->setSpecialValueText(tr("The model's output limit"));
    m_reserved->setSuffix(tr(" tokens"));
    m_reserved->setToolTip(tr("Tokens kept free for the answer when deciding that the context is full"));

    m_compactionModel = new QComboBox(this);
    m_compactionModel->setObjectName(u"compactionModel"_s);
    m_compactionModel->setEditable(true);
    m_compactionModel->lineEdit()->setPlaceholderText(tr("The session's model"));

    auto *form = new QFormLayout;
    form->addRow(QString(), m_autoCompact);
    form->addRow(QString(), m_prune);
    form->addRow(tr("&Strategy:"), m_strategy);
    form->addRow(tr("&Token estimate:"), m_estimator);
    form->addRow(tr("&Reserved for the answer:"), m_reserved);
    form->addRow(tr("Summary &model:"), m_compactionModel);

    auto *environment = new QLabel(this);
    environment->setObjectName(u"compactionEnvironment"_s);
    environment->setWordWrap(true);
    const QStringList overrides = ConfigFile::compactionOverrides();
    environment->setText(overrides.isEmpty()
                             ? QString()
                             : tr("%1 is set in the environment and overrides these settings.").arg(overrides.join(u", "_s)));
    environment->setVisible(!overrides.isEmpty());

    auto *layout = new QVBoxLayout(m_compactionPage);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(environment);
    layout->addStretch(1);

    for (QCheckBox *box : {m_autoCompact, m_prune})
        connect(box, &QCheckBox::toggled, this, &SettingsDialog::markConfigChanged);
    for (QComboBox *box : {m_strategy, m_estimator})
        connect(box, &QComboBox::currentIndexChanged, this, &SettingsDialog::markConfigChanged);
    connect(m_compactionModel, &QComboBox::currentTextChanged, this, &SettingsDialog::markConfigChanged);
    connect(m_reserved, &QSpinBox::valueChanged, this, &SettingsDialog::markConfigChanged);
    return m_compactionPage;
}

QWidget *SettingsDialog::createAppearancePage()
{
    auto *page = new QWidget(this);
    page->setObjectName(u"appearancePage"_s);

    m_theme = new QComboBox(this);
    m_theme->setObjectName(u"theme"_s);
    m_theme->addItem(tr("Follow the system"), Appearance::themeName(Appearance::Theme::System));
    m_theme->addItem(tr("Light"), Appearance::themeName(Appearance::Theme::Light));
    m_theme->addItem(tr("Dark"), Appearance::themeName(Appearance::Theme::Dark));

    m_customFont = new QCheckBox(tr("Use a &different font for the conversation"), this);
    m_customFont->setObjectName(u"customFont"_s);
    m_fontFamily = new QFontComboBox(this);
    m_fontFamily->setObjectName(u"fontFamily"_s);
    m_fontSize = new QSpinBox(this);
    m_fontSize->setObjectName(u"fontSize"_s);
    m_fontSize->setRange(6, 48);
    m_fontSize->setSuffix(tr(" pt"));
    auto *fontRow = new QHBoxLayout;
    fontRow->addWidget(m_fontFamily, 1);
    fontRow->addWidget(m_fontSize);

    m_enterWhileRunning = new QComboBox(this);
    m_enterWhileRunning->setObjectName(u"enterWhileRunning"_s);
    m_enterWhileRunning->addItem(tr("Queues the prompt for when the reply ends"), int(PromptDelivery::Queue));
    m_enterWhileRunning->addItem(tr("Steers it into the reply at its next step"), int(PromptDelivery::Steer));
    m_enterWhileRunning->setToolTip(tr("Alt+Enter does the other."));

    auto *form = new QFormLayout;
    form->addRow(tr("&Colors:"), m_theme);
    form->addRow(QString(), m_customFont);
    auto *fontLabel = new QLabel(tr("&Font:"), this);
    fontLabel->setBuddy(m_fontFamily);
    form->addRow(fontLabel, fontRow);
    form->addRow(tr("While the agent &replies, Enter:"), m_enterWhileRunning);
    m_newSessionInWorktree = new QCheckBox(tr("New Session (Folder, Worktree)… offers a new git &worktree first"), this);
    m_newSessionInWorktree->setObjectName(u"newSessionInWorktree"_s);
    m_newSessionInWorktree->setToolTip(tr("For projects that have not chosen yet: each project remembers its last choice."));
    form->addRow(QString(), m_newSessionInWorktree);

    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addStretch(1);

    connect(m_theme, &QComboBox::currentIndexChanged, this, &SettingsDialog::markAppearanceChanged);
    connect(m_customFont, &QCheckBox::toggled, this, [this] {
        updateFontWidgets();
        markAppearanceChanged();
    });
    connect(m_fontFamily, &QFontComboBox::currentFontChanged, this, &SettingsDialog::markAppearanceChanged);
    connect(m_fontSize, &QSpinBox::valueChanged, this, &SettingsDialog::markAppearanceChanged);
    connect(m_enterWhileRunning, &QComboBox::currentIndexChanged, this, &SettingsDialog::markAppearanceChanged);
    connect(m_newSessionInWorktree, &QCheckBox::toggled, this, &SettingsDialog::markAppearanceChanged);
    return page;
}

QWidget *SettingsDialog::createNotificationsPage()
{
    auto *page = new QWidget(this);
    page->setObjectName(u"notificationsPage"_s);
    m_desktopNotifications = new QCheckBox(tr("&Desktop notifications"), this);
    m_desktopNotifications->setObjectName(u"desktopNotifications"_s);
    m_desktopNotifications->setChecked(DesktopNotifier::isEnabled());
    auto *hint = new QLabel(tr("A notification when a run finishes, fails or needs your answer while Weft's window "
                               "is not the active one. Clicking it opens the session."),
                            this);
    hint->setWordWrap(true);
    hint->setForegroundRole(QPalette::PlaceholderText);
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_desktopNotifications);
    layout->addWidget(hint);
    layout->addStretch(1);
    connect(m_desktopNotifications, &QCheckBox::toggled, this, [this](bool checked) {
        m_notificationsChanged = checked != DesktopNotifier::isEnabled();
        updateButtons();
    });
    return page;
}

// ---- loading ---------------------------------------------------------------------------------

void SettingsDialog::loadConfig()
{
    m_loading = true;
    const QString selected = m_currentRow >= 0 && m_currentRow < m_providers.size() ? m_providers[m_currentRow].id : QString();
    m_providers.clear();
    m_currentRow = -1;
    m_providerList->clear();

    const JsonObject &root = m_config.json();
    const JsonObject providers = root.object(u"provider");
    for (qsizetype i = 0; i < providers.size(); ++i) {
        ProviderEntry entry;
        entry.originalID = providers.keyAt(i);
        entry.id = entry.originalID;
        entry.json = providers.valueAt(i).toObject();
        entry.name = entry.json.string(u"name");
        entry.npm = entry.json.string(u"npm");
        const JsonObject options = entry.json.object(u"options");
        entry.baseURL = options.string(u"baseURL");
        const JsonValue &key = options.value(u"apiKey");
        if (key.isString() && !key.toString().isEmpty()) {
            const QRegularExpressionMatch match = referencePattern().match(key.toString());
            if (match.hasMatch()) {
                entry.keySource = match.captured(1) == u"env" ? KeySource::Variable : KeySource::File;
                entry.keyText = match.captured(2);
            } else {
                entry.keySource = KeySource::ConfigFile;
                entry.keyText = key.toString();
            }
        }
        const JsonObject models = entry.json.object(u"models");
        for (qsizetype m = 0; m < models.size(); ++m) {
            ModelEntry model;
            model.originalID = models.keyAt(m);
            model.json = models.valueAt(m).toObject();
            const JsonObject limit = model.json.object(u"limit");
            const JsonObject cost = model.json.object(u"cost");
            model.cells = {model.originalID,
                           model.json.string(u"name"),
                           display(limit.value(u"context")),
                           display(limit.value(u"output")),
                           display(cost.value(u"input")),
                           display(cost.value(u"output")),
                           display(cost.value(u"cache_read")),
                           display(cost.value(u"cache_write"))};
            entry.models.append(model);
        }
        m_providers.append(entry);
        new QListWidgetItem(entry.id, m_providerList);
    }

    m_defaultModel->setCurrentText(root.string(u"model"));
    m_smallModel->setCurrentText(root.string(u"small_model"));

    const JsonObject compaction = root.object(u"compaction");
    m_autoCompact->setChecked(compaction.boolean(u"auto", true));
    m_prune->setChecked(compaction.boolean(u"prune", true));
    for (auto [box, key] : {std::pair{m_strategy, u"strategy"_s}, std::pair{m_estimator, u"estimator"_s}}) {
        const QString value = compaction.string(key);
        int index = value.isEmpty() ? 0 : box->findData(value);
        if (index < 0) {
            // A value this Weft does not know is kept until the user picks another.
            box->addItem(value, value);
            index = box->count() - 1;
        }
        box->setCurrentIndex(index);
    }
    m_reserved->setValue(int(std::clamp<qint64>(compaction.integer(u"reserved"), 0, m_reserved->maximum())));
    m_compactionModel->setCurrentText(compaction.string(u"model"));

    m_commentsNote->setVisible(m_config.hasComments());
    if (auto *path = m_providersPage->findChild<QLabel *>(u"configPathLabel"_s))
        path->setText(tr("Saved in %1").arg(QDir::toNativeSeparators(m_config.path())));
    for (QWidget *page : {m_providersPage, m_compactionPage})
        page->setEnabled(m_loadError.isEmpty());
    if (!m_loadError.isEmpty())
        showError(tr("Weft cannot read its config file, so providers and compaction cannot be changed here "
                     "until it is fixed: %1")
                      .arg(m_loadError));
    m_loading = false;

    updateModelChoices();
    int row = 0;
    for (int i = 0; i < m_providers.size(); ++i) {
        if (m_providers[i].id == selected)
            row = i;
    }
    m_providerList->setCurrentRow(m_providers.isEmpty() ? -1 : row);
    showProvider(m_providerList->currentRow());
}

void SettingsDialog::loadAppearance()
{
    m_loading = true;
    const Appearance::Settings settings = Appearance::Settings::load();
    m_theme->setCurrentIndex(std::max(0, m_theme->findData(Appearance::themeName(settings.theme))));
    m_customFont->setChecked(settings.timelineFont.has_value());
    const QFont font = settings.timelineFont.value_or(QApplication::font());
    m_fontFamily->setCurrentFont(font);
    m_fontSize->setValue(font.pointSize() > 0 ? font.pointSize() : 10);
    m_enterWhileRunning->setCurrentIndex(
        std::max(0, m_enterWhileRunning->findData(int(Composer::savedDefaultDelivery()))));
    m_newSessionInWorktree->setChecked(WorktreePresenter::defaultInWorktree());
    updateFontWidgets();
    m_loading = false;
}

void SettingsDialog::updateFontWidgets()
{
    m_fontFamily->setEnabled(m_customFont->isChecked());
    m_fontSize->setEnabled(m_customFont->isChecked());
}

// ---- providers -------------------------------------------------------------------------------

SettingsDialog::ProviderEntry *SettingsDialog::currentEntry()
{
    if (m_currentRow < 0 || m_currentRow >= m_providers.size())
        return nullptr;
    return &m_providers[m_currentRow];
}

void SettingsDialog::storeProvider()
{
    ProviderEntry *entry = currentEntry();
    if (!entry || m_loading)
        return;
    entry->id = m_providerID->text().trimmed();
    entry->name = m_providerName->text().trimmed();
    entry->npm = m_npm->currentText().trimmed();
    entry->baseURL = m_baseURL->text().trimmed();
    entry->keySource = KeySource(m_keySource->currentData().toInt());
    entry->keyText = entry->keySource == KeySource::ConfigFile ? m_key->text() : m_key->text().trimmed();
    QList<ModelEntry> models;
    for (int row = 0; row < m_models->rowCount(); ++row) {
        ModelEntry model;
        const QTableWidgetItem *id = m_models->item(row, ColID);
        model.originalID = id ? id->data(Qt::UserRole).toString() : QString();
        for (const ModelEntry &old : std::as_const(entry->models)) {
            if (!model.originalID.isEmpty() && old.originalID == model.originalID)
                model.json = old.json;
        }
        for (int column = 0; column < ColCount; ++column) {
            const QTableWidgetItem *item = m_models->item(row, column);
            model.cells.append(item ? item->text().trimmed() : QString());
        }
        models.append(model);
    }
    entry->models = models;
}

void SettingsDialog::showProvider(int row)
{
    if (m_loading)
        return;
    if (row != m_currentRow)
        storeProvider();
    m_currentRow = row;
    m_loading = true;
    const ProviderEntry *entry = currentEntry();
    m_providerForm->setEnabled(entry != nullptr);
    m_removeProvider->setEnabled(entry != nullptr);
    m_models->setRowCount(0);
    if (!entry) {
        for (QLineEdit *edit : {m_providerID, m_providerName, m_baseURL, m_key})
            edit->clear();
        m_npm->setCurrentText(QString());
        m_loading = false;
        updateKeyWidgets();
        return;
    }
    // What applies when a field is left empty: the catalogue's values.
    const JsonObject known = ConfigFile::knownProvider(entry->id);
    m_providerID->setText(entry->id);
    m_providerName->setText(entry->name);
    m_providerName->setPlaceholderText(known.string(u"name", entry->id));
    m_npm->setCurrentText(entry->npm);
    m_npm->lineEdit()->setPlaceholderText(known.string(u"npm", u"@ai-sdk/openai-compatible"_s));
    m_baseURL->setText(entry->baseURL);
    m_baseURL->setPlaceholderText(known.string(u"api", tr("https://example.com/v1")));
    m_keySource->setCurrentIndex(m_keySource->findData(int(entry->keySource)));
    m_key->setText(entry->keyText);

    m_models->setRowCount(int(entry->models.size()));
    for (int row = 0; row < entry->models.size(); ++row) {
        const ModelEntry &model = entry->models[row];
        for (int column = 0; column < ColCount; ++column) {
            auto *item = new QTableWidgetItem(model.cells.value(column));
            if (column >= ColContext)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (column == ColID)
                item->setData(Qt::UserRole, model.originalID);
            m_models->setItem(row, column, item);
        }
    }
    m_removeModel->setEnabled(false);
    m_loading = false;
    updateKeyWidgets();
}

void SettingsDialog::updateKeyWidgets()
{
    const auto source = KeySource(m_keySource->currentData().toInt());
    const ProviderEntry *entry = currentEntry();
    m_key->setEchoMode(source == KeySource::ConfigFile ? QLineEdit::Password : QLineEdit::Normal);
    m_key->setVisible(source != KeySource::Environment);
    switch (source) {
    case KeySource::Environment: {
        const QStringList vars = entry ? ConfigFile::keyVariables(entry->id, entry->json) : QStringList();
        m_keyHint->setText(vars.isEmpty() ? tr("No key: for a local server that needs none.")
                                          : tr("Weft reads the key from %1 when it starts.").arg(vars.join(u", "_s)));
        break;
    }
    case KeySource::ConfigFile:
        m_key->setPlaceholderText(tr("API key"));
        m_keyHint->setText(tr("The key is written into the config file, which only you can read. "
                              "Weft never writes it to its logs."));
        break;
    case KeySource::Variable:
        m_key->setPlaceholderText(tr("Variable name, such as MY_PROVIDER_API_KEY"));
        m_keyHint->setText(tr("The config file holds {env:VARIABLE}; Weft and OpenCode read the variable when they start."));
        break;
    case KeySource::File:
        m_key->setPlaceholderText(tr("Path of a file that holds the key"));
        m_keyHint->setText(tr("The config file holds {file:path}; the key is read from that file."));
        break;
    }
}

void SettingsDialog::updateModelChoices()
{
    QStringList refs;
    for (const ProviderEntry &entry : std::as_const(m_providers)) {
        for (const ModelEntry &model : entry.models) {
            const QString id = model.cells.value(ColID);
            if (!entry.id.isEmpty() && !id.isEmpty())
                refs.append(entry.id + u'/' + id);
        }
    }
    const bool loading = m_loading;
    m_loading = true;
    for (QComboBox *box : {m_defaultModel, m_smallModel, m_compactionModel}) {
        const QString text = box->currentText();
        box->blockSignals(true);
        box->clear();
        box->addItem(QString());
        box->addItems(refs);
        box->setCurrentText(text);
        box->blockSignals(false);
    }
    m_loading = loading;
}

QString SettingsDialog::addProvider(const QString &id)
{
    storeProvider();
    QString base = id.isEmpty() ? u"provider"_s : id;
    QString unique = base;
    for (int n = 2;; ++n) {
        const bool taken = std::any_of(m_providers.cbegin(), m_providers.cend(),
                                       [&unique](const ProviderEntry &e) { return e.id == unique; });
        if (!taken)
            break;
        unique = base + u'-' + QString::number(n);
    }
    ProviderEntry entry;
    entry.id = unique;
    if (ConfigFile::knownProvider(unique).isEmpty())
        entry.npm = u"@ai-sdk/openai-compatible"_s;
    m_providers.append(entry);
    new QListWidgetItem(unique, m_providerList);
    m_providerList->setCurrentRow(int(m_providers.size()) - 1);
    m_providerID->setFocus();
    m_providerID->selectAll();
    markConfigChanged();
    return unique;
}

void SettingsDialog::removeProvider()
{
    const int row = m_currentRow;
    if (row < 0 || row >= m_providers.size())
        return;
    m_loading = true;
    m_providers.removeAt(row);
    m_currentRow = -1;
    delete m_providerList->takeItem(row);
    m_loading = false;
    const int next = std::min(row, int(m_providers.size()) - 1);
    m_providerList->setCurrentRow(next);
    showProvider(next);
    updateModelChoices();
    markConfigChanged();
}

bool SettingsDialog::selectProvider(const QString &id)
{
    for (int i = 0; i < m_providers.size(); ++i) {
        if (m_providers[i].id == id) {
            m_providerList->setCurrentRow(i);
            return true;
        }
    }
    return false;
}

int SettingsDialog::addModel(const QString &id)
{
    if (!currentEntry())
        return -1;
    const int row = m_models->rowCount();
    m_models->insertRow(row);
    for (int column = 0; column < ColCount; ++column) {
        auto *item = new QTableWidgetItem(column == ColID ? id : QString());
        if (column >= ColContext)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_models->setItem(row, column, item);
    }
    m_models->setCurrentCell(row, ColID);
    storeProvider();
    updateModelChoices();
    markConfigChanged();
    return row;
}

void SettingsDialog::removeModel()
{
    const int row = m_models->currentRow();
    if (row < 0)
        return;
    m_models->removeRow(row);
    storeProvider();
    updateModelChoices();
    markConfigChanged();
}

// ---- saving ----------------------------------------------------------------------------------

Result<JsonObject> SettingsDialog::buildConfig()
{
    JsonObject root = m_config.json();
    if (!m_config.exists() && root.isEmpty())
        root.insert(u"$schema"_s, u"https://opencode.ai/config.json"_s);

    static const QRegularExpression idPattern(u"^[^/\\s]+$"_s);
    static const QRegularExpression varPattern(u"^[A-Za-z_][A-Za-z0-9_]*$"_s);
    JsonObject providers;
    for (const ProviderEntry &entry : std::as_const(m_providers)) {
        if (!idPattern.match(entry.id).hasMatch())
            return Error{tr("A provider ID must not be empty or contain \"/\" or spaces: \"%1\".").arg(entry.id), {}};
        if (providers.contains(entry.id))
            return Error{tr("Two providers have the ID \"%1\".").arg(entry.id), {}};
        JsonObject p = entry.json;
        setString(p, u"name"_s, entry.name);
        setString(p, u"npm"_s, entry.npm);

        JsonObject options = p.object(u"options");
        setString(options, u"baseURL"_s, entry.baseURL);
        switch (entry.keySource) {
        case KeySource::Environment:
            options.remove(u"apiKey");
            break;
        case KeySource::ConfigFile:
            setString(options, u"apiKey"_s, entry.keyText);
            break;
        case KeySource::Variable:
            if (!varPattern.match(entry.keyText).hasMatch())
                return Error{tr("\"%1\" is not an environment variable name (provider %2).").arg(entry.keyText, entry.id), {}};
            setString(options, u"apiKey"_s, u"{env:"_s + entry.keyText + u'}');
            break;
        case KeySource::File:
            if (entry.keyText.isEmpty())
                return Error{tr("Give the file that holds the key of provider %1.").arg(entry.id), {}};
            setString(options, u"apiKey"_s, u"{file:"_s + entry.keyText + u'}');
            break;
        }
        if (p.contains(u"options") || !options.isEmpty())
            p.insert(u"options"_s, options);

        JsonObject models;
        for (const ModelEntry &model : entry.models) {
            const QString id = model.cells.value(ColID);
            if (id.isEmpty())
                return Error{tr("A model of provider %1 has no ID.").arg(entry.id), {}};
            if (models.contains(id))
                return Error{tr("Provider %1 has the model \"%2\" twice.").arg(entry.id, id), {}};
            JsonObject m = model.json;
            setString(m, u"name"_s, model.cells.value(ColName));
            const JsonObject known = ConfigFile::knownModel(entry.id, id);
            // OpenCode's schema wants limit{context, output} and cost{input, output} in pairs:
            // the missing half of a pair the user started comes from the catalogue, or is 0
            // (unknown).
            auto group = [&](const QString &key, const QList<std::pair<QString, int>> &fields, int paired) -> bool {
                JsonObject o = m.object(key);
                const JsonObject before = o;
                for (const auto &[name, column] : fields) {
                    if (!setNumber(o, name, model.cells.value(column)))
                        return false;
                }
                if (!(o == before) && !o.isEmpty()) {
                    for (int i = 0; i < paired; ++i) {
                        const QString &name = fields[i].first;
                        if (!o.contains(name))
                            o.insert(name, known.object(key).number(name));
                    }
                }
                if (m.contains(key) || !o.isEmpty())
                    setObject(m, key, o);
                return true;
            };
            if (!group(u"limit"_s, {{u"context"_s, ColContext}, {u"output"_s, ColOutput}}, 2)
                || !group(u"cost"_s,
                          {{u"input"_s, ColInput},
                           {u"output"_s, ColOutputCost},
                           {u"cache_read"_s, ColCacheRead},
                           {u"cache_write"_s, ColCacheWrite}},
                          2))
                return Error{tr("Limits and prices of model %1/%2 must be numbers of 0 or more.").arg(entry.id, id), {}};
            models.insert(id, m);
        }
        if (p.contains(u"models") || !models.isEmpty())
            setObject(p, u"models"_s, models);
        providers.insert(entry.id, p);
    }
    if (root.contains(u"provider") || !providers.isEmpty())
        setObject(root, u"provider"_s, providers);

    setString(root, u"model"_s, m_defaultModel->currentText().trimmed());
    setString(root, u"small_model"_s, m_smallModel->currentText().trimmed());

    // Compaction: a key is written when it was there or differs from OpenCode's default.
    const bool hadCompaction = root.contains(u"compaction");
    JsonObject compaction = root.object(u"compaction");
    auto setKey = [&compaction](const QString &key, const JsonValue &value, const JsonValue &fallback) {
        if (compaction.contains(key) || !(value == fallback))
            compaction.insert(key, value);
    };
    setKey(u"auto"_s, m_autoCompact->isChecked(), true);
    setKey(u"prune"_s, m_prune->isChecked(), true);
    setKey(u"strategy"_s, m_strategy->currentData().toString(), u"summary"_s);
    setKey(u"estimator"_s, m_estimator->currentData().toString(), u"opencode"_s);
    if (m_reserved->value() > 0)
        compaction.insert(u"reserved"_s, qint64(m_reserved->value()));
    else
        compaction.remove(u"reserved");
    setString(compaction, u"model"_s, m_compactionModel->currentText().trimmed());
    if (hadCompaction || !compaction.isEmpty())
        root.insert(u"compaction"_s, compaction);
    if (const Result<void> checked = ConfigFile::checkCompaction(compaction); !checked)
        return Error{tr("Compaction: %1").arg(checked.error().toString()), {}};
    return root;
}

bool SettingsDialog::apply()
{
    m_error->clear();
    m_error->hide();
    if (m_configChanged && m_loadError.isEmpty()) {
        storeProvider();
        Result<JsonObject> built = buildConfig();
        if (!built) {
            showError(built.error().message);
            return false;
        }
        ConfigFile next = m_config;
        next.setJson(built.value());
        const Result<void> written = next.write();
        if (!written) {
            showError(tr("The settings were not saved: %1").arg(written.error().toString()));
            return false;
        }
        m_config = next;
        m_configChanged = false;
        loadConfig(); // the entries now describe the file as written
        Q_EMIT configSaved(m_config.path());
    }
    if (m_appearanceChanged) {
        Appearance::Settings settings;
        settings.theme = Appearance::themeFromName(m_theme->currentData().toString()).value_or(Appearance::Theme::System);
        if (m_customFont->isChecked()) {
            QFont font = m_fontFamily->currentFont();
            font.setPointSize(m_fontSize->value());
            settings.timelineFont = font;
        }
        settings.save();
        Appearance::apply(settings);
        Composer::saveDefaultDelivery(PromptDelivery(m_enterWhileRunning->currentData().toInt()));
        WorktreePresenter::setDefaultInWorktree(m_newSessionInWorktree->isChecked());
        m_appearanceChanged = false;
        Q_EMIT appearanceChanged();
    }
    if (m_notificationsChanged) {
        DesktopNotifier::setEnabled(m_desktopNotifications->isChecked());
        m_notificationsChanged = false;
    }
    if (m_searchPage->hasChanges()) {
        const SearchLimits limits = m_searchPage->limits();
        m_searchPage->setLimits(limits);
        Q_EMIT searchLimitsChanged(limits);
    }
    updateButtons();
    return true;
}

bool SettingsDialog::hasChanges() const
{
    return m_configChanged || m_appearanceChanged || m_notificationsChanged || (m_searchPage && m_searchPage->hasChanges());
}

void SettingsDialog::accept()
{
    if (apply())
        QDialog::accept();
}

void SettingsDialog::markConfigChanged()
{
    if (m_loading)
        return;
    m_configChanged = true;
    updateButtons();
}

void SettingsDialog::markAppearanceChanged()
{
    if (m_loading)
        return;
    m_appearanceChanged = true;
    updateButtons();
}

void SettingsDialog::updateButtons()
{
    m_buttons->button(QDialogButtonBox::Apply)->setEnabled(hasChanges());
}

void SettingsDialog::showError(const QString &text)
{
    QPalette palette = m_error->palette();
    palette.setColor(QPalette::WindowText, Style::negative(palette));
    m_error->setPalette(palette);
    m_error->setText(text);
    m_error->show();
}

} // namespace weft
