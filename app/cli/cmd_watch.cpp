// lockscope-cli watch: a terminal view of the locks with live countdowns.
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <memory>

#include "cli_command.h"
#include "connection_flags.h"
#include "instance_scan.h"
#include "lock_table_text.h"
#include "lockscope/inspect/lock_watch.h"
#include "lockscope/inspect/record_json.h"
#include "nlohmann/json.hpp"

namespace lockscope::cli {
namespace {

using namespace std::chrono_literals;
volatile std::sig_atomic_t stopWatching = 0;

struct WatchedServer {
    Endpoint endpoint;
    std::unique_ptr<Connection> connection;
    std::unique_ptr<inspect::LockWatch> watch;
    std::string status;
};

void printJsonUpdate(const WatchedServer& s, const inspect::WatchUpdate& u) {
    auto now = inspect::SteadyClock::now();
    for (const auto& r : u.changed) std::printf("%s\n", inspect::toJsonLine(r, now).c_str());
    for (const auto& key : u.removed) {
        nlohmann::json j{{"instance", s.endpoint.display()}, {"key", key}, {"removed", true}};
        std::printf("%s\n",
                    j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    }
    if (!u.connected) {
        nlohmann::json j{
            {"instance", s.endpoint.display()}, {"connected", false}, {"error", u.error}};
        std::printf("%s\n",
                    j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    }
    std::fflush(stdout);
}

void redraw(const std::vector<WatchedServer>& servers, bool ansi) {
    auto now = inspect::SteadyClock::now();
    std::vector<const inspect::LockRecord*> records;
    std::string status;
    for (const auto& s : servers) {
        for (const auto& [key, r] : s.watch->table().records()) records.push_back(&r);
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

int runWatch(const Arguments& args) {
    args.allowOnly(inspectorFlagNames({"--interval", "--for"}));
    if (!args.positionals().empty()) throw UsageError("watch takes no arguments, only options");
    InspectorFlags flags = parseInspectorFlags(args);
    inspect::WatchOptions options;
    options.scan = flags.scan;
    options.doctor.layout = flags.scan.layout;
    if (auto i = args.value("--interval"))
        options.pollInterval =
            std::chrono::milliseconds(parseNumberFlag("--interval", *i, 50, 3'600'000));
    options.rescanInterval = std::max(options.pollInterval * 10, std::chrono::milliseconds(5000));
    std::optional<std::chrono::milliseconds> duration;
    if (auto f = args.value("--for"))
        duration = std::chrono::seconds(parseNumberFlag("--for", *f, 0, 86'400));
    std::signal(SIGINT, [](int) { stopWatching = 1; });
    std::signal(SIGTERM, [](int) { stopWatching = 1; });

    std::vector<WatchedServer> servers;
    for (const auto& e : flags.endpoints) {
        WatchedServer s;
        s.endpoint = e;
        // Connecting is checked now, so a wrong address or password fails at once.
        s.connection =
            std::make_unique<Connection>(Connection::open(e, connectionOptions(flags, true)));
        s.watch = std::make_unique<inspect::LockWatch>(*s.connection, options);
        servers.push_back(std::move(s));
    }
    const bool ansi = !flags.json && isatty(STDOUT_FILENO);
    const auto start = inspect::SteadyClock::now();
    auto nextPoll = start;
    while (!stopWatching && (!duration || inspect::SteadyClock::now() - start < *duration)) {
        auto now = inspect::SteadyClock::now();
        bool changed = false;
        if (now >= nextPoll) {
            for (auto& s : servers) {
                auto u = s.watch->step();
                s.status = u.connected ? std::string("connected, keyspace events ") +
                                             inspect::toString(s.watch->server().keyspaceEvents)
                                       : "disconnected (" + u.error + "), retrying";
                changed = changed || !u.changed.empty() || !u.removed.empty() || !u.connected;
                if (flags.json) printJsonUpdate(s, u);
            }
            nextPoll = now + options.pollInterval;
        }
        // Between polls: keyspace notifications (when the server publishes them) bring
        // changes at once, and the countdown is interpolated for the redraw.
        auto slice =
            std::chrono::milliseconds(std::max<long>(10, 100 / static_cast<long>(servers.size())));
        for (auto& s : servers) {
            auto u = s.watch->waitForEvents(
                std::min<std::chrono::milliseconds>(slice, options.pollInterval));
            if (u.changed.empty() && u.removed.empty() && u.connected) continue;
            changed = true;
            if (flags.json) printJsonUpdate(s, u);
        }
        if (!flags.json && (ansi || changed)) redraw(servers, ansi);
    }
    return kOk;
}

Registration watch(
    {"watch",
     "watch [options] [--interval MS] [--for SECONDS]\n"
     "                           live view of the locks with countdowns; re-reads known locks "
     "every\n"
     "                           interval (500 ms) and rescans for new ones less often",
     inspectorValueFlags({"--interval", "--for"}), runWatch});

}  // namespace
}  // namespace lockscope::cli
