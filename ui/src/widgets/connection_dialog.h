#pragma once
// Add or edit a connection: a URL field kept in step with separate fields, a TLS section
// (TlsSettingsBox), a read-only switch, the key patterns to watch, and a Test button that
// reports success (over TLS: protocol, cipher, certificate) or the exact error (the test
// runs on a worker thread).

#include <QDialog>

#include "session/connection_profile.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QDoubleSpinBox;

namespace lockscope::ui {

class TlsSettingsBox;
class WholeContentScrollArea;

class ConnectionDialog : public QDialog {
    Q_OBJECT
  public:
    explicit ConnectionDialog(QWidget* parent = nullptr);

    void setProfile(const ConnectionProfile& profile);
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

  private:
    // The address map as typed; the first bad entry's reason in error (if given).
    inspect::ClusterAddressing parseClusterMap(QString* error) const;
    void showResult(bool ok, const QString& message);

    ConnectionProfile base_;
    WholeContentScrollArea* sections_;
    QLineEdit* name_;
    QLineEdit* url_;
    QLineEdit* host_;
    QSpinBox* port_;
    QSpinBox* db_;
    QLineEdit* user_;
    QLineEdit* password_;
    QCheckBox* remember_;
    QCheckBox* readOnly_;
    QCheckBox* scanReplica_;  // behind Sentinel only
    QDoubleSpinBox* maxLoad_;
    QLineEdit* patterns_;
    QLineEdit* clusterMap_;       // "announced=reachable, ..."
    QCheckBox* throughSeedHost_;  // every node at the seed's host, its announced port
    TlsSettingsBox* tls_;
    QPushButton* testButton_;
    QLabel* result_;
    bool syncing_ = false;
};

}  // namespace lockscope::ui
