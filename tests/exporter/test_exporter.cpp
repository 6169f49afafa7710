// The exporter against real servers: a real HTTP scrape (curl) checked by Debian's promtool,
// the alert rules checked and unit-tested by promtool, the dashboard's queries naming only
// metrics a real scrape has, handoffs/renewals counted, an unreachable server reported, a
// scrape answered from the last census while a 1M-key census runs, memory with the live locks.

#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <future>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <thread>

#include "formats_test_support.h"
#include "lockscope/errors.h"
#include "lockscope/exporter/lock_exporter.h"
#include "lockscope/inspect/formats/holder_facts.h"
#include "redis_fixture.h"

using namespace lockscope;
using namespace lockscope::exporter;
using namespace std::chrono_literals;
using lockscope::testing::RedisTest;
using lockscope::testing::TempDir;

namespace {

struct ShellRun {
    int status = -1;
    std::string out;
};

ShellRun sh(const std::string& command) {
    ShellRun r;
    FILE* p = popen((command + " 2>&1").c_str(), "r");
    if (!p) return r;
    std::array<char, 4096> buf{};
    while (std::size_t n = fread(buf.data(), 1, buf.size(), p)) r.out.append(buf.data(), n);
    int status = pclose(p);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

std::string resource(const std::string& name) {
    return std::string(LOCKSCOPE_SOURCE_DIR) + "/resources/prometheus/" + name;
}

ExporterOptions optionsFor(const Endpoint& e) {
    ExporterOptions o;
    o.listen = "127.0.0.1:0";
    o.instances = {e};
    o.scan.patterns = {"*"};
    o.interval = 3600s;  // the tests drive censuses themselves
    return o;
}

std::string scrape(int port) {
    return sh("curl -sS --max-time 5 http://127.0.0.1:" + std::to_string(port) + "/metrics").out;
}

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// The value of the one series whose line starts with `series` ("name{labels}").
double valueOf(const std::string& text, const std::string& series) {
    auto at = text.find("\n" + series + " ");
    if (at == std::string::npos) return -1;
    return std::stod(text.substr(at + series.size() + 2));
}

class ExporterTest : public RedisTest {};

}  // namespace

TEST_F(ExporterTest, RealScrapePassesPromtoolWithEveryFormatAndNoKeyLabels) {
    Connection c = connect();
    formats_test::writeEveryFormat(c);
    c.command({"SET", "lock:{orphan}", "0123456789abcdef0123456789abcdef"});  // no TTL
    LockExporter exporter(optionsFor(endpoint()));
    exporter.start();
    for (int i = 0; i < 100 && exporter.completedCensuses() == 0; ++i)
        std::this_thread::sleep_for(20ms);
    ASSERT_EQ(exporter.completedCensuses(), 1u);
    std::string text = scrape(exporter.port());
    TempDir dir;
    std::ofstream(dir.path("scrape.txt")) << text;
    ShellRun check = sh("promtool check metrics < " + dir.path("scrape.txt"));
    EXPECT_EQ(check.status, 0) << check.out << "\n" << text;

    // node: the server the locks live on, the instance itself on a plain server.
    const std::string inst =
        "instance=\"" + endpoint().display() + "\",node=\"" + endpoint().display() + "\"";
    for (const char* kind :
         {"shedlock", "laravel", "sidekiq-unique-jobs", "redlock-net", "pottery", "celery-once",
          "activejob-uniqueness", "redisson-rwlock", "redisson", "guide", "redisson-fair-queue"})
        EXPECT_TRUE(has(text, "lockscope_locks{" + inst + ",kind=\"" + kind + "\"}"))
            << kind << text;
    EXPECT_EQ(valueOf(text, "lockscope_locks{" + inst + ",kind=\"laravel\"}"), 2);
    // Laravel's WithoutOverlapping key was taken with seconds=0: SETNX, no TTL.
    EXPECT_EQ(valueOf(text, "lockscope_locks_without_ttl{" + inst + ",kind=\"laravel\"}"), 1);
    EXPECT_EQ(valueOf(text, "lockscope_up{instance=\"" + endpoint().display() + "\"}"), 1);
    EXPECT_TRUE(has(text, "lockscope_findings{" + inst + ",kind=\"guide\",finding=\"no-ttl\"} 1"));
    EXPECT_TRUE(has(text, "lockscope_lock_age_seconds_bucket{"));
    EXPECT_TRUE(has(text, "lockscope_lock_ttl_remaining_seconds_count{"));
    EXPECT_TRUE(has(text, "lockscope_scan_duration_seconds{"));
    EXPECT_TRUE(
        has(text, "lockscope_scrape_errors_total{instance=\"" + endpoint().display() + "\"} 0"));
    EXPECT_FALSE(has(text, "key=\"")) << "no per-key label by default";
    // The sorted sets of sidekiq-unique-jobs are bookkeeping, not locks.
    EXPECT_FALSE(has(text, "kind=\"not-a-lock\""));
}

TEST_F(ExporterTest, KeyLabelsOnlyForTheNamedKeysAndCapped) {
    Connection c = connect();
    formats_test::writeEveryFormat(c);
    for (int i = 0; i < 20; ++i)
        c.command(
            {"SET", "lock:many:" + std::to_string(i), "t" + std::to_string(i), "PX", "60000"});
    auto o = optionsFor(endpoint());
    o.keyLabelPatterns = {"job-lock:*", "lock:many:*"};
    o.maxKeySeries = 5;
    LockExporter exporter(o);
    exporter.censusOnce();
    std::string text = exporter.scrapeText();
    std::regex series("lockscope_key_ttl_remaining_seconds\\{[^}]*key=\"([^\"]*)\"");
    std::set<std::string> keys;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), series);
         it != std::sregex_iterator(); ++it)
        keys.insert((*it)[1]);
    EXPECT_EQ(keys.size(), 5u) << text;
    for (const auto& k : keys)
        EXPECT_TRUE(k.starts_with("job-lock:") || k.starts_with("lock:many:")) << k;
    EXPECT_FALSE(has(text, "key=\"redlock:printer\""));
    EXPECT_THROW(
        [&] {
            auto bad = optionsFor(endpoint());
            bad.keyLabelPatterns = {""};
            LockExporter x(bad);
        }(),
        InvalidArgumentError);
}

TEST_F(ExporterTest, HandoffsAndRenewalsAreCountedBetweenCensuses) {
    Connection c = connect();
    const std::string t1(32, 'a'), t2(32, 'b'), t3(32, 'c');
    c.command({"SET", "lock:{a}", t1, "PX", "20000"});
    c.command({"SET", "lock:{b}", t2, "PX", "20000"});
    LockExporter exporter(optionsFor(endpoint()));
    exporter.censusOnce();
    c.command({"SET", "lock:{a}", t3, "PX", "20000"});  // handed over
    c.command({"PEXPIRE", "lock:{b}", "60000"});        // renewed
    exporter.censusOnce();
    std::string text = exporter.scrapeText();
    const std::string inst = R"(instance=")" + endpoint().display() + R"(",node=")" +
                             endpoint().display() + R"(",kind="guide")";
    EXPECT_EQ(valueOf(text, "lockscope_lock_handoffs_total{" + inst + "}"), 1) << text;
    EXPECT_EQ(valueOf(text, "lockscope_lock_renewals_total{" + inst + "}"), 1) << text;
}

TEST_F(ExporterTest, AnUnreachableServerIsDownAndCountedNotFatal) {
    auto o = optionsFor(endpoint());
    Endpoint gone = endpoint();
    server().stop();
    o.instances = {gone};
    o.connection.connectTimeout = 300ms;
    LockExporter exporter(o);
    exporter.censusOnce();
    exporter.censusOnce();
    std::string text = exporter.scrapeText();
    const std::string inst = "{instance=\"" + gone.display() + "\"}";
    EXPECT_EQ(valueOf(text, "lockscope_up" + inst), 0) << text;
    EXPECT_EQ(valueOf(text, "lockscope_scrape_errors_total" + inst), 2) << text;
    EXPECT_THROW(LockExporter(ExporterOptions{}), InvalidArgumentError);
}

TEST_F(ExporterTest, AlertRulesPassPromtoolAndFireOnTheirSeries) {
    ShellRun check = sh("promtool check rules " + resource("alerts.yml"));
    EXPECT_EQ(check.status, 0) << check.out;
    ShellRun test = sh("cd " + resource("") + " && promtool test rules alerts_test.yml");
    EXPECT_EQ(test.status, 0) << test.out;
}

TEST_F(ExporterTest, DashboardQueriesNameOnlyMetricsARealScrapeHas) {
    Connection c = connect();
    formats_test::writeEveryFormat(c);
    LockExporter exporter(optionsFor(endpoint()));
    exporter.censusOnce();
    exporter.censusOnce();
    std::string text = exporter.scrapeText();
    std::ifstream in(resource("grafana-dashboard.json"));
    auto dashboard = nlohmann::json::parse(in);
    std::regex metric("lockscope_[a-z_]+");
    int queries = 0;
    for (const auto& panel : dashboard["panels"])
        for (const auto& target : panel["targets"]) {
            std::string expr = target["expr"];
            ++queries;
            for (auto it = std::sregex_iterator(expr.begin(), expr.end(), metric);
                 it != std::sregex_iterator(); ++it)
                EXPECT_TRUE(has(text, "\n" + it->str() + "{") || has(text, "\n" + it->str() + " "))
                    << it->str() << " in " << expr;
        }
    EXPECT_GE(queries, 10);
    EXPECT_EQ(dashboard["uid"], "lockscope-locks");
}

TEST_F(ExporterTest, MemoryFollowsTheLiveLocksWhileTheKeyspaceChurns) {
    Connection c = connect();
    LockExporter exporter(optionsFor(endpoint()));
    for (int round = 0; round < 5; ++round) {
        c.command({"FLUSHALL"});
        // 2000 new lock names every round: a tracker that never forgot would hold 10000.
        std::string script =
            "for i = 1, 2000 do redis.call('SET', 'lock:r' .. ARGV[1] .. ':' .. i, 'tok' .. i, "
            "'PX', 60000) end";
        c.command({"EVAL", script, "0", std::to_string(round)});
        exporter.censusOnce();
        EXPECT_EQ(exporter.trackedLocks(), 2000u) << "round " << round;
    }
}

double serverCpuSeconds(Connection& c) {
    std::string info(c.command({"INFO", "cpu"}).text());
    auto field = [&](const std::string& name) {
        auto at = info.find(name + ":");
        return at == std::string::npos ? 0.0 : std::stod(info.substr(at + name.size() + 1));
    };
    return field("used_cpu_sys") + field("used_cpu_user");
}

// Issue 18: the exporter watches with the window's policy. Between censuses it re-reads the
// locks within the load budget (5% of a server core) instead of rescanning them all: before,
// with a census every 100 ms the exporter rescanned 20,000 locks back to back, the server
// busy most of the time.
TEST_F(ExporterTest, BetweenCensusesTheLoopStaysWithinTheLoadBudget) {
    Connection c = connect(ConnectionOptions{.commandTimeout = 30s});
    c.command({"EVAL",
               "for i = 1, 20000 do redis.call('SET', 'lock:{job:' .. i .. '}', 'token-' .. i, "
               "'PX', 600000) end",
               "0"});
    auto o = optionsFor(endpoint());
    o.scan.patterns = {"lock:*"};
    o.interval = 100ms;
    LockExporter exporter(o);
    exporter.start();
    for (int i = 0; i < 500 && exporter.completedCensuses() == 0; ++i)
        std::this_thread::sleep_for(20ms);
    ASSERT_GE(exporter.completedCensuses(), 1u);
    std::this_thread::sleep_for(1500ms);  // the watch measures its costs
    const double cpu0 = serverCpuSeconds(c);
    const auto censuses0 = exporter.completedCensuses();
    const auto start = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(3s);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double serverShare = (serverCpuSeconds(c) - cpu0) / seconds;
    EXPECT_GE(exporter.completedCensuses() - censuses0, 3u) << "a census every interval";
    // The server's own housekeeping comes on top of the 5% budget.
    EXPECT_LT(serverShare, 0.15) << serverShare;
    std::printf("exporter watching 20k locks: server CPU %.1f%% between censuses\n",
                serverShare * 100);
    const std::string series = R"(lockscope_locks{instance=")" + endpoint().display() +
                               R"(",node=")" + endpoint().display() + R"(",kind="unknown"})";
    const std::string text = exporter.scrapeText();
    EXPECT_EQ(valueOf(text, series), 20000) << text.substr(0, 3000);
    EXPECT_THROW(
        [&] {
            auto bad = optionsFor(endpoint());
            bad.budget = 0;
            LockExporter x(bad);
        }(),
        InvalidArgumentError);
}

TEST_F(ExporterTest, AScrapeDuringAMillionKeyCensusAnswersFromTheLastOne) {
    // Each EVAL writes 100,000 keys: seconds on a loaded machine, beside the exporter's watch.
    Connection c = connect(ConnectionOptions{.commandTimeout = 30s});
    c.command({"SET", "lock:{first}", std::string(32, 'f'), "PX", "600000"});
    auto o = optionsFor(endpoint());
    o.scan.patterns = {"lock:*"};
    o.scan.maxLoad = 0.8;  // --max-load: the census rests a fifth of the time
    LockExporter exporter(o);
    exporter.start();
    for (int i = 0; i < 100 && exporter.completedCensuses() == 0; ++i)
        std::this_thread::sleep_for(20ms);
    ASSERT_EQ(exporter.completedCensuses(), 1u);
    // A million more keys under the pattern, written server-side in chunks.
    for (int chunk = 0; chunk < 10; ++chunk)
        c.command({"EVAL",
                   "for i = 1, 100000 do redis.call('SET', 'lock:bulk:' .. ARGV[1] .. ':' .. i, "
                   "'x') end",
                   "0", std::to_string(chunk)});
    ASSERT_EQ(c.command({"DBSIZE"}).integer(), 1000001);
    const std::string series = "lockscope_locks{instance=\"" + endpoint().display() + "\",node=\"" +
                               endpoint().display() + "\",kind=\"";
    auto census = std::async(std::launch::async, [&] { exporter.censusOnce(); });
    int answered = 0;
    while (census.wait_for(200ms) == std::future_status::timeout && answered < 10) {
        auto start = std::chrono::steady_clock::now();
        std::string text = scrape(exporter.port());
        auto took = std::chrono::steady_clock::now() - start;
        if (exporter.completedCensuses() > 1) break;
        EXPECT_LT(took, 1s);
        EXPECT_EQ(valueOf(text, series + "guide\"}"), 1) << "the last complete census";
        ++answered;
    }
    census.get();
    EXPECT_GE(answered, 1) << "the census ended before a scrape could overlap it";
    std::string text = scrape(exporter.port());
    // The bulk keys hold "x", a fixed value; the first lock is the guide's.
    EXPECT_EQ(valueOf(text, series + "fixed-value\"}"), 1000000) << text.substr(0, 2000);
    EXPECT_EQ(valueOf(text, series + "guide\"}"), 1) << text.substr(0, 2000);
}

TEST(LockCensus, AgeComesFromTheHoldersOwnTimeElseFromWhenItWasFirstSeen) {
    using namespace std::chrono;
    const auto now = inspect::SteadyClock::now();
    const auto wall = system_clock::now();
    inspect::LockRecord shed;
    shed.kind = inspect::LockKind::ShedLock;
    shed.token = "ADDED:" + inspect::formatIsoInstant(wall - 2h) + "@build-7";
    shed.lastChange = now;  // the exporter just met this holder: its value says two hours
    EXPECT_NEAR(ageSeconds(shed, now, wall), 7200, 2);
    inspect::LockRecord guide;
    guide.kind = inspect::LockKind::Guide;
    guide.token = std::string(32, 'a');
    guide.lastChange = now - 5s;
    EXPECT_NEAR(ageSeconds(guide, now, wall), 5, 0.01);
    // A holder time in the future (a skewed clock) is not evidence: the sighting is used.
    shed.token = "ADDED:" + inspect::formatIsoInstant(wall + 1h) + "@skewed";
    EXPECT_NEAR(ageSeconds(shed, now, wall), 0, 0.01);
}

TEST(LockCensus, HistogramBucketsAreCumulativeAndNotALockIsSkipped) {
    CensusBuilder builder({});
    const auto now = inspect::SteadyClock::now();
    const auto wall = std::chrono::system_clock::now();
    auto instance = std::make_shared<const std::string>("redis://a");
    int n = 0;
    for (std::int64_t pttl : {50, 700, 700, -1}) {
        inspect::LockRecord r;
        r.instance = instance;
        r.key = "lock:" + std::to_string(++n);
        r.kind = inspect::LockKind::Guide;
        r.token = r.key;
        r.pttlMs = pttl;
        r.lastChange = now;
        builder.add(r, now, wall);
    }
    inspect::LockRecord queue;
    queue.instance = instance;
    queue.key = "uniquejobs:digests";
    queue.kind = inspect::LockKind::NotALock;
    builder.add(queue, now, wall);
    auto& c = builder.result();
    InstanceKind ik{"redis://a", "redis://a", "guide"};
    EXPECT_EQ(c.locks[ik], 4u);
    EXPECT_EQ(c.withoutTtl[ik], 1u);
    EXPECT_EQ(c.ttl[ik].count, 3u);      // the lock without TTL has no TTL to observe
    EXPECT_EQ(c.ttl[ik].counts[0], 1u);  // 0.05 s <= 0.1
    EXPECT_EQ(c.ttl[ik].counts[2], 2u);  // 0.7 s <= 1
}
