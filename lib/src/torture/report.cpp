#include "lockscope/torture/report.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace lockscope::torture {
namespace {

using Json = nlohmann::ordered_json;

std::string faultList(const TortureOptions& o) {
    std::string out;
    for (FaultKind k : o.faults) out += (out.empty() ? "" : ",") + std::string(toString(k));
    return out.empty() ? "none" : out;
}

Json windowJson(const std::optional<Window>& w) {
    if (!w) return nullptr;
    return Json{{"from_ms", w->fromNs / 1e6}, {"to_ms", w->toNs / 1e6}, {"what", w->what}};
}

std::string ms(std::int64_t ns) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f ms", ns / 1e6);
    return text;
}

std::string windowLine(const std::optional<Window>& w) {
    if (!w) return "";
    return "      shortest window " + ms(w->fromNs) + " → " + ms(w->toNs) + ": " + w->what + "\n";
}

}  // namespace

std::string jsonReport(const TortureOptions& o, const TortureResult& r) {
    const Verdict& v = r.verdict;
    Json faults = Json::object();
    for (FaultKind k : o.faults) faults[toString(k)] = 0;
    for (auto& [kind, count] : v.faultsInjected) faults[kind] = count;
    Json j{{"client", o.client},
           {"faults", faultList(o)},
           {"seed", o.seed},
           {"clients", o.clients},
           {"ttl_ms", o.ttl.count()},
           {"duration_s", v.durationS},
           {"overlaps", v.overlaps},
           {"stale_writes_accepted", v.staleWritesAccepted ? Json(*v.staleWritesAccepted) : Json()},
           {"stale_writes_rejected", v.staleWritesRejected},
           {"lost_locks", v.lostLocks},
           {"acquisitions", v.acquisitions},
           {"writes", v.writes},
           {"throughput_per_s", v.throughputPerS},
           {"faults_injected", faults},
           {"clock_emulated", r.clockEmulated},
           {"interrupted", r.interrupted},
           {"windows",
            {{"overlap", windowJson(v.overlapWindow)},
             {"stale_write", windowJson(v.staleWriteWindow)},
             {"lost_lock", windowJson(v.lostLockWindow)}}},
           {"replay", replayCommand(o)},
           {"notes", r.notes}};
    return j.dump(2) + "\n";
}

std::string textReport(const TortureOptions& o, const TortureResult& r) {
    const Verdict& v = r.verdict;
    std::string out = "torture " + o.client + " × " + faultList(o) + ", " +
                      std::to_string(o.clients) + " workers, seed " + std::to_string(o.seed) +
                      (r.interrupted ? " (interrupted)" : "") + "\n";
    char line[160];
    std::snprintf(line, sizeof line, "  %d acquisitions in %.1f s (%.1f/s), %d writes\n",
                  v.acquisitions, v.durationS, v.throughputPerS, v.writes);
    out += line;
    auto verdict = [&](const char* name, bool violated, const std::string& value) {
        out +=
            std::string("  ") + (violated ? "VIOLATED " : "held     ") + name + ": " + value + "\n";
    };
    verdict("mutual exclusion", v.overlaps > 0, std::to_string(v.overlaps) + " overlaps");
    out += windowLine(v.overlapWindow);
    if (v.staleWritesAccepted) {
        verdict("fencing", *v.staleWritesAccepted > 0,
                std::to_string(*v.staleWritesAccepted) + " stale writes accepted, " +
                    std::to_string(v.staleWritesRejected) + " rejected");
        out += windowLine(v.staleWriteWindow);
    } else {
        out += "  n/a      fencing: this client has no fencing token\n";
    }
    verdict("lock kept while working", v.lostLocks > 0,
            std::to_string(v.lostLocks) + " locks lost");
    out += windowLine(v.lostLockWindow);
    out += "  faults:";
    if (v.faultsInjected.empty()) out += " none";
    for (auto& [kind, count] : v.faultsInjected) out += " " + kind + "×" + std::to_string(count);
    out += "\n";
    for (const auto& note : r.notes) out += "  note: " + note + "\n";
    out += "  replay: " + replayCommand(o) + "\n";
    return out;
}

}  // namespace lockscope::torture
