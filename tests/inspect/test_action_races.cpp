// Issue 17's bounded runs on the operator's actions: expire racing a live holder, many
// concurrent actions on one audit log, and the intent written before anything is sent.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include "inspect_helpers.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/audit_log.h"
#include "lockscope/inspect/safe_actions.h"
#include "redis_fixture.h"

using namespace lockscope;
using namespace lockscope::inspect;
using namespace std::chrono_literals;
using lockscope::testing::commandCalls;
using lockscope::testing::RedisTest;
using lockscope::testing::TempDir;

namespace {

class ActionRaceTest : public RedisTest {
  protected:
    TempDir dir;
    std::string auditPath = dir.path("audit.jsonl");
};

}  // namespace

// The operator saw an orphan (no TTL) and sets a short TTL while its holder, alive after all,
// gives it a long one. Whichever comes first, the lock must end with the holder's TTL: an
// expire after the holder's PEXPIRE would cut it short and let a second holder in.
TEST_F(ActionRaceTest, ExpireNeverShortensTheTtlOfAHolderThatSetsOne) {
    Connection c = connect();
    Connection holder = Connection::open(endpoint());
    SafeActions actions(c, nullptr);
    int done = 0, leftAlone = 0, shortened = 0;
    for (int i = 0; i < 1000; ++i) {
        holder.command({"SET", "lock:{job}", "holder"});  // an orphan, as the operator saw
        std::thread renew([&] { holder.command({"PEXPIRE", "lock:{job}", "60000"}); });
        auto r = actions.expire("lock:{job}", Holder::ofToken("holder"), 200ms);
        renew.join();
        done += r.outcome == ActionOutcome::Done;
        leftAlone += r.outcome == ActionOutcome::TtlChanged;
        if (c.command({"PTTL", "lock:{job}"}).integer() < 50000) ++shortened;
    }
    std::printf("expire races: %d done before the holder's TTL, %d left alone, %d shortened\n",
                done, leftAlone, shortened);
    EXPECT_EQ(shortened, 0);
    EXPECT_EQ(done + leftAlone, 1000);
}

// 500 actions from 10 writers (each its own connection and its own AuditLog on one file, as
// separate processes would be): every line is whole JSON, every intent has its one result.
TEST_F(ActionRaceTest, FiveHundredConcurrentActionsKeepTheAuditLogWhole) {
    constexpr int kWriters = 10, kEach = 50;
    std::vector<std::thread> writers;
    for (int w = 0; w < kWriters; ++w)
        writers.emplace_back([&, w] {
            Connection c = Connection::open(endpoint());
            AuditLog audit(auditPath);
            SafeActions actions(c, &audit);
            for (int i = 0; i < kEach; ++i) {
                std::string key = "lock:{w" + std::to_string(w) + "-" + std::to_string(i) + "}";
                c.command({"SET", key, "tok", "PX", "60000"});
                auto token = i % 3 == 0 ? "other" : "tok";  // some are refused
                actions.release(key, Holder::ofToken(token));
            }
        });
    for (auto& t : writers) t.join();
    std::ifstream in(auditPath);
    std::map<std::string, int> intents, results;
    int lines = 0;
    for (std::string line; std::getline(in, line); ++lines) {
        nlohmann::json j = nlohmann::json::parse(line);  // throws on a torn line
        (j["phase"] == "intent" ? intents : results)[j["id"]]++;
    }
    std::printf("audit log: %d lines, %zu intents, %zu results\n", lines, intents.size(),
                results.size());
    EXPECT_EQ(lines, 2 * kWriters * kEach);
    EXPECT_EQ(intents.size(), static_cast<std::size_t>(kWriters * kEach));
    EXPECT_EQ(intents, results);  // the same ids, once each
}

TEST_F(ActionRaceTest, NothingIsSentWhenTheIntentCannotBeWritten) {
    Connection c = connect();
    c.command({"SET", "lock:{a}", "tok", "PX", "60000"});
    AuditLog full("/dev/full");
    SafeActions actions(c, &full);
    EXPECT_THROW(actions.release("lock:{a}", Holder::ofToken("tok")), StorageError);
    EXPECT_THROW(actions.expire("lock:{a}", Holder::ofToken("tok"), 1000ms), StorageError);
    EXPECT_THROW(actions.forceDelete("lock:{a}", true), StorageError);
    EXPECT_EQ(observer().command({"GET", "lock:{a}"}).text(), "tok");
    for (const char* cmd : {"evalsha", "eval", "del", "pexpire"})
        EXPECT_EQ(commandCalls(observer(), cmd), 0) << cmd;
}
