// lockscope-cli list: every lock on one or more servers, annotated, as a table or JSON lines.
#include <algorithm>
#include <cstdio>

#include "cli_command.h"
#include "connection_flags.h"
#include "instance_scan.h"
#include "lock_table_text.h"
#include "lockscope/inspect/redlock_group.h"
#include "lockscope/inspect/resource_groups.h"

namespace lockscope::cli {
namespace {

int runList(const Arguments& args) {
    if (!args.positionals().empty()) throw UsageError("list takes no arguments, only options");
    InspectorFlags flags = parseInspectorFlags(args);
    auto scans = scanInstances(flags);
    auto now = inspect::SteadyClock::now();
    std::vector<const inspect::LockRecord*> records;
    std::vector<inspect::LockRecord> all;
    for (const auto& s : scans) {
        if (s.error) std::fprintf(stderr, "lockscope-cli list: %s\n", s.error->c_str());
        for (const auto& note : s.notes)
            std::fprintf(stderr, "note: %s: %s\n", s.endpoint.display().c_str(), note.c_str());
        for (const auto& r : s.records) records.push_back(&r), all.push_back(r);
    }
    bool anyRead = std::any_of(scans.begin(), scans.end(), [](const auto& s) { return !s.error; });
    if (args.has("--group")) {
        std::vector<std::string> instances, unreachable;
        for (const auto& s : scans) {
            instances.push_back(s.endpoint.display());
            if (s.error) unreachable.push_back(instances.back());
        }
        for (const auto& g : inspect::groupByResource(all)) {
            auto view = inspect::analyzeGroup(all, g, instances, now, unreachable);
            if (flags.json)
                std::printf("%s\n", inspect::toJsonLine(view).c_str());
            else
                std::fputs(formatRedlockGroup(view).c_str(), stdout);
        }
    } else if (flags.json) {
        printJsonLines(stdout, records, now);
    } else if (anyRead) {
        std::fputs(formatLockTable(records, scans.size() > 1, now).c_str(), stdout);
        std::printf("%zu lock%s on %zu instance%s\n", records.size(),
                    records.size() == 1 ? "" : "s", scans.size(), scans.size() == 1 ? "" : "s");
        std::fputs(formatSharedResources(all).c_str(), stdout);
    }
    return exitCodeOf(scans);
}

Registration list({"list",
                   "list [--group]",
                   "Every lock with its holder, live TTL, fence and findings (SCAN, never KEYS).",
                   {{"--group", "",
                     "per resource, the Redlock view across the -u servers: holder and PTTL "
                     "per node, majority (N/2+1), validity left",
                     "List"}},
                   true,
                   "",
                   runList});

}  // namespace
}  // namespace lockscope::cli
