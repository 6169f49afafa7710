// SafeActions where the server refuses scripting (an ACL user without @scripting, as on some
// managed caches): release and expire take the WATCH/MULTI/EXEC path with the script's
// checks, the audit log and the message say which path ran, and a holder that changes
// between observation and release is never deleted. Before, every action was "denied".
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "inspect_helpers.h"
#include "lockscope/inspect/audit_log.h"
#include "lockscope/inspect/safe_actions.h"
#include "no_scripting_server.h"
#include "redis_fixture.h"

using namespace lockscope;
using namespace lockscope::inspect;
using namespace std::chrono_literals;
using lockscope::testing::contains;
using lockscope::testing::RedisTest;
using lockscope::testing::TempDir;

namespace {

class NoScriptingActions : public lockscope::testing::NoScriptingServerTest {
  protected:
    std::vector<nlohmann::json> auditResults() {
        std::vector<nlohmann::json> lines;
        std::ifstream in(auditPath);
        for (std::string l; std::getline(in, l);) {
            auto j = nlohmann::json::parse(l);
            if (j["phase"] == "result") lines.push_back(j);
        }
        return lines;
    }
    TempDir dir;
    std::string auditPath = dir.path("audit.jsonl");
};

}  // namespace

TEST_F(NoScriptingActions, ReleaseAndExpireRunByWatchMultiExecAndSaySo) {
    Connection c = asCacheUser();
    ASSERT_THROW(c.command({"EVAL", "return 1", "0"}), PermissionError);
    AuditLog audit(auditPath);
    SafeActions actions(c, &audit);
    Connection& o = observer();
    o.command({"SET", "lock:{a}", "tok-a"});  // an orphan without TTL

    EXPECT_EQ(actions.expire("lock:{a}", Holder::ofToken("other"), 5000ms).outcome,
              ActionOutcome::TokenChanged);
    EXPECT_EQ(o.command({"PTTL", "lock:{a}"}).integer(), -1);
    auto expired = actions.expire("lock:{a}", Holder::ofToken("tok-a"), 5000ms);
    EXPECT_EQ(expired.outcome, ActionOutcome::Done) << expired.message;
    EXPECT_TRUE(contains(expired.message, "WATCH/MULTI/EXEC")) << expired.message;
    EXPECT_GT(o.command({"PTTL", "lock:{a}"}).integer(), 4000);
    // Seen without a TTL, it has one now: the holder is alive, leave it (the script's -2).
    EXPECT_EQ(actions.expire("lock:{a}", Holder::ofToken("tok-a"), 9000ms).outcome,
              ActionOutcome::TtlChanged);
    // Seen with a TTL: only ever lengthened (-3 when it would shrink).
    Holder withTtl = Holder::ofToken("tok-a");
    withTtl.sawTtl = true;
    EXPECT_EQ(actions.expire("lock:{a}", withTtl, 1000ms).outcome, ActionOutcome::TtlChanged);

    EXPECT_EQ(actions.release("lock:{a}", Holder::ofToken("other")).outcome,
              ActionOutcome::TokenChanged);
    EXPECT_EQ(o.command({"EXISTS", "lock:{a}"}).integer(), 1);
    auto released = actions.release("lock:{a}", Holder::ofToken("tok-a"));
    EXPECT_EQ(released.outcome, ActionOutcome::Done) << released.message;
    EXPECT_EQ(o.command({"EXISTS", "lock:{a}"}).integer(), 0);
    EXPECT_EQ(actions.release("lock:{a}", Holder::ofToken("tok-a")).outcome,
              ActionOutcome::NotFound);

    // A Redisson hash: its fields compared as the script does, in any order.
    o.command({"HSET", "lock:{h}", "6a7e3c2e-52a4-4d5c-9a1b-0c8d2e1f3a4b:1", "2"});
    Holder hash;
    hash.fields = {{"6a7e3c2e-52a4-4d5c-9a1b-0c8d2e1f3a4b:1", "1"}};
    EXPECT_EQ(actions.release("lock:{h}", hash).outcome, ActionOutcome::TokenChanged);
    hash.fields[0].value = "2";
    EXPECT_EQ(actions.release("lock:{h}", hash).outcome, ActionOutcome::Done);
    EXPECT_EQ(o.command({"EXISTS", "lock:{h}"}).integer(), 0);

    auto results = auditResults();
    ASSERT_EQ(results.size(), 9u);
    for (const auto& r : results) EXPECT_EQ(r["path"], "WATCH/MULTI/EXEC") << r.dump();
    EXPECT_EQ(results[1]["result"], "done");
}

TEST_F(NoScriptingActions, AHolderThatChangesBeforeTheReleaseIsNeverDeleted) {
    Connection c = asCacheUser();
    Connection racer = connect();
    SafeActions actions(c, nullptr);
    std::mt19937 rng(7);
    int wrong = 0, released = 0, leftAlone = 0;
    constexpr int kTrials = 300;
    for (int trial = 0; trial < kTrials; ++trial) {
        observer().command({"SET", "lock:{r}", "old"});
        const int spin = static_cast<int>(rng() % 300);
        std::atomic<bool> go{false};
        std::thread other([&] {
            while (!go.load()) {
            }
            std::this_thread::sleep_for(std::chrono::microseconds(spin));
            racer.command({"SET", "lock:{r}", "new"});
        });
        go.store(true);
        auto r = actions.release("lock:{r}", Holder::ofToken("old"));
        other.join();
        Reply now = observer().command({"GET", "lock:{r}"});
        if (now.type() != ReplyType::String || now.text() != "new") ++wrong;
        (r.outcome == ActionOutcome::Done ? released : leftAlone)++;
    }
    EXPECT_EQ(wrong, 0);
    EXPECT_EQ(released + leftAlone, kTrials);
}
