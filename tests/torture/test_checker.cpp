// The checker on hand-made histories whose violations are known.

#include <gtest/gtest.h>

#include "lockscope/torture/checker.h"

namespace lockscope::torture {
namespace {

Op acquired(int worker, int round, std::int64_t t, std::optional<std::int64_t> fence = {}) {
    Op op;
    op.type = OpType::Ok;
    op.f = "acquire";
    op.process = worker;
    op.round = round;
    op.timeNs = t;
    op.fence = fence;
    return op;
}

Op written(std::int64_t seq, int writer, int round, std::optional<std::int64_t> fence,
           bool accepted, const char* phase, std::int64_t t) {
    Op op;
    op.type = OpType::Ok;
    op.f = "write";
    op.process = kResource;
    op.seq = seq;
    op.writer = writer;
    op.round = round;
    op.fence = fence;
    op.accepted = accepted;
    op.phase = phase;
    op.timeNs = t;
    return op;
}

Op releaseFailed(int worker, int round, std::int64_t t) {
    Op op;
    op.type = OpType::Fail;
    op.f = "release";
    op.process = worker;
    op.round = round;
    op.timeNs = t;
    return op;
}

Op fault(const char* kind, const char* phase, std::int64_t t) {
    Op op;
    op.type = OpType::Info;
    op.f = kind;
    op.process = kNemesis;
    op.phase = phase;
    op.timeNs = t;
    return op;
}

TEST(TortureChecker, SequentialSectionsAreClean) {
    History h{acquired(0, 1, 0, 1),
              written(1, 0, 1, 1, true, "begin", 10),
              written(2, 0, 1, 1, true, "end", 20),
              acquired(1, 1, 30, 2),
              written(3, 1, 1, 2, true, "begin", 40),
              written(4, 1, 1, 2, true, "end", 50)};
    Verdict v = check(h, 1.0);
    EXPECT_EQ(v.acquisitions, 2);
    EXPECT_EQ(v.overlaps, 0);
    EXPECT_EQ(v.staleWritesAccepted, 0);
    EXPECT_EQ(v.staleWritesRejected, 0);
    EXPECT_EQ(v.lostLocks, 0);
    EXPECT_EQ(v.writes, 4);
    EXPECT_DOUBLE_EQ(v.throughputPerS, 2.0);
    EXPECT_FALSE(v.overlapWindow);
}

TEST(TortureChecker, InterleavedSectionsAreAnOverlapFromTheResourceOrder) {
    // Worker 0 paused after its begin; worker 1 got the lock and wrote; worker 0 woke and
    // wrote its end. Times are deliberately misleading: the resource's order decides.
    History h{written(1, 0, 1, 5, true, "begin", 100),
              written(2, 1, 1, 6, true, "begin", 50),
              written(3, 1, 1, 6, true, "end", 60),
              written(4, 0, 1, 5, true, "end", 900),
              releaseFailed(0, 1, 950),
              fault("pause", "start", 20)};
    Verdict v = check(h, 2.0);
    EXPECT_EQ(v.overlaps, 1);
    ASSERT_TRUE(v.overlapWindow);
    EXPECT_NE(v.overlapWindow->what.find("worker 1"), std::string::npos);
    // Fence 5 ended after fence 6 had been accepted: a stale write taken by the resource.
    EXPECT_EQ(v.staleWritesAccepted, 1);
    ASSERT_TRUE(v.staleWriteWindow);
    EXPECT_EQ(v.staleWriteWindow->toNs, 900);
    EXPECT_EQ(v.lostLocks, 1);
    EXPECT_EQ(v.faultsInjected.at("pause"), 1);
}

TEST(TortureChecker, RejectedStaleWritesAreCountedAsRejected) {
    History h{written(1, 0, 1, 5, true, "begin", 1), written(2, 1, 1, 6, true, "begin", 2),
              written(3, 0, 1, 5, false, "end", 3), written(4, 1, 1, 6, true, "end", 4)};
    Verdict v = check(h, 1.0);
    EXPECT_EQ(v.overlaps, 1);  // they were both inside: fencing made it harmless
    EXPECT_EQ(v.staleWritesAccepted, 0);
    EXPECT_EQ(v.staleWritesRejected, 1);
}

TEST(TortureChecker, AnEqualFenceFromAnotherHolderIsStale) {
    History h{written(1, 0, 1, 7, true, "begin", 1), written(2, 0, 1, 7, true, "end", 2),
              written(3, 1, 1, 7, true, "begin", 3), written(4, 1, 1, 7, true, "end", 4)};
    Verdict v = check(h, 1.0);
    EXPECT_EQ(v.overlaps, 0);
    EXPECT_EQ(v.staleWritesAccepted, 2);
}

TEST(TortureChecker, WithoutFencesStaleWritesAreNotApplicable) {
    History h{written(1, 0, 1, std::nullopt, true, "begin", 1),
              written(2, 1, 1, std::nullopt, true, "begin", 2),
              written(3, 0, 1, std::nullopt, true, "end", 3)};
    Verdict v = check(h, 1.0);
    EXPECT_EQ(v.overlaps, 1);
    EXPECT_FALSE(v.staleWritesAccepted);
}

TEST(TortureChecker, ReportsTheShortestOfSeveralOverlaps) {
    History h{written(1, 0, 1, {}, true, "begin", 0),    written(2, 1, 1, {}, true, "begin", 10),
              written(3, 0, 1, {}, true, "end", 1000),   written(4, 1, 1, {}, true, "end", 1010),
              written(5, 2, 1, {}, true, "begin", 2000), written(6, 3, 1, {}, true, "begin", 2001),
              written(7, 2, 1, {}, true, "end", 2002),   written(8, 3, 1, {}, true, "end", 2003)};
    Verdict v = check(h, 1.0);
    EXPECT_EQ(v.overlaps, 2);
    ASSERT_TRUE(v.overlapWindow);
    EXPECT_EQ(v.overlapWindow->fromNs, 2000);
    EXPECT_EQ(v.overlapWindow->toNs, 2003);
}

TEST(TortureChecker, AnEmptyHistoryHasNothingToReport) {
    Verdict v = check({}, 0);
    EXPECT_EQ(v.acquisitions, 0);
    EXPECT_EQ(v.overlaps, 0);
    EXPECT_FALSE(v.staleWritesAccepted);
    EXPECT_EQ(v.throughputPerS, 0);
}

}  // namespace
}  // namespace lockscope::torture
