// The verdict rule, the readers' parsers on hostile input, the BullMQ and Bull formats, and
// their release (the lock only, never the job).
#include <gtest/gtest.h>

#include "liveness/client_list.h"
#include "liveness/job_queue_evidence.h"
#include "liveness/sidekiq_evidence.h"
#include "lockscope/inspect/library_release.h"
#include "lockscope/inspect/liveness/holder_verdict.h"
#include "lockscope/inspect/value_classifier.h"
#include "redis_fixture.h"

namespace {

using namespace lockscope::inspect;
using namespace std::chrono_literals;

Evidence at(Verdict v, WallClock::time_point t, const char* text = "x") {
    Evidence e;
    e.text = text;
    e.pointsTo = v;
    e.seenAt = t;
    return e;
}

TEST(HolderVerdict, GoneNeedsPositiveEvidenceAndLifeSeenLaterWins) {
    const auto t = WallClock::now();
    EXPECT_EQ(weigh({}).verdict, Verdict::Unknown);
    EXPECT_EQ(weigh({at(Verdict::Unknown, t)}).verdict, Verdict::Unknown);
    EXPECT_EQ(weigh({at(Verdict::Gone, t)}).verdict, Verdict::Gone);
    EXPECT_EQ(weigh({at(Verdict::Alive, t)}).verdict, Verdict::Alive);
    // Renewed at t, its worker gone from t+2 s: it lived, then it died.
    EXPECT_EQ(weigh({at(Verdict::Alive, t), at(Verdict::Gone, t + 2s)}).verdict, Verdict::Gone);
    // Gone seen first, then a renewal: it is alive (the absence was wrong or brief).
    EXPECT_EQ(weigh({at(Verdict::Gone, t), at(Verdict::Alive, t + 1s)}).verdict, Verdict::Alive);
    EXPECT_EQ(weigh({at(Verdict::Gone, t), at(Verdict::Alive, t)}).verdict, Verdict::Alive);
    auto v = weigh({at(Verdict::Gone, t, "its worker left")});
    EXPECT_EQ(describeVerdict(v), "gone: its worker left");
}

TEST(ClientListParse, KeepsNamedConnectionsAndSurvivesHostileText) {
    std::size_t total = 0;
    auto named = liveness::parseClientList(
        "id=3 addr=127.0.0.1:5000 laddr=x fd=8 name= age=10 idle=0\n"
        "id=4 addr=127.0.0.1:5001 fd=9 name=bull:cmVwb3J0cw== age=12 idle=1\r\n"
        "garbage without pairs\n=\n\xff\xfe name=x\nid=5 name=a=b\n",
        &total);
    EXPECT_EQ(total, 3u);
    ASSERT_EQ(named.size(), 2u);
    EXPECT_EQ(named[0].name, "bull:cmVwb3J0cw==");
    EXPECT_EQ(named[0].ageSeconds, 12);
    EXPECT_EQ(named[1].name, "a=b");
    EXPECT_TRUE(liveness::parseClientList("").empty());
    std::string huge(1 << 20, 'x');
    EXPECT_TRUE(liveness::parseClientList(huge).empty());
}

TEST(JobLockKey, ParsesFromTheRightAndRefusesOtherShapes) {
    auto k = liveness::parseJobLockKey("bull:reports:42:lock");
    ASSERT_TRUE(k);
    EXPECT_EQ(k->prefix, "bull");
    EXPECT_EQ(k->queue, "reports");
    EXPECT_EQ(k->jobId, "42");
    EXPECT_EQ(k->activeKey(), "bull:reports:active");
    auto tagged = liveness::parseJobLockKey("{app}:bull:q:7:lock");
    ASSERT_TRUE(tagged);
    EXPECT_EQ(tagged->prefix, "{app}:bull");
    for (const char* bad : {"lock", ":lock", "q:1:lock", "::1:lock", "bull::1:lock", "bull:q::lock",
                            "bull:q:1:lockx", ""})
        EXPECT_FALSE(liveness::parseJobLockKey(bad)) << bad;
    EXPECT_EQ(liveness::base64("reports"), "cmVwb3J0cw==");
    EXPECT_EQ(liveness::base64("emails"), "ZW1haWxz");
    EXPECT_EQ(liveness::base64("ab"), "YWI=");
    EXPECT_EQ(liveness::workerConnectionName(*k), "bull:cmVwb3J0cw==");
}

TEST(JobQueueFormats, BullMqAndBullTokensAreTold) {
    // Values written by the real libraries (seen with bullmq 5.34 and bull 4.16).
    EXPECT_EQ(classifyString("bull:emails:1:lock", "01b032e1-e15d-43d9-ab3f-3ed4d8283b82:0", false),
              LockKind::BullMQ);
    EXPECT_EQ(classifyString("bull:emails:1:lock", "aef778b6-b156-4db1-9a0f-5d91cc5ebee1", false),
              LockKind::Bull);
    EXPECT_EQ(toString(LockKind::BullMQ), std::string("bullmq"));
    EXPECT_EQ(toString(LockKind::Bull), std::string("bull"));
    // Not a job lock key, or not a token of theirs.
    EXPECT_NE(classifyString("app:lock", "01b032e1-e15d-43d9-ab3f-3ed4d8283b82:0", false),
              LockKind::BullMQ);
    EXPECT_NE(classifyString("bull:emails:1:lock", "01b032e1-e15d-43d9-ab3f-3ed4d8283b82:x", false),
              LockKind::BullMQ);
    auto [offset, length] = resourceSpan("bull:emails:1:lock");
    EXPECT_EQ(std::string("bull:emails:1:lock").substr(offset, length), "emails:1");
}

TEST(SidekiqWork, JidOfWorkReadsBothPayloadShapesAndRefusesGarbage) {
    std::string queue;
    std::optional<std::int64_t> runAt;
    auto jid = liveness::jidOfWork(
        R"({"queue":"default","payload":"{\"class\":\"R\",\"jid\":\"abc\"}","run_at":1700000000})",
        &queue, &runAt);
    ASSERT_TRUE(jid);
    EXPECT_EQ(*jid, "abc");
    EXPECT_EQ(queue, "default");
    EXPECT_EQ(runAt, 1700000000);
    EXPECT_EQ(liveness::jidOfWork(R"({"payload":{"jid":"def"}})"), "def");
    for (const char* bad : {"", "{", "[]", R"({"payload":42})", R"({"payload":"{\"jid\":7}"})",
                            R"({"payload":"{\"jid\":\"\"}"})", "\xff\xfe"})
        EXPECT_FALSE(liveness::jidOfWork(bad)) << bad;
}

class JobLockRelease : public lockscope::testing::RedisTest {};

TEST_F(JobLockRelease, DeletesTheLockOnlyAndSaysWhatTheStalledCheckDoes) {
    auto& o = observer();
    o.command(
        {"SET", "bull:emails:1:lock", "01b032e1-e15d-43d9-ab3f-3ed4d8283b82:0", "PX", "30000"});
    o.command({"HSET", "bull:emails:1", "name", "report", "processedOn", "1796422578241"});
    o.command({"LPUSH", "bull:emails:active", "1"});
    auto c = connect();
    LockRecord seen;
    seen.key = "bull:emails:1:lock";
    seen.token = "01b032e1-e15d-43d9-ab3f-3ed4d8283b82:0";
    seen.kind = LockKind::BullMQ;
    ASSERT_TRUE(hasLibraryRelease(seen.kind));
    auto result = LibraryRelease(c, nullptr).release(seen);
    EXPECT_EQ(result.outcome, ActionOutcome::Done) << result.message;
    EXPECT_NE(result.message.find("stalled-job check"), std::string::npos) << result.message;
    EXPECT_EQ(o.command({"EXISTS", "bull:emails:1:lock"}).integer(), 0);
    EXPECT_EQ(o.command({"EXISTS", "bull:emails:1"}).integer(), 1);
    EXPECT_EQ(o.command({"LLEN", "bull:emails:active"}).integer(), 1);
    // A token that changed hands is not deleted.
    o.command({"SET", "bull:emails:1:lock", "aef778b6-b156-4db1-9a0f-5d91cc5ebee1", "PX", "30000"});
    seen.kind = LockKind::Bull;
    seen.token = "0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9";
    EXPECT_EQ(LibraryRelease(c, nullptr).release(seen).outcome, ActionOutcome::TokenChanged);
    EXPECT_EQ(o.command({"EXISTS", "bull:emails:1:lock"}).integer(), 1);
}

}  // namespace
