// Ctrl+C stops watch and doctor as it stops list: at once (even inside a paced scan), with
// what was read still printed, the output marked partial, and exit code 130. Sent as a real
// SIGINT to the running lockscope-cli against a real redis-server. Before, watch exited 0
// after its paced first scan had run to its end, and doctor could not be stopped short of
// killing it, printing nothing.
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "cli_process.h"
#include "cli_runner.h"
#include "inspect_helpers.h"

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::testing::CliProcess;
using lockscope::testing::CliTest;
using lockscope::testing::contains;

namespace {

using Clock = std::chrono::steady_clock;

// n string locks lock:{job<i>} with a one-hour TTL and a fixed value "1" (a doctor finding),
// pipelined: enough that a scan paced at 1% of the server runs for many seconds.
void fillLocks(Connection& c, long n) {
    const long chunk = 5000;
    for (long from = 0; from < n; from += chunk) {
        std::vector<std::vector<std::string>> commands;
        for (long i = from; i < std::min(n, from + chunk); ++i)
            commands.push_back(
                {"SET", "lock:{job" + std::to_string(i) + "}", "1", "PX", "3600000"});
        c.pipeline(commands);
    }
}

// connected_clients from INFO clients.
long connectedClients(Connection& c) {
    const std::string info(c.command({"INFO", "clients"}).text());
    const std::string field = "connected_clients:";
    return std::stol(info.substr(info.find(field) + field.size()));
}

// Waits until lockscope-cli has connected to the server (one client more than `before`). It
// installs its Ctrl+C handler before it connects, so a SIGINT sent after this is handled. A
// fixed wait alone was too short for the ThreadSanitizer build on a loaded machine: the
// SIGINT came before the handler and its default action killed the CLI.
void waitUntilConnected(Connection& c, long before) {
    const auto until = Clock::now() + 30s;
    while (connectedClients(c) <= before && Clock::now() < until) std::this_thread::sleep_for(20ms);
}

// Sends SIGINT and returns the exit code, failing when the process needs more than 3 s to end
// (the transport promises 200 ms for a blocked read; the margin is for a loaded machine).
int interruptAndWait(CliProcess& cli, std::vector<std::string>& lines) {
    auto sent = Clock::now();
    cli.interrupt();
    lines = cli.rest();
    int code = cli.wait().first;
    EXPECT_LT(Clock::now() - sent, 3s) << "Ctrl+C took too long to stop the command";
    return code;
}

}  // namespace

TEST_F(CliTest, WatchStopsOnCtrlCDuringItsPacedFirstScan) {
    Connection c = connect();
    fillLocks(c, 40000);
    const long before = connectedClients(c);
    CliProcess cli({"watch", "-u", url(), "--json", "--max-load", "1%"}, dir.path("err"));
    waitUntilConnected(c, before);
    std::this_thread::sleep_for(700ms);
    ASSERT_TRUE(cli.running()) << cli.errors();
    std::vector<std::string> lines;
    EXPECT_EQ(interruptAndWait(cli, lines), 130) << cli.errors();
    ASSERT_FALSE(lines.empty()) << "no end mark on stdout; stderr: " << cli.errors();
    auto mark = nlohmann::json::parse(lines.back());
    EXPECT_EQ(mark["event"], "interrupted") << lines.back();
    EXPECT_EQ(mark["instance"], url());
    EXPECT_EQ(mark["partial"], true) << "the first scan had not ended: " << lines.back();
    EXPECT_EQ(keyCount(), 40000) << "watching changed the server";
}

TEST_F(CliTest, WatchJsonEndsWithAMarkOnCtrlCAfterACompleteScan) {
    Connection c = connect();
    fillLocks(c, 3);
    const long before = connectedClients(c);
    CliProcess cli({"watch", "-u", url(), "--json", "--interval", "100"}, dir.path("err"));
    waitUntilConnected(c, before);
    for (int added = 0; added < 3;) {
        auto l = cli.line(10s);
        ASSERT_TRUE(l) << "only " << added << " lock(s) added; stderr: " << cli.errors();
        if (contains(*l, R"("event":"added")")) ++added;
    }
    std::vector<std::string> lines;
    EXPECT_EQ(interruptAndWait(cli, lines), 130) << cli.errors();
    ASSERT_FALSE(lines.empty());
    auto mark = nlohmann::json::parse(lines.back());
    EXPECT_EQ(mark["event"], "interrupted") << lines.back();
    EXPECT_EQ(mark["partial"], false) << lines.back();
    EXPECT_EQ(mark["locks"], 3) << lines.back();
}

TEST_F(CliTest, WatchTableSaysOnStderrThatItWasInterrupted) {
    Connection c = connect();
    fillLocks(c, 40000);
    const long before = connectedClients(c);
    CliProcess cli({"watch", "-u", url(), "--max-load", "1%"}, dir.path("err"));
    waitUntilConnected(c, before);
    std::this_thread::sleep_for(700ms);
    std::vector<std::string> lines;
    EXPECT_EQ(interruptAndWait(cli, lines), 130);
    EXPECT_TRUE(contains(cli.errors(),
                         "interrupted before its first scan ended: nothing above is "
                         "complete"))
        << cli.errors();
}

TEST_F(CliTest, DoctorStopsOnCtrlCAndPrintsWhatItReadAsPartial) {
    Connection c = connect();
    fillLocks(c, 40000);
    const long before = connectedClients(c);
    CliProcess cli({"doctor", "-u", url(), "--max-load", "1%"}, dir.path("err"));
    waitUntilConnected(c, before);
    std::this_thread::sleep_for(1s);
    ASSERT_TRUE(cli.running()) << "the paced scan ended before Ctrl+C; stderr: " << cli.errors();
    std::vector<std::string> lines;
    EXPECT_EQ(interruptAndWait(cli, lines), 130) << cli.errors();
    std::string out;
    for (const auto& l : lines) out += l + "\n";
    EXPECT_TRUE(contains(out, "partial: interrupted by Ctrl+C after")) << out.substr(0, 2000);
    EXPECT_FALSE(contains(out, "no findings")) << "health claimed for a partial read: " << out;
    EXPECT_TRUE(contains(cli.errors(), "interrupted: the findings above are partial"))
        << cli.errors();
}

TEST_F(CliTest, DoctorJsonEndsWithThePartialMarkOnCtrlC) {
    Connection c = connect();
    fillLocks(c, 40000);
    const long before = connectedClients(c);
    CliProcess cli({"doctor", "-u", url(), "--json", "--max-load", "1%"}, dir.path("err"));
    waitUntilConnected(c, before);
    std::this_thread::sleep_for(1s);
    std::vector<std::string> lines;
    EXPECT_EQ(interruptAndWait(cli, lines), 130) << cli.errors();
    ASSERT_FALSE(lines.empty());
    auto mark = nlohmann::json::parse(lines.back());
    EXPECT_EQ(mark["partial"], true) << lines.back();
    EXPECT_EQ(mark["reason"], "interrupted");
    EXPECT_EQ(mark["locks"].get<std::size_t>(), lines.size() - 1) << "every record is counted";
    EXPECT_LT(lines.size(), 40001u);
    for (std::size_t i = 0; i + 1 < lines.size(); ++i)
        EXPECT_TRUE(nlohmann::json::accept(lines[i])) << lines[i];
}

TEST_F(CliTest, DoctorObservingStopsOnCtrlC) {
    Connection c = connect();
    fillLocks(c, 5);
    const long before = connectedClients(c);
    CliProcess cli({"doctor", "-u", url(), "--observe", "60"}, dir.path("err"));
    waitUntilConnected(c, before);
    std::this_thread::sleep_for(1500ms);
    std::vector<std::string> lines;
    EXPECT_EQ(interruptAndWait(cli, lines), 130) << cli.errors();
    std::string out;
    for (const auto& l : lines) out += l + "\n";
    // What was observed is judged: the five fixed-value locks are found.
    EXPECT_TRUE(contains(out, "5 lock(s)")) << out;
    EXPECT_TRUE(contains(out, "partial: interrupted by Ctrl+C after 5 locks")) << out;
}
