#pragma once
// Is each listed lock's holder alive? One read-only connection and one LivenessReader per
// server the records came from (a cluster's nodes included), opened on first use, so the
// scanning threads can judge their own batches at once. A server that cannot be reached for
// it leaves its locks unknown, saying why.

#include <map>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <vector>

#include "connection_flags.h"
#include "lockscope/inspect/liveness/liveness_reader.h"
#include "lockscope/inspect/lock_record.h"

namespace lockscope::cli {

class HolderLiveness {
  public:
    // stop (Ctrl+C) ends a read in progress; records not judged yet stay without a verdict.
    HolderLiveness(InspectorFlags flags, inspect::LivenessOptions options,
                   std::stop_token stop = {});
    ~HolderLiveness();

    // Sets each record's liveness, and the "orphaned" finding on the gone ones. Safe to call
    // from several threads at once (each server's records are judged under its own lock).
    void judge(std::vector<inspect::LockRecord>& batch);

  private:
    struct Server;
    // clusterNode: the records came from a Redis Cluster node (their slot was read).
    Server& serverFor(const std::string& instance, bool clusterNode);
    // Where a cluster node's liveness reads keys of other slots (null when not a cluster).
    std::shared_ptr<inspect::KeyReads> keysElsewhere(const Endpoint& node,
                                                     const ConnectionOptions& options) const;

    InspectorFlags flags_;
    inspect::LivenessOptions options_;
    std::stop_token stop_;
    std::mutex mutex_;
    std::map<std::string, std::unique_ptr<Server>> servers_;
};

// A gone verdict (the records `list --orphans` keeps).
bool isOrphan(const inspect::LockRecord& record);

}  // namespace lockscope::cli
