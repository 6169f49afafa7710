#include "lockscope/inspect/formats/lock_families.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <unordered_map>

#include "library_shapes.h"
#include "lockscope/inspect/formats/holder_facts.h"

namespace lockscope::inspect {

std::string springRegistryKey(std::string_view key) {
    auto colon = key.rfind(':');
    return std::string(colon == std::string_view::npos ? key : key.substr(0, colon));
}

std::size_t recogniseSpringRegistries(std::vector<LockRecord>& records) {
    // (instance, registry key, token) -> how many keys share it
    std::map<std::tuple<std::string, std::string, std::string>, std::size_t> shared;
    auto idOf = [](const LockRecord& r) {
        return std::make_tuple(r.instanceName(), springRegistryKey(r.key), r.token);
    };
    auto candidate = [](const LockRecord& r) {
        return (r.kind == LockKind::Uuid || r.kind == LockKind::SpringIntegration) &&
               r.key.find(':') != std::string::npos;
    };
    for (const auto& r : records)
        if (candidate(r)) ++shared[idOf(r)];
    std::size_t changed = 0;
    for (auto& r : records) {
        if (!candidate(r) || r.kind == LockKind::SpringIntegration || shared[idOf(r)] < 2) continue;
        r.kind = LockKind::SpringIntegration;
        ++changed;
    }
    return changed;
}

std::vector<SidekiqDigest> groupSidekiqDigests(const std::vector<LockRecord>& records) {
    std::vector<SidekiqDigest> out;
    std::map<std::pair<std::string, std::string>, std::size_t> index;
    for (std::size_t i = 0; i < records.size(); ++i) {
        const LockRecord& r = records[i];
        if (r.kind != LockKind::SidekiqUniqueJobs) continue;
        auto digest = formats::sidekiqDigestOf(r.key);
        if (!digest) continue;
        auto [it, added] =
            index.emplace(std::make_pair(r.instanceName(), std::string(*digest)), out.size());
        if (added) out.push_back(SidekiqDigest{r.instanceName(), std::string(*digest), {}, {}, -1});
        SidekiqDigest& d = out[it->second];
        d.records.push_back(i);
        if (r.type == ValueType::Hash && r.key.ends_with(":LOCKED")) {
            for (const auto& f : r.fields) d.jobs.push_back(f.field);
            d.pttlMs = r.pttlMs;
        }
    }
    return out;
}

std::vector<RedissonClientLocks> locksPerRedissonClient(const std::vector<LockRecord>& records) {
    std::unordered_map<std::string, std::size_t> count;
    for (const auto& r : records) {
        if (r.kind != LockKind::RedissonLock && r.kind != LockKind::RedissonReadWriteLock) continue;
        std::vector<std::string> clients;
        for (const auto& f : r.fields) {
            std::string_view name = f.field;
            if (name.ends_with(":write")) name.remove_suffix(6);
            auto colon = name.rfind(':');
            if (colon == std::string_view::npos || name == "mode") continue;
            std::string id(name.substr(0, colon));
            if (std::find(clients.begin(), clients.end(), id) == clients.end())
                clients.push_back(std::move(id));
        }
        for (auto& id : clients) ++count[id];
    }
    std::vector<RedissonClientLocks> out;
    out.reserve(count.size());
    for (auto& [id, n] : count) out.push_back({id, n});
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
        return a.locks != b.locks ? a.locks > b.locks : a.clientId < b.clientId;
    });
    return out;
}

bool isLockCompanion(const LockRecord& r) {
    switch (r.kind) {
        case LockKind::SidekiqUniqueJobs:
            return !(r.type == ValueType::Hash && r.key.ends_with(":LOCKED"));
        case LockKind::RedissonFairQueue:
        case LockKind::RedissonFairTimeout:
        case LockKind::RedissonFenceToken:
            return true;
        default:
            return false;
    }
}

void attachRedissonFences(std::vector<LockRecord>& records) {
    // (instance, resource) -> token counter
    std::map<std::pair<std::string, std::string>, std::int64_t> tokens;
    for (const auto& r : records) {
        if (r.kind != LockKind::RedissonFenceToken) continue;
        std::int64_t n = 0;
        auto [end, ec] = std::from_chars(r.token.data(), r.token.data() + r.token.size(), n);
        if (ec == std::errc() && end == r.token.data() + r.token.size())
            tokens[{r.instanceName(), std::string(r.resource())}] = n;
    }
    if (tokens.empty()) return;
    for (auto& r : records) {
        if (r.kind != LockKind::RedissonLock || r.fence) continue;
        auto it = tokens.find({r.instanceName(), std::string(r.resource())});
        if (it != tokens.end()) r.fence = it->second;
    }
}

}  // namespace lockscope::inspect
