#include "widgets/tls_settings_box.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QStyleOptionGroupBox>
#include <QStylePainter>
#include <QToolButton>

namespace lockscope::ui {

TlsSettingsBox::TlsSettingsBox(QWidget* parent) : QGroupBox(tr("TLS (rediss://)"), parent) {
    setCheckable(true);
    setChecked(false);
    auto* form = new QFormLayout(this);
    form_ = form;
    const QString pem = tr("PEM files (*.pem *.crt *.cer *.key);;All files (*)");
    caFile_ = pathRow(tr("CA fi&le:"),
                      tr("Certificates to trust (--cacert). Empty: the system's trusted CAs"), pem,
                      Pick::File, form);
    caFile_->setPlaceholderText(tr("system trust store"));
    caDir_ = pathRow(tr("CA directory:"), tr("A hashed certificate directory (--cacertdir)"),
                     QString(), Pick::Directory, form);
    cert_ =
        pathRow(tr("Client certificate:"), tr("For mutual TLS (--cert)"), pem, Pick::File, form);
    key_ = pathRow(tr("Client key:"),
                   tr("Its private key (--key). Only the path is saved, never the key"), pem,
                   Pick::File, form);
    passphrase_ = new QLineEdit;
    passphrase_->setEchoMode(QLineEdit::Password);
    passphrase_->setPlaceholderText(tr("only for an encrypted key"));
    passphrase_->setToolTip(
        tr("Kept in the system keychain with the password when you ask to remember it; "
           "never written in plain text"));
    form->addRow(tr("Key passphrase:"), passphrase_);
    serverName_ = new QLineEdit;
    serverName_->setPlaceholderText(tr("the host name"));
    serverName_->setToolTip(tr("The name sent as SNI and checked against the certificate (--sni)"));
    form->addRow(tr("Server name:"), serverName_);
    verify_ = new QCheckBox(tr("&Verify the server's certificate and name"));
    verify_->setChecked(true);
    form->addRow(QString(), verify_);
    warning_ = new QLabel(
        tr("⚠ Verification is OFF (--insecure): any server, or anyone on the way, can pose as "
           "this one and read the password and every command. Use it only for a throw-away "
           "test server."));
    warning_->setWordWrap(true);
    warning_->setMinimumHeight(warning_->fontMetrics().lineSpacing() * 3 + 12);
    warning_->setObjectName(QStringLiteral("insecureWarning"));
    warning_->setStyleSheet(
        QStringLiteral("QLabel { background: #fdecea; color: #b71c1c; border: 1px solid #e57373;"
                       " border-radius: 3px; padding: 4px; font-weight: bold; }"));
    form->addRow(warning_);
    warning_->setVisible(false);
    showFields(false);

    connect(verify_, &QCheckBox::toggled, this, &TlsSettingsBox::updateWarning);
    connect(this, &QGroupBox::toggled, this, [this](bool on) {
        showFields(on);
        updateWarning();
        emit enabledChanged(on);
    });
}

void TlsSettingsBox::showFields(bool on) {
    // Every row but the last, the warning, which updateWarning shows when it applies.
    for (int row = 0; row + 1 < form_->rowCount(); ++row) form_->setRowVisible(row, on);
    // With no row shown, the layout's margins and the box's frame still drew an empty strip
    // under the check box: off, the box is its title line alone (paintEvent drops the frame).
    if (!on && fieldMargins_.isNull()) fieldMargins_ = form_->contentsMargins();
    form_->setContentsMargins(on ? fieldMargins_ : QMargins());
    if (on) {
        setMinimumHeight(0);
        setMaximumHeight(QWIDGETSIZE_MAX);
        return;
    }
    // The style keeps room under the title for the frame: off, only the title line's height.
    QStyleOptionGroupBox option;
    initStyleOption(&option);
    const QRect title =
        style()
            ->subControlRect(QStyle::CC_GroupBox, &option, QStyle::SC_GroupBoxCheckBox, this)
            .united(style()->subControlRect(QStyle::CC_GroupBox, &option, QStyle::SC_GroupBoxLabel,
                                            this));
    setFixedHeight(title.bottom() + 2);
}

void TlsSettingsBox::paintEvent(QPaintEvent* event) {
    if (isChecked()) {
        QGroupBox::paintEvent(event);
        return;
    }
    QStylePainter painter(this);
    QStyleOptionGroupBox option;
    initStyleOption(&option);
    option.subControls &= ~QStyle::SC_GroupBoxFrame;
    painter.drawComplexControl(QStyle::CC_GroupBox, option);
}

QLineEdit* TlsSettingsBox::pathRow(const QString& label, const QString& tip, const QString& filter,
                                   Pick pick, QFormLayout* form) {
    auto* edit = new QLineEdit;
    edit->setToolTip(tip);
    auto* browse = new QToolButton;
    browse->setText(tr("Browse…"));
    browse->setToolTip(tip);
    connect(browse, &QToolButton::clicked, this, [this, edit, label, filter, pick] {
        const QString title = QString(label).remove(':').remove('&');
        const QString chosen =
            pick == Pick::Directory
                ? QFileDialog::getExistingDirectory(this, title, edit->text())
                : QFileDialog::getOpenFileName(this, title, edit->text(), filter);
        if (!chosen.isEmpty()) edit->setText(chosen);
    });
    auto* row = new QHBoxLayout;
    row->addWidget(edit, 1);
    row->addWidget(browse);
    // A label with a buddy: its mnemonic (Alt+L for the CA file) focuses the field.
    auto* name = new QLabel(label);
    name->setBuddy(edit);
    form->addRow(name, row);
    return edit;
}

void TlsSettingsBox::updateWarning() {
    const bool insecure = isChecked() && !verify_->isChecked();
    warning_->setVisible(insecure);
    setTitle(insecure ? tr("TLS (rediss://) — NOT VERIFIED") : tr("TLS (rediss://)"));
}

void TlsSettingsBox::setOptions(const TlsOptions& o) {
    setChecked(o.enabled);
    caFile_->setText(QString::fromStdString(o.caFile));
    caDir_->setText(QString::fromStdString(o.caDir));
    cert_->setText(QString::fromStdString(o.certFile));
    key_->setText(QString::fromStdString(o.keyFile));
    passphrase_->setText(QString::fromStdString(o.keyPassphrase));
    serverName_->setText(QString::fromStdString(o.serverName));
    verify_->setChecked(!o.insecure);
    updateWarning();
}

TlsOptions TlsSettingsBox::options() const {
    TlsOptions o;
    o.enabled = isChecked();
    o.caFile = caFile_->text().trimmed().toStdString();
    o.caDir = caDir_->text().trimmed().toStdString();
    o.certFile = cert_->text().trimmed().toStdString();
    o.keyFile = key_->text().trimmed().toStdString();
    o.keyPassphrase = passphrase_->text().toStdString();
    o.serverName = serverName_->text().trimmed().toStdString();
    o.insecure = !verify_->isChecked();
    return o;
}

}  // namespace lockscope::ui
