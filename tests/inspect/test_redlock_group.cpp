// The Redlock group view: analyzeGroup's majority and validity arithmetic on hand-made records,
// and `lockscope-cli list --group --json` against three real servers.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "lockscope/connection.h"
#include "lockscope/inspect/redlock_group.h"
#include "lockscope/inspect/resource_groups.h"
#include "lockscope/sandbox/local_redis_server.h"

using namespace lockscope;
using namespace lockscope::inspect;
using namespace std::chrono_literals;

namespace {

const SteadyClock::time_point t0 = SteadyClock::now();

LockRecord record(const std::string& instance, const std::string& resource,
                  const std::string& token, std::int64_t pttlMs) {
    LockRecord r;
    r.instance = std::make_shared<const std::string>(instance);
    r.key = "lock:{" + resource + "}";
    r.resourceOffset = 6;
    r.resourceLength = static_cast<std::uint16_t>(resource.size());
    r.token = token;
    r.pttlMs = pttlMs;
    r.observedAt = t0;
    r.type = ValueType::String;
    r.kind = LockKind::NodeRedlock;
    return r;
}

RedlockGroupView analyzeOnly(const std::vector<LockRecord>& records,
                             const std::vector<std::string>& instances,
                             SteadyClock::time_point now = t0,
                             const std::vector<std::string>& unreachable = {}) {
    auto groups = groupByResource(records);
    EXPECT_EQ(groups.size(), 1u);
    return analyzeGroup(records, groups.at(0), instances, now, unreachable);
}

const std::vector<std::string> kThree = {"redis://a:1", "redis://b:2", "redis://c:3"};

}  // namespace

TEST(RedlockGroup, MajorityAgreesOnOneToken) {
    std::vector<LockRecord> records = {record(kThree[0], "pay", "t1", 10'000),
                                       record(kThree[1], "pay", "t1", 8'000),
                                       record(kThree[2], "pay", "t2", 9'000)};
    auto v = analyzeOnly(records, kThree);
    EXPECT_EQ(v.resource, "pay");
    EXPECT_EQ(v.quorum, 2);
    EXPECT_EQ(v.agreeing, 2);
    EXPECT_TRUE(v.majority);
    ASSERT_TRUE(v.token);
    EXPECT_EQ(*v.token, "t1");
    ASSERT_EQ(v.nodes.size(), 3u);
    EXPECT_EQ(v.nodes[2].state, RedlockNodeState::Held);
    EXPECT_EQ(v.nodes[2].token, "t2");
    EXPECT_EQ(v.nodes[2].pttlMs, 9'000);
    // min PTTL of the majority (8000 ms, t2's 9000 is not theirs) − drift of the largest of
    // theirs: 10000 × 0.01 + 2 = 102 ms.
    EXPECT_EQ(v.validityMs, 8'000 - 102);
}

TEST(RedlockGroup, SplitVotesHaveNoMajority) {
    std::vector<LockRecord> records = {record(kThree[0], "pay", "t1", 10'000),
                                       record(kThree[1], "pay", "t2", 10'000),
                                       record(kThree[2], "pay", "t3", 10'000)};
    auto v = analyzeOnly(records, kThree);
    EXPECT_FALSE(v.majority);
    EXPECT_FALSE(v.token);
    EXPECT_EQ(v.validityMs, 0);
    EXPECT_EQ(v.agreeing, 1);

    // Four nodes split 2/2: the quorum is 3, so neither half holds the lock.
    const std::vector<std::string> four = {"a", "b", "c", "d"};
    std::vector<LockRecord> even = {record("a", "x", "t1", 5'000), record("b", "x", "t1", 5'000),
                                    record("c", "x", "t2", 5'000), record("d", "x", "t2", 5'000)};
    auto w = analyzeOnly(even, four);
    EXPECT_EQ(w.quorum, 3);
    EXPECT_EQ(w.agreeing, 2);
    EXPECT_FALSE(w.majority);
    EXPECT_EQ(w.validityMs, 0);
}

TEST(RedlockGroup, MissingAndUnreachableNodes) {
    // Only on two of three: still a majority, the third is absent.
    std::vector<LockRecord> two = {record(kThree[0], "pay", "t1", 3'000),
                                   record(kThree[2], "pay", "t1", 4'000)};
    auto v = analyzeOnly(two, kThree);
    EXPECT_TRUE(v.majority);
    EXPECT_EQ(v.nodes[1].state, RedlockNodeState::Absent);
    EXPECT_FALSE(v.nodes[1].token);
    EXPECT_EQ(v.nodes[1].pttlMs, -1);
    EXPECT_EQ(v.validityMs, 3'000 - 42);  // 4000 × 0.01 + 2

    // On one of three with another unreachable: no majority, and the states say why.
    std::vector<LockRecord> one = {record(kThree[0], "pay", "t1", 3'000)};
    auto w = analyzeOnly(one, kThree, t0, {kThree[1]});
    EXPECT_FALSE(w.majority);
    EXPECT_EQ(w.nodes[0].state, RedlockNodeState::Held);
    EXPECT_EQ(w.nodes[1].state, RedlockNodeState::Unreachable);
    EXPECT_EQ(w.nodes[2].state, RedlockNodeState::Absent);
    EXPECT_EQ(w.validityMs, 0);

    // A record from an instance that was not among the N scanned does not vote.
    std::vector<LockRecord> stray = {record(kThree[0], "pay", "t1", 3'000),
                                     record("redis://elsewhere:9", "pay", "t1", 3'000)};
    EXPECT_FALSE(analyzeOnly(stray, kThree).majority);
}

TEST(RedlockGroup, ValidityCountsDownWithDriftAndClampsAtZero) {
    std::vector<LockRecord> records = {record(kThree[0], "pay", "t1", 2'000),
                                       record(kThree[1], "pay", "t1", 1'500),
                                       record(kThree[2], "pay", "t1", 1'800)};
    // 500 ms later: PTTLs 1500, 1000, 1300; drift of 1500 ms = 15 + 2 ms.
    auto v = analyzeOnly(records, kThree, t0 + 500ms);
    EXPECT_EQ(v.agreeing, 3);
    EXPECT_EQ(v.nodes[1].pttlMs, 1'000);
    EXPECT_EQ(v.validityMs, 1'000 - 17);

    // 1499 ms later the smallest PTTL is 1 ms, less than the 2 ms drift floor: validity 0,
    // though a majority still agrees.
    auto w = analyzeOnly(records, kThree, t0 + 1'499ms);
    EXPECT_TRUE(w.majority);
    EXPECT_EQ(w.nodes[1].pttlMs, 1);
    EXPECT_EQ(w.validityMs, 0);

    // Past the smallest PTTL that node counts as absent: two of three remain, validity from
    // them (301 and 101 ms left; drift 3.01 + 2 ms -> 95.99 ms, floored to 95).
    auto x = analyzeOnly(records, kThree, t0 + 1'699ms);
    EXPECT_EQ(x.nodes[1].state, RedlockNodeState::Absent);
    EXPECT_TRUE(x.majority);
    EXPECT_EQ(x.validityMs, 95);

    // Keys without a TTL never expire: validity -1 ("no TTL").
    std::vector<LockRecord> forever = {record(kThree[0], "pay", "t1", -1),
                                       record(kThree[1], "pay", "t1", -1)};
    EXPECT_EQ(analyzeOnly(forever, kThree).validityMs, -1);
}

TEST(RedlockGroup, JsonLineHasEveryField) {
    std::vector<LockRecord> records = {record(kThree[0], "pay", "t1", 10'000),
                                       record(kThree[1], "pay", "t1", 8'000)};
    auto j = nlohmann::json::parse(toJsonLine(analyzeOnly(records, kThree)));
    EXPECT_EQ(j["resource"], "pay");
    EXPECT_EQ(j["quorum"], 2);
    EXPECT_EQ(j["majority"], true);
    EXPECT_EQ(j["token"], "t1");
    EXPECT_EQ(j["validity_ms"], 8'000 - 102);
    ASSERT_EQ(j["nodes"].size(), 3u);
    EXPECT_EQ(j["nodes"][0]["instance"], kThree[0]);
    EXPECT_EQ(j["nodes"][0]["key"], "lock:{pay}");
    EXPECT_EQ(j["nodes"][0]["pttl_ms"], 10'000);
    EXPECT_TRUE(j["nodes"][2]["token"].is_null());
    EXPECT_EQ(j["nodes"][2]["state"], "absent");
}

TEST(RedlockGroupCli, ListGroupJsonOnThreeServers) {
    LocalRedisServer a, b, c;
    const std::string key = "lock:{invoice}";
    const std::string token = "3f2a9c1e8b7d4a6f0e5c2b1a9d8e7f60";
    Connection::open(a.endpoint()).command({"SET", key, token, "PX", "30000"});
    Connection::open(b.endpoint()).command({"SET", key, token, "PX", "20000"});
    Connection::open(c.endpoint())
        .command({"SET", key, "0123456789abcdef0123456789abcdef", "PX", "30000"});

    std::string cmd = std::string(LOCKSCOPE_CLI) + " list --group -u " + a.url() + " -u " +
                      b.url() + " -u " + c.url() + " --json 2>/dev/null";
    std::string out;
    std::FILE* p = popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    int status = pclose(p);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << out;

    std::istringstream in(out);
    std::string line;
    std::vector<nlohmann::json> lines;
    while (std::getline(in, line))
        if (!line.empty()) lines.push_back(nlohmann::json::parse(line));
    ASSERT_EQ(lines.size(), 1u) << out;
    const auto& g = lines[0];
    EXPECT_EQ(g["resource"], "invoice");
    EXPECT_EQ(g["quorum"], 2);
    EXPECT_EQ(g["majority"], true);
    EXPECT_EQ(g["token"], token);
    ASSERT_EQ(g["nodes"].size(), 3u);
    std::int64_t minPttl = -1;
    for (const auto& node : g["nodes"]) {
        EXPECT_EQ(node["key"], key);
        if (node["token"] == token) {
            auto pttl = node["pttl_ms"].get<std::int64_t>();
            EXPECT_GT(pttl, 0);
            minPttl = minPttl < 0 ? pttl : std::min(minPttl, pttl);
        }
    }
    EXPECT_EQ(g["nodes"][0]["instance"], a.url());
    EXPECT_EQ(g["nodes"][2]["token"], "0123456789abcdef0123456789abcdef");
    ASSERT_GT(minPttl, 0);
    EXPECT_LE(minPttl, 20'000);
    auto validity = g["validity_ms"].get<std::int64_t>();
    EXPECT_GT(validity, 0);
    EXPECT_LE(validity, minPttl);
}

// Issue 35: a redis-py lock on one cluster node, with three other servers connected, was judged
// a Redlock that nobody holds. Only a Redlock client's format, or the same key and holder on two
// independent servers, makes a lock a Redlock.
TEST(RedlockGroup, OnlyARedlockIsJudgedAsOne) {
    LockRecord redisPy = record(kThree[0], "report", "a3b1c0d2e4f611ee8a1b0242ac120002", 60'000);
    redisPy.kind = LockKind::RedisPy;
    EXPECT_FALSE(isRedlock({redisPy}, kThree));
    LockRecord shedLock = redisPy;
    shedLock.kind = LockKind::ShedLock;
    EXPECT_FALSE(isRedlock({shedLock}, kThree));
    // A Redlock client's token, on one server so far: a Redlock.
    EXPECT_TRUE(isRedlock({record(kThree[0], "pay", "t1", 10'000)}, kThree));
    // The same key and holder on two independent servers: a client that locked both.
    LockRecord onB = redisPy;
    onB.instance = std::make_shared<const std::string>(kThree[1]);
    EXPECT_TRUE(isRedlock({redisPy, onB}, kThree));
    // ... but not when the second server is no independent one (a node of the same cluster).
    EXPECT_FALSE(isRedlock({redisPy, onB}, {kThree[0], kThree[2]}));
    // Another holder on the second server: two locks that share a name.
    onB.token = "b3b1c0d2e4f611ee8a1b0242ac120002";
    EXPECT_FALSE(isRedlock({redisPy, onB}, kThree));
}
