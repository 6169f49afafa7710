#pragma once
// What release, expire and delete share: one server, the audit log opened before anything is
// sent (no action goes unlogged), the outcome printed and mapped to an exit code.

#include <functional>
#include <string>

#include "connection_flags.h"
#include "lockscope/inspect/safe_actions.h"

namespace lockscope::cli {

// Opens the connection and the audit log, runs act, prints its message (stdout when done,
// stderr otherwise) and returns the exit code of its outcome.
int runLockAction(const InspectorFlags& flags, const std::string& command,
                  const std::function<inspect::ActionResult(inspect::SafeActions&)>& act);

int exitCodeFor(inspect::ActionOutcome outcome);

// The KEY positional of an action command; UsageError when missing, extra or empty.
std::string actionKey(const Arguments& args, const std::string& command);

// The holder the operator saw: --token T, or --fields '{"field":"value",...}' for a hash.
inspect::Holder holderFromFlags(const Arguments& args);

}  // namespace lockscope::cli
