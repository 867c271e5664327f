// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>
#include <QList>
#include <QString>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace weft
{

/// File › Connect to OpenCode Server…: the server's address (recent ones offered), its password
/// (OPENCODE_SERVER_PASSWORD of `opencode serve`), and whether to remember the password.
class ConnectServerDialog : public QDialog
{
    Q_OBJECT

public:
    /// A server connected before, as the settings remember it.
    struct Recent {
        QString url;
        QString password; ///< empty unless remembered
    };

    explicit ConnectServerDialog(const QList<Recent> &recent, QWidget *parent = nullptr);

    [[nodiscard]] QString url() const;
    [[nodiscard]] QString password() const;
    [[nodiscard]] bool rememberPassword() const;

private:
    void onUrlChanged();
    void validate();

    QList<Recent> m_recent;
    QComboBox *m_url;
    QLineEdit *m_password;
    QCheckBox *m_remember;
    QLabel *m_hint;
    QDialogButtonBox *m_buttons;
};

} // namespace weft
