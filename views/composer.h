// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QComboBox;
class QCompleter;
class QPlainTextEdit;
class QStandardItemModel;
class QToolButton;
class QPushButton;

namespace weft
{

/// Where the user writes the next prompt: a multi-line editor (Enter sends, Shift+Enter starts a
/// new line), the agent and model choices, Send / Stop and "Compact…".
///
/// The composer only asks: it emits sendRequested(), stopRequested() and compactRequested(). The
/// receiver of sendRequested() calls clearText() once it has taken the prompt, so that a prompt
/// is never lost when sending fails.
class Composer : public QWidget
{
    Q_OBJECT

public:
    explicit Composer(QWidget *parent = nullptr);
    ~Composer() override;

    void setSessionID(const QString &sessionID);
    [[nodiscard]] QString sessionID() const { return m_sessionID; }
    /// While a reply runs, Send becomes Stop.
    void setRunning(bool running);
    [[nodiscard]] bool isRunning() const { return m_running; }
    /// A read-only store (an OpenCode database) cannot take prompts.
    void setReadOnly(bool readOnly);
    /// While read-only, offer "Copy into Weft to Continue" (importRequested()).
    void setImportAvailable(bool available);

    void setAgents(const QStringList &agents);
    void setCurrentAgent(const QString &agent);
    [[nodiscard]] QString currentAgent() const;
    /// Models as "provider/model".
    void setModels(const QStringList &models);
    void setCurrentModel(const QString &model);
    [[nodiscard]] QString currentModel() const;

    /// The commands `/name` runs (the project's `command` config and .opencode/command files):
    /// typing '/' at the start offers them, with their descriptions.
    struct CommandChoice {
        QString name;
        QString description;
    };
    void setCommands(const QList<CommandChoice> &commands);
    [[nodiscard]] QCompleter *commandCompleter() const { return m_commands; }

    [[nodiscard]] QString text() const;
    void setText(const QString &text);
    void clearText();
    [[nodiscard]] QPlainTextEdit *editor() const { return m_editor; }
    [[nodiscard]] QPushButton *sendButton() const { return m_send; }
    [[nodiscard]] QPushButton *stopButton() const { return m_stop; }
    [[nodiscard]] QToolButton *compactButton() const { return m_compact; }
    [[nodiscard]] QPushButton *importButton() const { return m_import; }

public Q_SLOTS:
    void send();
    void stop();
    void compact();

Q_SIGNALS:
    void sendRequested(const QString &sessionID, const QString &text, const QString &agent, const QString &model);
    void stopRequested(const QString &sessionID);
    void compactRequested(const QString &sessionID);
    /// The read-only session should be copied into Weft's store to be continued there.
    void importRequested(const QString &sessionID);
    /// The model choice changed ("provider/model").
    void modelChanged(const QString &model);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void updateButtons();
    void updateCommandCompletion();

    QString m_sessionID;
    bool m_running = false;
    bool m_readOnly = false;
    bool m_importAvailable = false;
    QPlainTextEdit *m_editor;
    QComboBox *m_agent;
    QComboBox *m_model;
    QToolButton *m_compact;
    QPushButton *m_send;
    QPushButton *m_stop;
    QPushButton *m_import = nullptr;
    QStandardItemModel *m_commandModel;
    QCompleter *m_commands;
};

} // namespace weft
