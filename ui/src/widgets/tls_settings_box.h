#pragma once
// The TLS section of the connection dialog, with redis-cli's options: a CA file or
// directory to trust (empty: the system store), a client certificate and key for mutual
// TLS (paths only: a key's contents are never saved; an encrypted key's passphrase goes to
// the keychain like the password), the server name to send and check,
// and the verify switch. Turning verification off shows a loud warning and stays visible
// in the section's title. The fields show only while TLS is on: with them always there the
// dialog was 744 px tall, taller than a 720 px screen.

#include <QGroupBox>
#include <QMargins>

#include "lockscope/endpoint.h"

class QCheckBox;
class QFormLayout;
class QLabel;
class QLineEdit;

namespace lockscope::ui {

class TlsSettingsBox : public QGroupBox {
    Q_OBJECT
  public:
    explicit TlsSettingsBox(QWidget* parent = nullptr);

    void setOptions(const TlsOptions& options);
    TlsOptions options() const;

    // For tests and the xdotool drive: the fields by role.
    QLineEdit* caFileEdit() const { return caFile_; }
    QLineEdit* caDirEdit() const { return caDir_; }
    QLineEdit* certEdit() const { return cert_; }
    QLineEdit* keyEdit() const { return key_; }
    QLineEdit* passphraseEdit() const { return passphrase_; }
    QLineEdit* serverNameEdit() const { return serverName_; }
    QCheckBox* verifySwitch() const { return verify_; }
    QLabel* insecureWarning() const { return warning_; }

  signals:
    // TLS was switched on or off (the URL's scheme follows).
    void enabledChanged(bool enabled);

  protected:
    void paintEvent(QPaintEvent* event) override;

  private:
    enum class Pick { File, Directory };
    QLineEdit* pathRow(const QString& label, const QString& tip, const QString& filter, Pick pick,
                       QFormLayout* form);
    void updateWarning();
    void showFields(bool on);

    QLineEdit* caFile_;
    QLineEdit* caDir_;
    QLineEdit* cert_;
    QLineEdit* key_;
    QLineEdit* passphrase_;
    QLineEdit* serverName_;
    QCheckBox* verify_;
    QLabel* warning_;
    QFormLayout* form_;
    QMargins fieldMargins_;  // the form's margins while its fields show
};

}  // namespace lockscope::ui
