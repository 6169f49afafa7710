#pragma once
// Add or edit a connection: a URL field kept in step with separate fields, a TLS section
// (TlsSettingsBox), a read-only switch, the key patterns to watch, and a Test button that
// reports success (over TLS: protocol, cipher, certificate) or the exact error (the test
// runs on a worker thread). Behind Sentinel, the Sentinels' own password has its own masked
// field (one typed into the URL moves there) and the cluster section hides. Test on a saved
// connection first reads the secrets it needs from the keychain, as connecting does.

#include <QDialog>

#include "session/connection_profile.h"

class QCheckBox;
class QComboBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QDoubleSpinBox;

namespace lockscope::ui {

class ConnectionSecrets;
class PasswordVault;
class TlsSettingsBox;
class WholeContentScrollArea;

class ConnectionDialog : public QDialog {
    Q_OBJECT
  public:
    explicit ConnectionDialog(QWidget* parent = nullptr);

    void setProfile(const ConnectionProfile& profile);
    // The groups the other connections are in, offered in the Group box.
    void setKnownGroups(const QStringList& groups);
    QComboBox* groupBox() const { return group_; }
    QLineEdit* nameEdit() const { return name_; }
    QDoubleSpinBox* budgetBox() const { return maxLoad_; }
    // The profile as edited, password included (the caller stores it in the vault).
    ConnectionProfile profile() const;
    bool rememberPassword() const;

    // The result line of the last Test (for tests and screenshots).
    QString testResult() const;
    QPushButton* testButton() const { return testButton_; }
    QLineEdit* urlEdit() const { return url_; }
    QLineEdit* clusterMapEdit() const { return clusterMap_; }
    QCheckBox* throughSeedHostBox() const { return throughSeedHost_; }
    QCheckBox* scanReplicaBox() const { return scanReplica_; }
    QLineEdit* sentinelPasswordEdit() const { return sentinelPassword_; }
    QLineEdit* passwordEdit() const { return password_; }
    QGroupBox* clusterBox() const { return cluster_; }
    TlsSettingsBox* tlsBox() const { return tls_; }

  signals:
    void testFinished(bool ok, const QString& message);

  protected:
    // Sized to its content, at most the screen's height (the sections scroll below that).
    void showEvent(QShowEvent* event) override;

  private slots:
    void urlEdited();
    void fieldsEdited();
    void runTest();
    void urlEditingFinished();

  private:
    // The address map as typed; the first bad entry's reason in error (if given).
    inspect::ClusterAddressing parseClusterMap(QString* error) const;
    void showResult(bool ok, const QString& message);
    // The sections a Sentinel URL shows (its password) and hides (the cluster nodes).
    void showSentinelFields(bool sentinel);
    // What the URL field shows for p: behind Sentinel its URL as saved (no password of
    // either kind: they have their fields), else the endpoint's.
    static QString urlText(const ConnectionProfile& p);

    ConnectionProfile base_;
    WholeContentScrollArea* sections_;
    QLineEdit* name_;
    QComboBox* group_;
    QLineEdit* url_;
    QLineEdit* host_;
    QSpinBox* port_;
    QSpinBox* db_;
    QLineEdit* user_;
    QLineEdit* password_;
    QLineEdit* sentinelPassword_;  // behind Sentinel only
    QFormLayout* serverForm_;
    QCheckBox* remember_;
    QCheckBox* readOnly_;
    QCheckBox* scanReplica_;
    QDoubleSpinBox* maxLoad_;
    QLineEdit* patterns_;
    QLineEdit* clusterMap_;       // "announced=reachable, ..."
    QCheckBox* throughSeedHost_;  // every node at the seed's host, its announced port
    QGroupBox* cluster_;
    TlsSettingsBox* tls_;
    QPushButton* testButton_;
    QLabel* result_;
    PasswordVault* vault_;
    ConnectionSecrets* secrets_;
    bool syncing_ = false;
    // The Sentinel password field holds what the URL held: a URL edited to hold none clears it.
    bool sentinelPasswordFromUrl_ = false;
    // A password moved out of the URL while the operator types in it: the URL field is
    // rewritten without it once they leave the field, not under their cursor.
    bool urlToRewrite_ = false;
};

}  // namespace lockscope::ui
