#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include "inspect_helpers.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/scanner.h"
#include "lockscope/redis_lock.h"
#include "redis_fixture.h"

using namespace lockscope;
using namespace lockscope::inspect;
using namespace std::chrono_literals;
using lockscope::testing::contains;
using lockscope::testing::findKey;
using lockscope::testing::RedisTest;
using lockscope::testing::scanAll;

namespace {

const std::string kRedissonHolder = "6a7e3c2e-52a4-4d5c-9a1b-0c8d2e1f3a4b:57";

// redis-py 4.3.4 takes a real lock; returns its token (uuid1().hex).
std::string acquireWithRedisPy(int port, const std::string& name) {
    std::string cmd =
        "/usr/bin/python3 -c \"import redis; l = redis.Redis(port=" + std::to_string(port) +
        ").lock('" + name + "', timeout=10); assert l.acquire(); print(l.local.token.decode())\"";
    std::FILE* p = popen(cmd.c_str(), "r");
    if (!p) return {};
    char buf[128] = {};
    std::string out = std::fgets(buf, sizeof buf, p) ? buf : "";
    pclose(p);
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
    return out;
}

// Redisson RLock's tryLockInnerAsync script, verbatim in effect: hincrby + pexpire.
void redissonLock(Connection& c, const std::string& name, const std::string& holder) {
    c.command({"EVAL",
               "if (redis.call('exists', KEYS[1]) == 0) or (redis.call('hexists', KEYS[1], "
               "ARGV[2]) == 1) then "
               "redis.call('hincrby', KEYS[1], ARGV[2], 1); redis.call('pexpire', KEYS[1], "
               "ARGV[1]); return nil; end; "
               "return redis.call('pttl', KEYS[1]);",
               "1", name, "30000", holder});
}

}  // namespace

TEST_F(RedisTest, ClassifiesEveryLockFormatFromRealWrites) {
    auto shared = std::make_shared<Connection>(connect());
    Connection& c = *shared;
    // The guide's lock, taken with LockScope's own RedisLock (lock:{name} + fence:{name}).
    RedisLock guide(shared, "report:daily");
    ASSERT_TRUE(guide.acquire());
    // redis-py creates its lock for real.
    std::string pyToken = acquireWithRedisPy(server().port(), "lock:pyjob");
    ASSERT_EQ(pyToken.size(), 32u) << "redis-py did not print a token";
    // node-redlock's acquire script: set NX PX with 16 random bytes as hex.
    c.command({"EVAL", "return redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])", "1",
               "lock:node", "9f2c4b7a0d3e45f6a1b2c3d4e5f60718", "10000"});
    // redsync: SET key base64(16 bytes) PX ttl NX.
    c.command({"SET", "lock:redsync", "q83vEjRWeJASNFZ4kBI0Vg==", "PX", "8000", "NX"});
    // redis-plus-plus RedMutex: 20 alphanumerics.
    c.command({"SET", "lock:rpp", "aB3dE5gH7jK9mN1pQ3sT", "PX", "8000", "NX"});
    redissonLock(c, "lock:redisson", kRedissonHolder);
    // Redisson fair lock's queue and timeout keys, and a fenced lock's token counter.
    c.command({"RPUSH", "redisson_lock_queue:{lock:redisson}", kRedissonHolder});
    c.command({"ZADD", "redisson_lock_timeout:{lock:redisson}", "1700000000000", kRedissonHolder});
    c.command({"INCR", "redisson_lock_token:{lock:redisson}"});
    // The broken nightly job.
    c.command({"SET", "lock:report", "1", "NX", "EX", "10"});
    c.command({"SET", "lock:weird", "hello world", "PX", "8000"});

    ScanOptions options;
    options.patterns = {"lock:*", "redisson_lock_*"};
    options.count = 3;  // many small batches
    auto records = scanAll(c, options);
    auto kindOf = [&](const std::string& key) {
        const LockRecord* r = findKey(records, key);
        return r ? std::string(toString(r->kind)) : std::string("missing");
    };
    EXPECT_EQ(kindOf("lock:{report:daily}"), "guide");
    EXPECT_EQ(kindOf("lock:pyjob"), "redis-py");
    EXPECT_EQ(findKey(records, "lock:pyjob")->token, pyToken);
    EXPECT_EQ(kindOf("lock:node"), "node-redlock");
    EXPECT_EQ(kindOf("lock:redsync"), "redsync");
    EXPECT_EQ(kindOf("lock:rpp"), "redis-plus-plus");
    EXPECT_EQ(kindOf("lock:redisson"), "redisson");
    EXPECT_EQ(kindOf("redisson_lock_queue:{lock:redisson}"), "redisson-fair-queue");
    EXPECT_EQ(kindOf("redisson_lock_timeout:{lock:redisson}"), "redisson-fair-timeout");
    EXPECT_EQ(kindOf("redisson_lock_token:{lock:redisson}"), "redisson-fence-token");
    EXPECT_EQ(kindOf("lock:report"), "fixed-value");
    EXPECT_EQ(kindOf("lock:weird"), "unknown");
    EXPECT_EQ(records.size(), 11u);  // every key once, though two patterns ran

    const LockRecord* g = findKey(records, "lock:{report:daily}");
    EXPECT_EQ(g->token, guide.token());
    EXPECT_EQ(g->fence, 1);
    EXPECT_EQ(g->resource(), "report:daily");
    EXPECT_GT(g->pttlMs, 25000);
    EXPECT_LE(g->pttlMs, 30000);
    const LockRecord* rd = findKey(records, "lock:redisson");
    ASSERT_EQ(rd->fields.size(), 1u);
    EXPECT_EQ(rd->fields[0], (HashField{kRedissonHolder, "1"}));
    EXPECT_EQ(rd->type, ValueType::Hash);
    EXPECT_FALSE(rd->fence.has_value());
    EXPECT_EQ(findKey(records, "redisson_lock_queue:{lock:redisson}")->resource(), "lock:redisson");
    EXPECT_EQ(findKey(records, "lock:report")->fence, std::nullopt);
}

TEST_F(RedisTest, StreamsBatchesWithProgressAndFindsEveryKeyOnce) {
    Connection c = connect();
    std::vector<std::vector<std::string>> load;
    for (int i = 0; i < 3000; ++i) {
        load.push_back(
            {"SET", "lock:{job" + std::to_string(i) + "}", "t" + std::to_string(i), "PX", "60000"});
        load.push_back({"SET", "fence:{job" + std::to_string(i) + "}", std::to_string(i)});
        load.push_back({"SET", "other:" + std::to_string(i), "x"});
    }
    c.pipeline(load);
    ScanOptions options;
    options.count = 100;
    Scanner scanner(c, options);
    std::set<std::string> keys;
    int batches = 0;
    double lastFraction = 0;
    bool monotonic = true;
    auto summary = scanner.run([&](ScanBatch& b) {
        ++batches;
        monotonic = monotonic && b.progress.fraction >= lastFraction;
        lastFraction = b.progress.fraction;
        for (auto& r : b.records) {
            EXPECT_TRUE(keys.insert(r.key).second) << "twice: " << r.key;
            auto n = r.key.substr(9, r.key.size() - 10);
            EXPECT_EQ(r.token, "t" + n);
            EXPECT_EQ(r.fence, std::stoll(n));
        }
    });
    EXPECT_EQ(keys.size(), 3000u);
    EXPECT_GT(batches, 20);
    EXPECT_TRUE(monotonic);
    EXPECT_EQ(summary.progress.fraction, 1.0);
    EXPECT_EQ(summary.progress.locks, 3000u);
    EXPECT_EQ(summary.progress.keysSeen, 3000u);
    EXPECT_FALSE(summary.cancelled);
    EXPECT_EQ(lockscope::testing::commandCalls(observer(), "keys"), 0);
}

// Patterns that overlap: each key is read once, by the first pattern that matches it, and
// none is lost (a later pattern passes by what an earlier one matched, keeping no set of
// every key seen: 90 MB at 1M keys).
TEST_F(RedisTest, OverlappingPatternsReadEveryKeyOnce) {
    Connection c = connect();
    std::vector<std::vector<std::string>> load;
    for (int i = 0; i < 200; ++i)
        load.push_back({"SET", "lock:{job" + std::to_string(i) + "}", "t", "PX", "60000"});
    for (int i = 0; i < 100; ++i) load.push_back({"SET", "other:" + std::to_string(i), "x"});
    c.pipeline(load);
    ScanOptions options;
    options.patterns = {"lock:*", "lock:{job1*", "*"};
    options.count = 50;
    Scanner scanner(c, options);
    std::map<std::string, int> reads;
    auto summary = scanner.run([&](ScanBatch& b) {
        for (auto& r : b.records) ++reads[r.key.str()];
    });
    EXPECT_EQ(reads.size(), 300u);
    for (const auto& [key, times] : reads) EXPECT_EQ(times, 1) << key;
    // SCAN returned 200 + 111 + 300 names (more if it met a rehash); 300 keys were read.
    EXPECT_GE(summary.progress.keysSeen, 611u);
}

TEST_F(RedisTest, CancelStopsEarlyAndLeavesTheConnectionUsable) {
    Connection c = connect();
    std::vector<std::vector<std::string>> load;
    for (int i = 0; i < 5000; ++i) load.push_back({"SET", "lock:" + std::to_string(i), "v"});
    c.pipeline(load);
    std::stop_source stop;
    ScanOptions options;
    options.count = 50;
    Scanner scanner(c, options);
    std::size_t seen = 0;
    auto summary = scanner.run(
        [&](ScanBatch& b) {
            seen += b.records.size();
            stop.request_stop();
        },
        stop.get_token());
    EXPECT_TRUE(summary.cancelled);
    EXPECT_LT(seen, 1000u);
    EXPECT_EQ(c.command({"PING"}).text(), "PONG");  // no reply left behind
    EXPECT_EQ(c.command({"GET", "lock:1"}).text(), "v");
}

TEST_F(RedisTest, KeysThatVanishBetweenScanAndReadAreSkipped) {
    Connection c = connect();
    std::vector<std::vector<std::string>> load;
    for (int i = 0; i < 400; ++i) load.push_back({"SET", "lock:" + std::to_string(i), "v"});
    c.pipeline(load);
    // Paced scanning reads a SCAN page's keys one round later, after the batch callback:
    // deleting everything in the first callback makes the later reads find nothing.
    ScanOptions options;
    options.count = 20;
    options.maxLoad = 0.99;
    Scanner scanner(c, options);
    std::size_t records = 0;
    bool deleted = false;
    auto summary = scanner.run([&](ScanBatch& b) {
        records += b.records.size();
        if (!deleted) {
            observer().command({"FLUSHALL"});
            deleted = true;
        }
    });
    EXPECT_GT(summary.progress.vanished, 0u);
    EXPECT_EQ(records + summary.progress.vanished, summary.progress.keysSeen);
    // And the direct read of keys: gone ones are reported, not invented.
    c.command({"SET", "lock:here", "tok"});
    std::vector<std::string> vanished;
    auto read = scanner.readKeys({"lock:here", "lock:gone", "lock:also-gone"}, &vanished);
    ASSERT_EQ(read.size(), 1u);
    EXPECT_EQ(read[0].token, "tok");
    EXPECT_EQ(vanished, (std::vector<std::string>{"lock:gone", "lock:also-gone"}));
}

TEST_F(RedisTest, HashesListsZsetsAndOtherTypesUnderThePattern) {
    Connection c = connect();
    c.command({"HSET", "lock:h", "owner", "alice", "since", "today"});
    c.command({"RPUSH", "lock:l", "a", "b"});
    c.command({"ZADD", "lock:z", "1", "a"});
    c.command({"SADD", "lock:s", "a"});
    c.command({"XADD", "lock:x", "*", "f", "v"});
    std::vector<std::string> big{"HSET", "lock:bighash"};
    for (int i = 0; i < 500; ++i)
        big.push_back(kRedissonHolder + std::to_string(i)), big.emplace_back("1");
    c.command(std::vector<std::string_view>(big.begin(), big.end()));
    ScanOptions options;
    options.maxHashFields = 10;
    auto records = scanAll(c, options);
    ASSERT_EQ(records.size(), 6u);
    const LockRecord* h = findKey(records, "lock:h");
    EXPECT_EQ(h->type, ValueType::Hash);
    EXPECT_EQ(h->kind, LockKind::Unknown);
    EXPECT_EQ(h->fields.size(), 2u);
    EXPECT_EQ(h->pttlMs, -1);
    EXPECT_EQ(findKey(records, "lock:l")->type, ValueType::List);
    EXPECT_EQ(findKey(records, "lock:l")->kind, LockKind::NotALock);
    EXPECT_EQ(findKey(records, "lock:z")->type, ValueType::ZSet);
    EXPECT_EQ(findKey(records, "lock:s")->type, ValueType::Set);
    EXPECT_EQ(findKey(records, "lock:x")->type, ValueType::Stream);
    const LockRecord* bh = findKey(records, "lock:bighash");
    EXPECT_TRUE(bh->truncated);
    EXPECT_EQ(bh->valueBytes, 500u);  // the hash length
    EXPECT_LE(bh->fields.size(), 10u);
}

TEST_F(RedisTest, BinaryAndHugeValues) {
    Connection c = connect();
    std::string key("lock:\0bin\xff", 10), value("\0\x01\x02 tok\r\n\xfe", 10);
    c.command({"SET", key, value, "PX", "9000"});
    c.command({"SET", "lock:huge", std::string(1 << 20, 'x')});
    c.command({"SET", "lock:empty", ""});
    auto records = scanAll(c);
    ASSERT_EQ(records.size(), 3u);
    const LockRecord* b = findKey(records, key);
    ASSERT_TRUE(b);
    EXPECT_EQ(b->token, value);
    EXPECT_FALSE(b->truncated);
    const LockRecord* h = findKey(records, "lock:huge");
    EXPECT_TRUE(h->truncated);
    EXPECT_EQ(h->valueBytes, 1u << 20);
    EXPECT_EQ(h->token.size(), ScanOptions{}.maxValueBytes);
    EXPECT_EQ(findKey(records, "lock:empty")->token, "");
    EXPECT_EQ(findKey(records, "lock:empty")->type, ValueType::String);
}

TEST_F(RedisTest, FenceCountersThatAreNotNumbersAreLeftOut) {
    Connection c = connect();
    c.command({"SET", "lock:{a}", "t"});
    c.command({"SET", "fence:{a}", "not-a-number"});
    c.command({"SET", "lock:{b}", "t"});
    c.command({"HSET", "fence:{b}", "f", "1"});
    c.command({"SET", "lock:{c}", "t"});
    c.command({"SET", "fence:{c}", "-9223372036854775808"});
    auto records = scanAll(c);
    ASSERT_EQ(records.size(), 3u);
    EXPECT_EQ(records[0].fence, std::nullopt);
    EXPECT_EQ(records[1].fence, std::nullopt);
    EXPECT_EQ(records[2].fence, INT64_MIN);
}

TEST_F(RedisTest, BadScanOptionsAreRefused) {
    Connection c = connect();
    auto bad = [&](auto change) {
        ScanOptions o;
        change(o);
        EXPECT_THROW(Scanner(c, o), InvalidArgumentError);
    };
    bad([](ScanOptions& o) { o.patterns.clear(); });
    bad([](ScanOptions& o) { o.patterns = {""}; });
    bad([](ScanOptions& o) { o.patterns = {std::string(5000, '*')}; });
    bad([](ScanOptions& o) { o.count = 0; });
    bad([](ScanOptions& o) { o.count = 10'000'000; });
    bad([](ScanOptions& o) { o.maxLoad = 0; });
    bad([](ScanOptions& o) { o.maxLoad = 1.5; });
    bad([](ScanOptions& o) { o.maxLoad = std::nan(""); });
    // Hostile but valid patterns are just patterns.
    ScanOptions o;
    o.patterns = {"[", "\\", std::string("\0\xff*", 3), "lock:{*"};
    EXPECT_TRUE(scanAll(c, o).empty());
}

TEST_F(RedisTest, NoCommandIsSlowAndKeysIsNeverSent) {
    Connection c = connect();
    c.command({"CONFIG", "SET", "slowlog-log-slower-than", "2000"});
    c.command({"SLOWLOG", "RESET"});
    std::vector<std::vector<std::string>> load;
    for (int i = 0; i < 20000; ++i) {
        load.push_back({"SET", "lock:{j" + std::to_string(i) + "}",
                        "0123456789abcdef0123456789abcdef", "PX", "60000"});
        load.push_back({"INCR", "fence:{j" + std::to_string(i) + "}"});
    }
    c.pipeline(load);
    // Judged over repeated runs (see slowInEveryRun): a busy machine makes single commands
    // slow at random, a slow command repeats.
    std::string slow = lockscope::testing::slowInEveryRun(observer(), [&] {
        auto records = scanAll(c);
        EXPECT_EQ(records.size(), 20000u);
    });
    EXPECT_TRUE(slow.empty()) << slow;
    EXPECT_EQ(lockscope::testing::commandCalls(observer(), "keys"), 0);
    // The check can fail: a 5 ms script is slow in every run.
    std::string script = lockscope::testing::slowInEveryRun(observer(), [&] {
        c.command({"EVAL",
                   "local t0 = redis.call('TIME') local us = 0 repeat local t = redis.call('TIME') "
                   "us = (t[1] - t0[1]) * 1000000 + (t[2] - t0[2]) until us > 5000 return 1",
                   "0"});
    });
    EXPECT_TRUE(contains(script, "EVAL")) << script;
}
