#include "lockscope/inspect/cluster/cluster_scan.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "lockscope/inspect/cluster/fences_from_owners.h"
#include "lockscope/inspect/hash_slot.h"
#include "lockscope/inspect/value_classifier.h"
#include "scan_merge.h"
#include "slot_motion.h"

namespace lockscope::inspect {
namespace {

using namespace std::chrono_literals;

// The node to scan for each shard: its primary, or an online replica when asked (the
// primary, with a note, when the shard has none).
std::vector<NodeScanReport> planNodes(const ClusterTopology& t, bool scanReplicas) {
    std::vector<NodeScanReport> plan;
    auto primaries = t.primaries();
    // In slot order, so the nodes are listed the same way whichever node was asked.
    std::sort(primaries.begin(), primaries.end(), [](const ClusterNode* a, const ClusterNode* b) {
        return (a->servedSlots.empty() ? kClusterSlots : a->servedSlots.front().first) <
               (b->servedSlots.empty() ? kClusterSlots : b->servedSlots.front().first);
    });
    for (const ClusterNode* primary : primaries) {
        NodeScanReport r;
        r.node = *primary;
        r.slotRanges = formatSlotRanges(primary->servedSlots);
        if (scanReplicas) {
            if (const ClusterNode* chosen = t.onlineReplicaOf(*primary)) {
                r.node = *chosen;
                r.replicaLagBytes = ClusterTopology::lagBytes(*primary, *chosen);
            } else {
                r.notes.push_back("no online replica of " + primary->address() +
                                  ": scanned the primary");
            }
        }
        plan.push_back(std::move(r));
    }
    return plan;
}

struct SharedProgress {
    std::mutex mutex;
    std::vector<NodeScanReport> reports;
    std::vector<std::vector<LockRecord>> records;
    const ClusterProgressCallback* onProgress = nullptr;
};

void scanOneNode(ClusterRouter& router, const ClusterScanOptions& options, SharedProgress& shared,
                 std::size_t index, std::stop_token stop) {
    ClusterNode node;
    {
        std::lock_guard lock(shared.mutex);
        node = shared.reports[index].node;
    }
    Endpoint endpoint = router.endpointOf(node);
    try {
        ConnectionOptions connectionOptions = router.options();
        connectionOptions.stop = stop;
        Connection c = Connection::open(endpoint, connectionOptions);
        if (!node.isPrimary()) c.command({"READONLY"});
        ScanOptions scan = options.scan;
        scan.clusterNode = true;  // its fences in other slots are read once all are scanned
        Scanner scanner(c, scan);
        // This node's records: only this thread touches them until the threads are joined,
        // so they are appended without the lock the other nodes' progress reports take.
        auto& mine = shared.records[index];
        ScanSummary summary = scanner.run(
            [&](ScanBatch& batch) {
                // Sized once for the node's projected records (from the cursor's fraction),
                // not grown by doubling: each doubling moved every record so far and touched
                // fresh pages (the page faults perf showed in this callback).
                constexpr double kProjectFrom = 0.02;
                const std::size_t after = mine.size() + batch.records.size();
                if (mine.capacity() < after && batch.progress.fraction >= kProjectFrom)
                    mine.reserve(std::max(
                        after, std::size_t(double(after) / batch.progress.fraction * 1.1)));
                for (auto& r : batch.records) {
                    if (r.slot < 0) r.slot = static_cast<std::int16_t>(keyHashSlot(r.key));
                    mine.push_back(std::move(r));
                }
                std::lock_guard lock(shared.mutex);
                shared.reports[index].progress = batch.progress;
                if (*shared.onProgress) (*shared.onProgress)(shared.reports);
            },
            stop);
        std::lock_guard lock(shared.mutex);
        auto& report = shared.reports[index];
        report.progress = summary.progress;
        report.notes.insert(report.notes.end(), summary.notes.begin(), summary.notes.end());
        report.done = !summary.cancelled;
    } catch (const Error& e) {
        std::lock_guard lock(shared.mutex);
        auto& report = shared.reports[index];
        report.error = std::string(e.what()) + " (slots " + report.slotRanges + " not shown)";
        report.errorKind = e.kind();
    }
    // A key SCAN returned twice is dropped here, on the node's own thread while the others
    // may still scan. No other thread touches this node's records until the threads are joined.
    dropRepeatedKeys(shared.records[index]);
    std::lock_guard lock(shared.mutex);
    if (*shared.onProgress) (*shared.onProgress)(shared.reports);
}

// Every migration the primaries report; nodes that cannot be asked are skipped.
std::vector<SlotMotion> migrations(ClusterRouter& router, const ClusterTopology& t) {
    std::vector<SlotMotion> all;
    for (const ClusterNode* p : t.primaries()) {
        try {
            auto m = slotsInMotion(router.connectionTo(router.endpointOf(*p)));
            all.insert(all.end(), m.begin(), m.end());
        } catch (const Error&) {
        }
    }
    return all;
}

// A migration still running when the scan ends: wait a moment for it to finish, since the
// importing node answers reads of its keys only after ASKING, one command at a time.
std::vector<SlotMotion> settle(ClusterRouter& router, std::stop_token stop) {
    auto until = std::chrono::steady_clock::now() + 3s;
    auto moving = migrations(router, router.topology());
    while (!moving.empty() && std::chrono::steady_clock::now() < until && !stop.stop_requested()) {
        std::this_thread::sleep_for(50ms);
        moving = migrations(router, router.topology());
    }
    return moving;
}

// One moved slot's keys, read from each of its nodes in turn (the last read wins).
void readSlotAgain(ClusterRouter& router, const ClusterScanOptions& options, int slot,
                   const std::vector<std::string>& nodeIds,
                   std::map<std::string, LockRecord>& fresh, ClusterScanResult& result) {
    for (const auto& id : nodeIds) {
        const ClusterNode* node = router.topology().byId(id);
        if (!node) continue;
        try {
            Connection& c = router.connectionTo(router.endpointOf(*node));
            auto keys = keysInSlot(c, slot, options.scan.patterns);
            if (keys.empty()) continue;
            ScanOptions scan = options.scan;
            scan.clusterNode = true;  // fences in other slots: read after, from their owners
            Scanner reader(c, scan);
            for (auto& r : reader.readKeys(keys)) {
                r.slot = static_cast<std::int16_t>(slot);
                fresh.insert_or_assign(r.key, std::move(r));
            }
        } catch (const Error& e) {
            result.events.push_back("slot " + std::to_string(slot) + " moved during the scan " +
                                    "and could not be read again from " + node->address() + ": " +
                                    e.what());
        }
    }
}

// Reads the keys of the moved slots again, from the node that gave them and then from the
// one that took them (a key moves only that way, so none is missed), keeping the last read;
// they replace those slots' records, as the result's last part.
void rereadMovedSlots(ClusterRouter& router, const ClusterScanOptions& options,
                      const std::map<int, std::vector<std::string>>& slotNodes,
                      ClusterScanResult& result) {
    std::vector<LockRecord> reread;
    if (!slotNodes.empty()) {
        SlotSet slots;
        std::map<std::string, LockRecord> fresh;  // the moved slots' keys: few
        for (const auto& [slot, nodeIds] : slotNodes) {
            slots.set(std::size_t(slot));
            readSlotAgain(router, options, slot, nodeIds, fresh, result);
            ++result.slotsReread;
        }
        dropSlots(result.parts, slots);
        reread.reserve(fresh.size());
        for (auto& [key, r] : fresh) reread.push_back(std::move(r));
    }
    result.parts.push_back(std::move(reread));
}

// A lock whose fence counter hashes to another slot: its node was not asked for it (it
// answers MOVED when another node serves that slot), so it is read here from the node that
// serves it, one pipeline per node.
void readFencesOnOtherNodes(ClusterRouter& router, const ScanOptions& options,
                            ClusterScanResult& result) {
    std::vector<LockRecord*> records;
    std::vector<std::string> fenceKeys;
    for (auto& part : result.parts)
        for (auto& r : part) {
            if (r.fence) continue;
            auto fenceKey = fenceKeyFor(r.key, options.layout);
            if (!fenceKey || keyHashSlot(*fenceKey) == keyHashSlot(r.key)) continue;
            records.push_back(&r);
            fenceKeys.push_back(std::move(*fenceKey));
        }
    if (fenceKeys.empty()) return;
    FenceReads reads = readFencesFromOwners(router, fenceKeys);
    for (std::size_t i = 0; i < records.size(); ++i) records[i]->fence = reads.values[i];
    for (const auto& line : reads.unread)
        result.events.push_back("could not read fence counters: " + line);
}

ClusterScanResult scanPlainServer(ClusterRouter& router, const ClusterScanOptions& options,
                                  std::stop_token stop) {
    ClusterScanResult result;
    NodeScanReport report;
    report.instance = router.seed().display();
    report.node.host = router.seed().isUnix() ? router.seed().unixPath : router.seed().host;
    report.node.port = router.seed().port;
    report.slotRanges = "all";
    try {
        Scanner scanner(router.connectionTo(router.seed()), options.scan);
        ScanSummary summary;
        result.parts.push_back(scanner.collect(&summary, stop));
        report.progress = summary.progress;
        report.notes = summary.notes;
        report.done = !summary.cancelled;
        result.cancelled = summary.cancelled;
    } catch (const Error& e) {
        report.error = e.what();
        report.errorKind = e.kind();
    }
    result.parts.resize(2);  // the node's part, and no slot moves on a plain server
    result.nodes.push_back(std::move(report));
    return result;
}

}  // namespace

std::size_t ClusterScanResult::lockCount() const {
    std::size_t n = 0;
    for (const auto& part : parts) n += part.size();
    return n;
}

ClusterScanResult scanCluster(ClusterRouter& router, const ClusterScanOptions& options,
                              const ClusterProgressCallback& onProgress, std::stop_token stop) {
    if (!router.isCluster()) return scanPlainServer(router, options, stop);
    const ClusterTopology before = router.topology();
    auto movingBefore = migrations(router, before);

    SharedProgress shared;
    shared.reports = planNodes(before, options.scanReplicas);
    for (auto& r : shared.reports) r.instance = router.endpointOf(r.node).display();
    shared.records.resize(shared.reports.size());
    shared.onProgress = &onProgress;
    {
        std::vector<std::jthread> threads;
        for (std::size_t i = 0; i < shared.reports.size(); ++i)
            threads.emplace_back([&, i] { scanOneNode(router, options, shared, i, stop); });
    }  // joined here

    ClusterScanResult result;
    result.cancelled = stop.stop_requested();
    try {
        router.refresh();
    } catch (const Error& e) {
        result.events.push_back(std::string("could not ask the cluster again after the scan: ") +
                                e.what());
    }
    std::vector<SlotMotion> moved = ownerChanges(before, router.topology());
    auto movingAfter = result.cancelled ? std::vector<SlotMotion>{} : settle(router, stop);
    if (!result.cancelled) moved = ownerChanges(before, router.topology());
    // For each slot that moved: the nodes to read it from, the giver first.
    std::map<int, std::vector<std::string>> slotNodes;
    auto add = [&](const SlotMotion& m) {
        auto& ids = slotNodes[m.slot];
        for (const auto& id : {m.fromId, m.toId})
            if (!id.empty() && std::find(ids.begin(), ids.end(), id) == ids.end())
                ids.push_back(id);
    };
    for (const auto& m : movingBefore) add(m);
    for (const auto& m : moved) add(m);
    for (const auto& m : movingAfter) {
        add(m);
        result.events.push_back("slot " + std::to_string(m.slot) +
                                " is still migrating: its keys already on the importing node "
                                "may be missing");
    }

    // A key seen on two nodes (its slot moved during the scan) is kept as the first node in
    // slot order saw it, until its slot is read again below.
    keepFirstNodesRecords(shared.records);
    result.parts = std::move(shared.records);
    if (result.cancelled)
        result.parts.emplace_back();
    else
        rereadMovedSlots(router, options, slotNodes, result);
    readFencesOnOtherNodes(router, options.scan, result);
    result.nodes = std::move(shared.reports);
    result.events.insert(result.events.begin(), router.events().begin(), router.events().end());
    return result;
}

}  // namespace lockscope::inspect
