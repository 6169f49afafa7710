#pragma once
// Connection profiles to and from the files other tools write (lockscope/fleet): an imported
// connection becomes a profile whose secrets travel beside it (for the keychain, never the
// settings), whose embedded certificates become private files, and whose Sentinel becomes
// the Lettuce-style URL the profile keeps.

#include <QList>
#include <QString>

#include "lockscope/fleet/connection_import.h"
#include "session/connection_profile.h"

namespace lockscope::ui {

struct ImportedProfile {
    ConnectionProfile profile;  // endpoint.password and sentinelPassword empty
    QString password;           // the data nodes'
    QString sentinelPassword;   // the Sentinels'
};

// certificateDir: where PEM text embedded in the file (RedisInsight's) is written, one file per
// certificate, readable by the owner only. Throws Error(Storage) when it cannot be written.
ImportedProfile importedProfile(const fleet::PortableConnection& connection,
                                const QString& certificateDir);

// The saved profiles as LockScope's own connections file holds them (no secret, no sandbox).
QList<fleet::PortableConnection> portableConnections(const QList<ConnectionProfile>& profiles);

}  // namespace lockscope::ui
