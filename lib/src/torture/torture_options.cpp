#include <algorithm>
#include <charconv>

#include "lockscope/errors.h"
#include "lockscope/torture/torture_run.h"

namespace lockscope::torture {
namespace {

constexpr std::pair<FaultKind, const char*> kFaultNames[] = {
    {FaultKind::Pause, "pause"},
    {FaultKind::Delay, "delay"},
    {FaultKind::Partition, "partition"},
    {FaultKind::Restart, "restart"},
    {FaultKind::Failover, "failover"},
    {FaultKind::Clock, "clock"},
    {FaultKind::ServerStall, "server-stall"},
};

std::string allFaultNames() {
    std::string out;
    for (auto& [kind, name] : kFaultNames) out += (out.empty() ? "" : ", ") + std::string(name);
    return out;
}

}  // namespace

const char* toString(FaultKind kind) {
    for (auto& [k, name] : kFaultNames)
        if (k == kind) return name;
    return "?";
}

std::vector<FaultKind> parseFaults(std::string_view list) {
    std::vector<FaultKind> kinds;
    std::size_t start = 0;
    while (start <= list.size() && !list.empty()) {
        std::size_t end = std::min(list.find(',', start), list.size());
        std::string_view item = list.substr(start, end - start);
        auto it = std::find_if(std::begin(kFaultNames), std::end(kFaultNames),
                               [&](auto& entry) { return item == entry.second; });
        if (it == std::end(kFaultNames))
            throw InvalidArgumentError("unknown fault \"" + std::string(item.substr(0, 40)) +
                                       "\" (known: " + allFaultNames() + ")");
        if (std::find(kinds.begin(), kinds.end(), it->first) != kinds.end())
            throw InvalidArgumentError("fault \"" + std::string(item) + "\" listed twice");
        kinds.push_back(it->first);
        start = end + 1;
    }
    return kinds;
}

std::chrono::milliseconds parseDuration(std::string_view text) {
    long long value = 0;
    auto [rest, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    std::string_view unit(rest, text.data() + text.size() - rest);
    long long scale = unit == "ms"                  ? 1
                      : unit == "s" || unit.empty() ? 1000
                      : unit == "m"                 ? 60'000
                                                    : 0;
    if (error != std::errc() || scale == 0 || value <= 0 || value > 24LL * 3600 * 1000)
        throw InvalidArgumentError("bad duration \"" + std::string(text.substr(0, 40)) +
                                   "\" (expected e.g. 20s, 1500ms or 2m)");
    return std::chrono::milliseconds(value * scale);
}

const std::vector<std::string>& builtInClients() {
    static const std::vector<std::string> names{"setnx-del",      "guide",   "guide-fenced",
                                                "guide-watchdog", "redlock", "redlock-fenced"};
    return names;
}

std::string replayCommand(const TortureOptions& o) {
    std::string faults;
    for (FaultKind k : o.faults) faults += (faults.empty() ? "" : ",") + std::string(toString(k));
    std::string command = "lockscope-cli torture --client " + o.client;
    if (!o.adapterCommand.empty()) {
        std::string adapter;
        for (const auto& arg : o.adapterCommand) adapter += (adapter.empty() ? "" : " ") + arg;
        command += " --adapter '" + adapter + "'";
    }
    command += " --clients " + std::to_string(o.clients) + " --duration " +
               std::to_string(o.duration.count()) + "ms";
    if (!faults.empty()) command += " --faults " + faults;
    command +=
        " --seed " + std::to_string(o.seed) + " --ttl " + std::to_string(o.ttl.count()) + "ms";
    return command;
}

}  // namespace lockscope::torture
