// SPDX-License-Identifier: GPL-3.0-or-later
#include "composer.h"

#include "style.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QCoreApplication>
#include <QCompleter>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QStandardItemModel>
#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
/// The role the command completer matches on: the bare name (the popup shows name and description).
constexpr int CommandNameRole = Qt::UserRole + 1;

/// The prompt editor. While a completer's popup is open, QCompleter forwards the keys it gets to
/// the editor's event() (past event filters) and completes on Enter or Tab only when the editor
/// ignores them, as Qt's custom completer example shows.
class PromptEdit : public QPlainTextEdit
{
public:
    using QPlainTextEdit::QPlainTextEdit;
    QCompleter *completer = nullptr;

protected:
    void keyPressEvent(QKeyEvent *event) override
    {
        if (completer && completer->popup()->isVisible()) {
            switch (event->key()) {
            case Qt::Key_Return:
            case Qt::Key_Enter:
            case Qt::Key_Tab:
            case Qt::Key_Backtab:
            case Qt::Key_Escape:
                event->ignore();
                return;
            default:
                break;
            }
        }
        QPlainTextEdit::keyPressEvent(event);
    }
};
}

Composer::Composer(QWidget *parent)
    : QWidget(parent)
    , m_editor(new PromptEdit(this))
    , m_agent(new QComboBox(this))
    , m_model(new QComboBox(this))
    , m_compact(new QToolButton(this))
    , m_send(new QPushButton(this))
    , m_stop(new QPushButton(this))
    , m_commandModel(new QStandardItemModel(this))
    , m_commands(new QCompleter(this))
{
    setObjectName(u"composer"_s);
    m_editor->setObjectName(u"composerEditor"_s);
    m_editor->setPlaceholderText(tr("Ask the agent… (Enter to send, Shift+Enter for a new line)"));
    m_editor->setTabChangesFocus(true);
    m_editor->setAccessibleName(tr("Prompt"));
    m_editor->installEventFilter(this);
    const QFontMetrics fm(m_editor->font());
    m_editor->setMinimumHeight(fm.lineSpacing() * 2 + 16);
    connect(m_editor, &QPlainTextEdit::textChanged, this, &Composer::updateButtons);
    connect(m_editor, &QPlainTextEdit::textChanged, this, &Composer::updateCommandCompletion);

    m_commands->setModel(m_commandModel);
    m_commands->setCompletionRole(CommandNameRole);
    m_commands->setCaseSensitivity(Qt::CaseInsensitive);
    m_commands->setFilterMode(Qt::MatchStartsWith);
    m_commands->setCompletionMode(QCompleter::PopupCompletion);
    m_commands->setWidget(m_editor);
    static_cast<PromptEdit *>(m_editor)->completer = m_commands;
    m_commands->popup()->setObjectName(u"commandPopup"_s);
    connect(m_commands, qOverload<const QModelIndex &>(&QCompleter::activated), this, [this](const QModelIndex &index) {
        // "/name " replaces what was typed of the name; the arguments follow.
        setText(u'/' + index.data(CommandNameRole).toString() + u' ');
        QTextCursor cursor = m_editor->textCursor();
        cursor.movePosition(QTextCursor::End);
        m_editor->setTextCursor(cursor);
    });

    m_agent->setObjectName(u"agentCombo"_s);
    m_agent->setToolTip(tr("The agent that answers: build works on files, plan only reads and plans"));
    m_agent->setAccessibleName(tr("Agent"));
    m_model->setObjectName(u"modelCombo"_s);
    m_model->setToolTip(tr("The model that answers"));
    m_model->setAccessibleName(tr("Model"));
    m_model->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_model->setMinimumContentsLength(18);
    connect(m_model, &QComboBox::currentTextChanged, this, &Composer::modelChanged);
    setAgents({u"build"_s, u"plan"_s});

    m_compact->setObjectName(u"compactButton"_s);
    m_compact->setText(tr("Compact…"));
    m_compact->setIcon(Style::icon(u"weft-compact"_s));
    m_compact->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_compact->setAutoRaise(true);
    m_compact->setToolTip(tr("Summarise the conversation so far to free context (shows a preview first)"));
    connect(m_compact, &QToolButton::clicked, this, &Composer::compact);

    m_send->setObjectName(u"sendButton"_s);
    m_send->setText(tr("Send"));
    m_send->setIcon(Style::icon(u"document-send"_s));
    m_send->setToolTip(tr("Send the prompt (Enter)"));
    connect(m_send, &QPushButton::clicked, this, &Composer::send);
    m_stop->setObjectName(u"stopButton"_s);
    m_stop->setText(tr("Stop"));
    m_stop->setIcon(Style::icon(u"process-stop"_s));
    m_stop->setToolTip(tr("Stop the reply (Escape)"));
    connect(m_stop, &QPushButton::clicked, this, &Composer::stop);
    m_import = new QPushButton(this);
    m_import->setObjectName(u"importButton"_s);
    m_import->setText(tr("Copy into Weft to Continue"));
    m_import->setIcon(Style::icon(u"document-new"_s));
    m_import->setToolTip(tr("This session belongs to OpenCode. Copy it into Weft's own sessions to send, fork and "
                            "compact there; OpenCode's data is left as it is."));
    connect(m_import, &QPushButton::clicked, this, [this] {
        if (!m_sessionID.isEmpty())
            Q_EMIT importRequested(m_sessionID);
    });

    auto *controls = new QHBoxLayout;
    controls->setContentsMargins(0, 0, 0, 0);
    controls->setSpacing(6);
    auto *agentLabel = new QLabel(tr("&Agent:"), this);
    agentLabel->setBuddy(m_agent);
    auto *modelLabel = new QLabel(tr("&Model:"), this);
    modelLabel->setBuddy(m_model);
    controls->addWidget(agentLabel);
    controls->addWidget(m_agent);
    controls->addSpacing(8);
    controls->addWidget(modelLabel);
    controls->addWidget(m_model);
    controls->addStretch(1);
    controls->addWidget(m_compact);
    controls->addWidget(m_stop);
    controls->addWidget(m_send);
    controls->addWidget(m_import);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 6, 10, 8);
    layout->setSpacing(6);
    layout->addWidget(m_editor, 1);
    layout->addLayout(controls);
    updateButtons();
}

Composer::~Composer() = default;

void Composer::setSessionID(const QString &sessionID)
{
    m_sessionID = sessionID;
    updateButtons();
}

void Composer::setRunning(bool running)
{
    m_running = running;
    updateButtons();
}

void Composer::setReadOnly(bool readOnly)
{
    m_readOnly = readOnly;
    m_editor->setReadOnly(readOnly);
    m_editor->setPlaceholderText(readOnly
                                     ? tr("This session is OpenCode's and read-only here. Copy it into Weft to continue it.")
                                     : tr("Ask the agent… (Enter to send, Shift+Enter for a new line)"));
    updateButtons();
}

void Composer::setImportAvailable(bool available)
{
    m_importAvailable = available;
    updateButtons();
}

void Composer::setAgents(const QStringList &agents)
{
    const QString current = currentAgent();
    m_agent->clear();
    m_agent->addItems(agents);
    setCurrentAgent(current);
}

void Composer::setCurrentAgent(const QString &agent)
{
    if (agent.isEmpty())
        return;
    if (m_agent->findText(agent) < 0)
        m_agent->addItem(agent);
    m_agent->setCurrentText(agent);
}

QString Composer::currentAgent() const
{
    return m_agent->currentText();
}

void Composer::setModels(const QStringList &models)
{
    const QString current = currentModel();
    m_model->clear();
    m_model->addItems(models);
    setCurrentModel(current);
}

void Composer::setCurrentModel(const QString &model)
{
    if (model.isEmpty())
        return;
    if (m_model->findText(model) < 0)
        m_model->addItem(model);
    m_model->setCurrentText(model);
}

QString Composer::currentModel() const
{
    return m_model->currentText();
}

QString Composer::text() const
{
    return m_editor->toPlainText();
}

void Composer::setText(const QString &text)
{
    m_editor->setPlainText(text);
}

void Composer::clearText()
{
    m_editor->clear();
}

void Composer::updateButtons()
{
    const bool haveSession = !m_sessionID.isEmpty() && !m_readOnly;
    const bool offerImport = m_readOnly && m_importAvailable && !m_sessionID.isEmpty();
    m_import->setVisible(offerImport);
    m_send->setVisible(!m_running && !offerImport);
    m_stop->setVisible(m_running);
    m_send->setEnabled(haveSession && !text().trimmed().isEmpty());
    m_stop->setEnabled(haveSession);
    m_compact->setEnabled(haveSession && !m_running);
    m_editor->setEnabled(!m_sessionID.isEmpty());
}

void Composer::send()
{
    if (m_sessionID.isEmpty() || m_running || m_readOnly || text().trimmed().isEmpty())
        return;
    Q_EMIT sendRequested(m_sessionID, text(), currentAgent(), currentModel());
}

void Composer::stop()
{
    if (!m_sessionID.isEmpty() && m_running)
        Q_EMIT stopRequested(m_sessionID);
}

void Composer::compact()
{
    if (!m_sessionID.isEmpty() && !m_running && !m_readOnly)
        Q_EMIT compactRequested(m_sessionID);
}

void Composer::setCommands(const QList<CommandChoice> &commands)
{
    m_commandModel->clear();
    for (const CommandChoice &c : commands) {
        auto *item = new QStandardItem(c.description.isEmpty() ? u'/' + c.name : tr("/%1 — %2").arg(c.name, c.description));
        item->setData(c.name, CommandNameRole);
        item->setToolTip(c.description);
        item->setEditable(false);
        m_commandModel->appendRow(item);
    }
    updateCommandCompletion();
}

void Composer::updateCommandCompletion()
{
    // Offered while the text is '/' and the start of a name: nothing else typed yet.
    const QString text = m_editor->toPlainText();
    static const QRegularExpression partialName(uR"(^/[^\s/]*$)"_s);
    if (m_commandModel->rowCount() == 0 || !m_editor->hasFocus() || !partialName.match(text).hasMatch()) {
        m_commands->popup()->hide();
        return;
    }
    m_commands->setCompletionPrefix(text.mid(1));
    if (m_commands->completionCount() == 0) {
        m_commands->popup()->hide();
        return;
    }
    QRect rect = m_editor->cursorRect();
    rect.setWidth(std::max(320, m_commands->popup()->sizeHintForColumn(0) + 24));
    m_commands->complete(rect);
    m_commands->popup()->setCurrentIndex(m_commands->completionModel()->index(0, 0));
}

bool Composer::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_editor && event->type() == QEvent::KeyPress) {
        auto *ke = static_cast<QKeyEvent *>(event);
        if (m_commands->popup()->isVisible()) {
            // A key that reached the editor itself while the popup is open goes to the popup,
            // whose completer handles Enter, Tab and Escape (and passes the rest back).
            switch (ke->key()) {
            case Qt::Key_Return:
            case Qt::Key_Enter:
            case Qt::Key_Tab:
            case Qt::Key_Escape:
            case Qt::Key_Up:
            case Qt::Key_Down:
                QCoreApplication::sendEvent(m_commands->popup(), event);
                return true;
            default:
                break;
            }
        }
        const bool enter = ke->key() == Qt::Key_Return || ke->key() == Qt::Key_Enter;
        if (enter && !(ke->modifiers() & Qt::ShiftModifier)) {
            send();
            return true;
        }
        if (enter) {
            // A real paragraph, not the line separator QPlainTextEdit makes of Shift+Enter.
            m_editor->textCursor().insertText(u"\n"_s);
            return true;
        }
        if (ke->key() == Qt::Key_Escape && m_running) {
            stop();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace weft
