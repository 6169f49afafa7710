#pragma once
// BullMQ and Bull: `<prefix>:<queue>:<jobId>:lock` holds the worker's token while the job
// runs (lockDuration 30 s, renewed every 15 s). The evidence about its holder: the job's hash
// (name, processedOn, attemptsMade), whether the job is in the queue's `active` list, and
// whether a worker of the queue is connected — both libraries name their blocking connection
// `<prefix>:<base64 queue>` (BullMQ workers add `:w:<name>`) and find their workers by that
// name in CLIENT LIST (BullMQ QueueGetters.getWorkers, Bull worker.js parseClientList).
// Internal to lockscope_inspect.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "client_list.h"
#include "lockscope/connection.h"

namespace lockscope::inspect::liveness {

struct JobLockKey {
    std::string prefix;  // "bull"
    std::string queue;
    std::string jobId;
    std::string jobKey() const { return prefix + ":" + queue + ":" + jobId; }
    std::string activeKey() const { return prefix + ":" + queue + ":active"; }
};

// Splits `<prefix>:<queue>:<jobId>:lock` from the right (queue names and job ids carry no
// ':' in either library; a prefix may). nullopt for anything else.
std::optional<JobLockKey> parseJobLockKey(std::string_view key);

std::string base64(std::string_view bytes);
// The name both libraries give a worker's connection: "<prefix>:<base64 queue>".
std::string workerConnectionName(const JobLockKey& key);
// The connections named as workers of the queue (a prefix match, as Bull's parseClientList
// does: anything that might be one counts, so a forged name can only hold `gone` back).
std::vector<const ClientEntry*> workersOf(const JobLockKey& key, const ClientListSnapshot& list);

struct JobFacts {
    bool read = false;  // false: whyNot says why
    std::string whyNot;
    bool hashExists = false;
    std::string name;
    std::optional<std::int64_t> processedOnMs, finishedOnMs;
    std::optional<std::int64_t> attemptsMade;
    bool active = false;    // the job id is in the queue's active list
    std::string malformed;  // a field that is not what the library writes
};

// One round trip: HMGET of the job hash and LPOS in the active list.
JobFacts readJob(Connection& connection, const JobLockKey& key);

// The evidence lines about the job itself (its hash and its place), none decisive.
std::vector<std::string> describeJob(const JobLockKey& key, const JobFacts& job);

}  // namespace lockscope::inspect::liveness
