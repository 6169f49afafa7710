#pragma once
// A replay session for the teaching panel and the CLI: the whole story is simulated at
// load, with a checkpoint (a World copy) every few beats. Stepping and seeking restore the
// nearest checkpoint at or before the target and re-simulate forward, RaftScope style. A
// user action (pause or crash an instance now) forks: the story after the current beat is
// dropped and re-simulated with the new fault. A parameter change re-runs from the start
// and re-applies the user's actions at their times.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lockscope/sim/scenario.h"
#include "lockscope/sim/timeline.h"
#include "lockscope/sim/world.h"

namespace lockscope::sim {

// The lock key at the current beat, for the key lane's header and the PTTL readout.
struct KeyView {
    bool exists = false;
    std::string holder;  // the actor that set it
    std::string value;
    std::int64_t fence = 0;
    std::int64_t pttl = -2;
};

class Replay {
  public:
    // Throws InvalidArgumentError for an unknown scenario.
    explicit Replay(std::string_view scenario, std::uint64_t seed = 1);
    Replay(std::string_view scenario, ScenarioParams params, std::uint64_t seed = 1);
    // A story recorded elsewhere (a torture run's history, torture/history_story.h): its
    // lanes, events, intervals and beats as given; stepping and seeking move through the
    // beats. Nothing is simulated, so forks and parameter changes are refused
    // (InvalidArgumentError). scenario().name is "history", its title `title`.
    // outcomeAtBeat: the counts so far at each beat (outcomeSoFar()), when known.
    Replay(Recording recorded, std::string title, std::vector<OutcomeSummary> outcomeAtBeat = {});
    bool isRecorded() const { return ownScenario_ != nullptr; }

    const Scenario& scenario() const { return *scenario_; }
    const ScenarioParams& params() const { return params_; }
    std::uint64_t seed() const { return seed_; }

    // The whole story as simulated (lanes, events, beats, intervals, PTTL samples).
    const Recording& recording() const { return recording_; }
    const std::vector<Beat>& beats() const { return recording_.beats; }
    const OutcomeSummary& outcome() const { return final_.outcome; }
    std::string transcript() const;

    // -1 before the first beat; beats().size() - 1 at the end.
    int currentBeat() const { return current_; }
    const Beat* beat() const;
    VirtualMs currentTime() const;
    bool atEnd() const { return current_ + 1 >= static_cast<int>(recording_.beats.size()); }
    bool stepForward();
    bool stepBack();
    void seek(int beat);         // clamped to [-1, last]
    void seekTime(VirtualMs t);  // the last beat at or before t
    void restart() { seek(-1); }
    // The predict question to show now (it belongs to the next beat), if any.
    std::optional<std::string> pendingQuestion() const;

    // The state after the current beat (restored from a checkpoint + re-simulated).
    const World& state() const { return state_; }
    KeyView keyView() const;  // on the first node
    // The lock key on one node of a multi-server story (a Redlock primary, a replica).
    KeyView keyView(int node) const;
    const OutcomeSummary& outcomeSoFar() const { return state_.outcome; }

    // Forks at the current beat's time. Throw InvalidArgumentError for an unknown or
    // crashed instance, or a duration outside 1 ms .. 1 h.
    void pauseInstance(const std::string& instance, VirtualMs duration);
    void crashInstance(const std::string& instance);
    // Forks at virtual time `at` (what the right-click menu names): the story is kept up to
    // the last beat at or before `at` and the fault starts exactly at `at`. The current beat
    // becomes that beat. Throws as above, and for a time outside 0 .. the story's end.
    void pauseInstanceAt(const std::string& instance, VirtualMs at, VirtualMs duration);
    void crashInstanceAt(const std::string& instance, VirtualMs at);

    // The user's forks so far, in the order they were made: enough to make them again on a
    // fresh Replay of the same story, seed and parameters (a scenario file).
    struct Fork {
        bool crash = false;
        std::string instance;
        VirtualMs at = 0;
        VirtualMs duration = 0;  // a pause's length
        bool operator==(const Fork&) const = default;
    };
    std::vector<Fork> forks() const;
    void applyFork(const Fork& fork);  // pauseInstanceAt or crashInstanceAt
    // Re-runs with the new value (validated like the CLI's --set); keeps the beat index
    // where it can.
    void setParam(std::string_view name, std::int64_t value);
    std::vector<std::string> instances() const;  // names of the instance lanes

    // How many steps the last seek re-simulated (for tests of the checkpoint logic).
    int lastResimulatedSteps() const { return resimulated_; }
    static constexpr int kCheckpointEveryBeats = 4;

  private:
    struct Checkpoint {
        World world;
        int steps = 0;  // steps done when it was taken
    };
    // A pause or crash the user asked for, at a point of the story: after `steps` steps,
    // at virtual time `at`. Re-applied at the same point when a parameter changes.
    struct UserAction {
        bool crash = false;
        std::string instance;
        VirtualMs at = 0;
        VirtualMs duration = 0;
        int steps = 0;
    };

    void rebuild();
    void simulateFrom(World world);
    void applyDueActions(World& world) const;
    World worldAfterSteps(int steps);
    void fork(const UserAction& action);
    void checkForkTime(VirtualMs at) const;
    void checkInstance(const std::string& instance) const;

    const Scenario* scenario_;
    std::shared_ptr<const Scenario> ownScenario_;  // a recorded story's stand-in scenario
    std::vector<OutcomeSummary> recordedOutcomes_;
    ScenarioParams params_;
    std::uint64_t seed_;
    std::vector<UserAction> actions_;

    Recording recording_;
    std::vector<Checkpoint> checkpoints_;
    std::vector<Recording::Size> sizeAfterStep_;  // index: steps done
    std::vector<int> beatStep_;                   // steps done once the beat exists
    World final_;
    World state_;
    int current_ = -1;
    int resimulated_ = 0;
};

}  // namespace lockscope::sim
