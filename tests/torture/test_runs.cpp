// Every client × fault that the README's table names, as short seeded runs against real
// servers, asserting the direction of the verdict: violations where the design allows
// them, no stale write accepted where the resource checks fences.

#include <unistd.h>

#include "lockscope/torture/report.h"
#include "torture_run_support.h"

namespace lockscope::torture {
namespace {

using testing::processGone;
using testing::shortRun;
using testing::startedPids;
using testing::tempPidFile;

// Measured: the run shows no overlap, against the table's expectation; the README says why
// (Redlock keeps a majority when one or two of five nodes fail under a holder of all five).
// Unsafe: two holders at once, or a stale write accepted. A restart without persistence
// wipes the lock and the fence counter alike, so in a short run the guide's client shows its
// unsafety as fences going back (stale writes accepted) more often than as an overlap (12
// overlaps in 20 restarts in the README's long run; none in a loaded 2.5 s run).
enum class Expect { Overlaps, Unsafe, NoStaleWriteAccepted, Measured };

bool showsUnsafety(const Verdict& v) {
    return v.overlaps > 0 || (v.staleWritesAccepted && *v.staleWritesAccepted > 0);
}

struct Case {
    const char* client;
    const char* fault;
    Expect expect;
};

std::string name(const ::testing::TestParamInfo<Case>& info) {
    std::string n = std::string(info.param.client) + "_" + info.param.fault;
    for (char& c : n)
        if (c == '-') c = '_';
    return n;
}

class TortureRun : public ::testing::TestWithParam<Case> {};

TEST_P(TortureRun, VerdictGoesTheWayTheDesignAllows) {
    const Case& c = GetParam();
    TortureOptions options = shortRun(c.client, c.fault);
    // A restart shows a design's unsafety only when the server is back while the holder still
    // works (the wiped lock is taken again). The default work, a quarter of the 300 ms TTL, is
    // shorter than a restart on a loaded machine (100-200 ms): setnx-del x restart then showed
    // no overlap in three runs. Three quarters of the TTL, still inside the lease.
    if (std::string_view(c.fault) == "restart") options.work = options.ttl * 3 / 4;
    options.pidFile = tempPidFile();
    TortureResult result = runTorture(options);
    // A design that allows two holders does not show it in every 2.5 s run: whether a fault
    // lands inside a hold depends on the scheduler (guide x restart showed none once in a
    // loaded full-suite run). Up to two more seeds, each a real run twice as long as the one
    // before; every run's report is kept in the trace.
    std::string reports = textReport(options, result);
    auto shown = [&](const Verdict& v) {
        return c.expect == Expect::Overlaps ? v.overlaps > 0
                                            : c.expect != Expect::Unsafe || showsUnsafety(v);
    };
    for (std::uint64_t seed = 8; !shown(result.verdict) && seed <= 9; ++seed) {
        options.seed = seed;    // the pid file gathers every run's processes, all checked below
        options.duration *= 2;  // twice as long as the run before
        result = runTorture(options);
        reports += "\n" + textReport(options, result);
    }
    const Verdict& v = result.verdict;
    SCOPED_TRACE(reports);

    EXPECT_GT(v.acquisitions, 0);
    EXPECT_GT(v.faultsInjected.count(c.fault), 0u) << "the fault was never injected";
    if (c.expect == Expect::Overlaps) {
        EXPECT_GT(v.overlaps, 0) << "this design allows two holders at once under " << c.fault;
    } else if (c.expect == Expect::Unsafe) {
        EXPECT_TRUE(showsUnsafety(v)) << "this design is unsafe under " << c.fault;
    } else if (c.expect == Expect::NoStaleWriteAccepted) {
        ASSERT_TRUE(v.staleWritesAccepted);
        EXPECT_EQ(*v.staleWritesAccepted, 0);
    }
    auto pids = startedPids(options.pidFile);
    EXPECT_GE(pids.size(), 4u);  // a server and three workers at least
    for (pid_t pid : pids) EXPECT_TRUE(processGone(pid)) << "pid " << pid << " left running";
    std::remove(options.pidFile.c_str());
}

// The faults the table does not name still run, each injected and undone, with the watchdog
// client, and leave nothing behind.
TEST(TortureFaults, DelayPartitionAndServerStallAreInjected) {
    TortureOptions options = shortRun("guide-watchdog", "delay,partition,server-stall", 3);
    options.duration = std::chrono::milliseconds(4000);
    options.pidFile = tempPidFile();
    TortureResult result = runTorture(options);
    SCOPED_TRACE(textReport(options, result));
    EXPECT_GT(result.verdict.acquisitions, 0);
    for (const char* kind : {"delay", "partition", "server-stall"})
        EXPECT_GT(result.verdict.faultsInjected.count(kind), 0u) << kind;
    int undone = 0;
    for (const Op& op : result.history)
        if (op.process == kNemesis && op.phase == "stop") {
            ++undone;
            EXPECT_EQ(op.detail.find("failed"), std::string::npos) << op.detail;
        }
    EXPECT_GE(undone, 3);
    for (pid_t pid : startedPids(options.pidFile)) EXPECT_TRUE(processGone(pid));
    std::remove(options.pidFile.c_str());
}

INSTANTIATE_TEST_SUITE_P(
    Table, TortureRun,
    ::testing::Values(
        Case{"setnx-del", "pause", Expect::Overlaps},
        Case{"setnx-del", "restart", Expect::Overlaps},
        Case{"setnx-del", "failover", Expect::Overlaps}, Case{"guide", "pause", Expect::Overlaps},
        Case{"guide", "restart", Expect::Unsafe}, Case{"guide", "failover", Expect::Overlaps},
        Case{"guide-fenced", "pause", Expect::NoStaleWriteAccepted},
        Case{"guide-fenced", "restart", Expect::NoStaleWriteAccepted},
        Case{"guide-fenced", "failover", Expect::NoStaleWriteAccepted},
        Case{"redlock", "pause", Expect::Overlaps}, Case{"redlock", "restart", Expect::Measured},
        Case{"redlock", "clock", Expect::Measured},
        Case{"redlock-fenced", "pause", Expect::NoStaleWriteAccepted},
        Case{"redlock-fenced", "restart", Expect::NoStaleWriteAccepted},
        Case{"redlock-fenced", "clock", Expect::NoStaleWriteAccepted}),
    name);

}  // namespace
}  // namespace lockscope::torture
