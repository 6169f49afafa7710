#include "session/lock_companions.h"

#include <algorithm>
#include <cstddef>
#include <set>
#include <string>

#include "lockscope/inspect/formats/lock_families.h"
#include "lockscope/inspect/library_release.h"

namespace lockscope::ui {
namespace {

constexpr std::string_view kTokenPrefix = "redisson_lock_token";

bool isRedissonLock(const inspect::LockRecord& r) {
    return r.kind == inspect::LockKind::RedissonLock;
}

// The token key of a lock, or the lock key of a token key (its hash tag is the lock's
// name when the name has no tag of its own); empty when the record is neither.
std::string companionKey(const inspect::LockRecord& r) {
    if (isRedissonLock(r)) return inspect::redissonChannel(kTokenPrefix, r.key);
    if (r.kind != inspect::LockKind::RedissonFenceToken) return {};
    std::string name(r.resource());
    if (inspect::redissonChannel(kTokenPrefix, name) == r.key) return name;
    // A name with a tag of its own keeps it: "redisson_lock_token:<name>".
    std::string_view rest = std::string_view(r.key).substr(kTokenPrefix.size() + 1);
    return std::string(rest);
}

}  // namespace

void attachRedissonFences(std::vector<inspect::LockRecord>& changed,
                          const inspect::LockTable& table) {
    std::set<std::string> present;
    std::vector<inspect::LockRecord> companions;
    for (const auto& r : changed) {
        if (isRedissonLock(r) || r.kind == inspect::LockKind::RedissonFenceToken)
            present.insert(r.key);
    }
    if (present.empty()) return;
    for (const auto& r : changed) {
        std::string other = present.count(r.key) ? companionKey(r) : std::string();
        if (other.empty() || present.count(other)) continue;
        if (const inspect::LockRecord* found = table.find(other)) {
            companions.push_back(*found);
            present.insert(other);
        }
    }
    const std::size_t ownCount = changed.size();
    changed.insert(changed.end(), companions.begin(), companions.end());
    inspect::attachRedissonFences(changed);
    // Keep the companions that are locks given a fence just now; drop the token keys that
    // were only looked up.
    auto firstCompanion = changed.begin() + std::ptrdiff_t(ownCount);
    changed.erase(
        std::remove_if(firstCompanion, changed.end(),
                       [](const inspect::LockRecord& r) { return !isRedissonLock(r) || !r.fence; }),
        changed.end());
}

namespace {

constexpr std::size_t kSpringSiblingsRead = 256;

bool maybeSpring(const inspect::LockRecord& r) {
    return (r.kind == inspect::LockKind::Uuid || r.kind == inspect::LockKind::SpringIntegration) &&
           r.key.find(':') != std::string::npos;
}

// The keys of the table in r's registry holding r's UUID, other than r: at most two (enough to
// tell whether r made a pair), reading at most kSpringSiblingsRead keys of the registry.
std::vector<const inspect::LockRecord*> springSiblings(const inspect::LockRecord& r,
                                                       const inspect::LockTable& table) {
    std::vector<const inspect::LockRecord*> found;
    const std::string registry = inspect::springRegistryKey(r.key);
    const std::string prefix = registry + ":";
    const auto& records = table.records();
    std::size_t read = 0;
    for (auto it = records.lower_bound(prefix);
         it != records.end() && it->first.starts_with(prefix) && read < kSpringSiblingsRead &&
         found.size() < 2;
         ++it, ++read) {
        const inspect::LockRecord& other = *it->second;
        if (other.key != r.key && other.token == r.token && maybeSpring(other) &&
            inspect::springRegistryKey(other.key) == registry)
            found.push_back(&other);
    }
    return found;
}

}  // namespace

void recogniseSpringLocks(std::vector<inspect::LockRecord>& changed,
                          const inspect::LockTable& table) {
    // Most batches hold no UUID lock: the set of their keys (a copy of each, every batch of
    // every connection) was a cost of its own with fifty connections (issue 36).
    if (std::none_of(changed.begin(), changed.end(), maybeSpring)) return;
    std::set<std::string> present;
    for (const auto& r : changed) present.insert(r.key);
    std::vector<inspect::LockRecord> pairedWith;
    for (auto& r : changed) {
        if (!maybeSpring(r)) continue;
        auto siblings = springSiblings(r, table);
        if (siblings.empty()) continue;
        r.kind = inspect::LockKind::SpringIntegration;
        // One sibling: r made the pair, and that sibling was shown alone (a UUID) until now.
        if (siblings.size() == 1 && present.insert(siblings[0]->key).second) {
            pairedWith.push_back(*siblings[0]);
            pairedWith.back().kind = inspect::LockKind::SpringIntegration;
        }
    }
    // Keys of one update that pair among themselves (a first scan's batch).
    inspect::recogniseSpringRegistries(changed);
    changed.insert(changed.end(), pairedWith.begin(), pairedWith.end());
}

void completeFromTable(std::vector<inspect::LockRecord>& changed, const inspect::LockTable& table) {
    attachRedissonFences(changed, table);
    recogniseSpringLocks(changed, table);
}

std::optional<inspect::LockRecord> sidekiqDigestLock(
    const inspect::LockRecord& seen, const std::vector<inspect::LockRecord>& sameResource) {
    if (seen.kind != inspect::LockKind::SidekiqUniqueJobs) return std::nullopt;
    for (const auto& digest : inspect::groupSidekiqDigests(sameResource)) {
        if (digest.instance != seen.instanceName()) continue;
        for (std::size_t i : digest.records) {
            const inspect::LockRecord& r = sameResource[i];
            if (r.type == inspect::ValueType::Hash && r.key.ends_with(":LOCKED")) return r;
        }
    }
    return std::nullopt;
}

}  // namespace lockscope::ui
