#pragma once
// A scenario's parameters: named integers with a description, a default and a range.
// Every value is checked against its range, so a huge or negative number from the CLI or
// the panel is refused with a message that names the parameter and the allowed range.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace lockscope::sim {

struct ParamSpec {
    std::string name;
    std::string description;
    std::int64_t defaultValue = 0;
    std::int64_t min = 0;
    std::int64_t max = 0;
    bool operator==(const ParamSpec&) const = default;
};

class ScenarioParams {
  public:
    explicit ScenarioParams(std::vector<ParamSpec> specs = {});

    // Throws InvalidArgumentError for an unknown name or a value out of range.
    void set(std::string_view name, std::int64_t value);
    // Parses "name=value" (value: decimal digits, optional leading minus) and calls set().
    void assign(std::string_view assignment);
    std::int64_t get(std::string_view name) const;  // throws for an unknown name

    const std::vector<ParamSpec>& specs() const { return specs_; }
    bool operator==(const ScenarioParams&) const = default;

  private:
    const ParamSpec& spec(std::string_view name) const;

    std::vector<ParamSpec> specs_;
    std::map<std::string, std::int64_t, std::less<>> values_;
};

}  // namespace lockscope::sim
