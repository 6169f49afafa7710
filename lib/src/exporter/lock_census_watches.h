#pragma once
// What the exporter's census reads: one watch engine (lockscope/inspect/watch/server_watch.h) per
// instance the operator named, so on a Redis Cluster every primary is watched (and behind
// Sentinel the service's primary, followed through failovers), as in the window and `watch`.
// An instance is up when every node it watches answered its last read.
// Not thread-safe: the exporter's census thread owns it.

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "lockscope/endpoint.h"
#include "lockscope/exporter/lock_census.h"
#include "lockscope/inspect/server_facts.h"
#include "lockscope/inspect/watch/server_watch.h"

namespace lockscope::exporter {

class CensusWatches {
  public:
    // names: the instance label of each (default: its display(); a scrape target's spelling
    // carries no user). liveness: each holder judged alive, gone or unknown by the engine (the
    // orphan gauges); on by default, within the reader's own caps (CLIENT LIST at most every
    // 10 s).
    CensusWatches(const std::vector<Endpoint>& instances, const ConnectionOptions& connection,
                  const inspect::WatchOptions& watch, const std::vector<std::string>& names = {},
                  std::optional<inspect::LivenessOptions> liveness = inspect::LivenessOptions{});
    ~CensusWatches();

    // One round of every instance: opened when not yet (or after it could not be), rescanned
    // first when asked.
    void step(bool rescan);
    // Adds every node's locks to the census, under its instance; facts is set to the node's
    // before its locks are added (the examiner reads it).
    // Also adds the holder changes and renewals each node's table merged since the census
    // before (from a node's second census on).
    void census(CensusBuilder& builder, inspect::ServerFacts& facts);
    std::size_t size() const { return watched_.size(); }
    // Every instance answered its last round and every node's first scan has ended: a census
    // now counts all of their locks.
    bool scanned() const;
    // Every instance answered its last round.
    bool up() const;

  private:
    struct Watched {
        std::string instance;  // the -u given
        std::unique_ptr<inspect::ServerWatch> engine;
        bool opened = false;
        bool up = false;
        double lastStepSeconds = 0;
        // Each node's table's change counts at the last census, by node name.
        std::map<std::string, inspect::ChangeCounts> lastCounts;
    };
    void stepOne(Watched& w, bool rescan);
    std::vector<Watched> watched_;
};

}  // namespace lockscope::exporter
