#pragma once
// A story's lock operations as a Jepsen history, so it can be checked by Knossos's mutex
// model or shown in Porcupine: one :invoke and one completion (:ok or :fail) per acquire and
// release, with :process (the instance's number), :f, :value, :time (nanoseconds of virtual
// time) and :index. The commands a Redlock client sends to every node in one step are one
// operation, granted when a majority of them said yes. Extra keys: :key (the lock key) and
// :actor (the lane's name).

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
};

const char* toString(HistoryType type);

std::vector<HistoryOp> lockHistory(const Recording& recording);
std::string historyToJson(const std::vector<HistoryOp>& history);  // a JSON array
std::string historyToEdn(const std::vector<HistoryOp>& history);   // one map per line
// Writes EDN for a path ending in ".edn", JSON otherwise. Throws InvalidArgumentError when
// the file cannot be written.
void writeHistoryFile(const std::string& path, const std::vector<HistoryOp>& history);

}  // namespace lockscope::sim
