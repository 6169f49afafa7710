#pragma once
// The recorded history of a torture run, in the shape of a Jepsen history: every operation
// a worker starts is an `invoke`, and it completes as `ok`, `fail` (it certainly did not
// happen) or `info` (we cannot know: the reply was lost). The nemesis (fault injector) and
// the resource (the fenced SQLite file) appear as two more processes, so one file holds
// everything the checker and the teaching lanes need.

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lockscope::torture {

enum class OpType { Invoke, Ok, Fail, Info };
const char* toString(OpType type);

// Process numbers: workers are 0..n-1; these two are the nemesis and the resource.
inline constexpr int kNemesis = -1;
inline constexpr int kResource = -2;

struct Op {
    OpType type = OpType::Invoke;
    std::string f;            // acquire, write, release; nemesis: the fault kind; resource: write
    int process = 0;          // worker number, kNemesis or kResource
    std::int64_t timeNs = 0;  // since the run started (CLOCK_MONOTONIC, shared by all processes)
    std::string token;        // the lock token the worker held (empty when none)
    std::optional<std::int64_t> fence;  // its fencing token, when the client has one
    int round = 0;                      // the worker's acquisition number (write and release)
    // Resource entries: the global order of the write, who wrote, and whether it was taken.
    std::int64_t seq = 0;
    int writer = -1;
    bool accepted = true;
    std::string phase;   // write: "begin" or "end" of the critical section; nemesis: "start"/"stop"
    std::string detail;  // an error, the reason a lock was lost, or a fault's target

    bool operator==(const Op&) const = default;
};

using History = std::vector<Op>;

// One JSON object per operation, as Jepsen writes them: {"type":"ok","f":"acquire",
// "process":0,"time":123,"value":{...}}; the nemesis is "process":"nemesis".
std::string toJsonLine(const Op& op);
// Parses one such line. Throws InvalidArgumentError naming what is wrong (not JSON, a
// missing or mistyped field, an unknown type).
Op opFromJsonLine(std::string_view line);

// The whole history as a JSON array, or as EDN (one map per line, inside [ ]).
std::string toJson(const History& history);
std::string toEdn(const History& history);
// Reads a JSON array written by toJson (or JSON lines). Throws InvalidArgumentError.
History historyFromJson(std::string_view text);

// Sorts by time, keeping the order of equal times (the resource's global order for its
// entries).
void sortByTime(History& history);

}  // namespace lockscope::torture
