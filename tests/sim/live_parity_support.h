#pragma once
// What "the live run told the same story" means, for every live parity test: no reply where
// the model and the server disagreed, the same outcome, and the same beats and events.

#include <gtest/gtest.h>

#include "lockscope/sim/live_replay.h"
#include "lockscope/sim/transcript.h"

namespace lockscope::sim::testing {

inline void expectSameStory(const RunResult& live, const RunResult& simulated) {
    EXPECT_TRUE(live.divergences.empty()) << live.divergences.front();
    EXPECT_EQ(formatOutcome(live.outcome), formatOutcome(simulated.outcome));
    EXPECT_EQ(live.outcome, simulated.outcome);
    ASSERT_EQ(live.recording.beats.size(), simulated.recording.beats.size());
    for (std::size_t i = 0; i < live.recording.beats.size(); ++i)
        ASSERT_EQ(formatBeat(live.recording.beats[i]), formatBeat(simulated.recording.beats[i]));
    ASSERT_EQ(live.recording.events.size(), simulated.recording.events.size());
    for (std::size_t i = 0; i < live.recording.events.size(); ++i) {
        const TimelineEvent &l = live.recording.events[i], &s = simulated.recording.events[i];
        ASSERT_EQ(l.time, s.time) << i;
        ASSERT_EQ(l.kind, s.kind) << i;
        ASSERT_EQ(l.actor, s.actor) << i;
        ASSERT_EQ(l.reply, s.reply) << i;
    }
}

}  // namespace lockscope::sim::testing
