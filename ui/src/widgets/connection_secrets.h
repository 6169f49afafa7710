#pragma once
// The secrets a connection needs besides the data password: a TLS client key's passphrase and
// the Sentinels' own password. Typed in the connection dialog, they go to the system keychain
// (PasswordVault, each under its own id) when the operator asks to remember them; at connect
// they come from there or, when no keychain answers (no Secret Service, no D-Bus), are asked
// for. They are never written anywhere else (ProfileStore saves only that they are needed).

#include <QObject>
#include <functional>
#include <memory>

#include "session/connection_profile.h"

class QWidget;

namespace lockscope::ui {

class PasswordVault;

class ConnectionSecrets : public QObject {
    Q_OBJECT
  public:
    // window: the parent of the questions asked at connect.
    ConnectionSecrets(PasswordVault& vault, QWidget* window);

    // After the dialog: marks what the profile needs at connect and, with remember, keeps
    // the secrets typed there in the keychain (notStored when it cannot).
    void keep(ConnectionProfile& profile, bool remember);
    // Calls open once every secret the profile needs is at hand: already in the profile, from
    // the keychain, else typed. mayAsk false (connecting saved connections at start-up): a
    // secret the keychain does not give leaves the connection closed until the operator
    // connects it. A question cancelled opens nothing.
    void gather(const ConnectionProfile& profile, bool mayAsk,
                std::function<void(const ConnectionProfile&)> open);
    void forget(const QString& profileId);
    // For the dialog's Test on an edited connection: every secret the profile needs (its
    // password, TLS key passphrase, Sentinels' password) and lacks is read from the keychain,
    // nothing is asked. done gets the profile so filled and, when some could not be read,
    // what they are and the keychain's reason (else empty).
    void recall(const ConnectionProfile& profile,
                std::function<void(const ConnectionProfile&, const QString& unread)> done);

  signals:
    void notStored(const QString& message);

  private:
    // One missing secret: from the keychain, else asked (title, label); fill puts it in the
    // profile, and gather goes on with the next.
    void fetch(const ConnectionProfile& profile, const QString& vaultId, const QString& title,
               const QString& label, bool mayAsk,
               std::function<void(ConnectionProfile&, const QString&)> fill,
               std::function<void(const ConnectionProfile&)> open);

    // One step of recall: the secrets still to look up (each a keychain id, a name and where
    // it goes), the names of those the keychain did not give, and its last reason.
    struct Recalled;
    void recallNext(const std::shared_ptr<Recalled>& state);

    PasswordVault& vault_;
    QWidget* window_;
};

}  // namespace lockscope::ui
