#include "lockscope/inspect/redlock_group.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <nlohmann/json.hpp>

#include "json_text.h"
#include "lockscope/redlock/validity.h"

namespace lockscope::inspect {
namespace {

std::string holderOf(const LockRecord& r) {
    if (r.type != ValueType::Hash) return r.token;
    std::string out = "{";
    for (const auto& f : r.fields) out += (out.size() > 1 ? "," : "") + f.field + "=" + f.value;
    return out + "}";
}

// The record that holds the lock on one instance: a string or hash (not Redisson's queue,
// timeout or fence-counter companions), the first in input order.
const LockRecord* holderRecord(const std::vector<LockRecord>& records, const ResourceGroup& group,
                               const std::string& instance) {
    for (std::size_t i : group.records) {
        const LockRecord& r = records[i];
        if (r.instanceName() != instance) continue;
        if ((r.type == ValueType::String || r.type == ValueType::Hash) &&
            r.kind != LockKind::RedissonFenceToken)
            return &r;
    }
    return nullptr;
}

}  // namespace

const char* toString(RedlockNodeState state) {
    switch (state) {
        case RedlockNodeState::Held:
            return "held";
        case RedlockNodeState::Absent:
            return "absent";
        case RedlockNodeState::Unreachable:
            return "unreachable";
    }
    return "absent";
}

bool isRedlockFormat(LockKind kind) {
    switch (kind) {
        case LockKind::NodeRedlock:
        case LockKind::Redsync:
        case LockKind::RedisPlusPlus:
        case LockKind::RedlockNet:
        case LockKind::Pottery:
        case LockKind::ActiveJobUniqueness:
            return true;
        default:
            return false;
    }
}

bool isRedlock(const std::vector<LockRecord>& records,
               const std::vector<std::string>& independentInstances) {
    auto independent = [&](const LockRecord& r) {
        return std::find(independentInstances.begin(), independentInstances.end(),
                         r.instanceName()) != independentInstances.end();
    };
    for (const LockRecord& r : records)
        if (isRedlockFormat(r.kind)) return true;
    // The same key and holder on two independent servers: a client that locked both.
    for (std::size_t i = 0; i < records.size(); ++i) {
        const LockRecord& a = records[i];
        if (!independent(a)) continue;
        for (std::size_t j = i + 1; j < records.size(); ++j) {
            const LockRecord& b = records[j];
            if (independent(b) && b.instanceName() != a.instanceName() && b.key == a.key &&
                holderOf(a) == holderOf(b))
                return true;
        }
    }
    return false;
}

RedlockGroupView analyzeGroup(const std::vector<LockRecord>& records, const ResourceGroup& group,
                              const std::vector<std::string>& instances,
                              SteadyClock::time_point now,
                              const std::vector<std::string>& unreachable) {
    RedlockGroupView view;
    view.resource = group.resource;
    view.quorum = redlockQuorum(instances.size());
    std::map<std::string, int> votes;
    for (const auto& instance : instances) {
        RedlockNode node;
        node.instance = instance;
        if (std::find(unreachable.begin(), unreachable.end(), instance) != unreachable.end()) {
            node.state = RedlockNodeState::Unreachable;
        } else if (const LockRecord* r = holderRecord(records, group, instance)) {
            std::int64_t left = r->remainingAt(now);
            if (r->hasTtl() && left <= 0) {
                node.state = RedlockNodeState::Absent;  // expired since it was read
            } else {
                node.state = RedlockNodeState::Held;
                node.key = r->key;
                node.token = holderOf(*r);
                node.pttlMs = left;
                ++votes[*node.token];
            }
        }
        view.nodes.push_back(std::move(node));
    }
    for (const auto& [holder, count] : votes) {
        if (count > view.agreeing) {
            view.agreeing = count;
            view.token = holder;
        }
    }
    view.majority = view.agreeing >= view.quorum && view.agreeing > 0;
    if (!view.majority) {
        view.token.reset();
        view.validityMs = 0;
        return view;
    }
    std::int64_t minPttl = -1, maxPttl = -1;
    for (const auto& n : view.nodes) {
        if (n.token != view.token || n.pttlMs < 0) continue;
        minPttl = minPttl < 0 ? n.pttlMs : std::min(minPttl, n.pttlMs);
        maxPttl = std::max(maxPttl, n.pttlMs);
    }
    if (minPttl < 0) {
        view.validityMs = -1;  // no node of the majority has a TTL: it never expires
        return view;
    }
    auto drift = redlockDriftAllowance(std::chrono::milliseconds(maxPttl));
    auto left = std::chrono::microseconds(std::chrono::milliseconds(minPttl)) - drift;
    view.validityMs =
        std::max<std::int64_t>(0, std::chrono::floor<std::chrono::milliseconds>(left).count());
    return view;
}

std::string toJsonLine(const RedlockGroupView& view) {
    nlohmann::ordered_json j;
    j["resource"] = jsonSafe(view.resource);
    nlohmann::ordered_json nodes = nlohmann::ordered_json::array();
    for (const auto& n : view.nodes) {
        nlohmann::ordered_json node;
        node["instance"] = jsonSafe(n.instance);
        node["state"] = toString(n.state);
        node["key"] = n.key.empty() ? nlohmann::ordered_json(nullptr)
                                    : nlohmann::ordered_json(jsonSafe(n.key));
        node["token"] =
            n.token ? nlohmann::ordered_json(jsonSafe(*n.token)) : nlohmann::ordered_json(nullptr);
        node["pttl_ms"] = n.pttlMs;
        nodes.push_back(std::move(node));
    }
    j["nodes"] = std::move(nodes);
    j["quorum"] = view.quorum;
    j["agreeing"] = view.agreeing;
    j["majority"] = view.majority;
    j["token"] = view.token ? nlohmann::ordered_json(jsonSafe(*view.token))
                            : nlohmann::ordered_json(nullptr);
    j["validity_ms"] = view.validityMs;
    return j.dump();
}

}  // namespace lockscope::inspect
