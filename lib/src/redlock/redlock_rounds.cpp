#include "redlock_rounds.h"

#include "lockscope/lock_scripts.h"
#include "lockscope/redlock/validity.h"
#include "node_link.h"
#include "node_set_access.h"

namespace lockscope::redlock_detail {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::duration_cast;
using std::chrono::microseconds;

RedlockAttempt begin(RedlockOperation operation, const RedlockNodeSet& nodes,
                     const LeaseSpec& lease) {
    RedlockAttempt attempt;
    attempt.operation = operation;
    attempt.key = lease.key;
    attempt.token = lease.token;
    attempt.quorum = nodes.quorum();
    attempt.ttl = lease.ttl;
    attempt.nodes.resize(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) attempt.nodes[i].node = nodes.nodeName(i);
    return attempt;
}

// Fills one node's outcome from its replies; `judge` maps a non-error reply to a verdict
// and a reason.
template <typename Judge>
void record(NodeOutcome& outcome, NodeReplies& replies, std::string_view command, Judge judge) {
    outcome.latency = replies.latency;
    if (!replies.ok()) {
        outcome.verdict = NodeVerdict::Error;
        outcome.error = replies.errorKind;
        outcome.reason = replies.error;
        return;
    }
    const Reply& reply = replies.replies.front();
    if (reply.isError()) {
        outcome.verdict = NodeVerdict::Error;
        outcome.error = errorKindOfReply(reply.text());
        // Appended in place: GCC 12 warns falsely (-Warray-bounds) on a chain of + here.
        outcome.reason.assign(command).append(" on ").append(outcome.node).append(": ");
        outcome.reason.append(reply.text());
        return;
    }
    judge(outcome, reply);
}

void finish(RedlockAttempt& attempt, Clock::time_point finishedAt) {
    attempt.elapsed = duration_cast<microseconds>(finishedAt - attempt.sentAt);
    attempt.validity = redlockValidity(attempt.ttl, attempt.elapsed);
}

std::string shortfall(const RedlockAttempt& attempt, const char* verb) {
    return "only " + std::to_string(attempt.granted()) + " of " +
           std::to_string(attempt.nodes.size()) + " nodes " + verb + " (" +
           std::to_string(attempt.refused()) + " refused, " + std::to_string(attempt.errors()) +
           " erred); a majority needs " + std::to_string(attempt.quorum);
}

std::string tooSlow(const RedlockAttempt& attempt) {
    return "the round took " + std::to_string(attempt.elapsed.count() / 1000) +
           " ms, which leaves no validity of the " + std::to_string(attempt.ttl.count()) +
           " ms TTL after the clock-drift allowance";
}

}  // namespace

RedlockAttempt acquireRound(RedlockNodeSet& nodes, const LeaseSpec& lease, int number,
                            bool renewOurs) {
    RedlockAttempt attempt = begin(RedlockOperation::Acquire, nodes, lease);
    attempt.number = number;
    std::string ttl = std::to_string(lease.ttl.count());
    attempt.sentAt = Clock::now();
    // renewOurs: SET NX PX, or PEXPIRE where our token already is, so a node that holds our
    // key grants it again instead of refusing. Otherwise a plain SET NX PX: one round trip
    // even on nodes that have not cached the script yet.
    auto replies =
        renewOurs
            ? NodeSetAccess::evalOnAll(nodes, scripts::redlockAcquire(), {lease.key},
                                       {lease.token, ttl}, lease.nodeTimeout)
            : NodeSetAccess::roundTrip(nodes, {{"SET", lease.key, lease.token, "NX", "PX", ttl}},
                                       lease.nodeTimeout);
    finish(attempt, Clock::now());
    for (std::size_t i = 0; i < replies.size(); ++i) {
        record(attempt.nodes[i], replies[i], renewOurs ? "EVALSHA acquire" : "SET",
               [](NodeOutcome& o, const Reply& reply) {
                   if (reply.integer() == 1 || reply.text() == "OK") {
                       o.verdict = NodeVerdict::Granted;
                       o.reason = "SET NX PX answered OK";
                   } else if (reply.integer() == 2) {
                       o.verdict = NodeVerdict::Granted;
                       o.reason = "our token was already there; PEXPIRE reset the TTL";
                   } else {
                       o.verdict = NodeVerdict::Refused;
                       o.reason = "another token holds the key (SET NX answered nil)";
                   }
               });
    }
    if (attempt.granted() < attempt.quorum)
        attempt.failure = shortfall(attempt, "granted");
    else if (attempt.validity <= microseconds::zero())
        attempt.failure = tooSlow(attempt);
    attempt.succeeded = attempt.failure.empty();
    return attempt;
}

RedlockAttempt extendRound(RedlockNodeSet& nodes, const LeaseSpec& lease,
                           Clock::time_point currentValidUntil) {
    RedlockAttempt attempt = begin(RedlockOperation::Extend, nodes, lease);
    std::string ttl = std::to_string(lease.ttl.count());
    attempt.sentAt = Clock::now();
    if (attempt.sentAt >= currentValidUntil) {
        // Extending a lease that may already have ended everywhere would resurrect keys that
        // another client could have taken and released in between: acquire again instead.
        attempt.failure = "the validity ran out " +
                          std::to_string(duration_cast<std::chrono::milliseconds>(attempt.sentAt -
                                                                                  currentValidUntil)
                                             .count()) +
                          " ms ago; nothing was sent (acquire again)";
        for (auto& o : attempt.nodes)
            o.verdict = NodeVerdict::Refused, o.reason = "not sent: the validity had run out";
        return attempt;
    }
    auto replies = NodeSetAccess::evalOnAll(nodes, scripts::extend(), {lease.key},
                                            {lease.token, ttl}, lease.nodeTimeout);
    auto finishedAt = Clock::now();
    finish(attempt, finishedAt);
    for (std::size_t i = 0; i < replies.size(); ++i) {
        record(
            attempt.nodes[i], replies[i], "EVALSHA extend", [](NodeOutcome& o, const Reply& reply) {
                if (reply.integer() == 1) {
                    o.verdict = NodeVerdict::Granted;
                    o.reason = "our token was there; PEXPIRE reset the TTL";
                } else {
                    o.verdict = NodeVerdict::Refused;
                    o.reason =
                        "the key no longer holds our token (it expired or another client took it)";
                }
            });
    }
    if (attempt.granted() < attempt.quorum)
        attempt.failure = shortfall(attempt, "renewed");
    else if (finishedAt >= currentValidUntil)
        attempt.failure = "the majority answered only after the previous validity had run out";
    else if (attempt.validity <= microseconds::zero())
        attempt.failure = tooSlow(attempt);
    attempt.succeeded = attempt.failure.empty();
    return attempt;
}

RedlockAttempt releaseRound(RedlockNodeSet& nodes, const LeaseSpec& lease) {
    RedlockAttempt attempt = begin(RedlockOperation::Release, nodes, lease);
    attempt.sentAt = Clock::now();
    auto replies = NodeSetAccess::evalOnAll(nodes, scripts::release(), {lease.key}, {lease.token},
                                            lease.nodeTimeout);
    finish(attempt, Clock::now());
    attempt.validity = microseconds::zero();
    for (std::size_t i = 0; i < replies.size(); ++i) {
        record(attempt.nodes[i], replies[i], "EVALSHA release",
               [](NodeOutcome& o, const Reply& reply) {
                   if (reply.integer() == 1) {
                       o.verdict = NodeVerdict::Granted;
                       o.reason = "our token was there; the key was deleted";
                   } else {
                       o.verdict = NodeVerdict::Refused;
                       o.reason = "nothing to delete: the key is gone or holds another token";
                   }
               });
    }
    if (attempt.errors() > 0)
        attempt.failure =
            std::to_string(attempt.errors()) +
            " node(s) could not be asked; a key of ours left there expires with its TTL";
    attempt.succeeded = attempt.failure.empty();
    return attempt;
}

}  // namespace lockscope::redlock_detail
