// Issue 19, "the guide's causal chain, and honest defaults" (items 11-14).

#include <gtest/gtest.h>

#include "lockscope/sim/model_redis.h"
#include "sim_test_support.h"

using namespace lockscope::sim;
using namespace lockscope::sim::testing;

namespace {

const TimelineEvent* firstEvent(const Recording& r, EventKind kind, const std::string& actor,
                                const std::string& detailPart = {}) {
    for (const auto& e : r.events)
        if (e.kind == kind && e.actor == actor && e.detail.find(detailPart) != std::string::npos)
            return &e;
    return nullptr;
}

}  // namespace

// Item 11: with its defaults the broken report follows the guide's chain: A's lock expires
// mid-run, B takes it, A's DEL removes B's lock, and that lets C start while B still works.
TEST(StoryCauses, TheBrokenReportFollowsTheGuidesChain) {
    RunResult run = simulate("broken-report");
    const Recording& r = run.recording;
    EXPECT_EQ(run.outcome.emailsSent, 3);
    EXPECT_EQ(run.outcome.duplicateRuns, 2);
    EXPECT_EQ(run.outcome.duplicatesAfterLockLost, 2);
    EXPECT_EQ(run.outcome.duplicatesAfterJobDone, 0);
    EXPECT_GE(run.outcome.corruptedWrites, 1);
    const TimelineEvent* expired = firstEvent(r, EventKind::KeyExpired, "redis");
    const TimelineEvent* bStarts = firstEvent(r, EventKind::RunStarted, "B");
    const TimelineEvent* aDeletes = firstEvent(r, EventKind::KeyChanged, "A", "deleted by A");
    const TimelineEvent* cStarts = firstEvent(r, EventKind::RunStarted, "C");
    const TimelineEvent* bDone = firstEvent(r, EventKind::RunCompleted, "B");
    const TimelineEvent* aDone = firstEvent(r, EventKind::RunCompleted, "A");
    ASSERT_TRUE(expired && bStarts && aDeletes && cStarts && bDone && aDone);
    EXPECT_EQ(expired->time, 10001);  // Redis 7: gone the ms after its deadline
    EXPECT_LT(expired->index, bStarts->index);
    EXPECT_LT(bStarts->index, aDone->index);     // B starts while A still works
    EXPECT_LT(aDeletes->index, cStarts->index);  // A's DEL of B's lock comes first...
    EXPECT_LT(cStarts->index, bDone->index);     // ...and C starts while B still works
    EXPECT_EQ(run.outcome.foreignDeletions, 2);  // A deletes B's lock, B deletes C's
}

// Items 11 and 12: a healthy night is not called slow, and its duplicate is a later instance
// running a finished job, which no lock can stop (the date key does).
TEST(StoryCauses, AHealthyNightHasOneDuplicateThatNoLockCouldStop) {
    RunResult run = simulate("broken-report", {"db_slow_until_ms=0"});
    EXPECT_EQ(run.outcome.emailsSent, 2);
    EXPECT_EQ(run.outcome.duplicatesAfterJobDone, 1);
    EXPECT_EQ(run.outcome.duplicatesAfterLockLost, 0);
    EXPECT_EQ(run.outcome.foreignDeletions, 0);
    for (const auto& b : run.recording.beats) {
        EXPECT_EQ(b.narration.find("slow until"), std::string::npos) << b.narration;
        EXPECT_EQ(b.narration.find("cannot all hold"), std::string::npos) << b.narration;
    }
}

// Item 13: the client's EVALSHA → EVAL fallback is in the transcript: a fresh server answers
// NOSCRIPT once per script, and EVAL runs and caches it.
TEST(StoryCauses, TheNoScriptFallbackIsShown) {
    RunResult run = simulate("expiry-race");
    int noscript = 0, eval = 0, evalsha = 0;
    for (const auto& e : run.recording.events) {
        if (e.kind != EventKind::Command) continue;
        noscript += e.reply.starts_with("(error) NOSCRIPT");
        eval += e.command.starts_with("EVAL \"");
        evalsha += e.command.starts_with("EVALSHA ") && !e.reply.starts_with("(error)");
    }
    EXPECT_EQ(noscript, 3);  // acquire, extend, release: each once on the fresh server
    EXPECT_EQ(eval, 3);
    EXPECT_EQ(evalsha, 2);  // b's two acquires find the script cached
    EXPECT_EQ(run.outcome.printed.front(), "True 1");
}

TEST(StoryCauses, APromotedReplicaHasNoScriptsCached) {
    ModelRedis primary, replica;
    RedisCommand eval = RedisCommand::release("lock:r", "t");
    eval.sendSource = true;
    EXPECT_EQ(primary.execute(eval, 0), CommandReply::number(0));
    EXPECT_EQ(primary.execute(RedisCommand::release("lock:r", "t"), 0), CommandReply::number(0));
    replica.apply("lock:r", ModelEntry{"t", {}});  // replication carries effects, not scripts
    EXPECT_TRUE(replica.execute(RedisCommand::release("lock:r", "t"), 0).isNoScript());
    // In the failover story client1's release on the promoted r2 falls back to EVAL.
    RunResult run = simulate("failover");
    bool fellBack = false;
    for (const auto& e : run.recording.events)
        if (e.actor == "client1" && e.command.starts_with("r2> EVALSHA") &&
            e.reply.starts_with("(error) NOSCRIPT"))
            fellBack = true;
    EXPECT_TRUE(fellBack);
}

// Item 14: the failover says why the replica it promotes was chosen.
TEST(StoryCauses, TheFailoverSaysWhyItPromotesThatReplica) {
    for (const auto& [promote, reason] :
         {std::pair<std::string, std::string>{"promote=3", "r2 cannot be reached"},
          {"promote=2", "the smallest lag"}}) {
        RunResult run = simulate("failover", {"wait=1", "failover_at_ms=100", promote});
        int failover = -1;
        for (const auto& b : run.recording.beats)
            if (run.recording.events[b.eventIndex].kind == EventKind::Failover) failover = b.index;
        ASSERT_GE(failover, 0);
        EXPECT_NE(run.recording.beats[failover].narration.find(reason), std::string::npos)
            << run.recording.beats[failover].narration;
        for (const auto& b : run.recording.beats)
            EXPECT_EQ(b.narration.find("cannot choose which replica"), std::string::npos);
    }
}
