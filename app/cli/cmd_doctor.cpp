// lockscope-cli doctor: the guide's common mistakes found on live locks, with the fixes.
#include <algorithm>
#include <cstdio>
#include <map>

#include "cli_command.h"
#include "connection_flags.h"
#include "holder_liveness.h"
#include "instance_scan.h"
#include "interrupt.h"
#include "lock_table_text.h"
#include "lockscope/inspect/doctor.h"
#include "lockscope/inspect/liveness/holder_verdict.h"
#include "lockscope/text_format.h"

namespace lockscope::cli {
namespace {

void printServer(const InstanceScan& s) {
    std::printf("%s: role %s", s.endpoint.display().c_str(), inspect::toString(s.facts.role));
    if (s.facts.connectedReplicas >= 0) std::printf(", %d replica(s)", s.facts.connectedReplicas);
    std::printf(", keyspace events %s", inspect::toString(s.facts.keyspaceEvents));
    std::printf(", %zu lock(s)\n", s.records.size());
    for (const auto& note : s.notes) std::printf("  note: %s\n", note.c_str());
}

using Findings = std::map<inspect::RuleId, std::vector<const inspect::LockRecord*>>;

void printFindings(const Findings& byRule) {
    for (const auto& [id, records] : byRule) {
        const auto& rule = inspect::rule(id);
        const char* severity = rule.severity == inspect::Severity::Critical  ? "CRITICAL"
                               : rule.severity == inspect::Severity::Warning ? "WARNING"
                                                                             : "INFO";
        std::printf("\n[%s] %s (%s) - %zu lock(s)\n", severity, rule.title, rule.name,
                    records.size());
        for (std::size_t i = 0; i < records.size() && i < 10; ++i) {
            std::printf("  %s %s\n", records[i]->instanceName().c_str(),
                        quoted(records[i]->key, 60).c_str());
            // An orphan is a claim about someone else's process: show what it rests on.
            if (id == inspect::RuleId::Orphaned && records[i]->liveness)
                std::printf("    %s\n", inspect::describeVerdict(*records[i]->liveness).c_str());
        }
        if (records.size() > 10) std::printf("  ... and %zu more\n", records.size() - 10);
        std::printf("  Why: %s\n  Fix: %s\n", rule.explanation, rule.fix);
    }
}

int reportInterrupt(std::size_t locksRead) {
    std::fflush(stdout);
    std::fprintf(stderr,
                 "lockscope-cli doctor: interrupted: the findings above are partial (%zu locks "
                 "read)\n",
                 locksRead);
    return InterruptStop::kExitCode;
}

int runDoctor(const Arguments& args) {
    if (!args.positionals().empty()) throw UsageError("doctor takes no arguments, only options");
    InspectorFlags flags = parseInspectorFlags(args);
    auto observe = std::chrono::seconds(
        parseNumberFlag("--observe", args.value("--observe").value_or("0"), 0, 3600));
    // Ctrl+C ends the scan (or the observation) at once; what was read is still judged and
    // printed, marked partial, and the command exits 130.
    InterruptStop interrupt;
    auto scans =
        observe.count() > 0
            ? observeInstances(flags, observe, std::chrono::milliseconds(500), interrupt.token())
            : scanInstances(flags, interrupt.token());
    // Whose holder is gone ("orphaned"): judged on the records read, one connection a server.
    inspect::LivenessOptions liveness;
    liveness.waitToConfirm = true;
    HolderLiveness holders(flags, liveness, interrupt.token());
    for (auto& s : scans)
        if (!s.error) holders.judge(s.records);
    auto now = inspect::SteadyClock::now();
    if (flags.json) {
        std::vector<const inspect::LockRecord*> records;
        for (const auto& s : scans) {
            if (s.error) std::fprintf(stderr, "lockscope-cli doctor: %s\n", s.error->c_str());
            for (const auto& r : s.records) records.push_back(&r);
        }
        printJsonLines(stdout, records, now);
        if (interrupt.interrupted()) {
            std::printf("{\"partial\":true,\"reason\":\"interrupted\",\"locks\":%zu}\n",
                        records.size());
            return reportInterrupt(records.size());
        }
        return exitCodeOf(scans);
    }
    Findings byRule;
    for (const auto& s : scans) {
        if (s.error) {
            std::fprintf(stderr, "lockscope-cli doctor: %s\n", s.error->c_str());
            continue;
        }
        printServer(s);
        for (const auto& r : s.records)
            for (auto id : inspect::rulesIn(r.findings)) byRule[id].push_back(&r);
    }
    // Health is claimed only for what was read: with every server unreadable (a wrong
    // password, a refused connection), stdout stays silent and the exit code says why.
    bool anyRead = std::any_of(scans.begin(), scans.end(), [](const auto& s) { return !s.error; });
    bool allRead = std::all_of(scans.begin(), scans.end(), [](const auto& s) { return !s.error; });
    if (interrupt.interrupted()) {
        printFindings(byRule);
        std::size_t read = 0;
        for (const auto& s : scans) read += s.records.size();
        std::printf(
            "\npartial: interrupted by Ctrl+C after %zu lock%s: findings cover only "
            "those\n",
            read, read == 1 ? "" : "s");
        return reportInterrupt(read);
    }
    if (byRule.empty() && anyRead)
        std::printf(allRead ? "\nno findings: every lock follows the guide\n"
                            : "\nno findings on the servers that could be read (see the errors "
                              "above)\n");
    printFindings(byRule);
    return exitCodeOf(scans);
}

Registration doctor({"doctor",
                     "doctor [--observe SECONDS]",
                     "The guide's common mistakes on live locks, each with why and the fix.",
                     {{"--observe", "SECONDS",
                       "watch first, to catch locks renewed far past their TTL", "Doctor"}},
                     true,
                     "",
                     runDoctor});

}  // namespace
}  // namespace lockscope::cli
