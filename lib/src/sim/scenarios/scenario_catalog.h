#pragma once
// The built-in scenarios, one file each; scenario.cpp lists them.

#include "lockscope/sim/scenario.h"

namespace lockscope::sim {

Scenario brokenReportScenario();
Scenario fixedReportScenario();
Scenario expiryRaceScenario();
Scenario getThenDelScenario();
Scenario atomicCounterScenario();
Scenario setnxExpireCrashScenario();
Scenario failoverScenario();
Scenario seatHoldScenario();
Scenario redlockGcPauseScenario();
Scenario redlockClockJumpScenario();
Scenario watchdogScenario();

}  // namespace lockscope::sim
