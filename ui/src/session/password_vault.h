#pragma once
// Passwords in the system keychain through QtKeychain, when a keychain service answers.
// When none does (no Secret Service, no D-Bus), nothing is stored anywhere and the caller
// asks the user at connect time: a password is never written in plain text.

#include <QObject>
#include <QString>
#include <functional>
#include <optional>

namespace lockscope::ui {

class PasswordVault : public QObject {
    Q_OBJECT
  public:
    explicit PasswordVault(QObject* parent = nullptr) : QObject(parent) {}

    // done(stored, why): stored is false with the keychain's reason when it is unavailable.
    void store(const QString& profileId, const QString& password,
               std::function<void(bool stored, QString why)> done);
    // done(password): nullopt when nothing is stored or the keychain is unavailable.
    void load(const QString& profileId, std::function<void(std::optional<QString>)> done);
    // As load, with the keychain's reason when there is no password (to tell the operator).
    void read(const QString& profileId,
              std::function<void(std::optional<QString> password, QString why)> done);
    void forget(const QString& profileId);

    static QString serviceName() { return QStringLiteral("LockScope"); }
    // Where a profile's TLS key passphrase is kept (beside its password).
    static QString keyPassphraseId(const QString& profileId) {
        return profileId + QStringLiteral("/tls-key-passphrase");
    }
    // Where the password of a profile's Sentinels is kept (they may have their own).
    static QString sentinelPasswordId(const QString& profileId) {
        return profileId + QStringLiteral("/sentinel-password");
    }
};

}  // namespace lockscope::ui
