// lockscope-cli replay: the teaching simulator's transcript on the command line.
#include <charconv>
#include <cstdio>

#include "cli_command.h"
#include "lockscope/endpoint.h"
#include "lockscope/errors.h"
#include "lockscope/sim/explorer.h"
#include "lockscope/sim/jepsen_history.h"
#include "lockscope/sim/live_replay.h"
#include "lockscope/sim/run_verdict.h"
#include "lockscope/sim/scenario.h"
#include "lockscope/sim/scenario_file.h"
#include "lockscope/sim/transcript.h"

namespace lockscope::cli {
namespace {

using namespace lockscope::sim;

void listScenarios() {
    for (const auto& s : scenarios()) {
        std::printf("%s\n  %s\n  %s\n  parameters (--set name=value):\n", s.name.c_str(),
                    s.title.c_str(), s.summary.c_str());
        for (const auto& p : s.params) {
            std::string range = std::to_string(p.min) + ".." + std::to_string(p.max);
            std::printf("    %-18s default %-9lld range %-14s %s\n", p.name.c_str(),
                        static_cast<long long>(p.defaultValue), range.c_str(),
                        p.description.c_str());
        }
        if (!s.liveUnavailable.empty())
            std::printf("  simulated only (no --live): %s\n", s.liveUnavailable.c_str());
        if (!s.liveNotes.empty()) std::printf("  %s\n", s.liveNotes.c_str());
        std::printf("\n");
    }
}

std::uint64_t parseSeed(const std::string& text) {
    std::uint64_t seed = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seed);
    if (text.empty() || error != std::errc() || end != text.data() + text.size())
        throw UsageError("--seed takes a whole number from 0 to 18446744073709551615, got \"" +
                         text + "\"");
    return seed;
}

int parseSpeed(const std::string& text) {
    int speed = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), speed);
    if (text.empty() || error != std::errc() || end != text.data() + text.size() || speed < 1 ||
        speed > 100000)
        throw UsageError("--speed takes 1 to 100000 real milliseconds per virtual second, got \"" +
                         text + "\"");
    return speed;
}

// Multi-server stories start their own servers: the URL is not used (and may be "private").
RunResult replayLive(const Scenario& scenario, const ScenarioParams& params, std::uint64_t seed,
                     const std::string& url, std::optional<int> speed) {
    LiveOptions options;
    options.realMsPerVirtualSecond = speed.value_or(0);
    const int shown = speed.value_or(scenario.liveRealMsPerVirtualSecond);
    std::string where;
    if (runsOnPrivateServers(scenario, params)) {
        where = "private redis-servers on 127.0.0.1 started for this run";
        if (url != "private") where += " (" + url + " is not used: this story needs several)";
    } else {
        if (url == "private")
            throw UsageError(scenario.name + " runs on one server: give its URL to --live");
        options.endpoint = parseEndpoint(url);
        where = options.endpoint.display();
    }
    std::printf("replay %s, seed %llu, live on %s (1 virtual s = %d ms)\n", scenario.name.c_str(),
                static_cast<unsigned long long>(seed), where.c_str(), shown);
    if (!scenario.liveNotes.empty()) std::printf("%s\n", scenario.liveNotes.c_str());
    std::fflush(stdout);
    RunResult run = runLive(scenario, params, seed, options);
    if (run.servers.size() > 1)
        for (const auto& server : run.servers) std::printf("  %s\n", server.c_str());
    return run;
}

int parseBudget(const std::string& text) {
    int budget = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), budget);
    if (text.empty() || error != std::errc() || end != text.data() + text.size() || budget < 1 ||
        budget > 100000)
        throw UsageError("--budget takes 1 to 100000 schedules, got \"" + text + "\"");
    return budget;
}

// The story to replay: a scenario file (--file), or NAME with --seed and --set; then the
// forks of --pause and --crash, in the order given.
ScenarioFile storyFromArguments(const Arguments& args) {
    ScenarioFile file;
    if (auto path = args.value("--file")) {
        if (!args.positionals().empty() || args.has("--seed") || args.has("--set"))
            throw UsageError("--file already names the story, its seed and its parameters");
        file = readScenarioFile(*path);
        scenarioNamed(file.story);  // an unknown story is refused before anything runs
    } else {
        if (args.positionals().size() != 1)
            throw UsageError("name one scenario (lockscope-cli replay --list shows them)");
        const Scenario& scenario = scenarioNamed(args.positionals()[0]);
        ScenarioParams params = scenario.defaults();
        for (const auto& assignment : args.values("--set")) params.assign(assignment);
        file.story = scenario.name;
        file.seed = args.value("--seed") ? parseSeed(*args.value("--seed")) : 1;
        for (const auto& spec : params.specs())
            file.params.emplace_back(spec.name, params.get(spec.name));
    }
    try {
        for (const auto& p : args.values("--pause")) file.forks.push_back(parsePauseFlag(p));
        for (const auto& c : args.values("--crash")) file.forks.push_back(parseCrashFlag(c));
    } catch (const InvalidArgumentError& e) {
        throw UsageError(e.what());
    }
    return file;
}

void writeHistory(const std::string& path, const Recording& recording) {
    auto history = lockHistory(recording);
    writeHistoryFile(path, history);
    const bool edn = path.ends_with(".edn");
    std::printf("\nhistory: %zu operations (Jepsen :invoke/:ok/:fail/:info) written to %s as %s\n",
                history.size(), path.c_str(), edn ? "EDN" : "JSON");
}

int runReplay(const Arguments& args) {
    if (args.has("--list")) {
        if (!args.positionals().empty()) throw UsageError("--list takes no scenario name");
        listScenarios();
        return kOk;
    }
    ScenarioFile story = storyFromArguments(args);
    const Scenario& scenario = scenarioNamed(story.story);
    ScenarioParams params = scenario.defaults();
    for (const auto& [name, value] : story.params) params.set(name, value);
    std::optional<int> speed;
    if (auto s = args.value("--speed")) speed = parseSpeed(*s);
    if (args.has("--budget") && !args.has("--explore"))
        throw UsageError("--budget only applies with --explore");

    if (args.has("--explore")) {
        if (args.has("--live") || args.has("--history"))
            throw UsageError("--explore runs the simulator only; drop --live and --history");
        const int budget = args.value("--budget") ? parseBudget(*args.value("--budget")) : 500;
        std::fputs(formatExplore(explore(story, budget)).c_str(), stdout);
        return kOk;
    }

    if (auto path = args.value("--history")) {
        // Refused before the story runs, not after its transcript.
        std::FILE* probe = std::fopen(path->c_str(), "ab");
        if (!probe) throw UsageError("--history cannot write to " + *path);
        std::fclose(probe);
    }

    RunResult run;
    if (auto url = args.value("--live")) {
        if (args.has("--file") || !story.forks.empty())
            throw UsageError("--file, --pause and --crash replay the simulated story; drop --live");
        // Say so before connecting anywhere.
        if (!scenario.liveUnavailable.empty())
            throw UsageError("live replay of " + scenario.name + " is not available: " +
                             scenario.liveUnavailable + " Replay it simulated instead.");
        run = replayLive(scenario, params, story.seed, *url, speed);
    } else {
        if (speed) throw UsageError("--speed only applies with --live");
        std::printf("replay %s, seed %llu, simulated\n", scenario.name.c_str(),
                    static_cast<unsigned long long>(story.seed));
        if (story.forks.empty()) {
            run = runSimulated(scenario, params, story.seed);
        } else {
            // The forks are made the way the panel makes them, so both tell the same story.
            story.beat = -1;
            auto replay = openScenario(story);
            for (const auto& fork : story.forks)
                std::printf("fork: %s %s at %s%s\n", fork.crash ? "crash" : "pause",
                            fork.instance.c_str(), formatVirtualTime(fork.at).c_str(),
                            fork.crash ? "" : (" for " + formatDuration(fork.duration)).c_str());
            run.recording = replay->recording();
            run.outcome = replay->outcome();
        }
    }
    std::fputs(formatTranscript(run.recording).c_str(), stdout);
    std::printf("\noutcome:\n%s", formatOutcome(run.outcome).c_str());
    std::printf("\nverdict: %s\n", runVerdict(run.outcome).c_str());
    if (auto path = args.value("--history")) writeHistory(*path, run.recording);
    if (!run.divergences.empty()) {
        std::printf("\nthe model and the server disagreed %zu time(s):\n", run.divergences.size());
        for (const auto& d : run.divergences) std::printf("  %s\n", d.c_str());
        return kError;
    }
    return kOk;
}

Registration replay(
    {"replay",
     "replay NAME|--file FILE [--seed N] [--set param=value]... [--pause I@MS+MS] [--crash "
     "I@MS] [--history FILE] [--explore [--budget N]] [--live URL|private] | --list",
     "Replay a teaching scenario (broken-report, fixed-report, expiry-race, setnx-expire-crash, "
     "get-then-del, atomic-counter, failover, seat-hold, redlock-gc-pause, redlock-clock-jump; "
     "--list shows them with their parameters) one beat per line, then its "
     "outcome. --live runs it on real servers and reports each reply that differs from the "
     "model. A single-server story runs on URL (its keys must be absent). The multi-server "
     "stories (redlock-*, failover, seat-hold) always start private redis-servers on loopback, "
     "one per node, with real replicas (REPLICAOF) and a real promotion, and ignore URL (write "
     "--live private); what they can only emulate (the clock step of redlock-clock-jump) is "
     "printed with the run. --file replays a scenario file saved by the window (.lockscope); "
     "--pause A@12000+40000 and --crash A@9000 fork the story there (times in virtual ms). "
     "--history writes the lock operations as a Jepsen history (EDN for a .edn path, else "
     "JSON). --explore runs every schedule of one or two faults from a small menu (clients "
     "paused or crashed; the story's failover, replication lag, clock jump or network delay "
     "at other moments and values) and counts "
     "the ones that break mutual exclusion, accept a stale write, repeat a side effect or leave a "
     "lock no one will release.",
     {{"--list", "", "list the scenarios and their parameters", "Replay"},
      {"--seed", "N", "the random seed (default 1)", "Replay"},
      {"--set", "NAME=VALUE", "set a scenario parameter, repeatable", "Replay"},
      {"--live", "URL", "run on a real server (or \"private\" servers)", "Replay"},
      {"--speed", "MS", "real milliseconds per virtual second, with --live", "Replay"},
      {"--file", "FILE", "replay a .lockscope scenario file", "Replay"},
      {"--pause", "I@MS+MS", "fork: pause instance I at MS for MS, repeatable", "Replay"},
      {"--crash", "I@MS", "fork: crash instance I at MS, repeatable", "Replay"},
      {"--history", "FILE", "write the Jepsen history (.edn: EDN, else JSON)", "Replay"},
      {"--explore", "", "explore the schedules of a bounded fault menu", "Replay"},
      {"--budget", "N", "schedules to run with --explore (default 500)", "Replay"}},
     false,
     "NAME",
     runReplay});

}  // namespace
}  // namespace lockscope::cli
