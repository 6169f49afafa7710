#include "lockscope/torture/checker.h"

#include "lockscope/sim/write_order.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace lockscope::torture {
namespace {

// One holder's stay in the critical section, as the resource saw it.
struct Section {
    int writer = 0, round = 0;
    std::int64_t firstSeq = 0, lastSeq = 0;
    std::int64_t fromNs = 0, toNs = 0;
    std::optional<std::int64_t> fence;
};

std::vector<const Op*> resourceEntries(const History& history) {
    std::vector<const Op*> entries;
    for (const Op& op : history)
        if (op.process == kResource) entries.push_back(&op);
    std::stable_sort(entries.begin(), entries.end(),
                     [](const Op* a, const Op* b) { return a->seq < b->seq; });
    return entries;
}

std::vector<Section> sections(const std::vector<const Op*>& entries) {
    std::map<std::pair<int, int>, Section> byHolder;
    for (const Op* op : entries) {
        auto [it, fresh] = byHolder.try_emplace({op->writer, op->round});
        Section& s = it->second;
        if (fresh) {
            s = {op->writer, op->round, op->seq, op->seq, op->timeNs, op->timeNs, op->fence};
            continue;
        }
        s.lastSeq = std::max(s.lastSeq, op->seq);
        s.toNs = std::max(s.toNs, op->timeNs);
    }
    std::vector<Section> out;
    out.reserve(byHolder.size());
    for (auto& [key, s] : byHolder) out.push_back(s);
    std::sort(out.begin(), out.end(),
              [](const Section& a, const Section& b) { return a.firstSeq < b.firstSeq; });
    return out;
}

std::string holder(int writer, int round, std::optional<std::int64_t> fence) {
    return "worker " + std::to_string(writer) + " (round " + std::to_string(round) +
           (fence ? ", fence " + std::to_string(*fence) : std::string()) + ")";
}

void keepShortest(std::optional<Window>& best, Window candidate) {
    if (!best || candidate.toNs - candidate.fromNs < best->toNs - best->fromNs)
        best = std::move(candidate);
}

void countOverlaps(const std::vector<Section>& all, Verdict& v) {
    for (std::size_t i = 0; i < all.size(); ++i) {
        for (std::size_t j = i + 1; j < all.size() && all[j].firstSeq <= all[i].lastSeq; ++j) {
            if (all[j].writer == all[i].writer) continue;
            ++v.overlaps;
            keepShortest(
                v.overlapWindow,
                {std::min(all[i].fromNs, all[j].fromNs), std::max(all[i].toNs, all[j].toNs),
                 holder(all[j].writer, all[j].round, all[j].fence) + " wrote while " +
                     holder(all[i].writer, all[i].round, all[i].fence) +
                     " was still inside the critical section"});
        }
    }
}

std::string tenure(const Op& op) {
    return std::to_string(op.writer) + "/" + std::to_string(op.round);
}

// Stale by the one definition the stories and the explorer share (lockscope/sim/
// write_order.h): a write accepted after a newer holder's, newer meaning a higher fence (two
// tenures with the same fence cannot be ordered: each counts as newer than the other).
void countStaleWrites(const std::vector<const Op*>& entries, Verdict& v) {
    sim::WriteOrder order;
    const Op* newestWrite = nullptr;
    int accepted = 0;
    bool anyFence = false;
    for (const Op* op : entries) {
        if (!op->fence) continue;
        anyFence = true;
        const sim::WriteClass judged =
            order.judge({tenure(*op), *op->fence, true, op->accepted, op->fence});
        if (!op->accepted) {
            ++v.staleWritesRejected;
            continue;
        }
        if (judged == sim::WriteClass::Stale) {
            ++accepted;
            keepShortest(v.staleWriteWindow,
                         {newestWrite->timeNs, op->timeNs,
                          holder(op->writer, op->round, op->fence) + " was accepted after " +
                              holder(newestWrite->writer, newestWrite->round, newestWrite->fence) +
                              " had written"});
        } else {
            newestWrite = op;
        }
    }
    if (anyFence) v.staleWritesAccepted = accepted;
}

void countLostLocks(const History& history, Verdict& v) {
    std::map<std::pair<int, int>, std::int64_t> acquiredAt;  // (worker, round) → time
    std::map<int, int> rounds;
    for (const Op& op : history) {
        if (op.process < 0) continue;
        if (op.f == "acquire" && op.type == OpType::Ok)
            acquiredAt[{op.process, op.round ? op.round : ++rounds[op.process]}] = op.timeNs;
        if (op.f == "release" && op.type == OpType::Fail) {
            ++v.lostLocks;
            auto it = acquiredAt.find({op.process, op.round});
            std::int64_t from = it == acquiredAt.end() ? op.timeNs : it->second;
            keepShortest(v.lostLockWindow,
                         {from, op.timeNs,
                          holder(op.process, op.round, op.fence) + " found its lock gone" +
                              (op.detail.empty() ? "" : ": " + op.detail)});
        }
    }
}

}  // namespace

Verdict check(const History& history, double durationS) {
    Verdict v;
    v.durationS = durationS;
    for (const Op& op : history) {
        if (op.process >= 0 && op.f == "acquire" && op.type == OpType::Ok) ++v.acquisitions;
        if (op.process == kNemesis && op.phase == "start") ++v.faultsInjected[op.f];
    }
    auto entries = resourceEntries(history);
    v.writes = static_cast<int>(entries.size());
    countOverlaps(sections(entries), v);
    countStaleWrites(entries, v);
    countLostLocks(history, v);
    v.throughputPerS = durationS > 0 ? v.acquisitions / durationS : 0;
    return v;
}

}  // namespace lockscope::torture
