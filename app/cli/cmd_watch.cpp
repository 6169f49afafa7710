// lockscope-cli watch: a terminal view of the locks with live countdowns. The watching itself
// is the library's engine (lockscope/inspect/watch/server_watch.h), the same as under the window
// and the exporter; this command prints its events and redraws the table.
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <map>
#include <memory>

#include "cli_command.h"
#include "connection_flags.h"
#include "interrupt.h"
#include "lock_table_text.h"
#include "lockscope/inspect/liveness/holder_verdict.h"
#include "lockscope/inspect/watch/server_watch.h"
#include "lockscope/text_format.h"
#include "watch_events.h"

namespace lockscope::cli {
namespace {

using namespace std::chrono_literals;
volatile std::sig_atomic_t terminated = 0;  // SIGTERM: stop as asked, exit 0

// "420 commands/s, server 2.1% of a core (budget 5%)": what watching costs the server now.
std::string describeLoad(const inspect::LoadFigures& f) {
    char text[128];
    std::snprintf(text, sizeof text, "%.0f commands/s, server %.1f%% of a core (budget %.0f%%)",
                  f.commandsPerSecond, f.serverShare * 100, f.budget * 100);
    return text;
}

// The status line of one watched node, from its state as the engine reports it.
std::string statusOf(const inspect::WatchedNode& n, const std::string& retry) {
    switch (n.state) {
        case inspect::NodeState::Connected:
            return std::string("connected") + (n.readsReplica ? " to replica " + n.endpoint : "") +
                   ", keyspace events " + inspect::toString(n.watch->server().keyspaceEvents) +
                   ", " + describeLoad(n.watch->load());
        case inspect::NodeState::Reconnecting:
            return "not read (" + n.error + "), retrying in " + retry + " s";
        default:
            return inspect::toString(n.state);
    }
}

// What the command prints of the engines' events: JSON lines with --json, else notes on
// stderr and a redrawn table.
class WatchPrinter {
  public:
    explicit WatchPrinter(bool json) : json_(json) {}

    // Returns whether the table changed (a redraw is due).
    bool print(const inspect::WatchEvent& e) {
        switch (e.kind) {
            case inspect::WatchEvent::Kind::Rows:
                return rows(e);
            case inspect::WatchEvent::Kind::NodeState:
                if (e.state == inspect::NodeState::Reconnecting)
                    retryIn_[e.node] = std::to_string(e.retryIn.count() / 1000.0).substr(0, 4);
                return false;
            case inspect::WatchEvent::Kind::Topology:
                line({{"event", "topology"}, {"change", e.change}},
                     "cluster topology changed: " + e.change);
                return false;
            case inspect::WatchEvent::Kind::Failover:
                failover(e);
                return true;
            case inspect::WatchEvent::Kind::Resync:
                line({{"event", "resync"}, {"instance", e.node}, {"complete", e.complete}},
                     e.node + (e.complete ? ": resynced, the view is complete again"
                                          : ": the view is incomplete until a full pass "
                                            "after the server answers again"));
                return false;
            case inspect::WatchEvent::Kind::Note:
                std::fprintf(stderr, "lockscope-cli watch: %s\n", describe(e.note).c_str());
                return false;
        }
        return false;
    }
    const std::string& retryIn(const std::string& node) { return retryIn_[node]; }

  private:
    bool rows(const inspect::WatchEvent& e) {
        const auto& u = e.rows;
        auto& events = events_.try_emplace(e.node, e.node).first->second;
        if (json_) events.print(stdout, u);
        return !u.changed.empty() || !u.removed.empty() || !u.movedAway.empty() || !u.connected;
    }
    void failover(const inspect::WatchEvent& e) {
        nlohmann::json j{{"event", "failover"}, {"from", e.from}, {"to", e.to}};
        j[e.sentinel ? "service" : "slots"] = e.shard;
        const std::string what = e.sentinel ? e.shard : "the shard with slots " + e.shard;
        line(j, "failover of " + what + ": the primary is now " + e.to + " (was " + e.from + ")");
    }
    void line(const nlohmann::json& j, const std::string& text) {
        if (json_) {
            std::printf("%s\n", j.dump().c_str());
            std::fflush(stdout);
        } else {
            std::fprintf(stderr, "lockscope-cli watch: %s\n", text.c_str());
        }
    }

    bool json_;
    std::map<std::string, WatchEvents> events_;  // by node: what each node's lines said
    std::map<std::string, std::string> retryIn_;
};

// Below the table: why each orphan is called one (a claim about someone else's process).
std::string orphanEvidence(const std::vector<const inspect::LockRecord*>& records) {
    std::string out;
    for (const auto* r : records)
        if (r->liveness && r->liveness->verdict == inspect::Verdict::Gone)
            out += r->instanceName() + " " + printable(r->key, 48) + ": " +
                   inspect::describeVerdict(*r->liveness) + "\n";
    return out.empty() ? out : "Why each holder is gone:\n" + out;
}

void redraw(const std::vector<std::unique_ptr<inspect::ServerWatch>>& engines,
            WatchPrinter& printer, bool ansi) {
    auto now = inspect::SteadyClock::now();
    std::vector<const inspect::LockRecord*> records;
    std::string status;
    std::size_t nodes = 0;
    for (const auto& engine : engines)
        for (const auto& n : engine->nodes()) {
            ++nodes;
            if (n.watch)
                for (const auto& [key, r] : n.watch->table().records()) records.push_back(&*r);
            status += n.name + ": " + statusOf(n, printer.retryIn(n.name)) + "\n";
        }
    const bool judged = !engines.empty() && engines.front()->options().liveness.has_value();
    std::string screen = formatLockTable(records, nodes > 1, now, judged);
    if (judged) screen += orphanEvidence(records);
    if (ansi) std::fputs("\x1b[H\x1b[2J", stdout);
    std::fputs(status.c_str(), stdout);
    std::fputs(screen.c_str(), stdout);
    std::printf("%zu lock(s); Ctrl-C stops\n", records.size());
    if (!ansi) std::fputs("\n", stdout);
    std::fflush(stdout);
}

// Ctrl+C: the output ends with a mark, so a script reading it knows the watch was stopped and
// whether the first scan of each server was complete. Exit 130, as shells expect.
int reportInterrupt(const std::vector<std::unique_ptr<inspect::ServerWatch>>& engines, bool json) {
    for (const auto& engine : engines)
        for (const auto& n : engine->nodes()) {
            if (json) {
                nlohmann::json line{{"event", "interrupted"},
                                    {"instance", n.name},
                                    {"partial", !n.scanned},
                                    {"locks", n.watch ? n.watch->table().records().size() : 0}};
                std::printf("%s\n", line.dump().c_str());
            } else {
                std::fprintf(stderr, "lockscope-cli watch: %s: interrupted %s\n", n.name.c_str(),
                             n.scanned ? "(the last screen above was complete)"
                                       : "before its first scan ended: nothing above is complete");
            }
        }
    std::fflush(stdout);
    return InterruptStop::kExitCode;
}

// A run in which no poll of a node succeeded showed nothing true: say so, and fail.
int reportNothingRead(const std::vector<std::unique_ptr<inspect::ServerWatch>>& engines) {
    int code = kOk;
    for (const auto& engine : engines)
        for (const auto& n : engine->nodes())
            if (n.pollsOk == 0 && n.pollsFailed > 0) {
                std::fprintf(stderr,
                             "lockscope-cli watch: %s: every poll failed (%d), nothing was read; "
                             "last error: %s\n",
                             n.name.c_str(), n.pollsFailed, n.error.c_str());
                code = kCannotConnect;
            }
    return code;
}

inspect::WatchOptions watchOptions(const Arguments& args, const InspectorFlags& flags) {
    inspect::WatchOptions options;
    options.scan = flags.scan;
    options.doctor.layout = flags.scan.layout;
    if (auto i = args.value("--interval"))
        options.pollInterval =
            std::chrono::milliseconds(parseNumberFlag("--interval", *i, 50, 3'600'000));
    options.rescanInterval = std::max(options.pollInterval * 10, std::chrono::milliseconds(5000));
    // --max-load is the steady-state budget too; without it the first scan runs unpaced and
    // the steady state keeps to the default budget (5% of one server core).
    if (args.value("--max-load")) options.budget = flags.scan.maxLoad;
    options.includeNonLocks = args.has("--include-non-locks");
    return options;
}

int runWatch(const Arguments& args) {
    if (!args.positionals().empty()) throw UsageError("watch takes no arguments, only options");
    InspectorFlags flags = parseInspectorFlags(args);
    const inspect::WatchOptions options = watchOptions(args, flags);
    // Is each holder alive? On unless asked not to: CLIENT LIST at most every 10 s and a
    // bounded number of job look-ups a pass, on the connection each node reads.
    std::optional<inspect::LivenessOptions> liveness;
    if (!args.has("--no-liveness")) liveness.emplace();
    std::optional<std::chrono::milliseconds> duration;
    if (auto f = args.value("--for"))
        duration = std::chrono::seconds(parseNumberFlag("--for", *f, 0, 86'400));
    // Ctrl+C stops the watch at once, even inside a paced first scan or a blocked read (the
    // stop token reaches every connection's waits), and the command exits 130.
    InterruptStop interrupt;
    std::signal(SIGTERM, [](int) { terminated = 1; });
    ConnectionOptions connection = connectionOptions(flags, true);
    connection.stop = interrupt.token();

    WatchPrinter printer(flags.json);
    std::vector<std::unique_ptr<inspect::ServerWatch>> engines;
    for (const auto& endpoint : flags.endpoints) {  // one engine per server, cluster or service
        auto engine = std::make_unique<inspect::ServerWatch>(
            inspect::ServerWatchOptions{.endpoint = endpoint,
                                        .sentinel = flags.sentinel,
                                        .connection = connection,
                                        .clusterAddressing = flags.clusterAddressing,
                                        .scanReplicas = flags.scanReplicas,
                                        .watch = options,
                                        .liveness = liveness});
        // Connecting is checked now, so a wrong address or password fails at once.
        for (const auto& e : engine->open()) printer.print(e);
        engines.push_back(std::move(engine));
        if (flags.sentinel) break;  // the service is one server, whatever the endpoints
    }
    const bool ansi = !flags.json && isatty(STDOUT_FILENO);
    const auto start = inspect::SteadyClock::now();
    auto stopping = [&] { return terminated || interrupt.interrupted(); };
    // Between rounds: keyspace notifications (when the server publishes them) bring changes
    // at once, and the countdown is interpolated for the redraw.
    const auto slice = std::min<std::chrono::milliseconds>(100ms, options.pollInterval);
    while (!stopping() && (!duration || inspect::SteadyClock::now() - start < *duration)) {
        bool changed = false;
        for (auto& engine : engines) {
            for (const auto& e : engine->step(interrupt.token()))
                changed = printer.print(e) || changed;
            if (stopping()) break;
            for (const auto& e : engine->waitForEvents(slice / engines.size(), interrupt.token()))
                changed = printer.print(e) || changed;
        }
        if (!flags.json && (ansi || changed) && !stopping()) redraw(engines, printer, ansi);
    }
    if (interrupt.interrupted()) return reportInterrupt(engines, flags.json);
    return reportNothingRead(engines);
}

Registration watch(
    {"watch",
     "watch [--interval MS] [--for SECONDS]",
     "Live view of the locks with countdowns, within a load budget (--max-load, default 5% of "
     "one server core): locks near expiry, changed recently or without TTL are re-read every "
     "interval (500 ms), the others in rotation, and new keys are swept for as the budget "
     "allows. Each holder is judged alive, gone or unknown, with its evidence (--json: "
     "\"liveness\"; a new verdict is a change). With --json, one line per change.",
     {{"--interval", "MS", "poll interval (50 to 3600000 ms, default 500)", "Watch"},
      {"--for", "SECONDS", "stop after this many seconds", "Watch"},
      {"--include-non-locks", "", "also watch ordinary keys under the patterns", "Watch"},
      {"--no-liveness", "",
       "do not judge whether each holder is alive (no CLIENT LIST, no job look-ups)", "Watch"}},
     true,
     "",
     runWatch});

}  // namespace
}  // namespace lockscope::cli
