#pragma once
// What an edit of an open connection means for its watch. Where the watch connects (the
// address, the credentials, TLS, Sentinel, reading replicas, the cluster's address map) needs
// a new watch; everything else (the name, the group, the patterns, the load budget, read-only)
// applies to the running one, which keeps its rows and their history.

#include <QString>

#include "session/connection_profile.h"

namespace lockscope::ui {

// What of where the watch connects differs between the two profiles, in words ("the address,
// TLS"), empty when nothing does.
QString watchTargetChange(const ConnectionProfile& before, const ConnectionProfile& after);

}  // namespace lockscope::ui
