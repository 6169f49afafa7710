// lockscope-cli watch: a terminal view of the locks with live countdowns.
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <memory>
#include <thread>

#include "cli_command.h"
#include "connection_flags.h"
#include "instance_scan.h"
#include "interrupt.h"
#include "lock_table_text.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/cluster_watch_hand_off.h"
#include "lockscope/inspect/lock_watch.h"
#include "lockscope/sentinel_switches.h"
#include "scan_targets.h"
#include "watch_events.h"

namespace lockscope::cli {
namespace {

using namespace std::chrono_literals;
volatile std::sig_atomic_t terminated = 0;  // SIGTERM: stop as asked, exit 0

struct WatchedServer {
    Endpoint endpoint;
    WatchTarget target;  // a cluster's primary: how to find its shard's primary after a failover
    std::unique_ptr<Connection> connection;
    std::unique_ptr<inspect::LockWatch> watch;
    std::unique_ptr<WatchEvents> events;
    std::string status;
    int pollsOk = 0, pollsFailed = 0;
    bool scanned = false;  // a first scan ended (not cut short by Ctrl+C)
    std::chrono::milliseconds backoff{0};
    inspect::SteadyClock::time_point retryAt{};
    std::string lastError;
    inspect::SteadyClock::time_point nextSentinelCheck{};
};

// Errors a server gives while it is busy for a while (a long script, loading its data after a
// restart, a replica without its master): wait and retry, never give up for good.
bool passes(const ReplyError& e) {
    std::string_view m = e.what();
    for (const char* transient : {"BUSY", "LOADING", "MASTERDOWN", "TRYAGAIN"})
        if (m.find(transient) != std::string_view::npos) return true;
    return false;
}

// "420 commands/s, server 2.1% of a core (budget 5%)": what watching costs the server now.
std::string describeLoad(const inspect::LoadFigures& f) {
    char text[128];
    std::snprintf(text, sizeof text, "%.0f commands/s, server %.1f%% of a core (budget %.0f%%)",
                  f.commandsPerSecond, f.serverShare * 100, f.budget * 100);
    return text;
}

// One poll of one server; a failure backs off (doubling, up to 10 s) and shows the state.
inspect::WatchUpdate poll(WatchedServer& s, std::chrono::milliseconds interval,
                          std::stop_token stop) {
    auto now = inspect::SteadyClock::now();
    inspect::WatchUpdate u;
    try {
        u = s.watch->step(stop);
    } catch (const ReplyError& e) {
        if (!passes(e)) throw;
        u.connected = false;
        u.error = e.what();
    }
    if (u.connected) {
        ++s.pollsOk;
        s.backoff = std::chrono::milliseconds(0);
        s.status = std::string("connected, keyspace events ") +
                   inspect::toString(s.watch->server().keyspaceEvents) + ", " +
                   describeLoad(s.watch->load());
        return u;
    }
    ++s.pollsFailed;
    s.lastError = u.error;
    s.backoff = std::min<std::chrono::milliseconds>(std::max(s.backoff * 2, interval), 10s);
    s.retryAt = now + s.backoff;
    s.status = "not read (" + u.error + "), retrying in " +
               std::to_string(s.backoff.count() / 1000.0).substr(0, 4) + " s";
    return u;
}

// On a cluster: the node that serves the shard as the router knows it. The router is shared
// by the cluster's primaries and asks the cluster again only when its policy says so (a lost
// node, a redirect, CLUSTERDOWN, or 30 s: topology_refresh_policy.h), not every second for
// each primary. nodeLost: this primary's poll failed, its replica may be about to take over.
Endpoint shardPrimaryFollowed(const WatchTarget& target, bool nodeLost) {
    const auto now = inspect::SteadyClock::now();
    if (nodeLost) target.cluster->noteNodeLost(now);
    target.cluster->followTopology(now);
    const inspect::ClusterNode* owner = target.cluster->topology().ownerOfSlot(target.firstSlot);
    return owner ? target.cluster->endpointOf(*owner) : target.endpoint;
}

// Behind Sentinel: asks which server is the primary (each second, and at once after a failed
// poll or a +switch-master: a demoted primary still answers reads, so a poll alone would not
// notice); on a cluster, looks up which node serves the shard now (shardPrimaryFollowed). A
// new primary takes the place of the old one under the same watch, which keeps its history,
// and the failover is reported as an event.
void followFailover(WatchedServer& s, const InspectorFlags& flags, bool askNow) {
    auto now = inspect::SteadyClock::now();
    if ((!flags.sentinel && !s.target.cluster) || (!askNow && now < s.nextSentinelCheck)) return;
    s.nextSentinelCheck = now + 1s;
    Endpoint primary;
    try {
        primary = s.target.cluster ? shardPrimaryFollowed(s.target, askNow)
                                   : discoverPrimary(*flags.sentinel, {.connectTimeout = 500ms,
                                                                       .commandTimeout = 500ms});
    } catch (const Error&) {
        return;  // asked again on the next check; the poll shows the state meanwhile
    }
    if (primary.display() == s.endpoint.display()) return;
    try {
        *s.connection = Connection::open(primary, connectionOptions(flags, true));
    } catch (const Error&) {
        return;
    }
    const std::string from = s.endpoint.display();
    const std::string what =
        s.target.cluster ? "the shard with slots " + s.target.slotRanges : flags.sentinel->service;
    s.endpoint = primary;
    s.retryAt = now;
    s.backoff = std::chrono::milliseconds(0);
    s.watch->requestRescan();  // what the new primary holds, now (a failover can lose locks)
    if (flags.json) {
        nlohmann::json line{{"event", "failover"}, {"from", from}, {"to", primary.display()}};
        if (s.target.cluster)
            line["slots"] = s.target.slotRanges;
        else
            line["service"] = flags.sentinel->service;
        std::printf("%s\n", line.dump().c_str());
        std::fflush(stdout);
    } else {
        std::fprintf(stderr,
                     "lockscope-cli watch: failover of %s: the primary is now %s (was %s)\n",
                     what.c_str(), primary.display().c_str(), from.c_str());
    }
}

// On a cluster: a read that answered MOVED or ASK hands the slot's locks to the watch of
// their new owner in the same round (cluster_watch_hand_off.h), and the topology change the
// router then learns is reported. updates[i] is servers[i]'s (an empty one for the others).
void handOffMovedSlots(std::vector<WatchedServer>& servers,
                       std::vector<inspect::WatchUpdate>& updates, bool json,
                       std::size_t& topologyEventsShown) {
    inspect::ClusterRouter* router = nullptr;
    std::vector<inspect::WatchedPrimary> watched;
    for (auto& s : servers) {
        if (!s.target.cluster) continue;
        router = s.target.cluster.get();  // a watch names one cluster (one router)
        watched.push_back({s.watch.get(), s.endpoint});
    }
    if (!router) return;
    std::vector<inspect::WatchUpdate> clusterUpdates;
    std::vector<std::size_t> at;
    for (std::size_t i = 0; i < servers.size(); ++i)
        if (servers[i].target.cluster) {
            clusterUpdates.push_back(std::move(updates[i]));
            at.push_back(i);
        }
    try {
        inspect::handOffRedirectedKeys(*router, watched, clusterUpdates);
    } catch (const Error&) {
        // A node lost meanwhile: its poll reports it, and the failover follows.
    }
    for (std::size_t k = 0; k < at.size(); ++k) updates[at[k]] = std::move(clusterUpdates[k]);
    const auto& events = router->events();
    for (; topologyEventsShown < events.size(); ++topologyEventsShown) {
        if (json)
            std::printf("%s\n", nlohmann::json{{"event", "topology"},
                                               {"change", events[topologyEventsShown]}}
                                    .dump()
                                    .c_str());
        else
            std::fprintf(stderr, "lockscope-cli watch: cluster topology changed: %s\n",
                         events[topologyEventsShown].c_str());
    }
    std::fflush(stdout);
}

void redraw(const std::vector<WatchedServer>& servers, bool ansi) {
    auto now = inspect::SteadyClock::now();
    std::vector<const inspect::LockRecord*> records;
    std::string status;
    for (const auto& s : servers) {
        for (const auto& [key, r] : s.watch->table().records()) records.push_back(&*r);
        status += s.endpoint.display() + ": " + s.status + "\n";
    }
    std::string screen = formatLockTable(records, servers.size() > 1, now);
    if (ansi) std::fputs("\x1b[H\x1b[2J", stdout);
    std::fputs(status.c_str(), stdout);
    std::fputs(screen.c_str(), stdout);
    std::printf("%zu lock(s); Ctrl-C stops\n", records.size());
    if (!ansi) std::fputs("\n", stdout);
    std::fflush(stdout);
}

// Ctrl+C: the output ends with a mark, so a script reading it knows the watch was stopped and
// whether the first scan of each server was complete. Exit 130, as shells expect.
int reportInterrupt(const std::vector<WatchedServer>& servers, bool json) {
    for (const auto& s : servers) {
        const bool scanned = s.scanned;
        if (json) {
            nlohmann::json line{{"event", "interrupted"},
                                {"instance", s.endpoint.display()},
                                {"partial", !scanned},
                                {"locks", s.watch->table().records().size()}};
            std::printf("%s\n", line.dump().c_str());
        } else {
            std::fprintf(stderr, "lockscope-cli watch: %s: interrupted %s\n",
                         s.endpoint.display().c_str(),
                         scanned ? "(the last screen above was complete)"
                                 : "before its first scan ended: nothing above is complete");
        }
    }
    std::fflush(stdout);
    return InterruptStop::kExitCode;
}

int runWatch(const Arguments& args) {
    if (!args.positionals().empty()) throw UsageError("watch takes no arguments, only options");
    InspectorFlags flags = parseInspectorFlags(args);
    inspect::WatchOptions options;
    options.scan = flags.scan;
    options.doctor.layout = flags.scan.layout;
    options.doctor.replicaOnPurpose = flags.scanReplicas;
    if (auto i = args.value("--interval"))
        options.pollInterval =
            std::chrono::milliseconds(parseNumberFlag("--interval", *i, 50, 3'600'000));
    options.rescanInterval = std::max(options.pollInterval * 10, std::chrono::milliseconds(5000));
    // --max-load is the steady-state budget too; without it the first scan runs unpaced and
    // the steady state keeps to the default budget (5% of one server core).
    if (args.value("--max-load")) options.budget = flags.scan.maxLoad;
    options.includeNonLocks = args.has("--include-non-locks");
    std::optional<std::chrono::milliseconds> duration;
    if (auto f = args.value("--for"))
        duration = std::chrono::seconds(parseNumberFlag("--for", *f, 0, 86'400));
    // Ctrl+C stops the watch at once, even inside a paced first scan or a blocked read (the
    // stop token reaches every connection's waits), and the command exits 130.
    InterruptStop interrupt;
    std::signal(SIGTERM, [](int) { terminated = 1; });
    ConnectionOptions connection = connectionOptions(flags, true);
    connection.stop = interrupt.token();

    std::vector<WatchedServer> servers;
    for (auto& target : primariesToWatch(flags)) {  // a cluster: each of its primaries
        const Endpoint e = target.endpoint;
        WatchedServer s;
        s.endpoint = e;
        s.target = std::move(target);
        // Connecting is checked now, so a wrong address or password fails at once.
        s.connection = std::make_unique<Connection>(Connection::open(e, connection));
        inspect::WatchOptions own = options;
        own.handOffRedirects = s.target.cluster != nullptr;  // handOffMovedSlots reads them
        s.watch = std::make_unique<inspect::LockWatch>(*s.connection, own);
        s.events = std::make_unique<WatchEvents>(e.display());
        servers.push_back(std::move(s));
    }
    // Behind Sentinel, a failover is heard the moment a Sentinel announces it.
    std::unique_ptr<SentinelSwitches> switches;
    if (flags.sentinel)
        switches = std::make_unique<SentinelSwitches>(
            *flags.sentinel, ConnectionOptions{.connectTimeout = 500ms, .commandTimeout = 500ms});
    const bool ansi = !flags.json && isatty(STDOUT_FILENO);
    const auto start = inspect::SteadyClock::now();
    auto nextPoll = start;
    std::size_t topologyEventsShown = 0;  // the cluster router's events already reported
    auto stopping = [&] { return terminated || interrupt.interrupted(); };
    while (!stopping() && (!duration || inspect::SteadyClock::now() - start < *duration)) {
        auto now = inspect::SteadyClock::now();
        bool changed = false;
        const bool switched = switches && switches->switched();
        if (now >= nextPoll || switched) {
            std::vector<inspect::WatchUpdate> round(servers.size());
            std::vector<bool> polled(servers.size(), false);
            for (std::size_t i = 0; i < servers.size(); ++i) {
                auto& s = servers[i];
                if (now < s.retryAt && !switched) continue;
                followFailover(s, flags, switched);
                round[i] = poll(s, options.pollInterval, interrupt.token());
                if (stopping()) break;  // a stopped poll reports a cancelled read, not news
                polled[i] = true;
                s.scanned = s.scanned || round[i].connected;
                if (!round[i].connected) followFailover(s, flags, true);
            }
            if (!stopping()) handOffMovedSlots(servers, round, flags.json, topologyEventsShown);
            for (std::size_t i = 0; i < servers.size() && !stopping(); ++i) {
                const auto& u = round[i];
                if (!polled[i] && u.changed.empty() && u.movedAway.empty()) continue;
                changed = changed || !u.changed.empty() || !u.removed.empty() ||
                          !u.movedAway.empty() || !u.connected;
                if (flags.json) servers[i].events->print(stdout, u);
                if (!u.connected && !flags.json && !ansi)
                    std::fprintf(stderr, "lockscope-cli watch: %s: %s\n",
                                 servers[i].endpoint.display().c_str(), servers[i].status.c_str());
            }
            nextPoll = now + options.pollInterval;
        }
        // Between polls: keyspace notifications (when the server publishes them) bring
        // changes at once, and the countdown is interpolated for the redraw.
        auto slice =
            std::chrono::milliseconds(std::max<long>(10, 100 / static_cast<long>(servers.size())));
        for (std::size_t i = 0; i < servers.size(); ++i) {
            auto& s = servers[i];
            if (s.pollsOk == 0 || inspect::SteadyClock::now() < s.retryAt) continue;
            std::vector<inspect::WatchUpdate> events(servers.size());
            try {
                events[i] = s.watch->waitForEvents(
                    std::min<std::chrono::milliseconds>(slice, options.pollInterval),
                    interrupt.token());
            } catch (const ReplyError& e) {
                if (!passes(e)) throw;
                continue;  // the next poll reports it
            }
            if (stopping()) continue;
            if (!events[i].redirected.empty())
                handOffMovedSlots(servers, events, flags.json, topologyEventsShown);
            for (std::size_t k = 0; k < servers.size(); ++k) {
                const auto& u = events[k];
                if (u.changed.empty() && u.removed.empty() && u.movedAway.empty() && u.connected)
                    continue;
                changed = true;
                if (flags.json) servers[k].events->print(stdout, u);
            }
        }
        if (servers.size() == 1 && servers[0].pollsOk == 0)
            std::this_thread::sleep_for(std::min<std::chrono::milliseconds>(slice, 100ms));
        if (!flags.json && (ansi || changed) && !stopping()) redraw(servers, ansi);
    }
    if (interrupt.interrupted()) return reportInterrupt(servers, flags.json);
    // A run in which no poll of a server succeeded showed nothing true: say so, and fail.
    int code = kOk;
    for (const auto& s : servers)
        if (s.pollsOk == 0 && s.pollsFailed > 0) {
            std::fprintf(stderr,
                         "lockscope-cli watch: %s: every poll failed (%d), nothing was read; "
                         "last error: %s\n",
                         s.endpoint.display().c_str(), s.pollsFailed, s.lastError.c_str());
            code = kCannotConnect;
        }
    return code;
}

Registration watch(
    {"watch",
     "watch [--interval MS] [--for SECONDS]",
     "Live view of the locks with countdowns, within a load budget (--max-load, default 5% of "
     "one server core): locks near expiry, changed recently or without TTL are re-read every "
     "interval (500 ms), the others in rotation, and new keys are swept for as the budget "
     "allows. With --json, one line per change.",
     {{"--interval", "MS", "poll interval (50 to 3600000 ms, default 500)", "Watch"},
      {"--for", "SECONDS", "stop after this many seconds", "Watch"},
      {"--include-non-locks", "", "also watch ordinary keys under the patterns", "Watch"}},
     true,
     "",
     runWatch});

}  // namespace
}  // namespace lockscope::cli
