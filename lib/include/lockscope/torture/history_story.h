#pragma once
// A torture run's history told as a story for the teaching lanes (sim::Replay's recorded
// mode): one lane per worker with its ownership bars (label: its fence) and the faults that
// hit it (pause, delay, partition bands); the resource (the fenced SQLite file) with every
// write, accepted or refused; the servers with their faults (restart, failover, clock,
// stall). Beats fall on acquisitions, faults and violations, each narrated, so stepping
// through a real run reads like a simulated one. The verdict's numbers come from check().

#include <string>
#include <vector>

#include "lockscope/sim/outcome.h"
#include "lockscope/sim/timeline.h"
#include "lockscope/torture/checker.h"
#include "lockscope/torture/history.h"

namespace lockscope::torture {

struct HistoryStory {
    sim::Recording recording;
    // The running counts at each beat (the resource lane's header reads them).
    std::vector<sim::OutcomeSummary> outcomeAtBeat;
    std::string title;  // "4 workers, 20.0 s: 3 overlaps, stale writes accepted 0"
    Verdict verdict;
};

// Throws InvalidArgumentError for a history with no worker operation.
HistoryStory storyOfHistory(History history);

}  // namespace lockscope::torture
