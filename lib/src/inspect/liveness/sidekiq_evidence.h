#pragma once
// Sidekiq (6.x as Debian packages it, and 7): where a job id is. The live processes are the
// members of `processes` whose identity hash still exists (its TTL is 60 s, renewed by the
// heartbeat every 5 s, with `beat` and `info`); each lists its running jobs in
// `<identity>:workers` (6.x) or `<identity>:work` (7), thread id -> JSON with the job's payload
// (its `jid`) and `run_at`. Jobs not running wait in `queue:<name>` lists or the `schedule`,
// `retry` and `dead` sorted sets. Sources: sidekiq 6.4.1 launcher.rb (❤) and processor.rb
// (WORKER_STATE), api.rb (find_job). On a Redis Cluster these keys live in other slots than
// the lock: they are read through KeyReads (key_reads.h) from their slots' owners, and a read
// that failed anywhere leaves the search incomplete, never a job "nowhere".
// Internal to lockscope_inspect.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "key_reads.h"
#include "lockscope/inspect/liveness/holder_verdict.h"
#include "lockscope/inspect/lock_record.h"

namespace lockscope::inspect::liveness {

struct SidekiqProcess {
    std::string identity;
    std::string host;
    std::int64_t pid = 0;
    bool alive = false;          // its identity hash exists: it beat within the last 60 s
    std::optional<double> beat;  // epoch seconds, as it wrote it
    std::string where() const;   // "host:pid", or the identity
};

struct SidekiqRun {
    std::size_t process = 0;  // index into SidekiqSnapshot::processes
    std::string queue;
    std::optional<std::int64_t> runAt;  // epoch seconds
};

struct SidekiqSnapshot {
    bool read = false;
    std::string whyNot;
    bool truncated = false;  // more processes than were read: absence proves nothing
    std::vector<SidekiqProcess> processes;
    std::unordered_map<std::string, std::vector<SidekiqRun>> running;  // jid -> where it runs
    WallClock::time_point at;
    SteadyClock::time_point steadyAt;
};

SidekiqSnapshot readSidekiqProcesses(KeyReads& reads, std::size_t maxProcesses);

// The jid inside a worker entry ({"queue","payload","run_at"}; the payload a JSON string in
// 6.x and 7, an object in some forks); nullopt when malformed.
std::optional<std::string> jidOfWork(std::string_view workJson, std::string* queue = nullptr,
                                     std::optional<std::int64_t>* runAt = nullptr);

enum class JobPlace : std::uint8_t { Queue, Schedule, Retry, Dead };
struct PlacedJob {
    JobPlace place = JobPlace::Queue;
    std::string queue;         // for JobPlace::Queue
    std::optional<double> at;  // the sorted set's score: when it runs, retries, or died
};
struct PlaceSearch {
    std::unordered_map<std::string, PlacedJob> found;
    bool complete = true;  // every element of every place was looked at
    std::string note;      // why not
};

// Looks for the jids among the queued, scheduled, retried and dead jobs, reading at most
// maxPerPlace elements of each (one round trip for the queue names, one for the rest).
PlaceSearch findJobs(KeyReads& reads, const std::set<std::string>& jids, std::size_t maxPerPlace);

std::string describePlace(const PlacedJob& job);

}  // namespace lockscope::inspect::liveness
