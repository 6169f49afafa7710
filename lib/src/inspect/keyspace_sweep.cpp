#include "keyspace_sweep.h"

#include "lockscope/errors.h"

namespace lockscope::inspect {

KeyspaceSweep::KeyspaceSweep(std::vector<std::string> patterns, int count)
    : patterns_(std::move(patterns)), count_(std::to_string(count)) {}

void KeyspaceSweep::restart() {
    pattern_ = 0;
    cursor_ = "0";
    inPass_ = false;
}

std::vector<std::string> KeyspaceSweep::advance(Connection& connection, int rounds,
                                                const IsKnown& isKnown, bool& passDone) {
    std::vector<std::string> fresh;
    passDone = false;
    if (patterns_.empty()) return fresh;
    for (int round = 0; round < rounds && !passDone; ++round) {
        inPass_ = true;
        Reply reply =
            connection.command({"SCAN", cursor_, "MATCH", patterns_[pattern_], "COUNT", count_});
        if (reply.size() != 2 || !reply[1].isArray())
            throw ProtocolError("SCAN on " + connection.endpoint().display() +
                                ": unexpected reply shape");
        for (std::size_t i = 0; i < reply[1].size(); ++i) {
            std::string_view key = reply[1][i].text();
            if (!isKnown(key)) fresh.emplace_back(key);
        }
        cursor_ = std::string(reply[0].text());
        if (cursor_ != "0") continue;
        if (++pattern_ < patterns_.size()) continue;
        restart();
        passDone = true;
    }
    return fresh;
}

}  // namespace lockscope::inspect
