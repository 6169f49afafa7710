// lockscope-cli list: every lock on one or more servers, annotated, as a table or JSON lines.
// The servers are scanned at once, each on its own thread, and records are printed as they
// are annotated (see list_output.h), so memory stays bounded whatever the keyspace.
#include <cstdio>
#include <mutex>

#include "cli_command.h"
#include "connection_flags.h"
#include "holder_liveness.h"
#include "instance_scan.h"
#include "interrupt.h"
#include "list_output.h"
#include "lock_table_text.h"
#include "lockscope/inspect/record_json.h"
#include "lockscope/inspect/redlock_group.h"
#include "lockscope/inspect/resource_groups.h"

namespace lockscope::cli {
namespace {

void printNotesAndErrors(const std::vector<InstanceScan>& scans) {
    for (const auto& s : scans) {
        if (s.error) std::fprintf(stderr, "lockscope-cli list: %s\n", s.error->c_str());
        for (const auto& note : s.notes)
            std::fprintf(stderr, "note: %s: %s\n", s.endpoint.display().c_str(), note.c_str());
    }
}

// --group needs every record of every server before it can judge a resource.
int runGroup(const InspectorFlags& flags, const InterruptStop& interrupt) {
    std::mutex mutex;
    std::vector<inspect::LockRecord> all;
    auto scans = streamInstances(
        flags,
        [&](std::vector<inspect::LockRecord>& batch) {
            std::lock_guard lock(mutex);
            all.insert(all.end(), std::make_move_iterator(batch.begin()),
                       std::make_move_iterator(batch.end()));
        },
        interrupt.token());
    printNotesAndErrors(scans);
    std::vector<std::string> instances, unreachable;
    for (const auto& s : scans) {
        instances.push_back(s.endpoint.display());
        if (s.error) unreachable.push_back(instances.back());
    }
    const auto now = inspect::SteadyClock::now();
    for (const auto& g : inspect::groupByResource(all)) {
        auto view = inspect::analyzeGroup(all, g, instances, now, unreachable);
        if (flags.json)
            std::printf("%s\n", inspect::toJsonLine(view).c_str());
        else
            std::fputs(formatRedlockGroup(view).c_str(), stdout);
    }
    if (interrupt.interrupted()) {
        std::fputs("lockscope-cli list: interrupted: the groups above are partial\n", stderr);
        return InterruptStop::kExitCode;
    }
    return exitCodeOf(scans);
}

// One look: no renewal can be seen, so no PTTL is remembered; an absent job queue worker is
// confirmed by one more CLIENT LIST read a few seconds later before its lock is called gone.
inspect::LivenessOptions listLiveness() {
    inspect::LivenessOptions options;
    options.trackRenewals = false;
    options.waitToConfirm = true;
    return options;
}

int runList(const Arguments& args) {
    if (!args.positionals().empty()) throw UsageError("list takes no arguments, only options");
    InspectorFlags flags = parseInspectorFlags(args);
    InterruptStop interrupt;
    const bool orphans = args.has("--orphans");
    if (args.has("--group")) {
        if (orphans) throw UsageError("--orphans lists locks one by one: it cannot be grouped");
        return runGroup(flags, interrupt);
    }
    const bool sort = args.has("--sort");
    if (sort)
        std::fputs("note: --sort holds every lock in memory and prints when the scan ends\n",
                   stderr);
    std::vector<std::string> instances;
    for (const auto& e : flags.endpoints) instances.push_back(e.display());
    ListPrinter printer(stdout,
                        {.json = flags.json,
                         .sort = sort,
                         .showInstance = instances.size() > 1,
                         .orphanEvidence = orphans},
                        instances);
    HolderLiveness liveness(flags, listLiveness(), interrupt.token());
    auto scans = streamInstances(
        flags,
        [&](std::vector<inspect::LockRecord>& batch) {
            liveness.judge(batch);
            if (orphans) std::erase_if(batch, [](const auto& r) { return !isOrphan(r); });
            printer.add(batch);
        },
        interrupt.token());
    printer.finish(scans, interrupt.interrupted());
    std::fflush(stdout);
    printNotesAndErrors(scans);
    if (interrupt.interrupted()) {
        std::fprintf(stderr,
                     "lockscope-cli list: interrupted: the listing above is partial (%llu locks)\n",
                     static_cast<unsigned long long>(printer.printed()));
        return InterruptStop::kExitCode;
    }
    return exitCodeOf(scans);
}

Registration list({"list",
                   "list [--group] [--sort]",
                   "Every lock with its holder, live TTL, fence and findings (SCAN, never KEYS), "
                   "and whether its holder is alive (--json: \"liveness\"). "
                   "Servers are scanned at once and locks printed as they are read: JSON lines "
                   "in scan order; the table sorted up to 10000 locks, in scan order beyond.",
                   {{"--group", "",
                     "per resource, the Redlock view across the -u servers: holder and PTTL "
                     "per node, majority (N/2+1), validity left",
                     "List"},
                    {"--sort", "",
                     "sort by server, then key, whatever the count (holds every lock in memory "
                     "until the scan ends)",
                     "List"},
                    {"--orphans", "",
                     "only the locks whose holder is gone (positive evidence only: a worker "
                     "that disconnected, a process that stopped beating, a dead job), each with "
                     "its evidence",
                     "List"}},
                   true,
                   "",
                   runList});

}  // namespace
}  // namespace lockscope::cli
