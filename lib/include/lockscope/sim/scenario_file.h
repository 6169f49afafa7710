#pragma once
// A scenario file (.lockscope, MIME type application/x-lockscope): the story, its seed, its
// parameters, the user's forks and the current beat, as JSON. Opening one rebuilds the
// Replay and makes the forks again, so a saved and reopened file tells the same story.
//
//   {"format": "lockscope-scenario", "version": 1, "story": "fixed-report", "seed": 1,
//    "params": {"ttl_ms": 30000, ...}, "forks": [{"action": "pause", "instance": "A",
//    "at_ms": 12000, "duration_ms": 40000}], "beat": 7}

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lockscope/sim/replay.h"

namespace lockscope::sim {

struct ScenarioFile {
    std::string story;
    std::uint64_t seed = 1;
    std::vector<std::pair<std::string, std::int64_t>> params;  // every parameter, in order
    std::vector<Replay::Fork> forks;
    int beat = -1;
    bool operator==(const ScenarioFile&) const = default;
};

// A file larger than this is refused before it is parsed.
inline constexpr std::size_t kMaxScenarioFileBytes = 1 << 20;

ScenarioFile captureScenario(const Replay& replay);
// Throws InvalidArgumentError for an unknown story, parameter, instance, a value out of
// range or a beat past the story's end; nothing half-built is returned.
std::unique_ptr<Replay> openScenario(const ScenarioFile& file);

std::string scenarioToJson(const ScenarioFile& file);
// Throws InvalidArgumentError saying what is wrong (not JSON, not a scenario file, a field
// of the wrong type); it does not check the story's names (openScenario does).
ScenarioFile scenarioFromJson(std::string_view json);

void writeScenarioFile(const std::filesystem::path& path, const ScenarioFile& file);
ScenarioFile readScenarioFile(const std::filesystem::path& path);

// The equivalent command line: "lockscope-cli replay fixed-report --seed 1 --set ttl_ms=5000
// --pause A@12000+40000 --crash B@9000". Parameters left at their defaults are omitted.
std::string replayCommandLine(const ScenarioFile& file);

// The CLI's fork flags: "A@12000+40000" (instance, at ms, pause ms) and "B@9000" (a crash).
// Throw InvalidArgumentError for anything else.
Replay::Fork parsePauseFlag(std::string_view text);
Replay::Fork parseCrashFlag(std::string_view text);

}  // namespace lockscope::sim
