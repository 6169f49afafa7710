#pragma once
// Inside the library only: the raw rounds of a RedlockNodeSet (the same commands to every
// node at once, EVALSHA with EVAL fallback). Redlock, its watchdog, the torture clients and
// the node set's own tests use them; they are not part of the public lock API, where a
// caller could send anything to the lock's nodes behind the lock's back.

#include <chrono>
#include <string_view>
#include <vector>

#include "lockscope/redlock/node_set.h"

namespace lockscope::redlock_detail {

struct NodeSetAccess {
    // RedlockNodeSet::roundTrip: see its comment in node_set.h.
    static std::vector<NodeReplies> roundTrip(RedlockNodeSet& nodes,
                                              const std::vector<RedlockNodeSet::Command>& commands,
                                              std::chrono::milliseconds timeout) {
        return nodes.roundTrip(commands, timeout);
    }
    // RedlockNodeSet::evalOnAll: see its comment in node_set.h.
    static std::vector<NodeReplies> evalOnAll(RedlockNodeSet& nodes, const Script& script,
                                              const std::vector<std::string_view>& keys,
                                              const std::vector<std::string_view>& args,
                                              std::chrono::milliseconds timeout) {
        return nodes.evalOnAll(script, keys, args, timeout);
    }
};

}  // namespace lockscope::redlock_detail
