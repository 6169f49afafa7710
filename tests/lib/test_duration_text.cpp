// The one duration formatter: what the CLI table, the window's cells and the stories print.
#include <gtest/gtest.h>

#include "lockscope/duration_text.h"

namespace {

using lockscope::DurationPrecision;
using lockscope::formatDuration;

TEST(DurationText, RoundedReadsAtAGlanceInEveryUnit) {
    EXPECT_EQ(formatDuration(0), "0 ms");
    EXPECT_EQ(formatDuration(850), "850 ms");
    EXPECT_EQ(formatDuration(4'249), "4.2 s");
    EXPECT_EQ(formatDuration(9'999), "10.0 s");  // printf rounds; still under the 10 s switch
    EXPECT_EQ(formatDuration(45'900), "45 s");   // whole seconds left: never rounded up
    EXPECT_EQ(formatDuration(119'999), "119 s");
    EXPECT_EQ(formatDuration(125'000), "2 min 05 s");
    EXPECT_EQ(formatDuration(600'000), "10 min 00 s");
    EXPECT_EQ(formatDuration(3 * 3'600'000 + 7 * 60'000), "3 h 07 min");
    EXPECT_EQ(formatDuration(5 * 86'400'000LL + 1), "5 days");
}

TEST(DurationText, ExactKeepsEveryMillisecondAChosenValueHas) {
    EXPECT_EQ(formatDuration(200, DurationPrecision::Exact), "200 ms");
    EXPECT_EQ(formatDuration(1'500, DurationPrecision::Exact), "1.5 s");
    EXPECT_EQ(formatDuration(12'250, DurationPrecision::Exact), "12.25 s");
    EXPECT_EQ(formatDuration(30'000, DurationPrecision::Exact), "30 s");
    EXPECT_EQ(formatDuration(90'001, DurationPrecision::Exact), "90.001 s");
}

TEST(DurationText, ANegativeValueIsNeverPrintedAsANegativeDuration) {
    EXPECT_EQ(formatDuration(-1), "0 ms");
    EXPECT_EQ(formatDuration(-5'000, DurationPrecision::Exact), "0 ms");
}

}  // namespace
