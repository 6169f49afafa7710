#include "server_time_probe.h"

#include <charconv>
#include <system_error>
#include <utility>

#include "lockscope/errors.h"

namespace lockscope::inspect {
namespace {

// What the watch's re-reads and sweep send (scanner.h, keyspace_sweep.h).
constexpr std::string_view kWatchCommands[] = {"scan",  "pttl",    "mget",  "get",  "type",
                                               "hscan", "hgetall", "hlen",  "llen", "scard",
                                               "zcard", "xlen",    "strlen"};

}  // namespace

std::uint64_t ServerTimeProbe::watchCommandsUsec(std::string_view info) {
    std::uint64_t total = 0;
    for (std::string_view name : kWatchCommands) {
        const std::string prefix = "cmdstat_" + std::string(name) + ":";
        for (auto at = info.find(prefix); at != std::string_view::npos;
             at = info.find(prefix, at + 1)) {
            if (at != 0 && info[at - 1] != '\n') continue;
            auto usec = info.find("usec=", at);
            auto end = info.find('\n', at);
            if (usec == std::string_view::npos || (end != std::string_view::npos && usec > end))
                continue;
            std::uint64_t value = 0;
            const char* first = info.data() + usec + 5;
            std::from_chars(first, info.data() + info.size(), value);
            total += value;
            break;
        }
    }
    return total;
}

std::optional<std::uint64_t> ServerTimeProbe::cpuUsec(std::string_view info) {
    double seconds = 0;
    for (std::string_view name : {"used_cpu_sys:", "used_cpu_user:"}) {
        const auto at = info.find(name);
        if (at == std::string_view::npos || (at != 0 && info[at - 1] != '\n')) return std::nullopt;
        double value = 0;
        const char* first = info.data() + at + name.size();
        if (std::from_chars(first, info.data() + info.size(), value).ec != std::errc())
            return std::nullopt;
        seconds += value;
    }
    return std::uint64_t(seconds * 1e6);
}

std::optional<std::uint64_t> ServerTimeProbe::read(Connection& connection) {
    auto reading = sample(connection);
    return reading ? std::optional(reading->commandsUsec) : std::nullopt;
}

std::optional<ServerTimeProbe::Reading> ServerTimeProbe::sample(Connection& connection) {
    if (unavailable_) return std::nullopt;
    try {
        Reply reply = twoSections_ ? connection.command({"INFO", "commandstats", "cpu"})
                                   : connection.command({"INFO", "commandstats"});
        std::string_view text = reply.text();
        if (text.find("cmdstat_") == std::string_view::npos) return std::nullopt;
        return Reading{watchCommandsUsec(text), twoSections_ ? cpuUsec(text) : std::nullopt};
    } catch (const ReplyError&) {
        if (std::exchange(twoSections_, false)) return sample(connection);  // one at a time
        unavailable_ = true;  // denied by an ACL or renamed: the round trips alone then
        return std::nullopt;
    }
}

}  // namespace lockscope::inspect
