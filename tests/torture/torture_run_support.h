#pragma once
// Short seeded torture runs for the tests: 3 workers, a 300 ms TTL, a few seconds, and a
// check that every process the run started is gone afterwards.

#include <gtest/gtest.h>

#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "lockscope/torture/torture_run.h"

namespace lockscope::torture::testing {

inline TortureOptions shortRun(const std::string& client, const std::string& faults,
                               std::uint64_t seed = 7) {
    TortureOptions o;
    o.client = client;
    o.faults = parseFaults(faults);
    o.seed = seed;
    o.clients = 3;
    o.ttl = std::chrono::milliseconds(300);
    o.duration = std::chrono::milliseconds(2500);
    o.workerCommand = {TORTURE_WORKER};
    return o;
}

// The pids a run wrote to its pid file ("kind pid" lines).
inline std::vector<pid_t> startedPids(const std::string& pidFile) {
    std::vector<pid_t> pids;
    std::ifstream in(pidFile);
    std::string kind;
    pid_t pid;
    while (in >> kind >> pid) pids.push_back(pid);
    return pids;
}

inline bool processGone(pid_t pid) {
    // A zombie still answers kill(0); reaped children do not exist at all.
    return kill(pid, 0) != 0 && errno == ESRCH;
}

inline std::string tempPidFile() {
    static int counter = 0;
    auto path =
        std::filesystem::temp_directory_path() /
        ("torture-pids-" + std::to_string(getpid()) + "-" + std::to_string(++counter) + ".txt");
    std::filesystem::remove(path);
    return path.string();
}

}  // namespace lockscope::torture::testing
