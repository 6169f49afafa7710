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

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::testing::CliTest;
using lockscope::testing::contains;

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
