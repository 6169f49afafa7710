#pragma once
// What release, expire and delete share: one server, the audit log opened before anything is
// sent (no action goes unlogged), the outcome printed and mapped to an exit code.

#include <functional>
#include <string>
#include <vector>

#include "connection_flags.h"
#include "lockscope/inspect/cluster/cluster_router.h"
#include "lockscope/inspect/safe_actions.h"

namespace lockscope::cli {

// Opens the connection and the audit log, runs act, prints its message (stdout when done,
// stderr otherwise) and returns the exit code of its outcome.
// On a Redis Cluster the action goes to the node that serves the key's slot (following one
// MOVED and one ASK).
int runLockAction(const InspectorFlags& flags, const std::string& command, const std::string& key,
                  const std::function<inspect::ActionResult(inspect::SafeActions&)>& act);

// The same for an action that needs the connection and the audit log themselves (a release
// the way the lock's library expects), on the node that serves key's slot; the router sends
// the action's other keys to their own slots' nodes (a sidekiq digest's keys).
int runConnectedAction(const InspectorFlags& flags, const std::string& command,
                       const std::string& key,
                       const std::function<inspect::ActionResult(Connection&, inspect::AuditLog&,
                                                                 inspect::ClusterRouter&)>& act);

int exitCodeFor(inspect::ActionOutcome outcome);

// The options release, expire and delete share (the holder seen, the key as bytes), after own.
std::vector<OptionSpec> actionOptionSpecs(std::vector<OptionSpec> own = {});

// The KEY of an action command: the positional (decoded with --escaped) or --key-hex;
// UsageError when missing, extra or empty.
std::string actionKey(const Arguments& args, const std::string& command);

// The holder the operator saw: --token T (or --token-hex), or --fields '{"field":"value",...}'
// for a hash.
inspect::Holder holderFromFlags(const Arguments& args);

}  // namespace lockscope::cli
