#include "lockscope/torture/history_story.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "lockscope/errors.h"
#include "lockscope/sim/write_order.h"

namespace lockscope::torture {
namespace {

sim::VirtualMs msOf(const Op& op) {
    return op.timeNs / 1'000'000;
}

std::string workerName(int worker) {
    return "worker " + std::to_string(worker);
}

std::string fenceText(const Op& op) {
    return op.fence ? "fence " + std::to_string(*op.fence) : std::string("no fence");
}

// A fault aimed at one worker names it first ("worker 2 stopped (SIGSTOP)").
int targetWorker(const Op& op) {
    int worker = -1;
    if (std::sscanf(op.detail.c_str(), "worker %d", &worker) == 1 && worker >= 0) return worker;
    return -1;
}

// Builds the recording op by op; beats snapshot the running counts.
class StoryBuilder {
  public:
    explicit StoryBuilder(int workers) : workers_(workers) {
        for (int w = 0; w < workers; ++w)
            lane(sim::LaneKind::Instance, workerName(w), "lock client (own process)");
        resourceLane_ = lane(sim::LaneKind::FencedStore, "resource", "fenced SQLite file");
        // No subtitle: the header would print it twice (as the lane's status too).
        serversLane_ = lane(sim::LaneKind::Operator, "redis-servers", "");
    }

    void add(const Op& op) {
        if (op.process == kNemesis)
            fault(op);
        else if (op.process == kResource)
            resourceWrite(op);
        else if (op.process >= 0 && op.process < workers_)
            workerOp(op);
    }

    sim::Recording finish(sim::VirtualMs end, const std::string& verdict,
                          std::vector<sim::OutcomeSummary>& outcomes) {
        // A last beat at the end, so stepping shows the whole run and its verdict.
        beat(event(end, serversLane_, sim::EventKind::Note, "checker", "", "", verdict),
             "The run ends: " + verdict + ".");
        for (auto& [worker, index] : holding_) close(index, end, true);
        for (auto& [key, index] : faults_) close(index, end, true);
        for (auto& [worker, index] : lapsed_) close(index, end, true);
        outcomes = std::move(outcomes_);
        return std::move(r_);
    }

  private:
    sim::LaneId lane(sim::LaneKind kind, std::string name, std::string subtitle) {
        auto id = static_cast<sim::LaneId>(r_.lanes.size());
        r_.lanes.push_back({id, kind, std::move(name), std::move(subtitle)});
        return id;
    }

    int event(sim::VirtualMs t, sim::LaneId lane, sim::EventKind kind, std::string actor,
              std::string command, std::string reply, std::string detail) {
        sim::TimelineEvent e;
        e.index = static_cast<int>(r_.events.size());
        e.time = t;
        e.lane = lane;
        e.kind = kind;
        e.actor = std::move(actor);
        e.command = std::move(command);
        e.reply = std::move(reply);
        e.detail = std::move(detail);
        r_.events.push_back(std::move(e));
        return r_.events.back().index;
    }

    void beat(int eventIndex, std::string narration) {
        sim::TimelineEvent& e = r_.events[eventIndex];
        sim::Beat b;
        b.index = static_cast<int>(r_.beats.size());
        b.time = e.time;
        b.lane = e.lane;
        b.actor = e.actor;
        b.command = e.kind == sim::EventKind::Command ? e.command : std::string();
        b.reply = e.reply;
        b.narration = std::move(narration);
        b.eventIndex = eventIndex;
        e.beat = b.index;
        r_.beats.push_back(std::move(b));
        outcomes_.push_back(so_);
    }

    std::size_t open(sim::LaneId lane, sim::IntervalKind kind, sim::VirtualMs from,
                     std::string label, const Op* op = nullptr) {
        sim::Interval in;
        in.lane = lane;
        in.kind = kind;
        in.from = in.to = from;
        in.label = std::move(label);
        if (op) {
            in.token = op->token;
            in.fence = op->fence.value_or(0);
        }
        r_.intervals.push_back(std::move(in));
        return r_.intervals.size() - 1;
    }

    void close(std::size_t index, sim::VirtualMs to, bool ongoing = false) {
        r_.intervals[index].to = std::max(to, r_.intervals[index].from);
        r_.intervals[index].ongoing = ongoing;
    }

    void workerOp(const Op& op) {
        const sim::VirtualMs t = msOf(op);
        const std::string who = workerName(op.process);
        if (op.type == OpType::Invoke || op.f == "write") return;  // the resource tells writes
        if (op.f == "acquire") {
            if (op.type != OpType::Ok) {
                event(t, op.process, sim::EventKind::Command, who, "acquire",
                      op.type == OpType::Fail ? "not acquired" : "unknown", op.detail);
                return;
            }
            int e = event(t, op.process, sim::EventKind::Command, who, "acquire",
                          "OK, " + fenceText(op), "round " + std::to_string(op.round));
            holding_[op.process] = open(op.process, sim::IntervalKind::Ownership, t,
                                        "w" + std::to_string(op.process), &op);
            ++so_.runsStarted;
            beat(e, who + " acquires the lock (" + fenceText(op) + ") and starts its work.");
        } else if (op.f == "lost") {
            int e = event(t, op.process, sim::EventKind::Note, who, "lost", "", op.detail);
            lapsed_[op.process] = open(op.process, sim::IntervalKind::LeaseLapsed, t, "lock lost");
            ++so_.leaseLapses;
            beat(e, who + ": " + op.detail + ".");
        } else if (op.f == "release") {
            release(op, t, who);
        }
    }

    void release(const Op& op, sim::VirtualMs t, const std::string& who) {
        if (auto it = holding_.find(op.process); it != holding_.end()) {
            close(it->second, t);
            holding_.erase(it);
        }
        if (auto it = lapsed_.find(op.process); it != lapsed_.end()) {
            close(it->second, t);
            lapsed_.erase(it);
        }
        const bool gone = op.type == OpType::Fail;
        int e = event(t, op.process, sim::EventKind::Command, who, "release",
                      op.type == OpType::Ok ? "OK"
                      : gone                ? "gone"
                                            : "unknown",
                      op.detail);
        ++so_.runsCompleted;
        if (gone) {
            ++so_.leaseLapses;
            beat(e, who + " releases, but its lock was already gone: it worked without it.");
        }
    }

    // The same reading as the checker's: a critical section runs from a worker's first
    // write of a round to its last, accepted or not, in the resource's own order.
    void resourceWrite(const Op& op) {
        const sim::VirtualMs t = msOf(op);
        const std::string who = workerName(op.writer);
        const std::string what =
            op.phase + " of the work, " + fenceText(op) + ", write #" + std::to_string(op.seq);
        int e = event(
            t, resourceLane_,
            op.accepted ? sim::EventKind::FencedWriteAccepted : sim::EventKind::FencedWriteRejected,
            who, "write", op.accepted ? "accepted" : "rejected", what);
        if (op.phase == "begin") {
            if (!inside_.empty() && !inside_.count(op.writer)) {
                ++so_.duplicateRuns;
                beat(e, "Overlap: " + who + " starts its work while " +
                            workerName(*inside_.begin()) + " is still inside.");
            }
            inside_.insert(op.writer);
        } else if (op.phase == "end") {
            inside_.erase(op.writer);
        }
        if (!op.fence) return;
        // The checker's definition (lockscope/sim/write_order.h): stale means accepted after
        // a newer holder's write.
        const bool stale =
            writes_.judge({std::to_string(op.writer) + "/" + std::to_string(op.round), *op.fence,
                           true, op.accepted, op.fence}) == sim::WriteClass::Stale;
        if (!op.accepted) {
            ++so_.staleWritesRejected;
            beat(e, "The resource refuses " + who + "'s write with " + fenceText(op) +
                        ": a stale fence.");
            return;
        }
        if (stale) {
            ++so_.staleWritesAccepted;
            beat(e, "Stale write accepted: " + who + " writes with " + fenceText(op) +
                        " after fence " + std::to_string(highestFence_) + " was taken.");
        }
        highestFence_ = std::max(highestFence_, *op.fence);
    }

    void fault(const Op& op) {
        const sim::VirtualMs t = msOf(op);
        const int worker = targetWorker(op);
        const sim::LaneId lane = worker >= 0 && worker < workers_ ? worker : serversLane_;
        const auto key = std::make_pair(op.f, lane);
        int e =
            event(t, lane,
                  op.phase == "start" ? sim::EventKind::PauseStarted : sim::EventKind::PauseEnded,
                  "nemesis", op.f, op.phase, op.detail);
        if (op.phase == "start") {
            auto kind = op.f == "restart" ? sim::IntervalKind::Crashed : sim::IntervalKind::Pause;
            faults_[key] = open(lane, kind, t, op.f);
            beat(e, "Fault: " + op.detail + ".");
        } else if (auto it = faults_.find(key); it != faults_.end()) {
            close(it->second, t);
            faults_.erase(it);
            beat(e, "Fault over: " + op.detail + ".");
        }
    }

    int workers_;
    sim::LaneId resourceLane_ = 0;
    sim::LaneId serversLane_ = 0;
    sim::Recording r_;
    sim::OutcomeSummary so_;
    std::vector<sim::OutcomeSummary> outcomes_;
    std::map<int, std::size_t> holding_, lapsed_;  // worker -> open interval
    std::map<std::pair<std::string, sim::LaneId>, std::size_t> faults_;
    std::set<int> inside_;  // writers between their accepted begin and end
    std::int64_t highestFence_ = 0;
    sim::WriteOrder writes_;
};

std::string titleOf(const Verdict& v, int workers) {
    char duration[32];
    std::snprintf(duration, sizeof duration, "%.1f s", v.durationS);
    std::string title = std::to_string(workers) + " workers, " + duration + ": " +
                        std::to_string(v.acquisitions) + " acquisitions, " +
                        std::to_string(v.overlaps) + " overlaps, stale writes accepted ";
    title += v.staleWritesAccepted ? std::to_string(*v.staleWritesAccepted) : "n/a (no fences)";
    title += ", lost locks " + std::to_string(v.lostLocks);
    return title;
}

}  // namespace

HistoryStory storyOfHistory(History history) {
    sortByTime(history);
    int workers = 0;
    std::int64_t lastNs = 0;
    for (const Op& op : history) {
        if (op.process >= 0) workers = std::max(workers, op.process + 1);
        lastNs = std::max(lastNs, op.timeNs);
    }
    if (workers == 0)
        throw InvalidArgumentError("history: no worker operation in it, nothing to show");
    HistoryStory story;
    story.verdict = check(history, double(lastNs) / 1e9);
    story.title = titleOf(story.verdict, workers);
    StoryBuilder builder(workers);
    for (const Op& op : history) builder.add(op);
    story.recording = builder.finish(lastNs / 1'000'000, story.title, story.outcomeAtBeat);
    return story;
}

}  // namespace lockscope::torture
