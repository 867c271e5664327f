// SPDX-License-Identifier: GPL-3.0-or-later
#include "composer.h"

#include "app/projectfiles.h"
#include "app/promptattachments.h"
#include "startupgate.h"
#include "style.h"

#include <QAbstractItemView>
#include <QBuffer>
#include <QComboBox>
#include <QCompleter>
#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QResizeEvent>
#include <QImage>
#include <QImageReader>
#include <QKeyEvent>
#include <QLabel>
#include <QLocale>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSettings>
#include <QScrollBar>
#include <QStandardItemModel>
#include <QStringListModel>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
/// The role the command completer matches on: the bare name (the popup shows name and description).
constexpr int CommandNameRole = Qt::UserRole + 1;
}

/// The prompt editor: pasted and dropped files and images become attachments, and the keys the
/// @mention popup needs reach it.
class PromptEditor : public QPlainTextEdit
{
public:
    explicit PromptEditor(Composer *composer)
        : QPlainTextEdit(composer)
        , m_composer(composer)
    {
    }

protected:
    bool canInsertFromMimeData(const QMimeData *source) const override
    {
        return Composer::offersAttachments(source) || QPlainTextEdit::canInsertFromMimeData(source);
    }
    void insertFromMimeData(const QMimeData *source) override
    {
        if (!m_composer->takeMimeData(source))
            QPlainTextEdit::insertFromMimeData(source);
    }
    void keyPressEvent(QKeyEvent *event) override
    {
        // While a completion list (@ files or / commands) is open, these keys are its own:
        // QCompleter forwards them to the editor's event(), past event filters, and acts on them
        // only when the editor ignores them.
        const QCompleter *completer
            = m_composer->m_completer->popup()->isVisible() ? m_composer->m_completer : m_composer->m_commands;
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

private:
    Composer *m_composer;
};

namespace
{

QString sizeText(qint64 bytes)
{
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
}

/// A small picture of an attached image (from its file or its data: URL), null when unreadable.
QPixmap thumbnail(const PromptAttachment &a, int size)
{
    QImage image;
    if (!a.path.isEmpty()) {
        QImageReader reader(a.path);
        const QSize full = reader.size();
        if (full.isValid())
            reader.setScaledSize(full.scaled(size, size, Qt::KeepAspectRatio));
        image = reader.read();
    } else {
        const qsizetype comma = a.dataUrl.indexOf(u',');
        image.loadFromData(QByteArray::fromBase64(QStringView(a.dataUrl).mid(comma + 1).toLatin1()));
    }
    if (image.isNull())
        return {};
    return QPixmap::fromImage(image.scaled(size, size, Qt::KeepAspectRatio, Qt::SmoothTransformation));
}

QString iconName(const PromptAttachment &a)
{
    switch (a.kind) {
    case PromptAttachment::Kind::Directory:
        return u"folder"_s;
    case PromptAttachment::Kind::Image:
        return u"image-x-generic"_s;
    case PromptAttachment::Kind::Pdf:
        return u"application-pdf"_s;
    case PromptAttachment::Kind::McpResource:
        return u"network-server"_s;
    case PromptAttachment::Kind::Text:
        break;
    }
    return u"text-x-generic"_s;
}

} // namespace

Composer::Composer(QWidget *parent)
    : QWidget(parent)
    , m_editor(new PromptEditor(this))
    , m_agent(new QComboBox(this))
    , m_model(new QComboBox(this))
    , m_compact(new QToolButton(this))
    , m_attach(new QToolButton(this))
    , m_send(new QPushButton(this))
    , m_stop(new QPushButton(this))
    , m_steer(new QPushButton(this))
    , m_chipArea(new QScrollArea(this))
    , m_chips(new QWidget)
    , m_chipLayout(new QHBoxLayout(m_chips))
    , m_notice(new QLabel(this))
    , m_completer(new QCompleter(this))
    , m_completions(new QStringListModel(this))
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
    m_commands->popup()->setObjectName(u"commandPopup"_s);
    connect(m_commands, qOverload<const QModelIndex &>(&QCompleter::activated), this, [this](const QModelIndex &index) {
        // "/name " replaces what was typed of the name; the arguments follow.
        setText(u'/' + index.data(CommandNameRole).toString() + u' ');
        QTextCursor cursor = m_editor->textCursor();
        cursor.movePosition(QTextCursor::End);
        m_editor->setTextCursor(cursor);
    });

    // Attachments: chips above the editor, a message under it when one is refused.
    m_chipArea->setObjectName(u"attachmentChips"_s);
    m_chipArea->setWidget(m_chips);
    m_chipArea->setWidgetResizable(true);
    m_chipArea->setFrameShape(QFrame::NoFrame);
    m_chipArea->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_chipArea->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_chipLayout->setContentsMargins(0, 0, 0, 0);
    m_chipLayout->setSpacing(6);
    m_chipLayout->addStretch(1);
    m_chipArea->setVisible(false);
    m_notice->setObjectName(u"attachmentNotice"_s);
    m_notice->setWordWrap(true);
    m_notice->setVisible(false);
    QPalette noticePalette = m_notice->palette();
    noticePalette.setColor(QPalette::WindowText, Style::negative(palette()));
    m_notice->setPalette(noticePalette);

    // @mentions: the project's files, matched fuzzily as the word after "@" grows.
    m_completer->setObjectName(u"mentionCompleter"_s);
    m_completer->setModel(m_completions);
    m_completer->setWidget(m_editor);
    m_completer->setCompletionMode(QCompleter::UnfilteredPopupCompletion);
    m_completer->setMaxVisibleItems(10);
    m_completer->popup()->setObjectName(u"mentionPopup"_s);
    connect(m_completer, qOverload<const QString &>(&QCompleter::activated), this, &Composer::complete);
    connect(m_editor, &QPlainTextEdit::textChanged, this, &Composer::updateCompletion);
    connect(&m_filesWatcher, &QFutureWatcher<QStringList>::finished, this, [this] {
        m_files = m_filesWatcher.result();
        m_filesReady = true;
        Q_EMIT projectFilesLoaded();
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

    m_attach->setObjectName(u"attachButton"_s);
    m_attach->setText(tr("Attach…"));
    m_attach->setIcon(Style::icon(u"mail-attachment"_s));
    m_attach->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_attach->setAutoRaise(true);
    m_attach->setToolTip(tr("Attach files, folders or images to the prompt. You can also drop files on the editor, "
                            "paste an image, or type @ to mention a file of the project."));
    connect(m_attach, &QToolButton::clicked, this, &Composer::chooseAttachments);

    m_send->setObjectName(u"sendButton"_s);
    m_send->setText(tr("Send"));
    m_send->setIcon(Style::icon(u"document-send"_s));
    m_send->setToolTip(tr("Send the prompt (Enter)"));
    connect(m_send, &QPushButton::clicked, this, &Composer::send);
    m_steer->setObjectName(u"steerButton"_s);
    m_steer->setText(tr("Steer"));
    m_steer->setIcon(Style::icon(u"edit-redo"_s));
    connect(m_steer, &QPushButton::clicked, this, &Composer::steer);
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

    auto *controls = m_controls = new QHBoxLayout;
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
    controls->addWidget(m_attach);
    controls->addWidget(m_compact);
    controls->addWidget(m_stop);
    controls->addWidget(m_steer);
    controls->addWidget(m_send);
    controls->addWidget(m_import);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 6, 10, 8);
    layout->setSpacing(6);
    layout->addWidget(m_chipArea);
    layout->addWidget(m_editor, 1);
    layout->addWidget(m_notice);
    layout->addLayout(controls);
    updateButtons();
}

Composer::~Composer()
{
    m_filesWatcher.waitForFinished();
}

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

PromptDelivery Composer::savedDefaultDelivery()
{
    return QSettings().value(u"Composer/enterWhileRunning"_s).toString() == u"steer" ? PromptDelivery::Steer
                                                                                    : PromptDelivery::Queue;
}

void Composer::saveDefaultDelivery(PromptDelivery delivery)
{
    QSettings().setValue(u"Composer/enterWhileRunning"_s, delivery == PromptDelivery::Steer ? u"steer"_s : u"queue"_s);
}

void Composer::setDefaultDelivery(PromptDelivery delivery)
{
    m_defaultDelivery = delivery;
    updateButtons();
}

void Composer::setReadOnly(bool readOnly, const QString &reason)
{
    m_readOnly = readOnly;
    m_editor->setReadOnly(readOnly);
    if (!readOnly)
        m_editor->setPlaceholderText(tr("Ask the agent… (Enter to send, Shift+Enter for a new line)"));
    else if (!reason.isEmpty())
        m_editor->setPlaceholderText(reason);
    else
        m_editor->setPlaceholderText(tr("This session is OpenCode's and read-only here. Copy it into Weft to continue it."));
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

void Composer::setModels(const QStringList &models, const std::optional<QString> &current)
{
    const QString chosen = current.value_or(currentModel());
    m_model->clear();
    m_model->addItems(models);
    setCurrentModel(chosen);
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
    m_editor->moveCursor(QTextCursor::End);
}

void Composer::setHistorySource(std::function<QStringList()> source)
{
    m_historySource = std::move(source);
    m_history.clear();
    m_historyIndex = 0;
}

bool Composer::recallHistory(bool older)
{
    const QString current = m_editor->toPlainText();
    const bool recalled = m_historyIndex < m_history.size() && current == m_history.at(m_historyIndex);
    // Only from an empty composer or a recalled prompt left as it was: anything else is text
    // the user is writing, where Up and Down move the cursor.
    if (!current.isEmpty() && !recalled)
        return false;
    if (!recalled) {
        // A new walk: the prompts as they are now.
        m_history = m_historySource ? m_historySource() : QStringList();
        m_historyIndex = m_history.size();
    }
    if (!current.isEmpty()) {
        // Within a recalled prompt of several lines, Up and Down move between its lines first.
        const QTextCursor cursor = m_editor->textCursor();
        QTextCursor probe = cursor;
        if (probe.movePosition(older ? QTextCursor::Up : QTextCursor::Down))
            return false;
    }
    const qsizetype index = recalled ? m_historyIndex : m_history.size();
    const qsizetype next = older ? index - 1 : index + 1;
    if (next < 0 || next > m_history.size() || (!older && !recalled))
        return current.isEmpty() && !m_history.isEmpty(); // at either end: nothing to do
    m_historyIndex = next;
    setText(next < m_history.size() ? m_history.at(next) : QString());
    if (older)
        m_editor->moveCursor(QTextCursor::Start);
    return true;
}

void Composer::clearText()
{
    m_editor->clear();
    m_historyIndex = m_history.size();
    m_attachments.clear();
    m_resourceMentions.clear();
    rebuildChips();
    showNotice({});
}

void Composer::setProjectDirectory(const QString &directory)
{
    if (directory == m_projectDir)
        return;
    m_projectDir = directory;
    m_files.clear();
    m_filesReady = false;
    m_attachments.clear();
    rebuildChips();
    showNotice({});
    updateButtons();
    if (directory.isEmpty())
        return;
    // `git ls-files`: after the window's first frame.
    StartupGate::run(m_gate, this, [this, directory] {
        if (directory == m_projectDir)
            m_filesWatcher.setFuture(QtConcurrent::run([directory] { return ProjectFiles::list(directory); }));
    });
}

bool Composer::accept(const Result<PromptAttachment> &attachment, const QString &what)
{
    if (!attachment) {
        showNotice(tr("Cannot attach “%1”: %2").arg(what, attachment.error().message));
        return false;
    }
    for (const PromptAttachment &a : std::as_const(m_attachments)) {
        if (!a.path.isEmpty() && a.path == attachment->path) {
            showNotice(tr("“%1” is attached already.").arg(what));
            return false;
        }
    }
    if (m_attachments.size() >= MaxAttachments) {
        showNotice(tr("At most %1 files can be attached to one prompt.").arg(MaxAttachments));
        return false;
    }
    qint64 total = attachment->size;
    for (const PromptAttachment &a : std::as_const(m_attachments))
        total += a.kind == PromptAttachment::Kind::Image || a.kind == PromptAttachment::Kind::Pdf ? a.size : 0;
    if (attachment->kind != PromptAttachment::Kind::Text && attachment->kind != PromptAttachment::Kind::Directory
        && total > MaxTotalBytes) {
        showNotice(tr("Cannot attach “%1”: the images and PDFs of one prompt can be %2 in all.")
                       .arg(what, sizeText(MaxTotalBytes)));
        return false;
    }
    m_attachments.append(attachment.value());
    showNotice({});
    rebuildChips();
    updateButtons();
    return true;
}

bool Composer::addAttachment(const QString &path)
{
    if (m_projectDir.isEmpty() || m_readOnly) {
        showNotice(tr("Files can only be attached to Weft's own sessions."));
        return false;
    }
    return accept(PromptAttachments::fromPath(path, m_projectDir),
                  QFileInfo(path).fileName().isEmpty() ? path : QFileInfo(path).fileName());
}

bool Composer::addPastedImage(const QString &dataUrl)
{
    if (m_projectDir.isEmpty() || m_readOnly) {
        showNotice(tr("Files can only be attached to Weft's own sessions."));
        return false;
    }
    int n = 1;
    for (const PromptAttachment &a : std::as_const(m_attachments))
        n += a.path.isEmpty() ? 1 : 0;
    const QString name = n == 1 ? tr("pasted-image.png") : tr("pasted-image-%1.png").arg(n);
    return accept(PromptAttachments::fromDataUrl(dataUrl, name), name);
}

void Composer::removeAttachment(int index)
{
    if (index < 0 || index >= m_attachments.size())
        return;
    m_attachments.removeAt(index);
    rebuildChips();
    updateButtons();
}

void Composer::setResources(const QList<McpResourceInfo> &resources)
{
    m_resources = resources;
    m_resourceChoices.clear();
    m_resourceChoiceTexts.clear();
    for (const McpResourceInfo &r : resources) {
        const QString choice = tr("%1 (%2)").arg(r.name, r.uri);
        if (!m_resourceChoices.contains(choice))
            m_resourceChoiceTexts.append(choice);
        m_resourceChoices.insert(choice, r);
    }
}

QList<PromptAttachment> Composer::attachmentsToSend() const
{
    QList<PromptAttachment> all = PromptAttachments::mentions(text(), m_projectDir);
    const QString written = text();
    QStringList sent;
    for (const McpResourceInfo &r : m_resourceMentions) {
        // A mention the user deleted is not sent; one chosen twice is sent once.
        const qsizetype at = written.indexOf(u'@' + r.name);
        if (at < 0 || sent.contains(r.server + u'\n' + r.uri))
            continue;
        sent.append(r.server + u'\n' + r.uri);
        all.append(PromptAttachments::fromMcpResource(r, at));
    }
    for (const PromptAttachment &a : m_attachments) {
        bool mentioned = false;
        for (const PromptAttachment &m : std::as_const(all))
            mentioned = mentioned || (!a.path.isEmpty() && m.path == a.path);
        if (!mentioned)
            all.append(a);
    }
    return all;
}

QString Composer::attachmentNotice() const
{
    return m_notice->isVisible() ? m_notice->text() : QString();
}

void Composer::showNotice(const QString &text)
{
    m_notice->setText(text);
    m_notice->setVisible(!text.isEmpty());
}

bool Composer::offersAttachments(const QMimeData *data)
{
    if (data->hasImage())
        return true;
    if (!data->hasUrls())
        return false;
    for (const QUrl &url : data->urls()) {
        if (!url.isLocalFile())
            return false;
    }
    return !data->urls().isEmpty();
}

bool Composer::takeMimeData(const QMimeData *data)
{
    if (!offersAttachments(data))
        return false;
    if (data->hasUrls()) {
        for (const QUrl &url : data->urls())
            addAttachment(url.toLocalFile());
        return true;
    }
    // An image from the clipboard (a screenshot): sent as PNG.
    const QImage image = qvariant_cast<QImage>(data->imageData());
    if (image.isNull()) {
        showNotice(tr("The pasted image cannot be read."));
        return true;
    }
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    addPastedImage(u"data:image/png;base64,"_s + QString::fromLatin1(png.toBase64()));
    return true;
}

void Composer::rebuildChips()
{
    while (m_chipLayout->count() > 1) {
        QLayoutItem *item = m_chipLayout->takeAt(0);
        delete item->widget();
        delete item;
    }
    for (int i = 0; i < m_attachments.size(); ++i) {
        const PromptAttachment &a = m_attachments.at(i);
        auto *chip = new QFrame(m_chips);
        chip->setObjectName(u"attachmentChip"_s);
        chip->setFrameShape(QFrame::StyledPanel);
        chip->setToolTip(a.path.isEmpty() ? a.filename : QDir::toNativeSeparators(a.path));
        auto *row = new QHBoxLayout(chip);
        row->setContentsMargins(6, 2, 2, 2);
        row->setSpacing(4);
        auto *icon = new QLabel(chip);
        const int side = fontMetrics().height();
        QPixmap picture = a.isImage() ? thumbnail(a, side * 2) : QPixmap();
        if (picture.isNull())
            picture = Style::icon(iconName(a)).pixmap(side, side);
        icon->setPixmap(picture);
        auto *name = new QLabel(chip);
        const QString label = a.kind == PromptAttachment::Kind::Directory ? a.filename + u'/'
                                                                         : tr("%1 (%2)").arg(a.filename, sizeText(a.size));
        name->setText(fontMetrics().elidedText(label, Qt::ElideMiddle, side * 16));
        auto *remove = new QToolButton(chip);
        remove->setObjectName(u"removeAttachment"_s);
        remove->setAutoRaise(true);
        remove->setIcon(Style::icon(u"dialog-close"_s));
        remove->setToolTip(tr("Remove %1").arg(a.filename));
        remove->setAccessibleName(tr("Remove %1").arg(a.filename));
        connect(remove, &QToolButton::clicked, this, [this, i] { removeAttachment(i); });
        row->addWidget(icon);
        row->addWidget(name);
        row->addWidget(remove);
        m_chipLayout->insertWidget(i, chip);
    }
    m_chipArea->setVisible(!m_attachments.isEmpty());
    if (!m_attachments.isEmpty())
        m_chipArea->setFixedHeight(m_chips->sizeHint().height() + m_chipArea->horizontalScrollBar()->sizeHint().height());
}

qsizetype Composer::mentionStart(QString *query) const
{
    const QTextCursor cursor = m_editor->textCursor();
    const QString text = m_editor->toPlainText();
    const qsizetype position = cursor.position();
    qsizetype start = position;
    while (start > 0 && !text.at(start - 1).isSpace() && text.at(start - 1) != u'@')
        --start;
    if (start == 0 || text.at(start - 1) != u'@')
        return -1;
    const qsizetype at = start - 1;
    if (at > 0 && !text.at(at - 1).isSpace())
        return -1; // mail@example.com
    *query = text.mid(start, position - start);
    return at;
}

void Composer::updateCompletion()
{
    QString query;
    if ((!m_filesReady && m_resources.isEmpty()) || m_projectDir.isEmpty() || !m_editor->hasFocus()
        || mentionStart(&query) < 0) {
        m_completer->popup()->hide();
        return;
    }
    // The project's files first, then the MCP resources, as OpenCode's prompt box lists them.
    QStringList matches = ProjectFiles::match(m_files, query, 50);
    matches += ProjectFiles::match(m_resourceChoiceTexts, query, 20);
    if (matches.isEmpty()) {
        m_completer->popup()->hide();
        return;
    }
    m_completions->setStringList(matches);
    QRect rect = m_editor->cursorRect();
    rect.setWidth(std::min(m_editor->viewport()->width(), fontMetrics().averageCharWidth() * 60));
    m_completer->complete(rect);
    m_completer->popup()->setCurrentIndex(m_completer->completionModel()->index(0, 0));
}

void Composer::complete(const QString &choice)
{
    QString query;
    const qsizetype at = mentionStart(&query);
    if (at < 0)
        return;
    QTextCursor cursor = m_editor->textCursor();
    cursor.setPosition(int(at));
    cursor.setPosition(int(at + 1 + query.size()), QTextCursor::KeepAnchor);
    if (const auto resource = m_resourceChoices.constFind(choice); resource != m_resourceChoices.cend()) {
        // A resource is mentioned by its name; what it is goes with the prompt.
        cursor.insertText(u'@' + resource->name + u' ');
        m_resourceMentions.append(*resource);
    } else {
        // A folder stays open for more typing; a file ends the mention.
        cursor.insertText(u'@' + choice + (choice.endsWith(u'/') ? QString() : u" "_s));
    }
    m_editor->setTextCursor(cursor);
}

void Composer::updateButtons()
{
    const bool haveSession = !m_sessionID.isEmpty() && !m_readOnly;
    const bool offerImport = m_readOnly && m_importAvailable && !m_sessionID.isEmpty();
    m_import->setVisible(offerImport);
    m_send->setVisible(!offerImport);
    m_stop->setVisible(m_running);
    m_steer->setVisible(m_running && !offerImport);
    const bool enterSteers = m_defaultDelivery == PromptDelivery::Steer;
    if (m_running) {
        m_send->setText(tr("Queue"));
        m_send->setToolTip(tr("Send the prompt when the reply has ended (%1)").arg(enterSteers ? tr("Alt+Enter") : tr("Enter")));
        m_steer->setToolTip(tr("Send the prompt into the running reply: the agent reads it after its current step (%1)")
                                .arg(enterSteers ? tr("Enter") : tr("Alt+Enter")));
    } else {
        m_send->setText(tr("Send"));
        m_send->setToolTip(tr("Send the prompt (Enter)"));
    }
    const bool haveText = !text().trimmed().isEmpty();
    m_send->setEnabled(haveSession && haveText);
    m_steer->setEnabled(haveSession && haveText);
    m_stop->setEnabled(haveSession);
    m_compact->setEnabled(haveSession && !m_running);
    m_attach->setEnabled(haveSession && !m_projectDir.isEmpty());
    m_editor->setEnabled(!m_sessionID.isEmpty());
    fitControls();
}

void Composer::fitControls()
{
    if (!m_controls)
        return; // still being made
    const auto style = [this](Qt::ToolButtonStyle s) {
        m_attach->setToolButtonStyle(s);
        m_compact->setToolButtonStyle(s);
    };
    style(Qt::ToolButtonTextBesideIcon);
    const QMargins margins = layout()->contentsMargins();
    if (m_controls->sizeHint().width() > width() - margins.left() - margins.right())
        style(Qt::ToolButtonIconOnly);
}

void Composer::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitControls();
}

void Composer::send()
{
    request(PromptDelivery::Queue);
}

void Composer::steer()
{
    request(PromptDelivery::Steer);
}

void Composer::request(PromptDelivery delivery)
{
    if (m_sessionID.isEmpty() || m_readOnly || text().trimmed().isEmpty())
        return;
    Q_EMIT sendRequested(m_sessionID, text(), currentAgent(), currentModel(), attachmentsToSend(), delivery);
}

void Composer::chooseAttachments()
{
    const QStringList files = QFileDialog::getOpenFileNames(this, tr("Attach Files"), m_projectDir);
    for (const QString &file : files)
        addAttachment(file);
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
        if (m_completer->popup()->isVisible())
            return QWidget::eventFilter(watched, event);
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
        if ((ke->key() == Qt::Key_Up || ke->key() == Qt::Key_Down) && ke->modifiers() == Qt::NoModifier
            && recallHistory(ke->key() == Qt::Key_Up))
            return true;
        const bool enter = ke->key() == Qt::Key_Return || ke->key() == Qt::Key_Enter;
        if (enter && !(ke->modifiers() & Qt::ShiftModifier)) {
            // Alt+Enter: the other way of reaching a running reply than Enter's.
            const PromptDelivery otherDelivery
                = m_defaultDelivery == PromptDelivery::Steer ? PromptDelivery::Queue : PromptDelivery::Steer;
            request(ke->modifiers() & Qt::AltModifier ? otherDelivery : m_defaultDelivery);
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
