// lockscope-cli sandbox: the embedded default on the command line.
#include <csignal>
#include <cstdio>
#include <thread>

#include "cli_command.h"
#include "lockscope/connection.h"
#include "lockscope/demo_workload.h"
#include "lockscope/local_redis_server.h"

namespace lockscope::cli {
namespace {

using namespace std::chrono_literals;
volatile std::sig_atomic_t interrupted = 0;

// A plain listing for the first seconds of the demo; `list` is the real inspector view.
void printLocks(Connection& c) {
    std::string cursor = "0";
    do {
        Reply page = c.command({"SCAN", cursor, "MATCH", "lock:*", "COUNT", "1000"});
        cursor = std::string(page[0].text());
        for (std::size_t i = 0; i < page[1].size(); ++i) {
            std::string key(page[1][i].text());
            auto replies = c.pipeline({{"TYPE", key}, {"GET", key}, {"PTTL", key}});
            std::string value = replies[0].text() == "string" ? replies[1].summary() : "(" + std::string(replies[0].text()) + ")";
            long long pttl = replies[2].integer();
            std::printf("  %-26s %-36s %s\n", key.c_str(), value.c_str(),
                        pttl >= 0 ? (std::to_string(pttl) + " ms").c_str() : "no TTL");
        }
    } while (cursor != "0");
}

int runSandbox(const Arguments& args) {
    args.allowOnly({"--for"});
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

Registration sandbox({"sandbox",
                      "sandbox [--for SECONDS]    start a private redis-server with live demo locks and print "
                      "its URL until interrupted; with --for, print the locks every second for that long",
                      {"--for"},
                      runSandbox});

}  // namespace
}  // namespace lockscope::cli
