// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/mcpserver.h"
#include "core/prompt.h"
#include "core/result.h"
#include "startupgate.h"

#include <QFutureWatcher>
#include <QHash>
#include <QPointer>
#include <QStringList>
#include <QWidget>

#include <optional>

#include <functional>

class QComboBox;
class QCompleter;
class QHBoxLayout;
class QLabel;
class QMimeData;
class QPlainTextEdit;
class QScrollArea;
class QStandardItemModel;
class QStringListModel;
class QToolButton;
class QPushButton;

namespace weft
{

/// Where the user writes the next prompt: a multi-line editor (Enter sends, Shift+Enter starts a
/// new line), the agent and model choices, Send / Stop and "Compact…".
///
/// Attachments: files and folders dropped on the editor or pasted, images pasted from the
/// clipboard (as PNG), and `@path` mentions of the project's files, completed fuzzily as they are
/// typed, with the resources of the project's MCP servers after the files (`@name`). Each file dropped or pasted shows as a chip (icon or thumbnail, name, size, a remove
/// button); a file that cannot go (missing, unreadable, a device, binary, too large) is refused
/// at once with a message under the editor, so nothing fails later.
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
    /// While a reply runs, Stop shows, and a prompt is queued for when it ends (Queue, Enter) or
    /// steered into it now (Steer, Alt+Enter): PromptDelivery. setDefaultDelivery() swaps the keys.
    void setRunning(bool running);
    [[nodiscard]] bool isRunning() const { return m_running; }
    /// What Enter does while a reply runs (Alt+Enter does the other).
    void setDefaultDelivery(PromptDelivery delivery);
    [[nodiscard]] PromptDelivery defaultDelivery() const { return m_defaultDelivery; }
    /// What Enter does while a reply runs, as the user set it (Settings › Appearance; QSettings
    /// "Composer/enterWhileRunning": "queue", the default, or "steer").
    [[nodiscard]] static PromptDelivery savedDefaultDelivery();
    static void saveDefaultDelivery(PromptDelivery delivery);
    /// A read-only store (an OpenCode database) cannot take prompts; nor can a session another
    /// process runs. @p reason replaces the placeholder text that says so.
    void setReadOnly(bool readOnly, const QString &reason = {});
    /// While read-only, offer "Copy into Weft to Continue" (importRequested()).
    void setImportAvailable(bool available);

    void setAgents(const QStringList &agents);
    void setCurrentAgent(const QString &agent);
    [[nodiscard]] QString currentAgent() const;
    /// Models as "provider/model"; the one chosen stays chosen (and listed), unless @p current
    /// says which to choose instead (empty: the first listed, or none).
    void setModels(const QStringList &models, const std::optional<QString> &current = std::nullopt);
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
    /// Replaces the text, with the cursor at its end.
    void setText(const QString &text);
    /// Where the session's earlier prompts come from (oldest first), asked when Up is pressed in
    /// an empty composer: Up shows the newest, Up again the one before, Down goes back towards an
    /// empty composer. A recalled prompt that is edited is the user's text again.
    void setHistorySource(std::function<QStringList()> source);
    /// Clears the text and the attachments.
    void clearText();

    /// The project folder of the session: where @mentions are looked up and completed (its file
    /// list is read off the GUI thread). Empty: no mentions, and no attachments at all (a
    /// session of an OpenCode server, whose files are elsewhere).
    void setProjectDirectory(const QString &directory);
    /// The file list is read once @p gate opens (the window's first frame; none: at once).
    void setStartupGate(StartupGate *gate) { m_gate = gate; }
    [[nodiscard]] QString projectDirectory() const { return m_projectDir; }
    /// The resources of the session's MCP servers that "@" offers after the files.
    void setResources(const QList<McpResourceInfo> &resources);
    [[nodiscard]] const QList<McpResourceInfo> &resources() const { return m_resources; }
    /// Attaches a file or folder (a path relative to the project); false, with the reason shown
    /// under the editor, when it cannot go.
    bool addAttachment(const QString &path);
    /// Attaches a pasted image given as a data: URL; false with the reason shown when refused.
    bool addPastedImage(const QString &dataUrl);
    void removeAttachment(int index);
    /// The files, folders and images attached (not counting mentions).
    [[nodiscard]] const QList<PromptAttachment> &attachments() const { return m_attachments; }
    /// What the prompt sends: the attachments and the text's mentions, each file once, and the
    /// MCP resources chosen from the completion whose "@name" is still in the text.
    [[nodiscard]] QList<PromptAttachment> attachmentsToSend() const;
    /// The message under the editor (why the last attachment was refused), empty when none.
    [[nodiscard]] QString attachmentNotice() const;
    /// The @mention completion, for tests.
    [[nodiscard]] QCompleter *completer() const { return m_completer; }
    /// True once the project's file list is read.
    [[nodiscard]] bool projectFilesReady() const { return m_filesReady; }
    /// At most this many attachments, and this many bytes of them in all (providers refuse more).
    static constexpr int MaxAttachments = 20;
    static constexpr qint64 MaxTotalBytes = 32 * 1024 * 1024;
    [[nodiscard]] QPlainTextEdit *editor() const { return m_editor; }
    [[nodiscard]] QPushButton *sendButton() const { return m_send; }
    [[nodiscard]] QPushButton *stopButton() const { return m_stop; }
    /// While a reply runs: sends the prompt into it (PromptDelivery::Steer); Send queues then.
    [[nodiscard]] QPushButton *steerButton() const { return m_steer; }
    [[nodiscard]] QToolButton *compactButton() const { return m_compact; }
    [[nodiscard]] QPushButton *importButton() const { return m_import; }
    [[nodiscard]] QToolButton *attachButton() const { return m_attach; }

public Q_SLOTS:
    /// Sends the prompt; while a reply runs, queued for when it ends.
    void send();
    /// While a reply runs, sends the prompt into it at its next step.
    void steer();
    void stop();
    void compact();
    /// Asks for files to attach (a file dialog in the project folder).
    void chooseAttachments();

Q_SIGNALS:
    /// @p delivery says what to do when the session runs (as it does when isRunning()).
    void sendRequested(const QString &sessionID, const QString &text, const QString &agent, const QString &model,
                       const QList<weft::PromptAttachment> &attachments, weft::PromptDelivery delivery);
    void stopRequested(const QString &sessionID);
    void compactRequested(const QString &sessionID);
    /// The read-only session should be copied into Weft's store to be continued there.
    void importRequested(const QString &sessionID);
    /// The model choice changed ("provider/model").
    void modelChanged(const QString &model);
    /// The project's file list was read (setProjectDirectory()).
    void projectFilesLoaded();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    friend class PromptEditor;
    /// Attach and Compact with their text where the row has room, their icons only where it has
    /// not (a narrow pane of a split; a run's Stop and Steer take room too).
    void fitControls();
    void updateButtons();
    void request(PromptDelivery delivery);
    /// Pasted or dropped data: local files and folders, or an image. False: plain text.
    bool takeMimeData(const QMimeData *data);
    [[nodiscard]] static bool offersAttachments(const QMimeData *data);
    bool accept(const Result<PromptAttachment> &attachment, const QString &what);
    void showNotice(const QString &text);
    void rebuildChips();
    /// The "@query" before the cursor: its start, or -1 when the cursor is not in a mention.
    [[nodiscard]] qsizetype mentionStart(QString *query) const;
    void updateCompletion();
    void complete(const QString &choice);
    void updateCommandCompletion();
    /// Up (@p older) or Down through the history; false when the key is the editor's.
    bool recallHistory(bool older);

    QString m_sessionID;
    bool m_running = false;
    bool m_readOnly = false;
    bool m_importAvailable = false;
    QPlainTextEdit *m_editor;
    QComboBox *m_agent;
    QComboBox *m_model;
    QToolButton *m_compact;
    QToolButton *m_attach;
    /// The row under the editor: agent, model, Attach, Compact, Stop, Steer, Send.
    QHBoxLayout *m_controls = nullptr;
    QPushButton *m_send;
    QPushButton *m_stop;
    QPushButton *m_steer;
    PromptDelivery m_defaultDelivery = PromptDelivery::Queue;
    QPushButton *m_import = nullptr;
    QScrollArea *m_chipArea;
    QWidget *m_chips;
    QHBoxLayout *m_chipLayout;
    QLabel *m_notice;
    QCompleter *m_completer;
    QStringListModel *m_completions;
    QString m_projectDir;
    QList<PromptAttachment> m_attachments;
    QStringList m_files;
    QList<McpResourceInfo> m_resources;
    /// "name (uri)", as the completion shows each resource (in the servers' order), and the
    /// resource each stands for.
    QStringList m_resourceChoiceTexts;
    QHash<QString, McpResourceInfo> m_resourceChoices;
    /// The resources chosen from the completion (their mention is "@name").
    QList<McpResourceInfo> m_resourceMentions;
    bool m_filesReady = false;
    QFutureWatcher<QStringList> m_filesWatcher;
    QPointer<StartupGate> m_gate;
    std::function<QStringList()> m_historySource;
    QStringList m_history; ///< as the source gave it when the walk began
    /// The history entry shown, m_history.size() for none (the user's own text).
    qsizetype m_historyIndex = 0;
    QStandardItemModel *m_commandModel;
    QCompleter *m_commands;
};

} // namespace weft
