// The coordinator: starts the servers and the workers, plays the nemesis's seeded plan,
// stops everything at the deadline (or at Ctrl+C) and hands the history to the checker.

#include "lockscope/torture/torture_run.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "deployment.h"
#include "fault_schedule.h"
#include "lockscope/errors.h"
#include "nemesis.h"
#include "resource_ledger.h"
#include "worker_config.h"
#include "worker_pool.h"

namespace lockscope::torture {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using std::chrono::milliseconds;

std::atomic<bool> gInterrupted{false};

void onInterrupt(int) {
    gInterrupted = true;
}

// SIGINT and SIGTERM end the run early (cleanly) while it lasts; the old handlers return.
class InterruptGuard {
  public:
    InterruptGuard() {
        gInterrupted = false;
        struct sigaction action {};
        action.sa_handler = onInterrupt;
        sigemptyset(&action.sa_mask);
        sigaction(SIGINT, &action, &oldInt_);
        sigaction(SIGTERM, &action, &oldTerm_);
    }
    ~InterruptGuard() {
        sigaction(SIGINT, &oldInt_, nullptr);
        sigaction(SIGTERM, &oldTerm_, nullptr);
    }

  private:
    struct sigaction oldInt_ {
    }, oldTerm_{};
};

class TempDirectory {
  public:
    TempDirectory() {
        std::string pattern = (fs::temp_directory_path() / "lockscope-torture-XXXXXX").string();
        if (!mkdtemp(pattern.data())) throw ProcessError("torture: cannot create a temp directory");
        path_ = pattern;
    }
    ~TempDirectory() {
        std::error_code ignored;
        fs::remove_all(path_, ignored);
    }
    std::string file(const std::string& name) const { return path_ + "/" + name; }

  private:
    std::string path_;
};

void validate(const TortureOptions& o) {
    const auto& known = builtInClients();
    if (o.adapterCommand.empty() && std::find(known.begin(), known.end(), o.client) == known.end())
        throw InvalidArgumentError("torture: unknown client \"" + o.client.substr(0, 40) +
                                   "\" (built in: setnx-del, guide, guide-fenced, guide-watchdog, "
                                   "redlock, redlock-fenced; or give an adapter)");
    if (o.clients < 1 || o.clients > 64)
        throw InvalidArgumentError("torture: --clients must be between 1 and 64");
    if (o.nodes < 0 || o.nodes > 9 || (o.nodes && o.nodes % 2 == 0))
        throw InvalidArgumentError("torture: --nodes must be odd, at most 9");
    if (o.duration < 1s) throw InvalidArgumentError("torture: --duration must be at least 1s");
    if (o.ttl < 100ms || o.ttl > 60s)
        throw InvalidArgumentError("torture: --ttl must be between 100ms and 60s");
    if (o.workerCommand.empty())
        throw InvalidArgumentError("torture: no worker command to start workers with");
}

int nodeCount(const TortureOptions& o) {
    if (o.nodes) return o.nodes;
    return o.client.rfind("redlock", 0) == 0 ? 5 : 1;
}

milliseconds workTime(const TortureOptions& o) {
    return o.work > 0ms ? o.work : o.ttl / 4;
}

bool checksFences(const TortureOptions& o) {
    if (!o.adapterCommand.empty()) return o.adapterFenced;
    return o.client == "guide-fenced" || o.client == "redlock-fenced";
}

void writePids(const std::string& path, const std::vector<std::pair<std::string, pid_t>>& pids) {
    if (path.empty()) return;
    std::ofstream out(path, std::ios::app);
    for (auto& [kind, pid] : pids) out << kind << " " << pid << "\n";
}

}  // namespace

TortureResult runTorture(const TortureOptions& o) {
    validate(o);
    InterruptGuard interrupts;
    TempDirectory dir;
    bool replicas =
        std::find(o.faults.begin(), o.faults.end(), FaultKind::Failover) != o.faults.end();
    Deployment deployment(nodeCount(o), o.clients, replicas);
    std::vector<std::pair<std::string, pid_t>> pids;
    for (pid_t pid : deployment.serverPids()) pids.emplace_back("server", pid);
    std::string ledgerPath = dir.file("resource.sqlite");
    ResourceLedger ledger(ledgerPath, checksFences(o));  // creates the tables once

    std::int64_t startNs = monotonicNs();
    std::int64_t deadlineNs = startNs + o.duration.count() * 1'000'000;
    WorkerPool workers;
    for (int w = 0; w < o.clients; ++w) {
        WorkerConfig c{o.client,
                       o.adapterCommand,
                       w,
                       deployment.workerPorts(w),
                       ledgerPath,
                       checksFences(o),
                       o.ttl.count(),
                       workTime(o).count(),
                       startNs,
                       deadlineNs,
                       static_cast<int>(getpid())};
        auto argv = o.workerCommand;
        argv.push_back(toJson(c));
        pids.emplace_back("worker",
                          workers.start(argv, dir.file("worker" + std::to_string(w) + ".log")));
    }
    writePids(o.pidFile, pids);

    Nemesis nemesis(deployment, workers, startNs, o, gInterrupted);
    nemesis.play(planFaults({o.faults, o.seed, o.duration, o.ttl, o.clients, deployment.nodes()}),
                 deadlineNs);
    TortureResult result;
    result.interrupted = gInterrupted;
    // Workers stop at the deadline by themselves; one that is mid-acquire gets a grace.
    workers.finish(result.interrupted ? 0ms : o.ttl * 3 + 2s);
    double seconds = (monotonicNs() - startNs) / 1e9;
    seconds = std::min(seconds, o.duration.count() / 1000.0);

    result.history = workers.takeHistory();
    for (Op& op : nemesis.history()) result.history.push_back(std::move(op));
    for (Op& op : ledger.entries()) result.history.push_back(std::move(op));
    sortByTime(result.history);
    result.verdict = check(result.history, seconds);
    result.clockEmulated = nemesis.clockEmulated();
    result.notes = workers.errors();
    if (result.clockEmulated)
        result.notes.emplace_back(
            "clock faults were emulated (each key's TTL shortened by the jump): "
            "libfaketime cannot be preloaded into Debian's redis-server");
    return result;
}

}  // namespace lockscope::torture
