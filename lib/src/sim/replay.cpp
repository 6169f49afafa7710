#include "lockscope/sim/replay.h"

#include <algorithm>

#include "lockscope/errors.h"
#include "lockscope/sim/run_verdict.h"
#include "lockscope/sim/simulator.h"
#include "lockscope/sim/story_measures.h"
#include "lockscope/sim/transcript.h"

namespace lockscope::sim {

Replay::Replay(std::string_view scenario, std::uint64_t seed)
    : Replay(scenario, scenarioNamed(scenario).defaults(), seed) {}

Replay::Replay(std::string_view scenario, ScenarioParams params, std::uint64_t seed)
    : scenario_(&scenarioNamed(scenario)), params_(std::move(params)), seed_(seed) {
    bool same = params_.specs().size() == scenario_->params.size();
    for (std::size_t i = 0; same && i < params_.specs().size(); ++i)
        same = params_.specs()[i].name == scenario_->params[i].name;
    if (!same)
        throw InvalidArgumentError("parameters do not belong to scenario " + scenario_->name);
    rebuild();
}

Replay::Replay(Recording recorded, std::string title, std::vector<OutcomeSummary> outcomeAtBeat)
    : recordedOutcomes_(std::move(outcomeAtBeat)), seed_(0) {
    auto own = std::make_shared<Scenario>();
    own->name = "history";
    own->title = std::move(title);
    own->liveUnavailable = "a recorded history is not a story that can be run again";
    // What a torture history's counts can say (torture/history_story.cpp).
    own->measures = {measure::duplicateRuns(), measure::leaseLapses(),
                     measure::staleWritesAccepted(), measure::staleWritesRejected()};
    ownScenario_ = own;
    scenario_ = own.get();
    recording_ = std::move(recorded);
    // Every beat is at step 0 of an empty world: seeking only moves the cursor.
    checkpoints_.push_back({World{}, 0});
    sizeAfterStep_.push_back(recording_.size());
    beatStep_.assign(recording_.beats.size(), 0);
    final_ = World{};
    if (!recordedOutcomes_.empty()) final_.outcome = recordedOutcomes_.back();
    seek(-1);
}

void Replay::rebuild() {
    World world;
    buildScenario(*scenario_, params_, seed_, world, recording_);
    checkpoints_.clear();
    sizeAfterStep_.clear();
    beatStep_.clear();
    simulateFrom(std::move(world));
    seek(std::min(current_, static_cast<int>(recording_.beats.size()) - 1));
}

void Replay::simulateFrom(World world) {
    // The recording and the bookkeeping already end at world.steps.
    applyDueActions(world);
    checkpoints_.push_back({world, world.steps});
    sizeAfterStep_.resize(world.steps);
    sizeAfterStep_.push_back(recording_.size());
    int beatsSinceCheckpoint = 0;
    while (Simulator::advance(world, recording_)) {
        applyDueActions(world);
        int newBeats = static_cast<int>(recording_.beats.size() - beatStep_.size());
        beatStep_.resize(recording_.beats.size(), world.steps);
        sizeAfterStep_.push_back(recording_.size());
        beatsSinceCheckpoint += newBeats;
        if (beatsSinceCheckpoint >= kCheckpointEveryBeats) {
            checkpoints_.push_back({world, world.steps});
            beatsSinceCheckpoint = 0;
        }
    }
    Simulator::finish(world, recording_);
    final_ = std::move(world);
}

World Replay::worldAfterSteps(int steps) {
    auto it = std::find_if(checkpoints_.rbegin(), checkpoints_.rend(),
                           [&](const Checkpoint& c) { return c.steps <= steps; });
    World world = it->world;  // checkpoints_[0] is the start, so one always matches
    Recording scratch;        // the story is already recorded; only the state is wanted
    while (world.steps < steps && Simulator::advance(world, scratch)) applyDueActions(world);
    resimulated_ = steps - it->steps;
    return world;
}

void Replay::seek(int beat) {
    current_ = std::clamp(beat, -1, static_cast<int>(recording_.beats.size()) - 1);
    state_ = worldAfterSteps(current_ < 0 ? 0 : beatStep_[current_]);
    if (current_ >= 0 && current_ < static_cast<int>(recordedOutcomes_.size()))
        state_.outcome = recordedOutcomes_[current_];
}

void Replay::seekTime(VirtualMs t) {
    int target = -1;
    for (const auto& b : recording_.beats)
        if (b.time <= t) target = b.index;
    seek(target);
}

bool Replay::stepForward() {
    if (atEnd()) return false;
    seek(current_ + 1);
    return true;
}

bool Replay::stepBack() {
    if (current_ < 0) return false;
    seek(current_ - 1);
    return true;
}

const Beat* Replay::beat() const {
    return current_ >= 0 ? &recording_.beats[current_] : nullptr;
}

VirtualMs Replay::currentTime() const {
    return current_ >= 0 ? recording_.beats[current_].time : 0;
}

std::optional<std::string> Replay::pendingQuestion() const {
    int next = current_ + 1;
    if (next >= static_cast<int>(recording_.beats.size()) || !recording_.beats[next].predict)
        return std::nullopt;
    return recording_.beats[next].predict->question;
}

KeyView Replay::keyView() const {
    return keyView(0);
}

KeyView Replay::keyView(int node) const {
    KeyView view;
    if (node < 0 || node >= static_cast<int>(state_.nodes.size())) return view;
    const ModelRedis& redis = state_.node(node).redis;
    auto entry = redis.peek(state_.lockKey, state_.now);
    if (!entry) return view;
    view.exists = true;
    view.value = entry->value;
    view.pttl = redis.pttl(state_.lockKey, state_.now);
    if (const Holding* h = state_.currentHolding(node)) {
        view.holder = h->holder;
        view.fence = h->fence;
    }
    return view;
}

std::string Replay::transcript() const {
    // The verdict last, as the CLI prints it: an exported transcript says how the run came out.
    return formatTranscript(recording_) + "outcome:\n" + formatOutcome(final_.outcome) +
           "verdict: " + runVerdict(final_.outcome) + "\n";
}

std::vector<std::string> Replay::instances() const {
    std::vector<std::string> names;
    for (const auto& lane : recording_.lanes)
        if (lane.kind == LaneKind::Instance) names.push_back(lane.name);
    return names;
}

void Replay::checkInstance(const std::string& instance) const {
    if (isRecorded())
        throw InvalidArgumentError("a recorded history cannot be forked: it happened");
    auto names = instances();
    if (std::find(names.begin(), names.end(), instance) == names.end())
        throw InvalidArgumentError("no instance named \"" + instance + "\" in " + scenario_->name);
    if (auto crash = state_.faults.crashTime(instance); crash && *crash <= state_.now)
        throw InvalidArgumentError(instance + " has already crashed");
}

void Replay::applyDueActions(World& world) const {
    // An action is due once the story reaches its step, or once nothing is left before its
    // time (after a parameter change the steps may not line up any more).
    while (world.userActionsApplied < static_cast<int>(actions_.size())) {
        const UserAction& a = actions_[world.userActionsApplied];
        auto next = Simulator::nextTime(world);
        if (world.steps < a.steps && next && *next <= a.at) return;
        VirtualMs at = std::max(a.at, world.now);
        if (a.crash)
            world.faults.crashes.push_back({a.instance, at});
        else
            world.faults.pauses.push_back({a.instance, at, at + a.duration, "GC pause"});
        ++world.userActionsApplied;
    }
}

void Replay::fork(const UserAction& requested) {
    int steps = current_ < 0 ? 0 : beatStep_[current_];
    World world = worldAfterSteps(steps);
    UserAction action = requested;
    action.at = std::max(requested.at, world.now);
    action.steps = steps;
    // Actions later in the story belonged to the future this fork replaces.
    std::erase_if(actions_, [&](const UserAction& a) { return a.steps > steps; });
    world.userActionsApplied = std::min<int>(world.userActionsApplied, actions_.size());
    actions_.push_back(action);
    // Keep the story up to the current step, drop the rest and simulate it again.
    recording_.truncate(sizeAfterStep_[steps]);
    beatStep_.resize(sizeAfterStep_[steps].beats);
    std::erase_if(checkpoints_, [&](const Checkpoint& c) { return c.steps >= steps; });
    simulateFrom(std::move(world));
    seek(current_);
}

void Replay::pauseInstance(const std::string& instance, VirtualMs duration) {
    checkInstance(instance);
    if (duration < 1 || duration > 3600 * kSecond)
        throw InvalidArgumentError("a pause lasts 1 ms to 1 hour, not " + std::to_string(duration) +
                                   " ms");
    fork({false, instance, 0, duration});
}

void Replay::crashInstance(const std::string& instance) {
    checkInstance(instance);
    fork({true, instance, 0, 0});
}

void Replay::checkForkTime(VirtualMs at) const {
    const VirtualMs end = recording_.beats.empty() ? 0 : recording_.beats.back().time;
    if (at < 0 || at > end)
        throw InvalidArgumentError("a fork happens between 0 and the story's end (" +
                                   formatVirtualTime(end) + "), not at " + std::to_string(at) +
                                   " ms");
}

void Replay::pauseInstanceAt(const std::string& instance, VirtualMs at, VirtualMs duration) {
    checkForkTime(at);
    const int before = current_;
    seekTime(at);
    try {
        checkInstance(instance);
        if (duration < 1 || duration > 3600 * kSecond)
            throw InvalidArgumentError("a pause lasts 1 ms to 1 hour, not " +
                                       std::to_string(duration) + " ms");
    } catch (...) {
        seek(before);
        throw;
    }
    fork({false, instance, at, duration});
}

void Replay::crashInstanceAt(const std::string& instance, VirtualMs at) {
    checkForkTime(at);
    const int before = current_;
    seekTime(at);
    try {
        checkInstance(instance);
    } catch (...) {
        seek(before);
        throw;
    }
    fork({true, instance, at, 0});
}

std::vector<Replay::Fork> Replay::forks() const {
    std::vector<Fork> out;
    for (const UserAction& a : actions_) out.push_back({a.crash, a.instance, a.at, a.duration});
    return out;
}

void Replay::applyFork(const Fork& f) {
    if (f.crash)
        crashInstanceAt(f.instance, f.at);
    else
        pauseInstanceAt(f.instance, f.at, f.duration);
}

void Replay::setParam(std::string_view name, std::int64_t value) {
    if (isRecorded()) throw InvalidArgumentError("a recorded history has no parameters");
    ScenarioParams changed = params_;
    changed.set(name, value);
    ScenarioParams previous = std::move(params_);
    params_ = std::move(changed);
    try {
        rebuild();
    } catch (...) {
        params_ = std::move(previous);
        rebuild();
        throw;
    }
}

}  // namespace lockscope::sim
