#include "five_redis_servers.h"

#include <future>

namespace lockscope::testing {

void FiveRedisServers::SetUp() {
    // In parallel: five sequential starts would add up over a suite of many tests.
    std::vector<std::future<std::unique_ptr<LocalRedisServer>>> starting;
    for (int i = 0; i < kNodes; ++i)
        starting.push_back(std::async(std::launch::async, [this, i] {
            return std::make_unique<LocalRedisServer>(serverOptions(i));
        }));
    for (auto& s : starting) servers_.push_back(s.get());
    observers_.resize(kNodes);
}

void FiveRedisServers::TearDown() {
    observers_.clear();
    servers_.clear();
}

std::vector<Endpoint> FiveRedisServers::endpoints() const {
    std::vector<Endpoint> out;
    for (const auto& s : servers_) out.push_back(s->endpoint());
    return out;
}

Connection& FiveRedisServers::observer(int i) {
    if (!observers_.at(i)) {
        Endpoint e = server(i).endpoint();
        for (const auto& line : serverOptions(i).configLines)
            if (line.rfind("requirepass ", 0) == 0) e.password = line.substr(12);
        observers_[i] = std::make_unique<Connection>(Connection::open(e));
    }
    return *observers_[i];
}

std::vector<std::optional<std::string>> FiveRedisServers::valuesOf(const std::string& key) {
    std::vector<std::optional<std::string>> values(kNodes);
    for (int i = 0; i < kNodes; ++i) {
        if (!server(i).running()) {
            observers_[i].reset();
            continue;
        }
        Reply r = observer(i).command({"GET", key});
        if (!r.isNil()) values[i] = std::string(r.text());
    }
    return values;
}

int FiveRedisServers::nodesHolding(const std::string& key, const std::string& token) {
    int n = 0;
    for (const auto& v : valuesOf(key)) n += v && *v == token;
    return n;
}

long long FiveRedisServers::totalKeys() {
    long long total = 0;
    for (int i = 0; i < kNodes; ++i) {
        if (!server(i).running()) {
            observers_[i].reset();
            continue;
        }
        total += observer(i).command({"DBSIZE"}).integer();
    }
    return total;
}

}  // namespace lockscope::testing
