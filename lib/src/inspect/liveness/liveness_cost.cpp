#include "liveness_cost.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "lockscope/errors.h"

namespace lockscope::inspect {
namespace {

// What the liveness reads send beyond the watch's own reads (whose server time the watch's
// INFO probe counts already): holder records and job hashes (HMGET, HGET), a job's place in a
// list (LPOS, LRANGE), Sidekiq's sets and process hashes (SMEMBERS, EXISTS), CLIENT LIST
// (Redis 7 counts it as client|list, Redis 6 as client).
constexpr std::string_view kLivenessCommands[] = {"hmget",  "hget",     "lpos",        "lrange",
                                                  "exists", "smembers", "client|list", "client"};

std::uint64_t usecOf(std::string_view info, std::string_view name) {
    const std::string prefix = "cmdstat_" + std::string(name) + ":";
    for (auto at = info.find(prefix); at != std::string_view::npos;
         at = info.find(prefix, at + 1)) {
        if (at != 0 && info[at - 1] != '\n') continue;
        const auto usec = info.find("usec=", at);
        const auto end = info.find('\n', at);
        if (usec == std::string_view::npos || (end != std::string_view::npos && usec > end))
            return 0;
        std::uint64_t value = 0;
        std::from_chars(info.data() + usec + 5, info.data() + info.size(), value);
        return value;
    }
    return 0;
}

}  // namespace

std::uint64_t LivenessCost::livenessCommandsUsec(std::string_view info) {
    std::uint64_t total = 0;
    for (std::string_view name : kLivenessCommands) total += usecOf(info, name);
    return total;
}

std::optional<std::uint64_t> LivenessCost::readUsec(Connection& c) {
    try {
        Reply reply = c.command({"INFO", "commandstats"});
        if (reply.text().find("cmdstat_") == std::string_view::npos) return std::nullopt;
        return livenessCommandsUsec(reply.text());
    } catch (const ReplyError&) {
        unavailable_ = true;  // denied or renamed: the wall time stays the charge
        return std::nullopt;
    }
}

std::chrono::nanoseconds LivenessCost::charge(Connection& c, std::chrono::nanoseconds wall,
                                              SteadyClock::time_point now) {
    wallSince_ += wall;
    std::chrono::nanoseconds extra{0};
    if (!unavailable_ && now >= nextAt_) {
        nextAt_ = now + every_;
        const auto started = SteadyClock::now();
        const auto usec = readUsec(c);
        extra = SteadyClock::now() - started;  // the INFO read is charged whole
        if (usec && lastUsec_ && *usec >= *lastUsec_ && wallSince_.count() > 0) {
            const double server = double(*usec - *lastUsec_) * 1000.0;
            ratio_ = std::clamp(server / double(wallSince_.count()), 0.0, 1.0);
        }
        if (usec) {
            lastUsec_ = usec;
            wallSince_ = std::chrono::nanoseconds(0);
        }
    }
    const auto charged = std::chrono::nanoseconds(std::llround(double(wall.count()) * ratio_));
    return charged + extra;
}

}  // namespace lockscope::inspect
