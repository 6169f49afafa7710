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
     "torture --client NAME [--faults LIST] [--duration 30s] [--seed N] [--json]",
     "Fault-test a lock client against private redis-servers on loopback: worker processes "
     "loop acquire, write a fenced SQLite resource, release, while seeded faults hit them "
     "(pause, delay, partition, restart, failover, clock, server-stall). Prints overlaps, "
     "stale writes accepted and rejected, lost locks, acquisitions and the faults injected, "
     "with the shortest window showing each violation and the command that replays the seed. "
     "Clients: setnx-del, guide, guide-fenced, guide-watchdog, redlock, redlock-fenced, or any "
     "NAME with --adapter (JSON lines over stdin/stdout).",
     {{"--client", "NAME", "the lock client to torture", "Torture"},
      {"--clients", "N", "worker processes (default 5)", "Torture"},
      {"--duration", "TIME", "how long to run, e.g. 20s (default 30s)", "Torture"},
      {"--faults", "LIST", "comma-separated fault kinds (default none)", "Torture"},
      {"--seed", "N", "the seed of the fault plan (default 1)", "Torture"},
      {"--ttl", "TIME", "the lock TTL (default 1s)", "Torture"},
      {"--nodes", "N", "redis primaries (default 5 for redlock, else 1)", "Torture"},
      {"--json", "", "print one JSON object", "Torture"},
      {"--history", "FILE", "write the history (.json, or .edn for EDN)", "Torture"},
      {"--adapter", "COMMAND", "an external client speaking the adapter protocol", "Torture"},
      {"--adapter-fenced", "", "the resource checks the adapter's fences", "Torture"}},
     false,
     "",
     runTortureCommand});

Registration worker({"torture-worker",
                     "torture-worker JSON",
                     "Internal: one worker process of a torture run (started by torture).",
                     {},
                     false,
                     "JSON",
                     runWorker});

}  // namespace
}  // namespace lockscope::cli
