#pragma once
// Saves and loads connection profiles with QSettings. Passwords are left out on purpose:
// they go to the system keychain (PasswordVault) or are asked for at connect. TLS settings
// are saved as paths and switches, never a key's contents.

#include <QList>

#include "session/connection_profile.h"

class QSettings;

namespace lockscope::ui {

class ProfileStore {
  public:
    explicit ProfileStore(QSettings& settings) : settings_(settings) {}
    QList<ConnectionProfile> load() const;
    void save(const QList<ConnectionProfile>& profiles);

  private:
    QSettings& settings_;
};

}  // namespace lockscope::ui
