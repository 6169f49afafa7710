#include "sidekiq_judge.h"

#include <cmath>

#include "lockscope/duration_text.h"
#include "lockscope/inspect/formats/holder_facts.h"
#include "lockscope/text_format.h"

namespace lockscope::inspect::liveness {
namespace {

// A beat this far ahead of our clock is dated in the future: clocks disagree.
constexpr double kFutureBeatSeconds = 5.0;
// Job ids remembered across passes (where each ran, since when it is nowhere).
constexpr std::size_t kMaxRemembered = 100'000;

std::optional<WallClock::time_point> epochSeconds(std::optional<double> s) {
    if (!s || !std::isfinite(*s) || *s <= 0 || *s > 1e11) return std::nullopt;
    return WallClock::time_point(std::chrono::milliseconds(static_cast<std::int64_t>(*s * 1000)));
}

std::string agoText(WallClock::time_point t) {
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(WallClock::now() - t).count();
    return formatDuration(std::max<std::int64_t>(0, ms));
}

double nowSeconds() {
    return std::chrono::duration<double>(WallClock::now().time_since_epoch()).count();
}

}  // namespace

bool isSidekiqLocked(const LockRecord& r) {
    return r.kind == LockKind::SidekiqUniqueJobs && r.type == ValueType::Hash &&
           r.key.ends_with(":LOCKED");
}

void SidekiqJudge::beginPass(std::span<const LockRecord* const> batch) {
    checked_.clear();
    if (jobs_.size() > kMaxRemembered) jobs_.clear();  // bounded memory: it is learnt again
    for (const LockRecord* r : batch) {
        if (!isSidekiqLocked(*r)) continue;
        for (const auto& f : r->fields)
            if (checked_.size() < options_.maxLookupsPerPass) checked_.insert(f.field);
    }
    if (checked_.empty()) return;
    if (!snapshotRead_ || SteadyClock::now() - snapshot_.steadyAt >= options_.sidekiqEvery) {
        snapshot_ = readSidekiqProcesses(reads(), options_.maxSidekiqProcesses);
        snapshotRead_ = true;
    }
    std::set<std::string> notRunning;
    for (const auto& jid : checked_)
        if (!snapshot_.running.contains(jid)) notRunning.insert(jid);
    places_ = notRunning.empty() ? PlaceSearch{}
                                 : findJobs(reads(), notRunning, options_.maxJobsPerPlace);
}

std::optional<std::vector<Evidence>> SidekiqJudge::runningEvidence(const std::string& jid) {
    auto it = snapshot_.running.find(jid);
    if (it == snapshot_.running.end()) return std::nullopt;
    std::vector<const SidekiqRun*> live, stopped;
    for (const auto& run : it->second)
        (snapshot_.processes[run.process].alive ? live : stopped).push_back(&run);
    const std::string job = "job " + quoted(jid, 40);
    if (live.size() > 1) {
        std::string where;
        for (const auto* run : live) where += " " + snapshot_.processes[run->process].where();
        return std::vector{evidenceNow(job + " is in the work of " + std::to_string(live.size()) +
                                       " live processes (" + where.substr(1) +
                                       "): LockScope cannot tell which one holds it")};
    }
    if (live.empty()) {
        // Not gone: a starting process writes its work a moment before its first beat.
        const auto& p = snapshot_.processes[stopped.front()->process];
        return std::vector{evidenceNow(job + " is listed as running on " + p.where() +
                                       ", which has no heartbeat now (starting, or stopped)")};
    }
    const auto& run = *live.front();
    const auto& p = snapshot_.processes[run.process];
    jobs_[jid] = {run.process, p.identity, p.where(), p.beat, std::nullopt, {}};
    if (p.beat && *p.beat > nowSeconds() + kFutureBeatSeconds) {
        Evidence e =
            evidenceNow(job + " runs on " + p.where() + ", whose beat is dated in the future (" +
                        formatIsoInstant(*epochSeconds(p.beat)) +
                        "): clocks disagree, so its age cannot be judged");
        e.warning = true;
        return std::vector{e};
    }
    Evidence alive = evidenceNow(job + " is running on " + p.where(), Verdict::Alive);
    if (auto started = epochSeconds(run.runAt ? std::optional<double>(*run.runAt) : std::nullopt)) {
        alive.text += " for " + agoText(*started);
        alive.since = started;
    }
    if (auto beat = epochSeconds(p.beat))
        alive.text += " (its process beat " + agoText(*beat) + " ago)";
    return std::vector{alive};
}

std::optional<std::vector<Evidence>> SidekiqJudge::placeEvidence(const std::string& jid) {
    auto it = places_.found.find(jid);
    if (it == places_.found.end()) return std::nullopt;
    jobs_.erase(jid);
    const bool dead = it->second.place == JobPlace::Dead;
    Evidence e = evidenceNow("job " + quoted(jid, 40) + " is " + describePlace(it->second) +
                                 (dead ? ", so nothing will release this lock" : ""),
                             dead ? Verdict::Gone : Verdict::Alive);
    if (dead) e.since = epochSeconds(it->second.at);
    return std::vector{e};
}

std::vector<Evidence> SidekiqJudge::nowhereEvidence(const std::string& jid) {
    const std::string job = "job " + quoted(jid, 40);
    if (snapshot_.truncated || !places_.complete)
        return {evidenceNow(job + " was not found running" +
                            (places_.note.empty() ? "" : " (" + places_.note + ")") +
                            ", and not every process, queue and set could be looked at")};
    auto& memory = jobs_[jid];
    // It ran on a process that has stopped beating since: that process is gone, and the job
    // with it (a retried job would be queued, scheduled or running again).
    if (!memory.identity.empty()) {
        bool stillBeats = false;
        for (const auto& p : snapshot_.processes)
            if (p.identity == memory.identity && p.alive) stillBeats = true;
        if (!stillBeats) {
            Evidence gone =
                evidenceNow(job + " was running on " + memory.where +
                                ", whose heartbeat has expired (no beat for over 60 s), "
                                "and it is not running, queued, scheduled, retried or dead",
                            Verdict::Gone);
            gone.since = epochSeconds(memory.lastBeat);
            return {gone};
        }
    }
    const auto now = SteadyClock::now();
    if (!memory.nowhereSince) {
        memory.nowhereSince = now;
        memory.nowhereSinceWall = WallClock::now();
    }
    const std::string nowhere = job + " is not running, queued, scheduled, retried or dead";
    if (now - *memory.nowhereSince >= options_.sidekiqNowhereFor) {
        Evidence gone = evidenceNow(nowhere + " since " + formatIsoInstant(memory.nowhereSinceWall),
                                    Verdict::Gone);
        gone.seenAt = memory.nowhereSinceWall;
        return {gone};
    }
    return {
        evidenceNow(nowhere + " (first seen so at " + formatIsoInstant(memory.nowhereSinceWall) +
                    "; a job that just started shows in its process's work at the next heartbeat, "
                    "so it is called gone only if it stays nowhere)")};
}

std::vector<Evidence> SidekiqJudge::judgeJob(const std::string& jid) {
    if (!checked_.contains(jid))
        return {evidenceNow("job " + quoted(jid, 40) + " was not looked up: over the budget of " +
                            std::to_string(options_.maxLookupsPerPass) + " look-ups per pass")};
    if (!snapshot_.read) return {evidenceNow(snapshot_.whyNot)};
    if (auto e = runningEvidence(jid)) return *e;
    if (auto e = placeEvidence(jid)) return *e;
    return nowhereEvidence(jid);
}

std::vector<Evidence> SidekiqJudge::judge(const LockRecord& r) {
    if (!isSidekiqLocked(r)) return {};
    if (r.fields.empty()) return {evidenceNow("LOCKED holds no job id")};
    std::vector<Evidence> out;
    bool allGone = true;
    for (const auto& f : r.fields) {
        auto lines = judgeJob(f.field);
        bool gone = false;
        for (const auto& e : lines) gone = gone || e.pointsTo == Verdict::Gone;
        allGone = allGone && gone;
        out.insert(out.end(), lines.begin(), lines.end());
    }
    // The lock is an orphan only when every job it holds is gone.
    if (!allGone)
        for (auto& e : out)
            if (e.pointsTo == Verdict::Gone) e.pointsTo = Verdict::Unknown;
    return out;
}

}  // namespace lockscope::inspect::liveness
