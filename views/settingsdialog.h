// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/configfile.h"
#include "core/searchhit.h"

#include <QDialog>
#include <QList>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QFontComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSpinBox;
class QStackedWidget;
class QTableWidget;
class QWidget;

namespace weft
{

class SearchSettingsPage;

/// "Configure Weft": providers and models, compaction, appearance, MCP servers and notifications.
///
/// Providers, models and compaction are Weft's config file (OpenCode's format,
/// $XDG_CONFIG_HOME/weft/weft.json or the --config file): the dialog edits the keys it shows and
/// keeps every other key as it was (ConfigFile). An API key is written into the file (which is
/// then readable by its owner only) or as an `{env:VAR}` / `{file:path}` reference. Appearance is
/// stored with QSettings and applied at once (Appearance::apply), and so is whether desktop
/// notifications are shown (DesktopNotifier::isEnabled). Search's limits are the window's to apply
/// (searchLimitsChanged()).
///
/// Errors appear in the dialog itself, never in a modal box, and no key is ever logged.
class SettingsDialog : public QDialog
{
    Q_OBJECT

public:
    enum class Page { Providers, Compaction, Appearance, McpServers, Notifications, Search };
    /// How a provider's API key is given.
    enum class KeySource {
        Environment, ///< not in the config: the provider's variables (OPENAI_API_KEY, ...)
        ConfigFile,  ///< `options.apiKey` holds the key itself
        Variable,    ///< `options.apiKey` is `{env:VAR}`
        File,        ///< `options.apiKey` is `{file:path}`
    };
    Q_ENUM(KeySource)

    /// Edits @p configPath (empty: Config::defaultPath()).
    explicit SettingsDialog(const QString &configPath = {}, QWidget *parent = nullptr);
    ~SettingsDialog() override;

    [[nodiscard]] QString configPath() const { return m_config.path(); }
    /// Why the config file could not be read (its pages are disabled then), or empty.
    [[nodiscard]] QString loadError() const { return m_loadError; }
    /// The message shown for the last failed apply(), or empty.
    [[nodiscard]] QString errorText() const;
    [[nodiscard]] bool hasChanges() const;

    void setCurrentPage(Page page);
    [[nodiscard]] Page currentPage() const;

    /// Saves what changed: the config file (validated first) and the appearance, which is applied
    /// to the running application. False when the config could not be saved (see errorText()).
    bool apply();

    /// Selects provider @p id in the list (tests, and the "add" button). False when absent.
    bool selectProvider(const QString &id);
    /// Adds a provider with the ID @p id (made unique) and selects it; returns the ID given.
    QString addProvider(const QString &id = {});
    /// Adds a model row to the selected provider and returns its row.
    int addModel(const QString &id = {});

Q_SIGNALS:
    /// The config file was written.
    void configSaved(const QString &path);
    /// The appearance settings changed and were applied.
    void appearanceChanged();
    /// Settings › Search changed (SessionController::setSearchLimits() saves and applies them).
    void searchLimitsChanged(const weft::SearchLimits &limits);

public Q_SLOTS:
    void accept() override;

private:
    struct ModelEntry {
        QString originalID; ///< empty for a model added here
        JsonObject json;    ///< the model's object as read (unknown keys kept)
        QStringList cells;  ///< ID, name, context, output, input, output, cache read, cache write
    };
    struct ProviderEntry {
        QString originalID;
        JsonObject json;
        QString id;
        QString name;
        QString npm;
        QString baseURL;
        KeySource keySource = KeySource::Environment;
        QString keyText; ///< the key, the variable or the path, by keySource
        QList<ModelEntry> models;
    };

    QWidget *createProvidersPage();
    QWidget *createCompactionPage();
    QWidget *createAppearancePage();
    QWidget *createNotificationsPage();
    void addPage(QWidget *page, const QString &title, const QString &icon);

    void loadConfig();
    void loadAppearance();
    void showProvider(int row);
    void storeProvider();
    void updateKeyWidgets();
    void updateModelChoices();
    void updateFontWidgets();
    void removeProvider();
    void removeModel();
    void markConfigChanged();
    void markAppearanceChanged();
    void updateButtons();
    void showError(const QString &text);
    [[nodiscard]] ProviderEntry *currentEntry();
    [[nodiscard]] Result<JsonObject> buildConfig();

    ConfigFile m_config;
    QString m_loadError;
    QList<ProviderEntry> m_providers;
    int m_currentRow = -1;
    bool m_loading = false;
    bool m_configChanged = false;
    bool m_appearanceChanged = false;
    bool m_notificationsChanged = false;

    QListWidget *m_pageList = nullptr;
    QStackedWidget *m_pages = nullptr;
    QLabel *m_error = nullptr;
    QDialogButtonBox *m_buttons = nullptr;

    // Providers and models
    QWidget *m_providersPage = nullptr;
    QListWidget *m_providerList = nullptr;
    QPushButton *m_removeProvider = nullptr;
    QWidget *m_providerForm = nullptr;
    QLineEdit *m_providerID = nullptr;
    QLineEdit *m_providerName = nullptr;
    QComboBox *m_npm = nullptr;
    QLineEdit *m_baseURL = nullptr;
    QComboBox *m_keySource = nullptr;
    QLineEdit *m_key = nullptr;
    QLabel *m_keyHint = nullptr;
    QTableWidget *m_models = nullptr;
    QPushButton *m_removeModel = nullptr;
    QComboBox *m_defaultModel = nullptr;
    QComboBox *m_smallModel = nullptr;
    QLabel *m_commentsNote = nullptr;

    // Compaction
    QWidget *m_compactionPage = nullptr;
    QCheckBox *m_autoCompact = nullptr;
    QCheckBox *m_prune = nullptr;
    QComboBox *m_strategy = nullptr;
    QComboBox *m_estimator = nullptr;
    QSpinBox *m_reserved = nullptr;
    QComboBox *m_compactionModel = nullptr;

    // Appearance
    QComboBox *m_theme = nullptr;
    QCheckBox *m_customFont = nullptr;
    QFontComboBox *m_fontFamily = nullptr;
    QSpinBox *m_fontSize = nullptr;
    QComboBox *m_enterWhileRunning = nullptr;
    QCheckBox *m_newSessionInWorktree = nullptr;

    // Notifications
    QCheckBox *m_desktopNotifications = nullptr;
    SearchSettingsPage *m_searchPage = nullptr;
};

} // namespace weft
