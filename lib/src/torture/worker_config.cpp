#include "worker_config.h"

#include <time.h>  // NOLINT(modernize-deprecated-headers): POSIX clock_gettime(), not in <ctime>

#include <nlohmann/json.hpp>

#include "lockscope/errors.h"

namespace lockscope::torture {

std::string toJson(const WorkerConfig& c) {
    nlohmann::json j{{"client", c.client},       {"adapter", c.adapterCommand},
                     {"worker", c.worker},       {"ports", c.ports},
                     {"ledger", c.ledgerPath},   {"check_fences", c.checkFences},
                     {"ttl_ms", c.ttlMs},        {"work_ms", c.workMs},
                     {"start_ns", c.startNs},    {"deadline_ns", c.deadlineNs},
                     {"parent_pid", c.parentPid}};
    return j.dump();
}

WorkerConfig workerConfigFromJson(std::string_view json) {
    auto j = nlohmann::json::parse(json.begin(), json.end(), nullptr, false);
    if (!j.is_object()) throw InvalidArgumentError("torture worker: the configuration is not JSON");
    try {
        WorkerConfig c;
        c.client = j.at("client").get<std::string>();
        c.adapterCommand = j.at("adapter").get<std::vector<std::string>>();
        c.worker = j.at("worker").get<int>();
        c.ports = j.at("ports").get<std::vector<int>>();
        c.ledgerPath = j.at("ledger").get<std::string>();
        c.checkFences = j.at("check_fences").get<bool>();
        c.ttlMs = j.at("ttl_ms").get<long long>();
        c.workMs = j.at("work_ms").get<long long>();
        c.startNs = j.at("start_ns").get<std::int64_t>();
        c.deadlineNs = j.at("deadline_ns").get<std::int64_t>();
        c.parentPid = j.at("parent_pid").get<int>();
        if (c.ports.empty() || c.ttlMs <= 0) throw InvalidArgumentError("no ports or no TTL");
        return c;
    } catch (const nlohmann::json::exception& e) {
        throw InvalidArgumentError(std::string("torture worker: bad configuration: ") + e.what());
    }
}

std::int64_t monotonicNs() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

}  // namespace lockscope::torture
