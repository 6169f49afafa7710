// lockscope-cli exporter's /scrape flags, as an operator types them: a pattern with user info,
// a credentials file with a misspelt field or readable by others, a missing targets file, an
// out-of-range --drop-after or --max-targets. Each is refused at start with exit 2 and a
// message naming the problem, and no password is ever printed.

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <string>

#include "redis_fixture.h"

using lockscope::testing::TempDir;

namespace {

struct CliRun {
    int exit = -1;
    std::string output;
};

CliRun cli(const std::string& args) {
    CliRun r;
    const std::string command =
        std::string(LOCKSCOPE_CLI) + " exporter --listen 127.0.0.1:0 " + args + " 2>&1";
    if (FILE* p = popen(command.c_str(), "r")) {
        std::array<char, 4096> buf{};
        while (std::size_t n = fread(buf.data(), 1, buf.size(), p)) r.output.append(buf.data(), n);
        int status = pclose(p);
        r.exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    return r;
}

}  // namespace

TEST(ExporterCliFlags, BadScrapeTargetFlagsAreRefusedAtStartWithoutShowingAPassword) {
    TempDir dir;
    const std::string misspelt = dir.path("misspelt.json"), open = dir.path("open.json");
    std::ofstream(misspelt) << R"({"redis://10.0.0.1:6379": {"pasword": "s3cret"}})";
    std::ofstream(open) << R"({"redis://10.0.0.1:6379": {"password": "s3cret"}})";
    ::chmod(misspelt.c_str(), 0600);
    ::chmod(open.c_str(), 0644);
    struct Case {
        std::string args, says;
    };
    const Case cases[] = {
        {"--allow-target 'redis://admin:s3cret@10.0.0.1:6379'", "credentials file"},
        {"--allow-target ''", "empty"},
        {"--allow-target 'redis://*' --target-credentials " + misspelt, "unknown field"},
        {"--allow-target 'redis://*' --target-credentials " + open, "chmod 600"},
        {"--targets-file " + dir.path("none.txt"), "cannot read the targets file"},
        {"--allow-target 'redis://*' --drop-after 0", "--drop-after"},
        {"--allow-target 'redis://*' --max-targets 99999999", "--max-targets"},
    };
    for (const auto& c : cases) {
        CliRun r = cli(c.args);
        EXPECT_EQ(r.exit, 2) << c.args << "\n" << r.output;
        EXPECT_NE(r.output.find(c.says), std::string::npos) << c.args << "\n" << r.output;
        EXPECT_EQ(r.output.find("s3cret"), std::string::npos) << c.args << "\n" << r.output;
    }
}
