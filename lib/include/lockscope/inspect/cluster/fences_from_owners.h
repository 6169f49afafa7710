#pragma once
// Fencing counters read from the node that serves their slot. On a Redis Cluster a lock
// without a hash tag (lock:name) keeps its counter (fence:name) in another slot, often on
// another primary: asking the lock's node for it only earns a MOVED. The annotator of a
// cluster node leaves such a counter unread (ScanOptions::clusterNode) and asks a
// FenceSource instead; the watch engine gives it RoutedFences (its router), a one-shot
// cluster listing reads them with readFencesFromOwners once every node is scanned.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lockscope::inspect {

class ClusterRouter;

struct FenceReads {
    // Per key asked, in order: the counter, or nullopt (missing, not a number, or not read).
    std::vector<std::optional<std::int64_t>> values;
    // One line per node (or slot without an owner) whose counters could not be read: their
    // values are nullopt but say nothing about the counter.
    std::vector<std::string> unread;
};

class FenceSource {
  public:
    virtual ~FenceSource() = default;
    virtual FenceReads read(const std::vector<std::string>& fenceKeys) = 0;
};

// One pipeline per owning node, one MGET per slot (the keys of one slot share it).
FenceReads readFencesFromOwners(ClusterRouter& router, const std::vector<std::string>& fenceKeys);

// The watch engine's source: its router (used on the engine's one thread only).
class RoutedFences final : public FenceSource {
  public:
    explicit RoutedFences(std::shared_ptr<ClusterRouter> router) : router_(std::move(router)) {}
    FenceReads read(const std::vector<std::string>& fenceKeys) override {
        return readFencesFromOwners(*router_, fenceKeys);
    }

  private:
    std::shared_ptr<ClusterRouter> router_;
};

}  // namespace lockscope::inspect
