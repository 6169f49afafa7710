// lockscope-cli torture end to end: the JSON verdict a user scripts against, the history
// file in both formats, and usage errors that start nothing.

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace {

struct Outcome {
    int exitCode = -1;
    std::string out;
};

Outcome runCli(const std::string& arguments) {
    std::string command = std::string(LOCKSCOPE_CLI) + " " + arguments + " 2>/dev/null";
    Outcome outcome;
    FILE* pipe = popen(command.c_str(), "r");
    std::array<char, 4096> chunk{};
    std::size_t n;
    while ((n = fread(chunk.data(), 1, chunk.size(), pipe)) > 0)
        outcome.out.append(chunk.data(), n);
    int status = pclose(pipe);
    outcome.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return outcome;
}

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

TEST(TortureCli, JsonVerdictAndHistoryFiles) {
    auto dir = std::filesystem::temp_directory_path() / ("torture-cli-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    std::string edn = (dir / "h.edn").string();
    Outcome r = runCli(
        "torture --client setnx-del --faults pause --duration 3s --ttl 300ms "
        "--clients 3 --seed 5 --json --history " +
        edn);
    ASSERT_EQ(r.exitCode, 0) << r.out;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["client"], "setnx-del");
    EXPECT_EQ(j["faults"], "pause");
    EXPECT_EQ(j["seed"], 5);
    EXPECT_EQ(j["duration_s"], 3.0);
    EXPECT_GT(j["overlaps"].get<int>(), 0);
    EXPECT_TRUE(j["stale_writes_accepted"].is_null());
    EXPECT_GT(j["faults_injected"]["pause"].get<int>(), 0);
    for (const char* field :
         {"stale_writes_rejected", "lost_locks", "acquisitions", "throughput_per_s"})
        EXPECT_TRUE(j.contains(field)) << field;
    EXPECT_NE(j["replay"].get<std::string>().find("--seed 5"), std::string::npos);
    std::string history = slurp(edn);
    EXPECT_EQ(history.rfind("[\n{:type ", 0), 0u);
    EXPECT_NE(history.find(":process :nemesis"), std::string::npos);

    std::string json = (dir / "h.json").string();
    r = runCli(
        "torture --client guide-fenced --faults pause --duration 2s --ttl 300ms "
        "--clients 2 --history " +
        json);
    ASSERT_EQ(r.exitCode, 0);
    EXPECT_NE(r.out.find("fencing: 0 stale writes accepted"), std::string::npos) << r.out;
    EXPECT_EQ(nlohmann::json::parse(slurp(json)).is_array(), true);
    std::filesystem::remove_all(dir);
}

TEST(TortureCli, UsageErrorsStartNothing) {
    for (const char* bad :
         {"torture", "torture --client mystery", "torture --client guide --faults meteor",
          "torture --client guide --clients 0", "torture --client guide --duration 0s",
          "torture --client guide --bogus 1", "torture --client guide --seed -1"}) {
        Outcome r = runCli(bad);
        EXPECT_EQ(r.exitCode, 2) << bad;
        EXPECT_TRUE(r.out.empty()) << bad;
    }
}

}  // namespace
