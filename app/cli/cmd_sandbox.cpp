// lockscope-cli sandbox: the embedded default on the command line.
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <thread>

#include "cli_command.h"
#include "lock_table_text.h"
#include "lockscope/connection.h"
#include "lockscope/inspect/doctor.h"
#include "lockscope/inspect/scanner.h"
#include "lockscope/inspect/server_facts.h"
#include "lockscope/sandbox/demo_workload.h"
#include "lockscope/sandbox/local_redis_server.h"

namespace lockscope::cli {
namespace {

using namespace std::chrono_literals;
volatile std::sig_atomic_t interrupted = 0;

// The locks as `list` shows them, doctor findings included, for the first seconds of the demo.
void printLocks(Connection& c) {
    inspect::Scanner scanner(c);
    auto records = scanner.collect();
    inspect::Doctor().annotate(records, inspect::probeServer(c));
    std::sort(records.begin(), records.end(),
              [](const auto& a, const auto& b) { return a.key < b.key; });
    std::vector<const inspect::LockRecord*> view;
    for (const auto& r : records) view.push_back(&r);
    std::fputs(formatLockTable(view, false, inspect::SteadyClock::now()).c_str(), stdout);
}

int runSandbox(const Arguments& args) {
    int seconds = -1;
    if (auto s = args.value("--for")) {
        try {
            seconds = std::stoi(*s);
        } catch (...) {
            throw UsageError("--for takes a number of seconds");
        }
        if (seconds < 0 || seconds > 86400) throw UsageError("--for takes 0 to 86400 seconds");
    }
    std::signal(SIGINT, [](int) { interrupted = 1; });
    std::signal(SIGTERM, [](int) { interrupted = 1; });
    LocalRedisServer server;
    DemoWorkload workload(server.endpoint());
    std::printf("sandbox redis-server at %s (pid %d) with the demo workload; Ctrl-C stops it\n",
                server.url().c_str(), server.pid());
    std::fflush(stdout);
    Connection c = Connection::open(server.endpoint());
    for (int tick = 0; !interrupted && (seconds < 0 || tick < seconds); ++tick) {
        std::this_thread::sleep_for(1s);
        if (seconds >= 0) {
            std::printf("locks at t=%ds:\n", tick + 1);
            printLocks(c);
            std::fflush(stdout);
        }
    }
    return kOk;
}

Registration sandbox(
    {"sandbox",
     "sandbox [--for SECONDS]",
     "Start a private redis-server with live demo locks and print its URL until interrupted; "
     "with --for, print the locks every second for that long.",
     {{"--for", "SECONDS", "stop after this many seconds", "Sandbox"}},
     false,
     "",
     runSandbox});

}  // namespace
}  // namespace lockscope::cli
