#pragma once
// A torture run: real redis-servers, worker processes that loop acquire → write the shared
// resource → release with one lock client, a nemesis that injects seeded faults, and the
// checker's verdict on the recorded history. Every process and server the run starts is
// stopped before runTorture returns, also when it is interrupted (SIGINT/SIGTERM).

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "lockscope/torture/checker.h"
#include "lockscope/torture/history.h"

namespace lockscope::torture {

enum class FaultKind { Pause, Delay, Partition, Restart, Failover, Clock, ServerStall };
const char* toString(FaultKind kind);
// "pause,restart" → kinds. Throws InvalidArgumentError naming an unknown or repeated kind.
std::vector<FaultKind> parseFaults(std::string_view list);
// "20s", "1500ms", "2m", or plain seconds. Throws InvalidArgumentError.
std::chrono::milliseconds parseDuration(std::string_view text);

// setnx-del, guide, guide-fenced, guide-watchdog, redlock, redlock-fenced.
const std::vector<std::string>& builtInClients();

struct TortureOptions {
    std::string client = "guide";  // a built-in name, or any name with adapterCommand set
    std::vector<std::string> adapterCommand;  // an external client speaking the adapter protocol
    bool adapterFenced = false;               // the resource checks the adapter's fences
    int clients = 5;
    int nodes = 0;  // redis primaries; 0: 5 for redlock clients, 1 for the others
    std::chrono::milliseconds duration{30'000};
    std::vector<FaultKind> faults;
    std::uint64_t seed = 1;
    std::chrono::milliseconds ttl{1000};
    std::chrono::milliseconds work{50};  // time inside the critical section
    // How to start a worker: this argv plus one JSON argument runs workerMain() (the CLI
    // passes itself and "torture-worker").
    std::vector<std::string> workerCommand;
    std::string pidFile;  // when set: every process started, one "kind pid" per line
    std::function<void(const std::string&)> onProgress;  // one line per fault, for stderr
};

struct TortureResult {
    History history;
    Verdict verdict;
    bool interrupted = false;
    bool clockEmulated = false;      // the clock fault shortened TTLs instead of moving a clock
    std::vector<std::string> notes;  // worker errors and caveats, for the report
};

// Throws InvalidArgumentError for bad options (unknown client, clients < 1, ...).
TortureResult runTorture(const TortureOptions& options);

// The worker process's main: reads its configuration from the JSON argument, loops until
// its deadline, writes its history as JSON lines on stdout. Returns the exit code.
int workerMain(std::string_view configJson);

// The command that replays the same seed and schedule.
std::string replayCommand(const TortureOptions& options);

}  // namespace lockscope::torture
