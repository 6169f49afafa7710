#pragma once
// One lock as one JSON object (the CLI's --json lines, the GUI's export):
// instance, key, slot (read from a cluster only), resource, type, kind, token (string, or an object
// of fields for a hash), pttl_ms (remaining at `now`, -1 without TTL), fence (null when none),
// findings (rule ids), and value_bytes, truncated, handoffs, renewals; when judged, liveness:
// {"verdict": alive|gone|unknown, "since": ISO time or null, "evidence": [{"text", "seen_at",
// "points_to", "warning"?}]}. Bytes that are not UTF-8 are
// written as \xNN escapes and flagged with key_escaped / token_escaped.

#include <string>

#include "lockscope/inspect/lock_record.h"

namespace lockscope::inspect {

std::string toJsonLine(const LockRecord& record, SteadyClock::time_point now);

}  // namespace lockscope::inspect
