#include "lockscope/inspect/cluster/cluster_watch_hand_off.h"

#include <map>
#include <optional>
#include <set>
#include <utility>

#include "lockscope/errors.h"
#include "lockscope/inspect/cluster/cluster_topology.h"
#include "lockscope/inspect/hash_slot.h"
#include "lockscope/inspect/value_classifier.h"

namespace lockscope::inspect {
namespace {

// The watch of the node the router says serves the slot now, or none (not watched).
std::optional<std::size_t> watcherOfSlot(ClusterRouter& router,
                                         const std::vector<WatchedPrimary>& watched, int slot) {
    const ClusterNode* owner = router.topology().ownerOfSlot(slot);
    if (!owner) return std::nullopt;
    const std::string at = router.endpointOf(*owner).display();
    for (std::size_t i = 0; i < watched.size(); ++i)
        if (watched[i].endpoint.display() == at) return i;
    return std::nullopt;
}

// A key of a migrating slot the old owner no longer holds: read on the importing node, each
// read after ASKING (it answers for the slot only for the one command that follows). The
// lock stays with the old owner's watch (the slot is still its own) with what was read.
void readAsked(ClusterRouter& router, const Redirection& to, const std::string& key,
               LockWatch& watch, WatchUpdate& update) {
    const LockRecord* known = watch.table().find(key);
    if (!known) return;
    const bool string = known->type == ValueType::String;
    std::vector<std::vector<std::string>> reads{{"ASKING"}, {"PTTL", key}};
    if (string) reads.insert(reads.end(), {{"ASKING"}, {"GET", key}});
    const auto sent = SteadyClock::now();
    auto replies = router.connectionToNode(to.host, to.port).pipeline(reads);
    const auto replied = SteadyClock::now();
    const Reply& pttl = replies[1];
    if (pttl.isError()) return;  // moved on again meanwhile: the next round reads it
    if (pttl.integer() == -2) {
        watch.refreshRecords({}, {key}, update);
        return;
    }
    LockRecord fresh = *known;
    fresh.pttlMs = pttl.integer();
    fresh.observedAt = sent;  // like every reading: stamped when sent, with its span
    fresh.readSpanMs = readSpanMs(sent, replied);
    if (string && replies[3].view().isString()) {
        const std::string_view value = replies[3].text();
        if (!fresh.truncated && value != fresh.token) {  // another holder since the last read
            fresh.token.assign(value);
            fresh.valueBytes = static_cast<std::uint32_t>(value.size());
            fresh.kind = classifyString(key, value, fresh.fence.has_value());
        }
    }
    watch.refreshRecords({std::move(fresh)}, {}, update);
}

// The node the router says serves the slot now, unless it is `self` or unknown.
std::optional<Endpoint> otherOwnerOfSlot(ClusterRouter& router, const Endpoint& self, int slot) {
    const ClusterNode* owner = router.topology().ownerOfSlot(slot);
    if (!owner) return std::nullopt;
    Endpoint at = router.endpointOf(*owner);
    if (at.display() == self.display()) return std::nullopt;
    return at;
}

}  // namespace

std::vector<SlotHandOff> handOffRedirectedKeys(ClusterRouter& router,
                                               std::vector<WatchedPrimary>& watched,
                                               std::vector<WatchUpdate>& updates) {
    std::vector<SlotHandOff> handOffs;
    bool any = false;
    for (const auto& u : updates) any = any || !u.redirected.empty();
    if (!any) return handOffs;
    // The answers say the topology changed: asked now, not at the 30 s safety net.
    router.noteRedirect();
    try {
        router.followTopology(TopologyRefreshPolicy::Clock::now());
    } catch (const ReplyError&) {
        return handOffs;
    }
    std::map<std::pair<std::size_t, int>, std::size_t> moves;  // (giver, slot) -> taker
    for (std::size_t i = 0; i < watched.size() && i < updates.size(); ++i) {
        for (const auto& [key, answer] : std::exchange(updates[i].redirected, {})) {
            auto to = parseRedirection(answer);
            if (!to) continue;  // TRYAGAIN: the migration is mid-way, read at the next round
            if (to->ask) {
                try {
                    readAsked(router, *to, key, *watched[i].watch, updates[i]);
                } catch (const ReplyError&) {
                    // Left as last seen; the next round asks again.
                }
                continue;
            }
            auto taker = watcherOfSlot(router, watched, to->slot);
            if (taker && *taker != i) moves[{i, to->slot}] = *taker;
        }
    }
    std::map<std::size_t, std::set<int>> slotsOf;  // by giver
    for (const auto& [from, taker] : moves) slotsOf[from.first].insert(from.second);
    std::map<std::size_t, std::map<int, std::vector<std::string>>> given;
    // The records with their history (first seen, renewals, holders), copied before the
    // giver's table forgets them: the taker's rows keep it.
    std::map<std::size_t, std::map<int, std::vector<LockRecord>>> history;
    for (const auto& [giver, slots] : slotsOf) {
        for (const auto& [key, entry] : watched[giver].watch->table().records())
            if (const int slot = int(keyHashSlot(key)); slots.count(slot))
                history[giver][slot].push_back(*entry);
        given[giver] = watched[giver].watch->giveUpSlots(slots);
    }
    for (const auto& [from, taker] : moves) {
        const auto [giver, slot] = from;
        const std::vector<std::string>& keys = given[giver][slot];
        WatchUpdate adopted;
        try {
            adopted = watched[taker].watch->adoptSlot(slot, std::move(history[giver][slot]));
        } catch (const ReplyError&) {
            // Read at the new owner's next sweep; shown as moved, not as released.
        }
        SlotHandOff h{
            slot, watched[giver].endpoint.display(), watched[taker].endpoint.display(), {}};
        for (const auto& r : adopted.changed) h.keys.push_back(r.key);
        auto& give = updates[giver];
        give.movedAway.insert(give.movedAway.end(), keys.begin(), keys.end());
        auto& take = updates[taker];
        take.changed.insert(take.changed.end(), std::make_move_iterator(adopted.changed.begin()),
                            std::make_move_iterator(adopted.changed.end()));
        take.removed.insert(take.removed.end(), adopted.removed.begin(), adopted.removed.end());
        handOffs.push_back(std::move(h));
    }
    return handOffs;
}

std::vector<SlotGift> giveUpRedirectedSlots(ClusterRouter& router, const WatchedPrimary& self,
                                            WatchUpdate& update) {
    std::vector<SlotGift> gifts;
    if (update.redirected.empty()) return gifts;
    router.noteRedirect();  // the answers say the topology changed: asked now
    try {
        router.followTopology(TopologyRefreshPolicy::Clock::now());
    } catch (const ReplyError&) {
        return gifts;  // the keys stay as last seen; the next round asks again
    }
    std::map<int, Endpoint> movedTo;
    for (const auto& [key, answer] : std::exchange(update.redirected, {})) {
        auto to = parseRedirection(answer);
        if (!to) continue;  // TRYAGAIN: the migration is mid-way, read at the next round
        if (to->ask) {
            try {
                readAsked(router, *to, key, *self.watch, update);
            } catch (const ReplyError&) {
                // Left as last seen; the next round asks again.
            }
            continue;
        }
        if (auto owner = otherOwnerOfSlot(router, self.endpoint, to->slot))
            movedTo.emplace(to->slot, std::move(*owner));
    }
    if (movedTo.empty()) return gifts;
    std::map<int, SlotGift> bySlot;
    for (const auto& [slot, to] : movedTo) bySlot[slot] = SlotGift{slot, to, {}};
    // The records with their history, copied before the table forgets them.
    for (const auto& [key, entry] : self.watch->table().records())
        if (auto it = bySlot.find(int(keyHashSlot(key))); it != bySlot.end())
            it->second.records.push_back(*entry);
    std::set<int> slots;
    for (const auto& [slot, gift] : bySlot) slots.insert(slot);
    for (auto& [slot, keys] : self.watch->giveUpSlots(slots))
        update.movedAway.insert(update.movedAway.end(), std::make_move_iterator(keys.begin()),
                                std::make_move_iterator(keys.end()));
    for (auto& [slot, gift] : bySlot) gifts.push_back(std::move(gift));
    return gifts;
}

}  // namespace lockscope::inspect
