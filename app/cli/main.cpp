// lockscope-cli: argument parsing and dispatch only; the work lives in lib/.
#include <csignal>
#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/demo_workload.h"
#include "lockscope/errors.h"
#include "lockscope/local_redis_server.h"

namespace {

using namespace std::chrono_literals;
volatile std::sig_atomic_t interrupted = 0;

void printLocks(lockscope::Connection& c) {
    std::string cursor = "0";
    do {
        auto page = c.command({"SCAN", cursor, "MATCH", "lock:*", "COUNT", "1000"});
        cursor = std::string(page[0].text());
        for (std::size_t i = 0; i < page[1].size(); ++i) {
            std::string key(page[1][i].text());
            auto pttl = c.command({"PTTL", key}).integer();
            std::string type(c.command({"TYPE", key}).text());
            std::string value = type == "string" ? c.command({"GET", key}).summary() : "(" + type + ")";
            std::printf("  %-26s %-40s %s\n", key.c_str(), value.c_str(),
                        pttl >= 0 ? (std::to_string(pttl) + " ms").c_str() : "no TTL");
        }
    } while (cursor != "0");
}

int sandbox(const std::vector<std::string_view>& args) {
    int seconds = -1;
    for (std::size_t i = 0; i < args.size(); ++i)
        if (args[i] == "--for" && i + 1 < args.size()) seconds = std::stoi(std::string(args[i + 1]));
    std::signal(SIGINT, [](int) { interrupted = 1; });
    std::signal(SIGTERM, [](int) { interrupted = 1; });
    lockscope::LocalRedisServer server;
    lockscope::DemoWorkload workload(server.endpoint());
    std::printf("sandbox redis-server at %s (pid %d) with the demo workload; Ctrl-C stops it\n",
                server.url().c_str(), server.pid());
    std::fflush(stdout);
    auto c = lockscope::Connection::open(server.endpoint());
    for (int tick = 0; !interrupted && (seconds < 0 || tick < seconds); ++tick) {
        std::this_thread::sleep_for(1s);
        if (seconds >= 0) {
            std::printf("locks at t=%ds:\n", tick + 1);
            printLocks(c);
        }
        std::fflush(stdout);
    }
    return 0;
}

void usage() {
    std::puts(
        "usage: lockscope-cli COMMAND [options]\n"
        "  sandbox [--for SECONDS]  start a private redis-server with demo locks and print its URL;\n"
        "                           with --for, print the live locks every second for that long");
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string_view> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        usage();
        return args.empty() ? 2 : 0;
    }
    try {
        std::vector<std::string_view> rest(args.begin() + 1, args.end());
        if (args[0] == "sandbox") return sandbox(rest);
        std::fprintf(stderr, "lockscope-cli: unknown command \"%.*s\"\n", int(args[0].size()), args[0].data());
        usage();
        return 2;
    } catch (const lockscope::Error& e) {
        std::fprintf(stderr, "lockscope-cli: %s\n", e.what());
        return 1;
    }
}
