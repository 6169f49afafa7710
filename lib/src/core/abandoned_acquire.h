#pragma once
// The clean-up of an acquire whose reply never came before its caller's deadline.

#include <string>

#include "lockscope/connection.h"

namespace lockscope::detail {

// The acquire may still run when a stalled server resumes, leaving our token in the key
// while the caller was told it failed: a ghost lock that blocks everyone for its TTL. This
// deletes the key if it holds `token`, from a thread of its own, as soon as the server
// answers a PING on a fresh connection (sent after the lost acquire, it is read after it),
// with the owner-checked release script. It keeps trying for `giveUpAfter`, then leaves the
// key to its TTL. A non-empty `holderKey` (the lock's holder hash) is deleted with it.
void releaseWhenServerAnswers(const Endpoint& endpoint, ConnectionOptions options, std::string key,
                              std::string token, std::string holderKey,
                              std::chrono::milliseconds giveUpAfter = std::chrono::minutes(10));

}  // namespace lockscope::detail
