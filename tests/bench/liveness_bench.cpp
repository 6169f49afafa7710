// Is the holder alive? Two figures against baselines measured in the same run (issue 31):
//  1. False `gone` verdicts over 200 live-but-slow holders: a real BullMQ worker and a real
//     Bull worker, 100 long jobs each (lockDuration 12 s), paused with SIGSTOP for 5 s of every
//     8 s while LivenessReader judges every lock twice a second. Goal: 0. Printed beside it:
//     how many verdicts were alive (seen renewing) and how often CLIENT LIST was read.
//  2. Time to `gone` after a BullMQ worker (default lockDuration 30 s) is killed with kill -9,
//     judged with the default options (CLIENT LIST every 10 s, absence confirmed over 3 s),
//     against the baseline of the lock's own expiry (when the stalled-job check can act).
//     Goal: gone within the 30 s stall check + 5 s.
// Needs node and scripts/install-npm-peers' bullmq and bull; says so and exits 0 without them.

#include <fcntl.h>
#include <poll.h>
#include <signal.h>  // NOLINT(modernize-deprecated-headers): POSIX kill(), not in <csignal>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "lockscope/inspect/liveness/holder_verdict.h"
#include "lockscope/inspect/liveness/liveness_reader.h"
#include "lockscope/inspect/scanner.h"
#include "lockscope/sandbox/local_redis_server.h"

extern char** environ;

namespace {

using namespace std::chrono_literals;
using namespace lockscope;
using Clock = std::chrono::steady_clock;

const std::string kSource = std::string(LOCKSCOPE_BENCH_SOURCE_DIR) + "/../..";
const std::string kAdapters = kSource + "/tests/torture/adapters";
const std::string kWorker = kSource + "/tests/inspect/liveness_peers/job_queue_worker.js";

pid_t spawnWorker(const std::string& library, int port, const std::string& queue, int lockMs,
                  int jobs) {
    std::vector<std::string> args{"node",
                                  kWorker,
                                  kAdapters,
                                  library,
                                  std::to_string(port),
                                  queue,
                                  std::to_string(lockMs),
                                  "3600000",
                                  std::to_string(jobs)};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    pid_t pid = -1;
    posix_spawnp(&pid, "node", &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    return pid;
}

void stop(pid_t pid) {
    kill(pid, SIGCONT);
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
}

// The job locks of the queues whose names start with queuePrefix.
std::vector<inspect::LockRecord> jobLocks(Connection& c, const std::string& queuePrefix) {
    inspect::ScanOptions options;
    options.patterns = {"bull:" + queuePrefix + "*:lock"};
    return inspect::Scanner(c, options).collect();
}

bool waitForLocks(Connection& c, const std::string& queuePrefix, std::size_t count,
                  std::chrono::seconds within) {
    auto deadline = Clock::now() + within;
    while (Clock::now() < deadline) {
        if (jobLocks(c, queuePrefix).size() >= count) return true;
        std::this_thread::sleep_for(250ms);
    }
    return false;
}

// Figure 1: false gone verdicts over live holders that pause.
void falseGone(LocalRedisServer& server) {
    const int perWorker = 100, lockMs = 12000;
    pid_t bullmq = spawnWorker("bullmq", server.port(), "slow-mq", lockMs, perWorker);
    pid_t bull = spawnWorker("bull", server.port(), "slow-bull", lockMs, perWorker);
    Connection c = Connection::open(server.endpoint());
    const std::size_t holders = 2 * static_cast<std::size_t>(perWorker);
    if (!waitForLocks(c, "slow-", holders, 60s)) {
        std::printf("false gone: the workers did not hold %zu locks within 60 s\n", holders);
        stop(bullmq), stop(bull);
        return;
    }
    inspect::LivenessOptions options;
    options.clientListEvery = 500ms;
    inspect::LivenessReader reader(c, options);
    std::size_t verdicts = 0, gone = 0, alive = 0, held = 0;
    const auto end = Clock::now() + 40s;
    auto pauseAt = Clock::now() + 3s;
    bool paused = false;
    while (Clock::now() < end) {
        // Paused 5 s of every 8 s: no renewal then, the connections stay open.
        if (Clock::now() >= pauseAt) {
            for (pid_t p : {bullmq, bull}) kill(p, paused ? SIGCONT : SIGSTOP);
            pauseAt = Clock::now() + (paused ? 3s : 5s);
            paused = !paused;
        }
        auto locks = jobLocks(c, "slow-");
        held = std::max(held, locks.size());
        reader.assess(locks);
        for (const auto& r : locks) {
            if (!r.liveness) continue;
            ++verdicts;
            gone += r.liveness->verdict == inspect::Verdict::Gone;
            alive += r.liveness->verdict == inspect::Verdict::Alive;
        }
        std::this_thread::sleep_for(500ms);
    }
    stop(bullmq), stop(bull);
    std::printf(
        "false gone: %zu of %zu verdicts over %zu live-but-slow holders (BullMQ and Bull, "
        "paused 5 s of every 8 s, lease 12 s) - goal 0\n",
        gone, verdicts, held);
    std::printf("  alive %zu (%.0f%%), unknown %zu; CLIENT LIST read %llu times in 40 s\n", alive,
                verdicts ? 100.0 * double(alive) / double(verdicts) : 0.0, verdicts - gone - alive,
                static_cast<unsigned long long>(reader.clientListReads()));
}

// Figure 2: time to gone after kill -9, against the lock's own expiry.
void timeToGone(LocalRedisServer& server) {
    pid_t worker = spawnWorker("bullmq", server.port(), "killed", 30000, 1);
    Connection c = Connection::open(server.endpoint());
    if (!waitForLocks(c, "killed", 1, 60s)) {
        std::printf("time to gone: the worker did not take its job within 60 s\n");
        stop(worker);
        return;
    }
    inspect::LivenessReader reader(c);  // the default options
    // Let it run a little and be seen alive, then kill it at a random point of its lease.
    for (int i = 0; i < 5; ++i) {
        auto locks = jobLocks(c, "killed");
        reader.assess(locks);
        std::this_thread::sleep_for(1s);
    }
    stop(worker);
    const auto killed = Clock::now();
    std::optional<double> goneAfter, expiredAfter;
    while (Clock::now() - killed < 45s && !(goneAfter && expiredAfter)) {
        auto locks = jobLocks(c, "killed");
        auto since = std::chrono::duration<double>(Clock::now() - killed).count();
        if (locks.empty() && !expiredAfter) expiredAfter = since;
        reader.assess(locks);
        for (const auto& r : locks)
            if (r.liveness && r.liveness->verdict == inspect::Verdict::Gone && !goneAfter)
                goneAfter = since;
        std::this_thread::sleep_for(1s);
    }
    if (!goneAfter || !expiredAfter) {
        std::printf("time to gone: %s within 45 s of kill -9\n",
                    goneAfter ? "the lock did not expire" : "never called gone");
        return;
    }
    std::printf(
        "time to gone after kill -9 of a BullMQ worker: %.1f s (lock expired by itself "
        "after %.1f s: ratio %.2f) - goal <= 35 s (stall check 30 s + 5 s)\n",
        *goneAfter, *expiredAfter, *goneAfter / *expiredAfter);
}

}  // namespace

int main() {
    if (!std::filesystem::exists(kAdapters + "/node_modules/bullmq") ||
        !std::filesystem::exists(kAdapters + "/node_modules/bull")) {
        std::printf("skipped: bullmq and bull are not installed (./scripts/install-npm-peers)\n");
        return 0;
    }
    LocalRedisServer server;
    falseGone(server);
    timeToGone(server);
    return 0;
}
