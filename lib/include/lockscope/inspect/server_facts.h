#pragma once
// What the doctor and the watcher need to know about a server, read with commands a
// restricted user may well lack (ROLE, CONFIG GET): each one that is denied leaves its fact
// unknown and says so in notes, instead of failing. LockScope never changes configuration.

#include <string>
#include <vector>

#include "lockscope/connection.h"

namespace lockscope::inspect {

enum class ServerRole { Unknown, Primary, Replica };

// notify-keyspace-events as it bears on following locks.
enum class KeyspaceEvents {
    Unknown,   // CONFIG GET was denied
    Disabled,  // events for expired / del / set are not all published
    Enabled,   // keyspace (K) or keyevent (E) events for expired, generic and string commands
};

struct ServerFacts {
    std::string instance;
    ServerRole role = ServerRole::Unknown;
    int connectedReplicas = -1;  // -1: unknown
    KeyspaceEvents keyspaceEvents = KeyspaceEvents::Unknown;
    std::string notifyFlags;  // the raw notify-keyspace-events value, when readable
    // INFO server's run_id: a new one after every restart. Empty when INFO is denied.
    std::string runId;
    std::vector<std::string> notes;
};

const char* toString(ServerRole role);
const char* toString(KeyspaceEvents events);
// Whether a notify-keyspace-events value publishes what a watcher needs (expired, del, set).
bool keyspaceEventsCover(std::string_view flags);

// The run_id field of an INFO reply ("run_id:<40 hex>"), or empty when there is none.
std::string runIdFromInfo(std::string_view info);

// Reads ROLE, CONFIG GET notify-keyspace-events and INFO server's run_id; never throws for
// NOPERM. Throws connection errors.
ServerFacts probeServer(Connection& connection);

}  // namespace lockscope::inspect
