#pragma once
// Small helpers shared by the inspector tests.

#include <algorithm>
#include <string>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/inspect/lock_record.h"
#include "lockscope/inspect/scanner.h"

namespace lockscope::testing {

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

}  // namespace lockscope::testing
