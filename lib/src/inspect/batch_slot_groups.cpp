// The annotator's main stage on a Redis Cluster node, where an MGET may name keys of one
// slot only: the batch is ordered by slot and read with one MGET per slot (its lock keys and
// the fence keys that hash to the same slot, as lock:{name} / fence:{name} do), so a cluster
// costs about what a plain server does instead of one GET per key and per fence.
#include <algorithm>
#include <utility>

#include "annotator_replies.h"
#include "batch_annotator.h"
#include "lockscope/inspect/hash_slot.h"

namespace lockscope::inspect {
namespace {

void sendArgv(Connection& c, std::initializer_list<std::string_view> argv) {
    c.send(Connection::Argv(argv.begin(), argv.size()));
}

// The keys ordered by slot (keys of one slot keep their order).
std::vector<int> sortBySlot(std::vector<std::string>& keys) {
    std::vector<std::pair<int, std::size_t>> order(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) order[i] = {keyHashSlot(keys[i]), i};
    std::sort(order.begin(), order.end());
    std::vector<std::string> sorted;
    sorted.reserve(keys.size());
    std::vector<int> slots;
    slots.reserve(keys.size());
    for (auto [slot, i] : order) {
        sorted.push_back(std::move(keys[i]));
        slots.push_back(slot);
    }
    keys = std::move(sorted);
    return slots;
}

}  // namespace

std::vector<std::string> BatchAnnotator::gatherBySlot(std::vector<std::string> keys, bool drain) {
    if (!slotGroups_ || !mget_) {
        if (heldForSlots_.empty()) return keys;
        drain = true;  // MGET was denied meanwhile: nothing to gain by waiting
    }
    if (heldForSlots_.empty())
        heldForSlots_ = std::move(keys);
    else
        heldForSlots_.insert(heldForSlots_.end(), std::make_move_iterator(keys.begin()),
                             std::make_move_iterator(keys.end()));
    if (!drain && heldForSlots_.size() < kSlotGroupKeys) return {};
    return std::exchange(heldForSlots_, {});
}

BatchAnnotator::Sent BatchAnnotator::sendSlotGroups(Connection& c, std::vector<std::string> keys) {
    Sent s;
    s.sentAt = SteadyClock::now();
    s.slotGroups = true;
    const std::vector<int> slots = sortBySlot(keys);
    const auto fenceSpans = arrangeFenceKeys(keys, s.fenceIndex);
    s.fences = static_cast<int>(fenceSpans.size());
    s.fenceInGroup.assign(keys.size(), -1);
    for (const auto& k : keys) sendArgv(c, {"PTTL", k});
    for (std::size_t from = 0; from < keys.size();) {
        std::size_t to = from;
        while (to < keys.size() && slots[to] == slots[from]) ++to;
        argv_.clear();
        argv_.emplace_back("MGET");
        argv_.insert(argv_.end(), keys.begin() + static_cast<std::ptrdiff_t>(from),
                     keys.begin() + static_cast<std::ptrdiff_t>(to));
        for (std::size_t i = from; i < to; ++i) {
            if (s.fenceIndex[i] < 0) continue;
            std::string_view fence = fenceKey(fenceSpans, s.fenceIndex[i]);
            if (keyHashSlot(fence) != slots[i]) {
                // Known to be on a cluster node: read from its slot's owner after the replies.
                if (options_.clusterNode) s.fenceIndex[i] = -1;
                continue;
            }
            s.fenceInGroup[i] = static_cast<int>(argv_.size()) - 1;
            argv_.push_back(fence);
        }
        c.send(argv_);
        s.groupEnds.push_back(to);
        s.groupSlots.push_back(slots[from]);
        from = to;
    }
    // A fence in another slot (lock:name / fence:name without a hash tag), when the scan was
    // not told it runs on a cluster node: read alone (on another node it answers MOVED).
    for (std::size_t i = 0; i < keys.size(); ++i)
        if (s.fenceIndex[i] >= 0 && s.fenceInGroup[i] < 0)
            sendArgv(c, {"GET", fenceKey(fenceSpans, s.fenceIndex[i])});
    s.keys = std::move(keys);
    return s;
}

void BatchAnnotator::receiveSlotGroups(Connection& c, Sent& s, Output& out) {
    const std::size_t n = s.keys.size();
    const std::string& where = *instance_;
    // Every reply is read before any is judged, so the connection stays in step.
    std::vector<Reply> pttl(n), groups(s.groupEnds.size()), ownFence(n);
    for (auto& p : pttl) p = c.receive();
    for (auto& g : groups) g = c.receive();
    for (std::size_t i = 0; i < n; ++i)
        if (s.fenceIndex[i] >= 0 && s.fenceInGroup[i] < 0) ownFence[i] = c.receive();

    for (const auto& g : groups)
        if (isNoPerm(g)) {
            mget_ = false;
            note("MGET denied: reading values with one GET per key (slower)");
            out.retryMain.insert(out.retryMain.end(), std::make_move_iterator(s.keys.begin()),
                                 std::make_move_iterator(s.keys.end()));
            return;
        }
    std::size_t group = 0;
    for (std::size_t i = 0; i < n; ++i) {
        while (i >= s.groupEnds[group]) ++group;
        const Reply& values = groups[group];
        const std::size_t first = group == 0 ? 0 : s.groupEnds[group - 1];
        if (movedAway(pttl[i]) || movedAway(values)) {  // read again from the slot's new owner
            out.redirected.emplace_back(std::move(s.keys[i]),
                                        movedAway(pttl[i]) ? pttl[i].text() : values.text());
            continue;
        }
        if (pttl[i].isError()) throwReplyError("PTTL", where, pttl[i].text());
        if (values.isError()) throwReplyError("MGET", where, values.text());
        if (isNoPerm(ownFence[i])) throwReplyError("GET", where, ownFence[i].text());
        const std::int64_t t = pttl[i].integer();
        ReplyView v = values[i - first];
        if (t == -2) {
            out.vanished.push_back(std::move(s.keys[i]));
            continue;
        }
        if (!v.isString()) {
            out.followUps.push_back(std::move(s.keys[i]));
            continue;
        }
        LockRecord r = makeRecord(std::move(s.keys[i]), s.sentAt, t);
        r.slot = static_cast<std::int16_t>(s.groupSlots[group]);  // known: no second hash
        if (s.fenceInGroup[i] >= 0)
            r.fence = parseFence(values[static_cast<std::size_t>(s.fenceInGroup[i])]);
        else if (s.fenceIndex[i] >= 0)
            r.fence = parseFence(ownFence[i].view());
        setToken(r, v.text());
        out.records.push_back(std::move(r));
    }
}

}  // namespace lockscope::inspect
