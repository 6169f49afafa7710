#include "watch_events.h"

#include "lockscope/inspect/record_json.h"
#include "lockscope/text_format.h"

namespace lockscope::cli {
namespace {

// Slack for the countdown: a PTTL read later is lower by the time between the reads, give or
// take a round trip.
constexpr long long kCountdownSlackMs = 250;

// A holder's verdict changed: its words ("renewed 3 s ago") change with every look and are
// news only with the verdict.
bool sameVerdict(const nlohmann::json& before, const nlohmann::json& now) {
    return before.is_object() && now.is_object() &&
           before.value("verdict", "") == now.value("verdict", "") &&
           before.value("since", nlohmann::json()) == now.value("since", nlohmann::json());
}

}  // namespace

void WatchEvents::printLine(std::FILE* out, const nlohmann::json& line) {
    std::fprintf(out, "%s\n",
                 line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
}

nlohmann::json WatchEvents::changedFields(const Known& before, const nlohmann::json& now,
                                          inspect::SteadyClock::time_point at) const {
    nlohmann::json changed = nlohmann::json::object();
    for (auto it = now.begin(); it != now.end(); ++it) {
        if (it.key() == "pttl_ms") continue;
        if (it.key() == "liveness" && before.record.contains("liveness") &&
            sameVerdict(before.record["liveness"], it.value()))
            continue;
        if (!before.record.contains(it.key()) || before.record[it.key()] != it.value())
            changed[it.key()] = it.value();
    }
    long long was = before.record.value("pttl_ms", -1LL), is = now.value("pttl_ms", -1LL);
    auto elapsed =
        std::chrono::duration_cast<std::chrono::milliseconds>(at - before.seenAt).count();
    bool renewed = was >= 0 && is > was - elapsed + kCountdownSlackMs;
    if ((was < 0) != (is < 0) || renewed) changed["pttl_ms"] = is;
    return changed;
}

void WatchEvents::print(std::FILE* out, const inspect::WatchUpdate& u) {
    auto now = inspect::SteadyClock::now();
    if (!u.connected) {
        if (connected_)
            printLine(out,
                      {{"event", "disconnected"}, {"instance", instance_}, {"error", u.error}});
        connected_ = false;
        std::fflush(out);
        return;
    }
    // The first update after an outage is the rescan that reconciles: a key it finds gone
    // went while the connection was down, and no one can say whether it was deleted.
    const bool afterOutage = !connected_;
    if (afterOutage) printLine(out, {{"event", "reconnected"}, {"instance", instance_}});
    connected_ = true;
    for (const auto& r : u.changed) {
        nlohmann::json j = nlohmann::json::parse(inspect::toJsonLine(r, now), nullptr, false);
        if (j.is_discarded()) continue;
        auto known = known_.find(r.key);
        if (known == known_.end()) {
            nlohmann::json line{{"event", "added"}};
            line.update(j);
            printLine(out, line);
        } else if (auto changed = changedFields(known->second, j, now); !changed.empty()) {
            printLine(out, {{"event", "changed"},
                            {"instance", instance_},
                            {"key", j["key"]},
                            {"changed", changed}});
        }
        known_[r.key] = Known{std::move(j), now};
    }
    // The first rescan after a restart removes what the old server held: say why.
    const bool restarted = !u.restartNote.empty();
    if (restarted)
        printLine(
            out, {{"event", "server_restarted"}, {"instance", instance_}, {"note", u.restartNote}});
    for (const auto& key : u.removed) {
        nlohmann::json line{{"event", "removed"}, {"instance", instance_}};
        std::string reason = restarted     ? "server restarted"
                             : afterOutage ? "connection lost"
                                           : "deleted";
        if (auto known = known_.find(key); known != known_.end()) {
            const nlohmann::json& last = known->second.record;
            line["key"] = last["key"];
            if (last.contains("key_escaped")) line["key_escaped"] = last["key_escaped"];
            long long pttl = last.value("pttl_ms", -1LL);
            auto elapsed =
                std::chrono::duration_cast<std::chrono::milliseconds>(now - known->second.seenAt)
                    .count();
            if (!restarted && pttl >= 0 && elapsed + kCountdownSlackMs >= pttl) reason = "expired";
            known_.erase(known);
        } else {
            line["key"] = printable(key, key.size());
            line["key_escaped"] = true;
        }
        line["reason"] = reason;
        printLine(out, line);
    }
    // Its cluster slot moved: the lock goes on under the new owner's instance ("added" there).
    for (const auto& key : u.movedAway) {
        nlohmann::json line{{"event", "moved"}, {"instance", instance_}};
        if (auto known = known_.find(key); known != known_.end()) {
            line["key"] = known->second.record["key"];
            if (known->second.record.contains("key_escaped")) line["key_escaped"] = true;
            known_.erase(known);
        } else {
            line["key"] = printable(key, key.size());
            line["key_escaped"] = true;
        }
        printLine(out, line);
    }
    std::fflush(out);
}

}  // namespace lockscope::cli
