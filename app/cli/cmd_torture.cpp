// lockscope-cli torture: fault-tests a lock client against private redis-servers and
// prints the checker's verdict; torture-worker is the worker process it re-executes.
#include <unistd.h>

#include <charconv>
#include <climits>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "cli_command.h"
#include "lockscope/torture/report.h"
#include "lockscope/torture/torture_run.h"

namespace lockscope::cli {
namespace {

using namespace lockscope::torture;

template <typename T>
T parseNumber(const std::string& flag, const std::string& text, T min, T max) {
    T value{};
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < min ||
        value > max)
        throw UsageError(flag + " takes a whole number from " + std::to_string(min) + " to " +
                         std::to_string(max) + ", got \"" + text.substr(0, 40) + "\"");
    return value;
}

std::string self() {
    char path[PATH_MAX] = {};
    if (readlink("/proc/self/exe", path, sizeof path - 1) <= 0)
        throw UsageError("cannot find this program's path to start workers");
    return path;
}

std::vector<std::string> splitWords(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> words;
    for (std::string word; in >> word;) words.push_back(word);
    return words;
}

void writeHistory(const std::string& path, const History& history) {
    bool edn = path.size() > 4 && path.compare(path.size() - 4, 4, ".edn") == 0;
    std::ofstream out(path, std::ios::trunc);
    out << (edn ? toEdn(history) : toJson(history));
    if (!out) throw UsageError("cannot write the history to " + path);
}

int runTortureCommand(const Arguments& args) {
    args.allowOnly({"--client", "--clients", "--duration", "--faults", "--seed", "--json",
                    "--history", "--ttl", "--nodes", "--adapter", "--adapter-fenced"});
    TortureOptions o;
    o.client = args.value("--client").value_or("");
    if (o.client.empty()) throw UsageError("--client is required");
    if (auto v = args.value("--clients")) o.clients = parseNumber<int>("--clients", *v, 1, 64);
    if (auto v = args.value("--nodes")) o.nodes = parseNumber<int>("--nodes", *v, 1, 9);
    if (auto v = args.value("--seed"))
        o.seed = parseNumber<std::uint64_t>("--seed", *v, 0, UINT64_MAX);
    if (auto v = args.value("--duration")) o.duration = parseDuration(*v);
    if (auto v = args.value("--ttl")) o.ttl = parseDuration(*v);
    if (auto v = args.value("--faults")) o.faults = parseFaults(*v);
    if (auto v = args.value("--adapter")) o.adapterCommand = splitWords(*v);
    o.adapterFenced = args.has("--adapter-fenced");
    o.workerCommand = {self(), "torture-worker"};
    bool json = args.has("--json");
    o.onProgress = [](const std::string& line) { std::fprintf(stderr, "  %s\n", line.c_str()); };
    std::fprintf(stderr, "torture: %s\n", replayCommand(o).c_str());

    TortureResult result = runTorture(o);
    if (auto path = args.value("--history")) writeHistory(*path, result.history);
    std::fputs((json ? jsonReport(o, result) : textReport(o, result)).c_str(), stdout);
    return result.interrupted ? 130 : kOk;
}

int runWorker(const Arguments& args) {
    if (args.positionals().size() != 1) throw UsageError("torture-worker takes one JSON argument");
    return workerMain(args.positionals()[0]);
}

Registration torture(
    {"torture",
     "torture --client NAME [--clients 5] [--duration 30s] [--faults LIST] [--seed N]\n"
     "        [--ttl 1s] [--nodes N] [--json] [--history FILE.json|FILE.edn]\n"
     "        [--adapter 'CMD ARGS' [--adapter-fenced]]\n"
     "                           fault-test a lock client against private redis-servers on\n"
     "                           loopback: worker processes loop acquire → write a fenced\n"
     "                           SQLite resource → release while seeded faults (pause, delay,\n"
     "                           partition, restart, failover, clock, server-stall) hit them;\n"
     "                           prints overlaps, stale writes accepted/rejected, lost locks.\n"
     "                           Clients: setnx-del, guide, guide-fenced, guide-watchdog,\n"
     "                           redlock, redlock-fenced, or any NAME with --adapter (JSON lines)",
     {"--client", "--clients", "--duration", "--faults", "--seed", "--history", "--ttl", "--nodes",
      "--adapter"},
     runTortureCommand});

Registration worker({"torture-worker",
                     "torture-worker JSON       (internal: one worker process of a torture run)",
                     {},
                     runWorker});

}  // namespace
}  // namespace lockscope::cli
