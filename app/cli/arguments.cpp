#include <algorithm>

#include "cli_command.h"

namespace lockscope::cli {

std::vector<Command>& registry() {
    static std::vector<Command> commands;
    return commands;
}

void Arguments::addValue(const std::string& flag, std::string value) {
    values_.emplace(flag, std::move(value));
}

void Arguments::addSwitch(const std::string& flag) {
    switches_.push_back(flag);
}

bool Arguments::has(const std::string& flag) const {
    return values_.count(flag) ||
           std::find(switches_.begin(), switches_.end(), flag) != switches_.end();
}

std::optional<std::string> Arguments::value(const std::string& flag) const {
    std::optional<std::string> last;
    auto [from, to] = values_.equal_range(flag);
    for (auto it = from; it != to; ++it) last = it->second;
    return last;
}

std::vector<std::string> Arguments::values(const std::string& flag) const {
    std::vector<std::string> out;
    auto [from, to] = values_.equal_range(flag);
    for (auto it = from; it != to; ++it) out.push_back(it->second);
    return out;
}

}  // namespace lockscope::cli
