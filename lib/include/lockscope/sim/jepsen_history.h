#pragma once
// A story's lock operations as a Jepsen history, so it can be checked by a mutex model or
// shown in Porcupine: one :invoke and one completion per acquire and release, with :process
// (the instance's or operator's number), :f, :value, :time (nanoseconds of virtual time) and
// :index, in time order. Extra keys: :key (the lock key) and :actor (the lane's name).
//
// The rules (lock_history.cpp), from what the run recorded:
// - The commands a Redlock client sends to every node in one step are one operation,
//   granted when a majority said yes.
// - A completion carries the time the client learned the outcome: at once for one command
//   (the model answers without delay), when a Redlock client counts its replies, when the
//   WAIT after an acquire returns.
// - :info when the client cannot know the outcome: it crashed before learning it, a node's
//   reply never came in time (the node may have run the SET), or the WAIT after the acquire
//   came back short (a failover may lose the key or keep it).
// - An operator's release of a lock it never took carries the holder's process as :value
//   (nil for a process's own operations): it releases that process's lock.

#include <cstdint>
#include <string>
#include <vector>

#include "lockscope/sim/timeline.h"

namespace lockscope::sim {

enum class HistoryType { Invoke, Ok, Fail, Info };

struct HistoryOp {
    HistoryType type = HistoryType::Invoke;
    int process = 0;
    std::string f;  // "acquire", "release"
    std::int64_t timeNs = 0;
    int index = 0;
    std::string key;
    std::string actor;
    int owner = -1;  // :value: whose lock an operator's release frees; -1 is nil
};

const char* toString(HistoryType type);

std::vector<HistoryOp> lockHistory(const Recording& recording);
std::string historyToJson(const std::vector<HistoryOp>& history);  // a JSON array
std::string historyToEdn(const std::vector<HistoryOp>& history);   // one map per line
// Writes EDN for a path ending in ".edn", JSON otherwise. Throws InvalidArgumentError when
// the file cannot be written.
void writeHistoryFile(const std::string& path, const std::vector<HistoryOp>& history);

}  // namespace lockscope::sim
