#pragma once
// The Redlock view of one resource locked on several instances: per node the holder and the
// PTTL left, whether a majority (N/2 + 1 of the N instances scanned) agree on one holder, and
// the validity that majority still gives: the smallest PTTL among its nodes minus Redlock's
// clock-drift allowance, never below 0. Pure: no server is contacted.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lockscope/inspect/lock_record.h"
#include "lockscope/inspect/resource_groups.h"

namespace lockscope::inspect {

enum class RedlockNodeState : std::uint8_t { Held, Absent, Unreachable };

const char* toString(RedlockNodeState state);

struct RedlockNode {
    std::string instance;
    RedlockNodeState state = RedlockNodeState::Absent;
    std::string key;                   // empty unless Held
    std::optional<std::string> token;  // the holder (token, or "{field=value,...}"), if Held
    std::int64_t pttlMs = -1;          // remaining at `now`; -1: no TTL or not Held
};

struct RedlockGroupView {
    std::string resource;
    std::vector<RedlockNode> nodes;    // one per instance, in the order of `instances`
    int quorum = 0;                    // redlockQuorum(instances.size())
    int agreeing = 0;                  // nodes holding the most common holder
    bool majority = false;             // agreeing >= quorum
    std::optional<std::string> token;  // the majority's holder, when there is a majority
    // min PTTL among the majority's nodes − redlockDriftAllowance(largest PTTL among them),
    // clamped at 0; 0 without a majority; -1 when the majority's keys have no TTL at all.
    std::int64_t validityMs = 0;
};

// records: every record of the scan (group.records index into it); instances: the N
// instances scanned (LockRecord::instanceName() spelling); unreachable: those among them
// that could not be read. A node with a key whose PTTL already ran out counts as Absent.
RedlockGroupView analyzeGroup(const std::vector<LockRecord>& records, const ResourceGroup& group,
                              const std::vector<std::string>& instances,
                              SteadyClock::time_point now,
                              const std::vector<std::string>& unreachable = {});

// Kinds that Redlock clients write: node-redlock, redsync, redis-plus-plus's RedLock,
// RedLock.net, pottery, redlock-rb (through activejob-uniqueness).
bool isRedlockFormat(LockKind kind);

// Whether one resource's records are a Redlock, so that a majority verdict means something:
// a Redlock client's format, or the same key held by the same holder on two or more of the
// independent servers (records on other instances are not counted). A redis-py or ShedLock
// lock on one server is no Redlock however many other servers are connected: judged as one,
// it read "no majority: nobody holds this lock" while its holder ran.
bool isRedlock(const std::vector<LockRecord>& records,
               const std::vector<std::string>& independentInstances);

// One JSON object: resource, nodes[{instance,state,key,token,pttl_ms}], quorum, agreeing,
// majority, token (null without a majority), validity_ms.
std::string toJsonLine(const RedlockGroupView& view);

}  // namespace lockscope::inspect
