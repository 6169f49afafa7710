#pragma once
// What one Redlock round did on each node: a plain value the inspector, the teaching panel
// and the CLI can copy across threads and show as is. Every acquire attempt, extend and
// release produces one.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "lockscope/errors.h"

namespace lockscope {

enum class NodeVerdict {
    Granted,  // acquire: SET NX set our key; extend/release: our token was there and was
              // renewed/deleted
    Refused,  // the node answered, but no: another token holds the key, or ours is gone
    Error,    // no usable answer: refused connection, timeout, wrong password, error reply...
};
const char* toString(NodeVerdict verdict);

struct NodeOutcome {
    std::string node;  // the endpoint without its password, e.g. "redis://127.0.0.1:6380"
    NodeVerdict verdict = NodeVerdict::Error;
    std::optional<ErrorKind> error;  // set exactly when verdict == Error
    std::string reason;              // one sentence: why this verdict, naming the node on errors
    std::chrono::microseconds latency{0};  // from the send to this node's reply (or its failure)
};

enum class RedlockOperation { Acquire, Extend, Release };
const char* toString(RedlockOperation operation);

struct RedlockAttempt {
    using Clock = std::chrono::steady_clock;

    RedlockOperation operation = RedlockOperation::Acquire;
    std::string key;
    std::string token;
    int number = 1;  // 1-based attempt number within one acquire(deadline) call
    int quorum = 0;
    std::chrono::milliseconds ttl{0};
    Clock::time_point sentAt{};            // just before the first node was sent the command
    std::chrono::microseconds elapsed{0};  // until the last node answered or timed out
    // Acquire/extend: TTL − elapsed − drift allowance when the round ended (may be ≤ 0).
    std::chrono::microseconds validity{0};
    bool succeeded = false;  // acquire/extend: majority and validity > 0; release: no node erred
    std::string failure;     // why it did not succeed, in one sentence; empty on success
    std::vector<NodeOutcome> nodes;  // in the order of the node set

    int granted() const;
    int refused() const;
    int errors() const;
    // When the lock stops being safe to rely on by our clock: sentAt + TTL − drift allowance.
    Clock::time_point validUntil() const;
    // One line: "acquire #1 lock:{x}: 3/5 granted (quorum 3) in 0.4 ms, validity 9897.6 ms".
    std::string summary() const;
    // The summary plus one line per node.
    std::string details() const;
};

}  // namespace lockscope
