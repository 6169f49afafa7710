#pragma once
// Small helpers shared by the inspector tests.

#include <algorithm>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/inspect/lock_record.h"
#include "lockscope/inspect/scanner.h"

namespace lockscope::testing {

// A lock observed at `at` with `pttlMs` left, its token named after its key.
inline inspect::LockRecord lockAt(const std::string& key, std::int64_t pttlMs,
                                  inspect::SteadyClock::time_point at) {
    inspect::LockRecord r;
    r.key = key;
    r.token = "t-" + key;
    r.pttlMs = pttlMs;
    r.observedAt = r.firstSeen = r.lastChange = at;
    return r;
}

inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

inline std::vector<inspect::LockRecord> scanAll(Connection& c, inspect::ScanOptions options = {},
                                                inspect::ScanSummary* summary = nullptr) {
    inspect::Scanner scanner(c, std::move(options));
    auto records = scanner.collect(summary);
    std::sort(records.begin(), records.end(),
              [](const auto& a, const auto& b) { return a.key < b.key; });
    return records;
}

inline const inspect::LockRecord* findKey(const std::vector<inspect::LockRecord>& records,
                                          const std::string& key) {
    for (const auto& r : records)
        if (r.key == key) return &r;
    return nullptr;
}

// How often the server ran a command, from INFO commandstats (0 when never).
inline long long commandCalls(Connection& c, const std::string& command) {
    std::string info(c.command({"INFO", "commandstats"}).text());
    auto at = info.find("cmdstat_" + command + ":calls=");
    if (at == std::string::npos) return 0;
    return std::stoll(info.substr(at + command.size() + 15));
}

// The slow-log entries (over slowlog-log-slower-than) that `work` causes on every one of up
// to `runs` runs, one "slow in every run: <argv as logged>" line each; empty when some run is
// clean. The server is reset before each run and the keyspace must not change between runs. A busy
// machine that preempts the server makes a random command slow now and then; a command that
// is slow by its nature (KEYS, HGETALL of a huge hash) is logged with the same arguments in
// every run, so this judges LockScope and not the machine, and needs no skip under load.
inline std::string slowInEveryRun(Connection& admin, const std::function<void()>& work,
                                  int runs = 3) {
    std::set<std::string> persistent;
    for (int run = 0; run < runs; ++run) {
        admin.command({"SLOWLOG", "RESET"});
        work();
        Reply log = admin.command({"SLOWLOG", "GET", "128"});
        std::set<std::string> slow;
        for (std::size_t i = 0; i < log.size(); ++i) {
            std::string argv;
            for (std::size_t k = 0; k < log[i][3].size(); ++k)
                argv += (k ? " " : "") + std::string(log[i][3][k].text());
            slow.insert(argv);
        }
        if (run == 0) persistent = slow;
        std::erase_if(persistent, [&](const std::string& a) { return !slow.contains(a); });
        if (persistent.empty()) return {};
    }
    std::string out;
    for (const auto& a : persistent) out += "slow in every run: " + a.substr(0, 200) + "\n";
    return out;
}

}  // namespace lockscope::testing
