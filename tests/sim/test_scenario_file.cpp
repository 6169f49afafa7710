// The .lockscope scenario file: a saved and reopened file tells exactly the same story
// (transcript, forks, beat), the equivalent command line says the same, and bad files are
// refused with a message that says what is wrong.

#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <functional>

#include "lockscope/errors.h"
#include "lockscope/sim/scenario_file.h"

using namespace lockscope;
using namespace lockscope::sim;

namespace {

std::filesystem::path tempFile(const std::string& name) {
    return std::filesystem::temp_directory_path() /
           ("lockscope-test-" + std::to_string(::getpid()) + "-" + name);
}

void expectSameStory(const Replay& a, const Replay& b) {
    EXPECT_EQ(a.transcript(), b.transcript());
    EXPECT_EQ(a.currentBeat(), b.currentBeat());
    EXPECT_EQ(a.forks(), b.forks());
    EXPECT_EQ(a.params(), b.params());
    EXPECT_EQ(a.seed(), b.seed());
}

std::string messageOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const InvalidArgumentError& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST(ScenarioFile, SavedAndReopenedTellsTheSameStory) {
    Replay original("fixed-report", 7);
    original.setParam("ttl_ms", 20'000);
    original.pauseInstanceAt("A", 12'345, 40'000);
    original.seek(5);
    const auto path = tempFile("round-trip.lockscope");
    writeScenarioFile(path, captureScenario(original));
    ScenarioFile read = readScenarioFile(path);
    std::filesystem::remove(path);
    EXPECT_EQ(read, captureScenario(original));
    auto reopened = openScenario(read);
    expectSameStory(original, *reopened);
    // And the forked pause starts exactly when it was asked to.
    bool pauseAtTheTime = false;
    for (const auto& e : reopened->recording().events)
        pauseAtTheTime |= e.kind == EventKind::PauseStarted && e.time == 12'345;
    EXPECT_TRUE(pauseAtTheTime);
}

TEST(ScenarioFile, EveryStoryRoundTripsWithACrashFork) {
    for (const Scenario& scenario : scenarios()) {
        SCOPED_TRACE(scenario.name);
        Replay original(scenario.name, 3);
        const auto& beats = original.beats();
        const VirtualMs at = beats[beats.size() / 3].time + 1;
        bool forked = false;
        for (const std::string& instance : original.instances()) {
            try {
                original.crashInstanceAt(instance, at);
                forked = true;
                break;
            } catch (const InvalidArgumentError&) {  // already crashed by then: the next one
            }
        }
        ASSERT_TRUE(forked);
        original.seek(static_cast<int>(original.beats().size()) / 2);
        auto reopened = openScenario(scenarioFromJson(scenarioToJson(captureScenario(original))));
        expectSameStory(original, *reopened);
    }
}

TEST(ScenarioFile, TheCommandLineNamesTheChangesAndTheForks) {
    Replay replay("expiry-race", 5);
    replay.setParam(replay.params().specs().front().name,
                    replay.params().specs().front().defaultValue + 1);
    replay.pauseInstanceAt(replay.instances().front(), 100, 2'500);
    const std::string line = replayCommandLine(captureScenario(replay));
    const auto& spec = replay.params().specs();
    EXPECT_EQ(line, "lockscope-cli replay expiry-race --seed 5 --set " + spec.front().name + "=" +
                        std::to_string(spec.front().defaultValue + 1) + " --pause " +
                        replay.instances().front() + "@100+2500");
    // Only the changed parameter is named.
    EXPECT_EQ(line.find("--set " + spec.back().name), std::string::npos);
}

TEST(ScenarioFile, ForkFlagsParseAndRefuseBadShapes) {
    Replay::Fork pause = parsePauseFlag("A@12000+40000");
    EXPECT_FALSE(pause.crash);
    EXPECT_EQ(pause.instance, "A");
    EXPECT_EQ(pause.at, 12'000);
    EXPECT_EQ(pause.duration, 40'000);
    Replay::Fork crash = parseCrashFlag("client1@9000");
    EXPECT_TRUE(crash.crash);
    EXPECT_EQ(crash.instance, "client1");
    for (const char* badPause : {"", "A", "A@", "@5+5", "A@5", "A@5+", "A@x+5", "A@-5+5", "A@5+5+5",
                                 "A@99999999999999999999+1"})
        EXPECT_THROW(parsePauseFlag(badPause), InvalidArgumentError) << badPause;
    for (const char* badCrash : {"", "B", "B@", "B@5+5", "B@five"})
        EXPECT_THROW(parseCrashFlag(badCrash), InvalidArgumentError) << badCrash;
}

TEST(ScenarioFile, BadFilesAreRefusedWithAReason) {
    EXPECT_NE(messageOf([] { scenarioFromJson(""); }).find("not JSON"), std::string::npos);
    EXPECT_NE(messageOf([] {
                  scenarioFromJson(std::string("\x89PNG\r\n\x1a\n\0\0", 10));
              }).find("not JSON"),
              std::string::npos);
    EXPECT_NE(messageOf([] { scenarioFromJson("[1,2]"); }).find("object"), std::string::npos);
    EXPECT_NE(
        messageOf([] { scenarioFromJson(R"({"format":"other","version":1})"); }).find("format"),
        std::string::npos);
    EXPECT_NE(messageOf([] {
                  scenarioFromJson(R"({"format":"lockscope-scenario","version":2})");
              }).find("version 2"),
              std::string::npos);
    const std::string head = R"({"format":"lockscope-scenario","version":1,)";
    EXPECT_THROW(scenarioFromJson(head + R"("story":5})"), InvalidArgumentError);
    EXPECT_THROW(scenarioFromJson(head + R"("story":"x","seed":-1})"), InvalidArgumentError);
    EXPECT_THROW(scenarioFromJson(head + R"("story":"x","params":{"ttl_ms":"1"}})"),
                 InvalidArgumentError);
    EXPECT_THROW(scenarioFromJson(head + R"("story":"x","forks":[{"action":"explode"}]})"),
                 InvalidArgumentError);
    EXPECT_THROW(scenarioFromJson(head + R"("story":"x","beat":1e9})"), InvalidArgumentError);
    EXPECT_THROW(scenarioFromJson(std::string(kMaxScenarioFileBytes + 1, ' ')),
                 InvalidArgumentError);
    // Well-formed but naming what the story does not have: refused when opened.
    ScenarioFile file;
    file.story = "no-such-story";
    EXPECT_THROW(openScenario(file), InvalidArgumentError);
    file.story = "broken-report";
    file.params = {{"ttl_ms", -5}};
    EXPECT_THROW(openScenario(file), InvalidArgumentError);
    file.params = {{"no_such_param", 1}};
    EXPECT_THROW(openScenario(file), InvalidArgumentError);
    file.params.clear();
    file.forks = {{false, "Z", 1000, 1000}};
    EXPECT_THROW(openScenario(file), InvalidArgumentError);
    file.forks = {{false, "A", 1000, 0}};
    EXPECT_THROW(openScenario(file), InvalidArgumentError);
    file.forks = {{true, "A", 1'000'000'000, 0}};
    EXPECT_THROW(openScenario(file), InvalidArgumentError);
    file.forks.clear();
    file.beat = 100'000;
    EXPECT_THROW(openScenario(file), InvalidArgumentError);
    EXPECT_THROW(readScenarioFile("/nonexistent/x.lockscope"), InvalidArgumentError);
}
