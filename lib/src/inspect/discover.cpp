#include "lockscope/inspect/discover.h"

#include <algorithm>
#include <map>
#include <set>

#include "lockscope/errors.h"
#include "lockscope/inspect/lock_shape.h"

namespace lockscope::inspect {
namespace {

std::string escapeGlob(std::string_view s) {
    std::string out;
    for (char c : s) {
        if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') out.push_back('\\');
        out.push_back(c);
    }
    return out;
}

struct Tally {
    std::uint64_t keys = 0;
    std::set<std::string> kinds;
    std::vector<std::string> examples;
};

}  // namespace

std::string proposePattern(std::string_view key) {
    // The separator stays in the pattern ("job-lock:*", "{orders}:*"); a hash tag that is
    // not at the start begins the wildcard ("lock{a}" -> "lock*").
    std::size_t keep = std::string_view::npos;
    if (std::size_t colon = key.find(':'); colon != std::string_view::npos && colon > 0)
        keep = colon + 1;
    else if (std::size_t brace = key.find('{'); brace != std::string_view::npos && brace > 0)
        keep = brace;
    else if (std::size_t sep = key.find_first_of("-_."); sep != std::string_view::npos && sep > 0)
        keep = sep + 1;
    if (keep == std::string_view::npos) return escapeGlob(key);
    return escapeGlob(key.substr(0, keep)) + "*";
}

bool globMatch(std::string_view p, std::string_view s) {
    // Iterative matcher with backtracking on the last '*', as Redis's stringmatchlen.
    std::size_t pi = 0, si = 0, starP = std::string_view::npos, starS = 0;
    auto matchOne = [&](std::size_t& at, char c) -> bool {  // p[at] is not '*'
        if (p[at] == '?') {
            ++at;
            return true;
        }
        if (p[at] == '\\' && at + 1 < p.size()) {
            bool ok = p[at + 1] == c;
            at += 2;
            return ok;
        }
        if (p[at] == '[') {
            std::size_t j = at + 1;
            bool negate = j < p.size() && p[j] == '^';
            if (negate) ++j;
            bool found = false;
            for (; j < p.size() && p[j] != ']'; ++j) {
                if (p[j] == '\\' && j + 1 < p.size()) {
                    found = found || p[++j] == c;
                } else if (j + 2 < p.size() && p[j + 1] == '-' && p[j + 2] != ']') {
                    char lo = std::min(p[j], p[j + 2]), hi = std::max(p[j], p[j + 2]);
                    found = found || (c >= lo && c <= hi);
                    j += 2;
                } else {
                    found = found || p[j] == c;
                }
            }
            at = j < p.size() ? j + 1 : j;
            return found != negate;
        }
        bool ok = p[at] == c;
        ++at;
        return ok;
    };
    while (si < s.size()) {
        if (pi < p.size() && p[pi] == '*') {
            starP = pi++;
            starS = si;
            continue;
        }
        std::size_t next = pi;
        if (pi < p.size() && matchOne(next, s[si])) {
            pi = next;
            ++si;
            continue;
        }
        if (starP == std::string_view::npos) return false;
        pi = starP + 1;
        si = ++starS;
    }
    while (pi < p.size() && p[pi] == '*') ++pi;
    return pi == p.size();
}

namespace {

// What the nodes scanned so far found, joined into one result.
class DiscoverTally {
  public:
    explicit DiscoverTally(const DiscoverOptions& options) : options_(options) {}

    // Scans one server to its end (or the stop), adding what it finds. Its progress adds the
    // keys of the servers scanned before it, so it counts the whole keyspace.
    void scan(Connection& connection, std::stop_token stop,
              const std::function<void(const ScanProgress&)>& onProgress) {
        ScanOptions scan;
        scan.patterns = {"*"};
        scan.count = options_.count;
        scan.maxLoad = options_.maxLoad;
        scan.maxValueBytes = 300;  // enough to judge a token
        Scanner scanner(connection, scan);
        const std::uint64_t before = result_.keysScanned;
        ScanSummary summary = scanner.run(
            [&](ScanBatch& batch) {
                for (const LockRecord& r : batch.records) count(r);
                if (!onProgress) return;
                ScanProgress progress = batch.progress;
                progress.keysSeen += before;
                onProgress(progress);
            },
            stop);
        result_.keysScanned = before + summary.progress.keysSeen;
        result_.cancelled = result_.cancelled || summary.cancelled;
        result_.notes.insert(result_.notes.end(), summary.notes.begin(), summary.notes.end());
    }

    DiscoverResult& result() { return result_; }

    DiscoverResult finish() {
        for (auto& [pattern, t] : tallies_)
            result_.proposals.push_back(
                {pattern, t.keys, {t.kinds.begin(), t.kinds.end()}, std::move(t.examples)});
        std::stable_sort(
            result_.proposals.begin(), result_.proposals.end(),
            [](const PatternProposal& a, const PatternProposal& b) { return a.keys > b.keys; });
        return std::move(result_);
    }

  private:
    void count(const LockRecord& r) {
        if (!isLockShaped(r)) return;
        ++result_.lockShaped;
        const auto& current = options_.currentPatterns;
        if (std::any_of(current.begin(), current.end(),
                        [&](const std::string& p) { return globMatch(p, r.key); })) {
            ++result_.alreadyCovered;
            return;
        }
        Tally& t = tallies_[proposePattern(r.key)];
        ++t.keys;
        t.kinds.insert(toString(r.kind));
        if (t.examples.size() < options_.maxExamples) t.examples.push_back(r.key);
    }

    const DiscoverOptions& options_;
    DiscoverResult result_;
    std::map<std::string, Tally> tallies_;
};

// The slots of 0..16383 that no primary of the topology serves.
std::vector<SlotRange> slotsWithoutPrimary(const ClusterTopology& topology) {
    std::vector<bool> served(kClusterSlots, false);
    for (const ClusterNode* primary : topology.primaries())
        for (const SlotRange& range : primary->servedSlots)
            for (int slot = std::max(0, range.first); slot <= range.last && slot < kClusterSlots;
                 ++slot)
                served[std::size_t(slot)] = true;
    std::vector<SlotRange> gaps;
    for (int slot = 0; slot < kClusterSlots; ++slot) {
        if (served[std::size_t(slot)]) continue;
        if (!gaps.empty() && gaps.back().last == slot - 1)
            gaps.back().last = slot;
        else
            gaps.push_back({slot, slot});
    }
    return gaps;
}

// The shards' primaries in slot order (the same listing whichever node was asked); the
// primaries with no slots hold no keys a client can reach and are left out.
std::vector<const ClusterNode*> primariesInSlotOrder(const ClusterTopology& topology) {
    std::vector<const ClusterNode*> primaries;
    for (const ClusterNode* p : topology.primaries())
        if (!p->servedSlots.empty()) primaries.push_back(p);
    std::sort(primaries.begin(), primaries.end(), [](const ClusterNode* a, const ClusterNode* b) {
        return a->servedSlots.front().first < b->servedSlots.front().first;
    });
    return primaries;
}

// One shard: its primary, or an online replica when asked (the primary, said so, when none).
void scanShard(ClusterRouter& router, const ClusterNode& primary, DiscoverTally& tally,
               std::stop_token stop, const std::function<void(const ScanProgress&)>& onProgress,
               bool scanReplicas) {
    const std::string slots = formatSlotRanges(primary.servedSlots);
    const ClusterNode* node = &primary;
    if (scanReplicas) {
        if (const ClusterNode* replica = router.topology().onlineReplicaOf(primary))
            node = replica;
        else
            tally.result().notes.push_back("no online replica of " + primary.address() +
                                           ": scanned the primary");
    }
    try {
        ConnectionOptions options = router.options();
        options.stop = stop;
        Connection c = Connection::open(router.endpointOf(*node), options);
        if (!node->isPrimary()) c.command({"READONLY"});
        tally.scan(c, stop, onProgress);
        tally.result().nodesScanned.push_back(node->address() + " (slots " + slots + ")");
    } catch (const CancelledError&) {
        tally.result().cancelled = true;
    } catch (const Error& e) {
        if (stop.stop_requested()) {
            tally.result().cancelled = true;  // the stop broke a wait: not the node's fault
            return;
        }
        tally.result().unscanned.push_back({node->address(), slots, e.what()});
    }
}

}  // namespace

DiscoverResult discover(Connection& connection, const DiscoverOptions& options,
                        std::stop_token stop,
                        const std::function<void(const ScanProgress&)>& onProgress) {
    DiscoverTally tally(options);
    tally.scan(connection, stop, onProgress);
    tally.result().nodesScanned.push_back(connection.endpoint().display());
    return tally.finish();
}

DiscoverResult discover(ClusterRouter& router, const DiscoverOptions& options, std::stop_token stop,
                        const std::function<void(const ScanProgress&)>& onProgress) {
    if (!router.isCluster()) {
        DiscoverResult result =
            discover(router.connectionTo(router.seed()), options, stop, onProgress);
        result.notes.insert(result.notes.begin(), router.notes().begin(), router.notes().end());
        return result;
    }
    DiscoverTally tally(options);
    if (const auto gaps = slotsWithoutPrimary(router.topology()); !gaps.empty())
        tally.result().slotsWithoutPrimary = formatSlotRanges(gaps);  // "none" when empty
    for (const ClusterNode* primary : primariesInSlotOrder(router.topology())) {
        if (stop.stop_requested()) {
            tally.result().cancelled = true;
            break;
        }
        scanShard(router, *primary, tally, stop, onProgress, options.scanReplicas);
    }
    return tally.finish();
}

}  // namespace lockscope::inspect
