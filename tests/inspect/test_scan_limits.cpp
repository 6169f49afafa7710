// The scanner always ends: a cursor that comes back (a server or proxy that does not walk
// the keyspace, so SCAN would never return 0) stops the scan with a clear error, and so does
// the scan's overall deadline. Checked through the fault-injecting proxy on loopback and
// through lockscope-cli. Before, such a scan ran forever.
#include <gtest/gtest.h>

#include <chrono>

#include "cli_runner.h"
#include "inspect_helpers.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/scanner.h"
#include "lockscope/proxy/loopback_proxy.h"
#include "sanitizer_time.h"

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::testing::CliTest;
using lockscope::testing::contains;
using lockscope::testing::scaled;

namespace {

void fillLocks(Connection& c, int n) {
    std::vector<std::vector<std::string>> commands;
    for (int i = 0; i < n; ++i)
        commands.push_back({"SET", "lock:{job" + std::to_string(i) + "}",
                            "0123456789abcdef0123456789abcdef", "PX", "600000"});
    c.pipeline(commands);
}

}  // namespace

TEST_F(CliTest, AScanWhoseCursorComesBackEndsWithAClearError) {
    Connection c = connect();
    fillLocks(c, 3000);
    LoopbackProxy proxy(endpoint());
    proxy.inject(ProxyFault::EndlessCursor);
    Connection through = Connection::open(proxy.endpoint());
    inspect::ScanOptions options;
    options.count = 500;
    inspect::Scanner scanner(through, options);
    auto started = std::chrono::steady_clock::now();
    try {
        scanner.collect();
        FAIL() << "the scan ended although its cursor never returned to 0";
    } catch (const ProtocolError& e) {
        EXPECT_TRUE(contains(e.what(), "came back for lock:*")) << e.what();
        EXPECT_TRUE(contains(e.what(), "would never end")) << e.what();
    }
    EXPECT_LT(std::chrono::steady_clock::now() - started, 5s);
    // The connection is usable afterwards (no stale reply of the pipeline is read).
    proxy.inject(ProxyFault::None);
    EXPECT_EQ(through.command({"PING"}).text(), "PONG");
    EXPECT_EQ(scanner.collect().size(), 3000u);

    // The CLI says so and exits with the connection code; the server is unchanged.
    proxy.inject(ProxyFault::EndlessCursor);
    auto run = cli({"list", "-u", proxy.endpoint().display(), "--json"});
    EXPECT_EQ(run.code, 6) << run.err;
    EXPECT_TRUE(contains(run.err, "came back")) << run.err;
    EXPECT_EQ(keyCount(), 3000);
}

TEST_F(CliTest, AScanStopsAtItsDeadline) {
    Connection c = connect();
    fillLocks(c, 3000);
    Connection reader = connect();
    inspect::ScanOptions options;
    options.count = 100;
    options.maxLoad = 0.01;  // paced: far longer than the deadline
    options.deadline = 300ms;
    inspect::Scanner scanner(reader, options);
    auto started = std::chrono::steady_clock::now();
    try {
        scanner.collect();
        FAIL() << "the scan ran past its deadline";
    } catch (const TimeoutError& e) {
        EXPECT_TRUE(contains(e.what(), "passed its deadline of 300 ms")) << e.what();
    }
    EXPECT_LT(std::chrono::steady_clock::now() - started, 3s);
    EXPECT_EQ(reader.command({"PING"}).text(), "PONG");
    options.deadline = -1ms;
    EXPECT_THROW(static_cast<void>(inspect::Scanner(reader, options)), InvalidArgumentError);
}

TEST_F(CliTest, ScanDeadlineFlagStopsAScanOfASlowServer) {
    // A slow server (every reply held 200 ms by the proxy) with 60k locks: listing them takes
    // many seconds; with --scan-deadline the listing stops at the deadline and says how far it
    // got. Paced (--max-load 1%), the rests between round trips (99x each round trip, 20 s
    // here) used to carry the scan far past its deadline: they now end at it.
    Connection c = connect();
    fillLocks(c, 60000);
    LoopbackProxy proxy(endpoint());
    proxy.setDelay(200ms);
    for (const std::vector<std::string>& extra :
         std::vector<std::vector<std::string>>{{}, {"--max-load", "1%"}}) {
        std::vector<std::string> args{
            "list", "-u", proxy.endpoint().display(), "--json", "--scan-deadline", "1s"};
        args.insert(args.end(), extra.begin(), extra.end());
        auto started = std::chrono::steady_clock::now();
        auto run = cli(args);
        auto took = std::chrono::steady_clock::now() - started;
        EXPECT_EQ(run.code, 6) << run.err;
        EXPECT_TRUE(contains(run.err, "passed its deadline of 1000 ms")) << run.err;
        EXPECT_LT(took, scaled(3s)) << "the deadline did not stop the scan";
    }
    // The same flag before the command (declared once with the connection options), and on
    // doctor: the deadline applies to every scan.
    auto doctor = cli({"--scan-deadline", "500ms", "-u", proxy.endpoint().display(), "doctor",
                       "--max-load", "1%"});
    EXPECT_EQ(doctor.code, 6) << doctor.err;
    EXPECT_TRUE(contains(doctor.err, "passed its deadline of 500 ms")) << doctor.err;
    EXPECT_EQ(keyCount(), 60000);
}

TEST_F(CliTest, AnEndlessCursorThroughASlowProxyStopsBeforeTheDeadline) {
    // The cursor that comes back is caught on its second round, long before a deadline.
    Connection c = connect();
    fillLocks(c, 3000);
    LoopbackProxy proxy(endpoint());
    proxy.setDelay(100ms);
    proxy.inject(ProxyFault::EndlessCursor);
    auto run = cli({"list", "-u", proxy.endpoint().display(), "--scan-deadline", "1m"});
    EXPECT_EQ(run.code, 6) << run.err;
    EXPECT_TRUE(contains(run.err, "came back")) << run.err;
}

TEST_F(CliTest, ScanDeadlineFlagRefusesBadDurationsAndChangesNothing) {
    Connection c = connect();
    c.command({"SET", "lock:{a}", "t", "PX", "60000"});
    const std::vector<std::string> bads{"",
                                        "0",
                                        "50ms",
                                        "-5s",
                                        "1.5s",
                                        "10x",
                                        "s",
                                        "30 s",
                                        "999999999999999999999h",
                                        "25h",
                                        std::string(5000, '9')};
    for (const std::string& bad : bads) {
        auto run = cli({"list", "-u", url(), "--scan-deadline", bad});
        EXPECT_EQ(run.code, 2) << "accepted \"" << bad << "\": " << run.out;
        EXPECT_TRUE(contains(run.err, "--scan-deadline takes a duration")) << run.err;
        EXPECT_TRUE(run.out.empty()) << run.out;
    }
    auto ok = cli({"list", "-u", url(), "--json", "--scan-deadline", "30s"});
    EXPECT_EQ(ok.code, 0) << ok.err;
    EXPECT_TRUE(contains(ok.out, "lock:{a}")) << ok.out;
    EXPECT_EQ(keyCount(), 1);
}
