#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <thread>

#include "inspect_helpers.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/audit_log.h"
#include "lockscope/inspect/safe_actions.h"
#include "lockscope/inspect/scanner.h"
#include "lockscope/redis_lock.h"
#include "redis_fixture.h"

using namespace lockscope;
using namespace lockscope::inspect;
using namespace std::chrono_literals;
using lockscope::testing::commandCalls;
using lockscope::testing::contains;
using lockscope::testing::RedisTest;
using lockscope::testing::TempDir;

namespace {

std::vector<nlohmann::json> readAudit(const std::string& path) {
    std::vector<nlohmann::json> lines;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) lines.push_back(nlohmann::json::parse(line));
    return lines;
}

// The result lines only (an action that was sent is preceded by its intent line).
std::vector<nlohmann::json> readResults(const std::string& path) {
    auto lines = readAudit(path);
    std::erase_if(lines, [](const nlohmann::json& l) { return l["phase"] != "result"; });
    return lines;
}

class SafeActionsTest : public RedisTest {
  protected:
    TempDir dir;
    std::string auditPath = dir.path("state/lockscope/audit.jsonl");
};

}  // namespace

TEST_F(SafeActionsTest, ReleaseDeletesOnlyTheTokenSeen) {
    Connection c = connect();
    AuditLog audit(auditPath);
    SafeActions actions(c, &audit);
    c.command({"SET", "lock:{a}", "mine", "PX", "10000"});
    auto changed = actions.release("lock:{a}", Holder::ofToken("someone-else"));
    EXPECT_EQ(changed.outcome, ActionOutcome::TokenChanged);
    EXPECT_TRUE(contains(changed.message, "\"mine\"")) << changed.message;
    EXPECT_EQ(c.command({"GET", "lock:{a}"}).text(), "mine");
    auto done = actions.release("lock:{a}", Holder::ofToken("mine"));
    EXPECT_EQ(done.outcome, ActionOutcome::Done) << done.message;
    EXPECT_TRUE(c.command({"GET", "lock:{a}"}).isNil());
    EXPECT_EQ(actions.release("lock:{a}", Holder::ofToken("mine")).outcome,
              ActionOutcome::NotFound);

    auto lines = readResults(auditPath);
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(readAudit(auditPath).size(), 6u);  // each was sent: intent, then result
    EXPECT_EQ(lines[0]["result"], "token-changed");
    EXPECT_EQ(lines[0]["token_seen"], "someone-else");
    EXPECT_EQ(lines[1]["result"], "done");
    EXPECT_EQ(lines[1]["action"], "release");
    EXPECT_EQ(lines[1]["key"], "lock:{a}");
    EXPECT_EQ(lines[1]["instance"], endpoint().display());
    EXPECT_TRUE(lines[1].contains("time"));
    EXPECT_EQ(lines[2]["result"], "not-found");
}

TEST_F(SafeActionsTest, ExpireAddsATtlToAnOrphanOnlyIfUnchanged) {
    Connection c = connect();
    AuditLog audit(auditPath);
    SafeActions actions(c, &audit);
    c.command({"SETNX", "lock:{orphan}", "crashed-holder"});  // no TTL, like the guide's crash
    EXPECT_EQ(actions.expire("lock:{orphan}", Holder::ofToken("other"), 5000ms).outcome,
              ActionOutcome::TokenChanged);
    EXPECT_EQ(c.command({"PTTL", "lock:{orphan}"}).integer(), -1);
    EXPECT_EQ(actions.expire("lock:{orphan}", Holder::ofToken("crashed-holder"), 5000ms).outcome,
              ActionOutcome::Done);
    auto pttl = c.command({"PTTL", "lock:{orphan}"}).integer();
    EXPECT_GT(pttl, 4000);
    EXPECT_LE(pttl, 5000);
    for (auto bad : {0ms, -5ms, std::chrono::milliseconds(400LL * 24 * 3600 * 1000)})
        EXPECT_EQ(actions.expire("lock:{orphan}", Holder::ofToken("crashed-holder"), bad).outcome,
                  ActionOutcome::Refused);
    EXPECT_EQ(readAudit(auditPath).back()["ttl_ms"], 400LL * 24 * 3600 * 1000);
}

TEST_F(SafeActionsTest, RedissonHashIsReleasedOnlyWithTheFieldsSeen) {
    Connection c = connect();
    SafeActions actions(c, nullptr);
    const std::string holder = "6a7e3c2e-52a4-4d5c-9a1b-0c8d2e1f3a4b:1";
    c.command({"HSET", "lock:r", holder, "2"});
    Holder seen{"", {{holder, "1"}}, false};  // reentrancy count changed since
    EXPECT_EQ(actions.release("lock:r", seen).outcome, ActionOutcome::TokenChanged);
    seen.fields = {{holder, "2"}, {"extra", "1"}};
    EXPECT_EQ(actions.release("lock:r", seen).outcome, ActionOutcome::TokenChanged);
    EXPECT_EQ(actions.release("lock:r", Holder::ofToken("2")).outcome, ActionOutcome::TokenChanged);
    seen.fields = {{holder, "2"}};
    EXPECT_EQ(actions.release("lock:r", seen).outcome, ActionOutcome::Done);
    EXPECT_EQ(keyCount(), 0);
}

TEST_F(SafeActionsTest, ForceDeleteNeedsConfirmation) {
    Connection c = connect();
    AuditLog audit(auditPath);
    SafeActions actions(c, &audit);
    c.command({"SET", "lock:x", "whoever"});
    auto refused = actions.forceDelete("lock:x", false);
    EXPECT_EQ(refused.outcome, ActionOutcome::Refused);
    EXPECT_EQ(keyCount(), 1);
    EXPECT_EQ(actions.forceDelete("lock:x", true).outcome, ActionOutcome::Done);
    EXPECT_EQ(keyCount(), 0);
    EXPECT_EQ(actions.forceDelete("lock:x", true).outcome, ActionOutcome::NotFound);
    auto lines = readResults(auditPath);
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0]["result"], "refused");
    EXPECT_EQ(lines[1]["result"], "done");
    EXPECT_EQ(lines[1]["token_seen"], "whoever");
    EXPECT_EQ(lines[1]["action"], "force-delete");
}

TEST_F(SafeActionsTest, ReadOnlyConnectionRefusesEveryActionAndSendsNoWrite) {
    Connection writer = connect();
    writer.command({"SET", "lock:a", "tok"});
    Connection c = connect({.readOnly = true});
    AuditLog audit(auditPath);
    SafeActions actions(c, &audit);
    auto before = observer().command({"INFO", "commandstats"});
    EXPECT_EQ(actions.release("lock:a", Holder::ofToken("tok")).outcome, ActionOutcome::Refused);
    EXPECT_EQ(actions.expire("lock:a", Holder::ofToken("tok"), 1000ms).outcome,
              ActionOutcome::Refused);
    auto del = actions.forceDelete("lock:a", true);
    EXPECT_EQ(del.outcome, ActionOutcome::Refused);
    EXPECT_TRUE(contains(del.message, "read-only")) << del.message;
    EXPECT_EQ(writer.command({"GET", "lock:a"}).text(), "tok");
    for (const char* cmd : {"evalsha", "eval", "del", "pexpire", "type", "get"})
        EXPECT_EQ(commandCalls(observer(), cmd), cmd == std::string("get") ? 1 : 0) << cmd;
    auto lines = readAudit(auditPath);
    ASSERT_EQ(lines.size(), 3u);
    for (const auto& l : lines) EXPECT_EQ(l["result"], "refused");
}

TEST_F(SafeActionsTest, TruncatedValueCannotBeReleased) {
    Connection c = connect();
    c.command({"SET", "lock:huge", std::string(1 << 20, 'x')});
    auto records = lockscope::testing::scanAll(c);
    ASSERT_EQ(records.size(), 1u);
    ASSERT_TRUE(records[0].truncated);
    SafeActions actions(c, nullptr);
    EXPECT_EQ(actions.release("lock:huge", Holder::of(records[0])).outcome, ActionOutcome::Refused);
    EXPECT_EQ(keyCount(), 1);
}

TEST_F(SafeActionsTest, HolderChangesBetweenObservationAndReleaseNeverCauseAWrongDeletion) {
    Connection c = connect();
    Connection other = Connection::open(endpoint());
    SafeActions actions(c, nullptr);
    Scanner scanner(c);
    std::mt19937 rng(42);  // test-only randomness: which trials change hands
    int wrongDeletions = 0, released = 0, refused = 0;
    for (int trial = 0; trial < 1000; ++trial) {
        std::string key = "lock:{t" + std::to_string(trial % 7) + "}";
        std::string mine = "holder-a-" + std::to_string(trial);
        other.command({"SET", key, mine, "PX", "10000"});
        auto seen = scanner.readKeys({key});
        ASSERT_EQ(seen.size(), 1u);
        int change =
            static_cast<int>(rng() % 3);  // 0: unchanged, 1: new holder, 2: expired and retaken
        std::string theirs = "holder-b-" + std::to_string(trial);
        if (change == 1) other.command({"SET", key, theirs, "PX", "10000"});
        if (change == 2) {
            other.command({"DEL", key});
            other.command({"SET", key, theirs, "NX", "PX", "10000"});
        }
        auto result = actions.release(key, Holder::of(seen[0]));
        Reply now = other.command({"GET", key});
        if (change == 0) {
            released += result.outcome == ActionOutcome::Done;
            EXPECT_TRUE(now.isNil());
        } else {
            refused += result.outcome == ActionOutcome::TokenChanged;
            if (now.isNil() || now.text() != theirs) ++wrongDeletions;
        }
        other.command({"DEL", key});
    }
    EXPECT_EQ(wrongDeletions, 0);
    EXPECT_EQ(released + refused, 1000);
}

TEST_F(SafeActionsTest, RacingHolderThreadNeverLosesItsLock) {
    // A second client takes the lock with a new token as fast as it can, and checks after each
    // SET whether its lock is still there. The operator releases whatever token it saw. A
    // lock of the holder may vanish only through a release of exactly its token.
    Connection c = connect();
    SafeActions actions(c, nullptr);
    std::atomic<bool> stop{false};
    std::vector<std::string> lostByHolder;
    std::thread holder([&] {
        Connection h = Connection::open(endpoint());
        for (long i = 0; !stop; ++i) {
            std::string token = "b-" + std::to_string(i);
            h.command({"SET", "lock:{race}", token});
            if (h.command({"GET", "lock:{race}"}).isNil()) lostByHolder.push_back(token);
        }
    });
    std::set<std::string> releasedByOperator;
    int changed = 0;
    // At least 1000 trials, and more until the race has really happened: on a busy machine
    // the holder thread may get no CPU during the first thousand.
    for (int trial = 0; trial < 1000 || (changed == 0 && trial < 100'000); ++trial) {
        Reply seen = c.command({"GET", "lock:{race}"});
        if (seen.isNil()) continue;
        std::string token(seen.text());
        auto r = actions.release("lock:{race}", Holder::ofToken(token));
        if (r.outcome == ActionOutcome::Done) releasedByOperator.insert(token);
        changed += r.outcome == ActionOutcome::TokenChanged;
    }
    stop = true;
    holder.join();
    for (const auto& lost : lostByHolder) EXPECT_TRUE(releasedByOperator.count(lost)) << lost;
    EXPECT_GT(changed, 0);  // the race really happened
}

TEST(AuditLogFile, BadPathsAndEscapes) {
    EXPECT_THROW(AuditLog(""), Error);
    EXPECT_THROW(AuditLog("/proc/lockscope/audit.jsonl"), Error);
    AuditEntry e;
    e.instance = "redis://127.0.0.1:1";
    e.key = std::string("lock:\0\xff", 7);
    e.tokenSeen = std::string("\xc3\x28", 2);  // invalid UTF-8
    e.action = "release";
    e.result = "done";
    auto j = nlohmann::json::parse(AuditLog::format(e, "2026-01-01T00:00:00.000Z"));
    EXPECT_EQ(j["key"], "lock:\\x00\\xff");
    EXPECT_EQ(j["key_escaped"], true);
    EXPECT_EQ(j["token_seen"], "\\xc3(");
    EXPECT_EQ(j["token_escaped"], true);
}

TEST(AuditLogFile, DefaultPathFollowsTheEnvironment) {
    setenv("LOCKSCOPE_AUDIT_LOG", "/tmp/x/audit.jsonl", 1);
    EXPECT_EQ(AuditLog::defaultPath(), "/tmp/x/audit.jsonl");
    unsetenv("LOCKSCOPE_AUDIT_LOG");
    setenv("XDG_STATE_HOME", "/tmp/state", 1);
    EXPECT_EQ(AuditLog::defaultPath(), "/tmp/state/lockscope/audit.jsonl");
    unsetenv("XDG_STATE_HOME");
    EXPECT_TRUE(AuditLog::defaultPath().ends_with("/.local/state/lockscope/audit.jsonl"));
}
