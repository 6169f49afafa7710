#include "lockscope/sim/scenario_file.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "lockscope/errors.h"

namespace lockscope::sim {

namespace {

using nlohmann::json;

constexpr std::string_view kFormat = "lockscope-scenario";
constexpr int kVersion = 1;

[[noreturn]] void bad(const std::string& what) {
    throw InvalidArgumentError("not a usable scenario file: " + what);
}

const json& field(const json& object, const char* name, json::value_t type, const char* what) {
    auto it = object.find(name);
    if (it == object.end()) bad(std::string("\"") + name + "\" is missing");
    const bool numberWanted = type == json::value_t::number_integer;
    const bool ok = numberWanted ? it->is_number_integer() : it->type() == type;
    if (!ok) bad(std::string("\"") + name + "\" must be " + what);
    return *it;
}

Replay::Fork forkFromJson(const json& f) {
    if (!f.is_object()) bad("each fork must be an object");
    Replay::Fork fork;
    const std::string action = field(f, "action", json::value_t::string, R"("pause" or "crash")");
    if (action != "pause" && action != "crash") bad(R"(a fork's action is "pause" or "crash")");
    fork.crash = action == "crash";
    fork.instance = field(f, "instance", json::value_t::string, "an instance name");
    fork.at = field(f, "at_ms", json::value_t::number_integer, "a whole number of ms");
    if (!fork.crash)
        fork.duration =
            field(f, "duration_ms", json::value_t::number_integer, "a whole number of ms");
    return fork;
}

std::int64_t parseWhole(std::string_view text, const std::string& flag) {
    std::int64_t value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < 0)
        throw InvalidArgumentError(flag + " wants whole milliseconds, got \"" + std::string(text) +
                                   "\"");
    return value;
}

// "A@12000" → instance and time; the rest of the text after the time is returned in tail.
Replay::Fork parseAt(std::string_view text, const std::string& flag, const std::string& shape,
                     std::string_view& tail) {
    auto at = text.find('@');
    if (at == std::string_view::npos || at == 0)
        throw InvalidArgumentError(flag + " takes " + shape + ", got \"" + std::string(text) +
                                   "\"");
    Replay::Fork fork;
    fork.instance = std::string(text.substr(0, at));
    std::string_view rest = text.substr(at + 1);
    auto plus = rest.find('+');
    tail = plus == std::string_view::npos ? std::string_view() : rest.substr(plus + 1);
    fork.at = parseWhole(rest.substr(0, plus), flag);
    if (plus != std::string_view::npos && tail.empty())
        throw InvalidArgumentError(flag + " takes " + shape + ", got \"" + std::string(text) +
                                   "\"");
    return fork;
}

}  // namespace

ScenarioFile captureScenario(const Replay& replay) {
    ScenarioFile file;
    file.story = replay.scenario().name;
    file.seed = replay.seed();
    for (const ParamSpec& spec : replay.params().specs())
        file.params.emplace_back(spec.name, replay.params().get(spec.name));
    // By name, as the JSON object keeps them: a saved file reads back equal.
    std::sort(file.params.begin(), file.params.end());
    file.forks = replay.forks();
    file.beat = replay.currentBeat();
    return file;
}

std::unique_ptr<Replay> openScenario(const ScenarioFile& file) {
    const Scenario& scenario = scenarioNamed(file.story);
    ScenarioParams params = scenario.defaults();
    for (const auto& [name, value] : file.params) params.set(name, value);
    auto replay = std::make_unique<Replay>(file.story, std::move(params), file.seed);
    for (const Replay::Fork& fork : file.forks) replay->applyFork(fork);
    const int last = static_cast<int>(replay->beats().size()) - 1;
    if (file.beat < -1 || file.beat > last)
        throw InvalidArgumentError("beat " + std::to_string(file.beat) + " is past the story's " +
                                   std::to_string(last + 1) + " beats");
    replay->seek(file.beat);
    return replay;
}

std::string scenarioToJson(const ScenarioFile& file) {
    json params = json::object();
    for (const auto& [name, value] : file.params) params[name] = value;
    json forks = json::array();
    for (const Replay::Fork& f : file.forks) {
        json fork = {
            {"action", f.crash ? "crash" : "pause"}, {"instance", f.instance}, {"at_ms", f.at}};
        if (!f.crash) fork["duration_ms"] = f.duration;
        forks.push_back(std::move(fork));
    }
    // nlohmann's object keeps keys sorted: the file is byte-stable for the same scenario.
    json root = {{"format", kFormat}, {"version", kVersion}, {"story", file.story},
                 {"seed", file.seed}, {"params", params},    {"forks", forks},
                 {"beat", file.beat}};
    return root.dump(2) + "\n";
}

ScenarioFile scenarioFromJson(std::string_view text) {
    if (text.size() > kMaxScenarioFileBytes)
        bad("it is larger than " + std::to_string(kMaxScenarioFileBytes) + " bytes");
    json root;
    try {
        root = json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        // The parser's own message quotes the bytes it read: binary input stays out of it.
        bad("it is not JSON (a syntax error at byte " + std::to_string(e.byte) + ")");
    } catch (const json::exception&) {
        bad("it is not JSON");
    }
    if (!root.is_object()) bad("it must be a JSON object");
    if (field(root, "format", json::value_t::string, "a string") != kFormat)
        bad(R"("format" must be "lockscope-scenario")");
    const json& version = field(root, "version", json::value_t::number_integer, "a number");
    if (version != kVersion) bad("version " + version.dump() + " is not one this build reads (1)");
    ScenarioFile file;
    file.story = field(root, "story", json::value_t::string, "a story name");
    const json& seed = root.find("seed") != root.end() ? root["seed"] : json(1);
    if (!seed.is_number_unsigned() && !(seed.is_number_integer() && seed.get<std::int64_t>() >= 0))
        bad("\"seed\" must be a whole number from 0");
    file.seed = seed.get<std::uint64_t>();
    if (auto it = root.find("params"); it != root.end()) {
        if (!it->is_object()) bad("\"params\" must be an object of name: number");
        for (const auto& [name, value] : it->items()) {
            if (!value.is_number_integer())
                bad("parameter \"" + name + "\" must be a whole number");
            file.params.emplace_back(name, value.get<std::int64_t>());
        }
    }
    if (auto it = root.find("forks"); it != root.end()) {
        if (!it->is_array()) bad("\"forks\" must be a list");
        for (const json& f : *it) file.forks.push_back(forkFromJson(f));
    }
    if (auto it = root.find("beat"); it != root.end()) {
        if (!it->is_number_integer()) bad("\"beat\" must be a whole number");
        const auto beat = it->get<std::int64_t>();
        if (beat < -1 || beat > 1'000'000) bad("\"beat\" is out of range");
        file.beat = static_cast<int>(beat);
    }
    return file;
}

void writeScenarioFile(const std::filesystem::path& path, const ScenarioFile& file) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw InvalidArgumentError("cannot write " + path.string());
    out << scenarioToJson(file);
    out.close();
    if (!out) throw InvalidArgumentError("cannot write " + path.string());
}

ScenarioFile readScenarioFile(const std::filesystem::path& path) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error))
        throw InvalidArgumentError(path.string() + " is not a readable file");
    if (std::filesystem::file_size(path, error) > kMaxScenarioFileBytes)
        bad(path.string() + " is larger than " + std::to_string(kMaxScenarioFileBytes) + " bytes");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InvalidArgumentError("cannot read " + path.string());
    std::ostringstream text;
    text << in.rdbuf();
    return scenarioFromJson(text.str());
}

std::string replayCommandLine(const ScenarioFile& file) {
    std::string line = "lockscope-cli replay " + file.story;
    if (file.seed != 1) line += " --seed " + std::to_string(file.seed);
    const Scenario* scenario = findScenario(file.story);
    for (const auto& [name, value] : file.params) {
        bool isDefault = false;
        if (scenario)
            for (const ParamSpec& spec : scenario->params)
                isDefault |= spec.name == name && spec.defaultValue == value;
        if (!isDefault) line += " --set " + name + "=" + std::to_string(value);
    }
    for (const Replay::Fork& f : file.forks)
        line += f.crash ? " --crash " + f.instance + "@" + std::to_string(f.at)
                        : " --pause " + f.instance + "@" + std::to_string(f.at) + "+" +
                              std::to_string(f.duration);
    return line;
}

Replay::Fork parsePauseFlag(std::string_view text) {
    std::string_view tail;
    Replay::Fork fork = parseAt(text, "--pause", "INSTANCE@AT_MS+DURATION_MS", tail);
    if (tail.empty())
        throw InvalidArgumentError("--pause takes INSTANCE@AT_MS+DURATION_MS, got \"" +
                                   std::string(text) + "\"");
    fork.duration = parseWhole(tail, "--pause");
    return fork;
}

Replay::Fork parseCrashFlag(std::string_view text) {
    std::string_view tail;
    Replay::Fork fork = parseAt(text, "--crash", "INSTANCE@AT_MS", tail);
    if (text.find('+') != std::string_view::npos)
        throw InvalidArgumentError("--crash takes INSTANCE@AT_MS, got \"" + std::string(text) +
                                   "\"");
    fork.crash = true;
    return fork;
}

}  // namespace lockscope::sim
