#pragma once
// Runs a scenario's actors against a real Redis server and a real SQLite fenced store,
// with virtual time mapped onto a steady clock (by default 1 virtual second = 50 ms), and
// the model as a shadow that must agree with every reply. The recorded beats and outcome
// are comparable with a simulated run of the same scenario, parameters and seed.
// A single-server story runs on the server the options name. A story with several
// servers (Redlock's five primaries, a primary with replicas) always starts its own
// private redis-servers on loopback, one per node, and ignores the endpoint: it needs
// processes it may reconfigure (REPLICAOF) and throw away.

#include <cstdint>
#include <string>
#include <vector>

#include "lockscope/endpoint.h"
#include "lockscope/sim/outcome.h"
#include "lockscope/sim/scenario.h"
#include "lockscope/sim/timeline.h"

namespace lockscope::sim {

struct LiveOptions {
    Endpoint endpoint;               // single-server stories only
    int realMsPerVirtualSecond = 0;  // 0: the scenario's default
    std::string storePath;           // the SQLite file; empty: a fresh temporary one
};

struct RunResult {
    Recording recording;
    OutcomeSummary outcome;
    std::vector<std::string> divergences;  // live only: replies where model and server differ
    std::vector<std::string> servers;      // live only: where each node ran ("A redis://...")
};

RunResult runSimulated(const Scenario& scenario, const ScenarioParams& params, std::uint64_t seed);

// Whether a live run of this story starts private servers (it has several) rather than
// using the endpoint.
bool runsOnPrivateServers(const Scenario& scenario, const ScenarioParams& params);

// Throws InvalidArgumentError when a scenario key already exists on the server (a live
// replay never touches data it did not create), and the connection's errors.
RunResult runLive(const Scenario& scenario, const ScenarioParams& params, std::uint64_t seed,
                  const LiveOptions& options);

}  // namespace lockscope::sim
