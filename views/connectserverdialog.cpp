// SPDX-License-Identifier: GPL-3.0-or-later
#include "connectserverdialog.h"

#include "app/serveraddress.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace weft
{

ConnectServerDialog::ConnectServerDialog(const QList<Recent> &recent, QWidget *parent)
    : QDialog(parent)
    , m_recent(recent)
    , m_url(new QComboBox(this))
    , m_password(new QLineEdit(this))
    , m_remember(new QCheckBox(tr("&Remember the password"), this))
    , m_hint(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Connect to OpenCode Server"));
    setObjectName(u"connectServerDialog"_s);

    auto *intro = new QLabel(tr("Weft shows the sessions of a running <code>opencode serve</code>, live, and sends your "
                                "prompts to it: the agent runs there, with that server's configuration and files."),
                             this);
    intro->setWordWrap(true);

    m_url->setEditable(true);
    m_url->setObjectName(u"serverUrl"_s);
    m_url->setInsertPolicy(QComboBox::NoInsert);
    for (const Recent &r : recent)
        m_url->addItem(r.url);
    m_url->lineEdit()->setPlaceholderText(u"http://127.0.0.1:4096 · ssh://user@host/path"_s);
    m_url->setAccessibleName(tr("Server address"));
    m_url->setMinimumContentsLength(32);

    m_password->setObjectName(u"serverPassword"_s);
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setPlaceholderText(tr("OPENCODE_SERVER_PASSWORD, if the server has one"));
    m_password->setAccessibleName(tr("Password"));
    m_remember->setObjectName(u"rememberPassword"_s);
    m_remember->setToolTip(tr("Kept in Weft's settings file, readable only by you"));

    m_hint->setObjectName(u"serverHint"_s);
    m_hint->setWordWrap(true);
    m_hint->setForegroundRole(QPalette::PlaceholderText);

    auto *form = new QFormLayout;
    form->addRow(tr("&Address:"), m_url);
    form->addRow(tr("&Password:"), m_password);
    form->addRow(QString(), m_remember);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Connect"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_hint);
    layout->addWidget(m_buttons);

    connect(m_url, &QComboBox::currentTextChanged, this, &ConnectServerDialog::onUrlChanged);
    connect(m_url, &QComboBox::editTextChanged, this, &ConnectServerDialog::validate);
    onUrlChanged();
}

QString ConnectServerDialog::url() const
{
    return m_url->currentText().trimmed();
}

QString ConnectServerDialog::password() const
{
    return m_password->text();
}

bool ConnectServerDialog::rememberPassword() const
{
    return m_remember->isChecked();
}

void ConnectServerDialog::onUrlChanged()
{
    // A recent server brings its remembered password.
    for (const Recent &r : std::as_const(m_recent)) {
        if (r.url == url()) {
            m_password->setText(r.password);
            m_remember->setChecked(!r.password.isEmpty());
        }
    }
    validate();
}

void ConnectServerDialog::validate()
{
    // ssh://[user@]host[:port][/project]: Weft starts the server there; no password.
    const bool ssh = ServerAddress::isSsh(url());
    m_password->setEnabled(!ssh);
    m_remember->setEnabled(!ssh);
    const Result<ServerAddress> parsed = ServerAddress::parse(url());
    if (ssh) {
        m_buttons->button(QDialogButtonBox::Ok)->setEnabled(parsed.ok());
        m_hint->setText(parsed ? tr("Weft runs <code>ssh %1</code> with your keys and ssh config, starts <code>opencode "
                                    "serve</code> there with a new password, and stops it when you disconnect or quit.")
                                     .arg(parsed->sshHost.toHtmlEscaped())
                               : parsed.error().message);
        return;
    }
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(parsed.ok());
    m_hint->setText(parsed ? tr("Start a server with <code>OPENCODE_SERVER_PASSWORD=… opencode serve --port 4096</code>.")
                           : (url().isEmpty() ? tr("The address of the server, e.g. http://127.0.0.1:4096.")
                                              : parsed.error().message));
}

} // namespace weft
