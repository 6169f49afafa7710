#pragma once
// What the coordinator tells a worker process, passed as one JSON argument.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lockscope::torture {

struct WorkerConfig {
    std::string client;
    std::vector<std::string> adapterCommand;
    int worker = 0;
    std::vector<int> ports;  // one per redis node, through this worker's proxies
    std::string ledgerPath;
    bool checkFences = false;
    long long ttlMs = 1000, workMs = 50;
    std::int64_t startNs = 0, deadlineNs = 0;  // CLOCK_MONOTONIC
    int parentPid = 0;
};

std::string toJson(const WorkerConfig& config);
WorkerConfig workerConfigFromJson(std::string_view json);  // throws InvalidArgumentError

std::int64_t monotonicNs();  // CLOCK_MONOTONIC: the same clock in every process

}  // namespace lockscope::torture
