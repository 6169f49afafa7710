#include "lockscope/sim/scenario_params.h"

#include <charconv>

#include "lockscope/errors.h"

namespace lockscope::sim {

ScenarioParams::ScenarioParams(std::vector<ParamSpec> specs) : specs_(std::move(specs)) {
    for (const auto& s : specs_) values_[s.name] = s.defaultValue;
}

const ParamSpec& ScenarioParams::spec(std::string_view name) const {
    for (const auto& s : specs_)
        if (s.name == name) return s;
    std::string known;
    for (const auto& s : specs_) known += (known.empty() ? "" : ", ") + s.name;
    throw InvalidArgumentError(
        "unknown parameter \"" + std::string(name) + "\"" +
        (known.empty() ? " (this scenario has none)" : " (known: " + known + ")"));
}

void ScenarioParams::set(std::string_view name, std::int64_t value) {
    const ParamSpec& s = spec(name);
    if (value < s.min || value > s.max)
        throw InvalidArgumentError("parameter " + s.name + "=" + std::to_string(value) +
                                   " is out of range " + std::to_string(s.min) + ".." +
                                   std::to_string(s.max));
    values_[s.name] = value;
}

void ScenarioParams::assign(std::string_view assignment) {
    auto eq = assignment.find('=');
    if (eq == std::string_view::npos || eq == 0)
        throw InvalidArgumentError("expected name=value, got \"" + std::string(assignment) + "\"");
    std::string_view name = assignment.substr(0, eq), text = assignment.substr(eq + 1);
    const ParamSpec& s = spec(name);
    std::int64_t value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error == std::errc::result_out_of_range)
        throw InvalidArgumentError("parameter " + s.name + " needs an integer in " +
                                   std::to_string(s.min) + ".." + std::to_string(s.max) +
                                   ", got \"" + std::string(text) + "\"");
    if (error != std::errc() || end != text.data() + text.size())
        throw InvalidArgumentError("parameter " + s.name + " needs an integer, got \"" +
                                   std::string(text) + "\"");
    set(name, value);
}

std::int64_t ScenarioParams::get(std::string_view name) const {
    spec(name);
    return values_.find(name)->second;
}

}  // namespace lockscope::sim
