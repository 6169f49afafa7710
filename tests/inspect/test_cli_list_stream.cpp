// lockscope-cli list streams: JSON lines leave while the scan is still running, several
// servers are scanned at once, Ctrl+C ends a scan cleanly with the output marked partial,
// the text table streams past its sort limit (and says so) unless --sort, and the memory of a
// big listing stays bounded.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include <algorithm>
#include <chrono>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli_process.h"
#include "cli_runner.h"
#include "inspect_helpers.h"
#include "redis_fixture.h"

extern char** environ;

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::testing::CliProcess;
using lockscope::testing::CliTest;
using lockscope::testing::contains;

namespace {

using Clock = std::chrono::steady_clock;

// n string locks lock:{job<i>} with a one-hour TTL, pipelined.
void fillLocks(Connection& c, long n, const std::string& prefix = "job") {
    const long chunk = 5000;
    for (long from = 0; from < n; from += chunk) {
        std::vector<std::vector<std::string>> commands;
        for (long i = from; i < std::min(n, from + chunk); ++i)
            commands.push_back({"SET", "lock:{" + prefix + std::to_string(i) + "}",
                                "0123456789abcdef0123456789abcdef", "PX", "3600000"});
        c.pipeline(commands);
    }
}

}  // namespace

TEST_F(CliTest, ListJsonLinesLeaveWhileTheScanRuns) {
    // Before the streaming list, nothing was printed until every server was read and sorted.
    Connection c = connect();
    fillLocks(c, 20000);
    CliProcess cli({"list", "-u", url(), "--json", "--max-load", "1%"}, dir.path("err"));
    auto first = cli.line(10s);
    ASSERT_TRUE(first) << "no line within 10 s";
    EXPECT_TRUE(contains(*first, "\"key\":\"lock:{job")) << *first;
    EXPECT_TRUE(cli.running()) << "the first record came only after the scan had ended";
    // Ctrl+C: the scan stops cleanly, what was read is printed, and the end says partial.
    auto sent = Clock::now();
    cli.interrupt();
    auto lines = cli.rest();
    const int code = cli.wait().first;
    EXPECT_LT(Clock::now() - sent, 3s);
    EXPECT_EQ(code, 130);
    ASSERT_FALSE(lines.empty());
    auto marker = nlohmann::json::parse(lines.back());
    EXPECT_EQ(marker["partial"], true) << lines.back();
    EXPECT_EQ(marker["reason"], "interrupted");
    EXPECT_EQ(marker["locks"].get<std::size_t>(), lines.size())  // the first line and the rest
        << "every record printed is counted";
    EXPECT_LT(lines.size(), 20000u);
    for (std::size_t i = 0; i + 1 < lines.size(); ++i)
        EXPECT_TRUE(nlohmann::json::accept(lines[i])) << lines[i];
    std::ifstream err(dir.path("err"));
    std::string errText((std::istreambuf_iterator<char>(err)), std::istreambuf_iterator<char>());
    EXPECT_TRUE(contains(errText, "interrupted: the listing above is partial")) << errText;
}

TEST_F(CliTest, ListScansSeveralServersAtOnce) {
    // A slow (paced, big) first server used to hold back the second one's records until it
    // was read to the end: now both stream at once.
    LocalRedisServer second;
    Connection a = connect();
    fillLocks(a, 20000);
    Connection b = Connection::open(second.endpoint());
    b.command({"SET", "lock:{on-b}", "token-b", "PX", "60000"});
    CliProcess cli(
        {"list", "-u", url(), "-u", second.endpoint().display(), "--json", "--max-load", "1%"},
        dir.path("err"));
    std::set<std::string> seen;
    while (seen.size() < 2) {
        auto l = cli.line(10s);
        ASSERT_TRUE(l) << "only " << seen.size() << " server(s) seen";
        seen.insert(nlohmann::json::parse(*l)["instance"].get<std::string>());
    }
    EXPECT_TRUE(cli.running()) << "the second server was listed only after the first";
    cli.interrupt();
    cli.rest();
    EXPECT_EQ(cli.wait().first, 130);
}

TEST_F(CliTest, ListTableStreamsPastItsSortLimitUnlessSorted) {
    Connection c = connect();
    fillLocks(c, 10050);
    auto table = cli({"list", "-u", url()});
    ASSERT_EQ(table.code, 0) << table.err;
    EXPECT_TRUE(contains(table.out, "10050 locks on 1 instance")) << table.out.substr(0, 300);
    EXPECT_TRUE(contains(table.out, "printed as scanned, unsorted; --sort sorts them"));
    auto sorted = cli({"list", "-u", url(), "--sort"});
    ASSERT_EQ(sorted.code, 0) << sorted.err;
    EXPECT_FALSE(contains(sorted.out, "unsorted"));
    EXPECT_TRUE(contains(sorted.err, "--sort holds every lock in memory")) << sorted.err;
    std::istringstream in(sorted.out);
    std::vector<std::string> keys;
    for (std::string l; std::getline(in, l);)
        if (l.rfind("lock:{", 0) == 0) keys.push_back(l.substr(0, l.find(' ')));
    ASSERT_EQ(keys.size(), 10050u);
    EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
    // A small listing stays sorted without asking.
    Connection(connect()).command({"FLUSHALL"});
    c.command({"SET", "lock:{b}", "t", "PX", "60000"});
    c.command({"SET", "lock:{a}", "t", "PX", "60000"});
    auto small = cli({"list", "-u", url()});
    EXPECT_LT(small.out.find("lock:{a}"), small.out.find("lock:{b}")) << small.out;
    EXPECT_FALSE(contains(small.out, "unsorted"));
}

TEST_F(CliTest, ListJsonMemoryStaysBoundedOnABigKeyspace) {
    // 100k locks: the collecting list held every record twice (~60 MB here); streaming holds
    // a batch at a time.
    Connection c = connect();
    fillLocks(c, 100000);
    CliProcess cli({"list", "-u", url(), "--json"}, dir.path("err"));
    std::size_t lines = cli.rest().size();
    auto [code, rssKb] = cli.wait();
    EXPECT_EQ(code, 0);
    EXPECT_EQ(lines, 100000u);
#ifdef __SANITIZE_ADDRESS__
    // AddressSanitizer's shadow memory and quarantine of freed blocks raise the CLI's RSS to
    // about 550 MB whatever it holds: the bound is checked by the normal build.
    GTEST_SKIP() << "peak RSS under AddressSanitizer is not the program's: " << rssKb / 1024
                 << " MB";
#endif
#ifdef __SANITIZE_THREAD__
    // ThreadSanitizer's shadow memory (several bytes per byte the program touches) and its
    // runtime's own allocator raise the RSS (49 MB here) whatever the CLI holds: this test
    // measures the program's footprint, so the bound is checked by the normal build.
    GTEST_SKIP() << "peak RSS under ThreadSanitizer is not the program's: " << rssKb / 1024
                 << " MB";
#endif
    EXPECT_LT(rssKb, 32 * 1024) << "peak RSS " << rssKb / 1024 << " MB";
}
