// lockscope-cli discover: a paced SCAN of the whole keyspace that keeps only lock-shaped keys
// and proposes the --pattern values that would cover the locks the current patterns miss
// (redis-py's default lock names have no prefix, so lock:* never shows them).
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli_command.h"
#include "connection_flags.h"
#include "instance_scan.h"
#include "interrupt.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/cluster/cluster_router.h"
#include "lockscope/inspect/discover.h"
#include "lockscope/text_format.h"

namespace lockscope::cli {
namespace {

constexpr double kDefaultLoad = 0.25;  // a whole-keyspace scan: gentle unless told otherwise

// Redis bytes in JSON: as they are when valid UTF-8, else \xNN-escaped (and said so).
nlohmann::json jsonBytes(const std::string& bytes, bool& escaped) {
    try {
        static_cast<void>(nlohmann::json(bytes).dump());
        return bytes;
    } catch (const nlohmann::json::exception&) {
        escaped = true;
        return printable(bytes, bytes.size());
    }
}

nlohmann::json toJson(const std::string& instance, const inspect::DiscoverResult& r) {
    bool escaped = false;
    nlohmann::json proposals = nlohmann::json::array();
    for (const auto& p : r.proposals) {
        nlohmann::json examples = nlohmann::json::array();
        for (const auto& e : p.examples) examples.push_back(jsonBytes(e, escaped));
        proposals.push_back({{"pattern", jsonBytes(p.pattern, escaped)},
                             {"keys", p.keys},
                             {"kinds", p.kinds},
                             {"examples", examples}});
    }
    nlohmann::json unscanned = nlohmann::json::array();
    for (const auto& u : r.unscanned)
        unscanned.push_back({{"node", u.address}, {"slots", u.slotRanges}, {"error", u.error}});
    return {{"instance", instance},
            {"keys_scanned", r.keysScanned},
            {"lock_shaped", r.lockShaped},
            {"already_covered", r.alreadyCovered},
            {"partial", !r.complete()},
            {"cancelled", r.cancelled},
            {"nodes_scanned", r.nodesScanned},
            {"nodes_unscanned", unscanned},
            {"slots_without_primary", r.slotsWithoutPrimary},
            {"proposals", proposals},
            {"escaped", escaped},
            {"notes", r.notes}};
}

// What the scan did not read, one line each; empty when it read every key.
std::string partialText(const inspect::DiscoverResult& r) {
    std::string out;
    for (const auto& u : r.unscanned)
        out += "  NOT SCANNED: " + u.address + " (slots " + u.slotRanges + "): " + u.error + "\n";
    if (!r.slotsWithoutPrimary.empty())
        out += "  NOT SCANNED: slots " + r.slotsWithoutPrimary + " have no primary\n";
    if (r.cancelled) out += "  NOT SCANNED: the rest of the keyspace (interrupted)\n";
    return out;
}

std::string toText(const std::string& instance, const std::vector<std::string>& current,
                   const inspect::DiscoverResult& r) {
    std::string covered;
    for (const auto& p : current) covered += (covered.empty() ? "" : ", ") + printable(p, 40);
    char head[512];
    std::string nodes;
    if (r.nodesScanned.size() + r.unscanned.size() > 1)
        nodes = " on " + std::to_string(r.nodesScanned.size()) + " of " +
                std::to_string(r.nodesScanned.size() + r.unscanned.size()) + " nodes";
    std::snprintf(head, sizeof head,
                  "%s: %llu keys scanned%s%s, %llu lock-shaped, %llu already covered by %s\n",
                  instance.c_str(), static_cast<unsigned long long>(r.keysScanned), nodes.c_str(),
                  r.complete() ? "" : " (partial)", static_cast<unsigned long long>(r.lockShaped),
                  static_cast<unsigned long long>(r.alreadyCovered), covered.c_str());
    std::string out = head + partialText(r);
    if (r.proposals.empty())
        return out + (r.complete() ? "  no locks outside the current patterns\n"
                                   : "  no locks outside the current patterns in what was "
                                     "scanned; the rest is unknown\n");
    out += "  patterns that would cover the others (add with --pattern):\n";
    for (const auto& p : r.proposals) {
        std::string kinds, examples;
        for (const auto& k : p.kinds) kinds += (kinds.empty() ? "" : ",") + k;
        for (const auto& e : p.examples)
            examples.append(examples.empty() ? "" : " ").append(printable(e, 48));
        char line[256];
        std::snprintf(line, sizeof line, "  %-32s %8llu key%s  ", printable(p.pattern, 32).c_str(),
                      static_cast<unsigned long long>(p.keys), p.keys == 1 ? " " : "s");
        out.append(line).append(kinds).append("  e.g. ").append(examples).append("\n");
    }
    return out;
}

int runDiscover(const Arguments& args) {
    if (!args.positionals().empty()) throw UsageError("discover takes no arguments, only options");
    InspectorFlags flags = parseInspectorFlags(args);
    InterruptStop interrupt;
    inspect::DiscoverOptions options;
    options.currentPatterns = flags.scan.patterns;
    options.maxLoad = args.has("--max-load") ? flags.scan.maxLoad : kDefaultLoad;
    options.scanReplicas = flags.scanReplicas;
    int code = kOk;
    for (const auto& endpoint : flags.endpoints) {
        const std::string instance = endpoint.display();
        try {
            ConnectionOptions connection = connectionOptions(flags, true);
            connection.stop = interrupt.token();
            // A cluster behind the URL: every shard is scanned, not only the node named.
            inspect::ClusterRouter router(endpoint, connection, flags.clusterAddressing);
            auto result = inspect::discover(router, options, interrupt.token());
            if (flags.json)
                std::printf("%s\n", toJson(instance, result).dump().c_str());
            else
                std::fputs(toText(instance, flags.scan.patterns, result).c_str(), stdout);
            for (const auto& note : result.notes)
                std::fprintf(stderr, "note: %s: %s\n", instance.c_str(), note.c_str());
            // A partial scan is no answer to "what is missing": a failure, not a success.
            if (!result.complete() && !result.cancelled && code == kOk) code = kError;
        } catch (const CancelledError&) {
        } catch (const Error& e) {
            if (interrupt.interrupted()) break;
            std::fprintf(stderr, "lockscope-cli discover: %s\n", e.what());
            if (code == kOk) code = exitCodeFor(e);
        }
        if (interrupt.interrupted()) break;
    }
    if (interrupt.interrupted()) {
        std::fputs("lockscope-cli discover: interrupted: the result above is partial\n", stderr);
        return InterruptStop::kExitCode;
    }
    return code;
}

Registration discover(
    {"discover",
     "discover [--pattern GLOB]",
     "Finds the locks the patterns miss: a paced SCAN of the whole keyspace (--max-load, 25% "
     "by default) that keeps only lock-shaped keys and proposes --pattern values covering "
     "them, most keys first. Plain keys are counted, never proposed. On a Redis Cluster "
     "every primary is scanned (an online replica of each with --scan-replicas); a node "
     "that cannot be read is named and the result marked partial (exit status 1).",
     {},
     true,
     "",
     runDiscover});

}  // namespace
}  // namespace lockscope::cli
