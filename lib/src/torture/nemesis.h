#pragma once
// The nemesis of a torture run: plays the seeded fault plan against the deployment and the
// worker processes, aiming each fault at a worker inside its work, and records every
// fault's start and end in the history.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "deployment.h"
#include "fault_schedule.h"
#include "lockscope/torture/history.h"
#include "worker_config.h"
#include "worker_pool.h"

namespace lockscope::torture {

// The nemesis: plays the plan against the deployment and the workers, recording each
// fault's start and end in the history.
class Nemesis {
  public:
    Nemesis(Deployment& d, WorkerPool& w, std::int64_t startNs, const TortureOptions& o,
            const std::atomic<bool>& interrupted)
        : deployment_(d), workers_(w), startNs_(startNs), options_(o), interrupted_(interrupted) {}

    void play(const std::vector<FaultEvent>& plan, std::int64_t deadlineNs) {
        for (const FaultEvent& e : plan) {
            if (!sleepUntil(startNs_ + e.at.count() * 1'000'000)) break;
            if (monotonicNs() >= deadlineNs) break;
            inject(e);
        }
        sleepUntil(deadlineNs);
    }
    History& history() { return history_; }
    bool clockEmulated() const { return clockEmulated_; }

  private:
    // false when interrupted.
    bool sleepUntil(std::int64_t ns) {
        while (monotonicNs() < ns) {
            if (interrupted_) return false;
            std::this_thread::sleep_for(std::min<std::chrono::nanoseconds>(
                std::chrono::milliseconds(20), std::chrono::nanoseconds(ns - monotonicNs())));
        }
        return !interrupted_;
    }
    void record(const FaultEvent& e, const char* phase, const std::string& detail) {
        Op op;
        op.type = OpType::Info;
        op.f = toString(e.kind);
        op.process = kNemesis;
        op.timeNs = monotonicNs() - startNs_;
        op.phase = phase;
        op.detail = detail;
        history_.push_back(op);
        if (options_.onProgress)
            options_.onProgress(std::to_string(op.timeNs / 1'000'000) + " ms: " + phase + " " +
                                op.f + " (" + detail + ")");
    }
    static std::string nodes(const std::vector<int>& list) {
        std::string out;
        for (int n : list) out += (out.empty() ? "node " : ", ") + std::to_string(n);
        return out;
    }

    // Faults are aimed at the critical section: wait (at most a TTL) until a worker is
    // inside it, and return that worker (the one that entered last), else the planned one.
    int waitForHolder(int planned) {
        auto until = monotonicNs() + options_.ttl.count() * 1'000'000;
        while (monotonicNs() < until && !interrupted_) {
            auto inside = workers_.working();
            if (!inside.empty()) return inside.back();
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        return planned;
    }

    void inject(FaultEvent e) {
        if (e.kind != FaultKind::Failover) e.worker = waitForHolder(e.worker);
        std::string target = "worker " + std::to_string(e.worker);
        auto wait = [&] { sleepUntil(monotonicNs() + e.length.count() * 1'000'000); };
        try {
            switch (e.kind) {
                case FaultKind::Pause:
                    record(e, "start", target + " stopped (SIGSTOP)");
                    workers_.pause(e.worker);
                    wait();
                    workers_.resume(e.worker);
                    record(e, "stop", target + " continued (SIGCONT)");
                    break;
                case FaultKind::Delay:
                    record(
                        e, "start",
                        target + ": replies held " + std::to_string(e.magnitude.count()) + " ms");
                    deployment_.delayWorker(e.worker, e.magnitude);
                    wait();
                    deployment_.delayWorker(e.worker, std::chrono::milliseconds(0));
                    record(e, "stop", target + ": no delay");
                    break;
                case FaultKind::Partition:
                    record(e, "start", target + " cut off from every node");
                    deployment_.partitionWorker(e.worker, true);
                    wait();
                    deployment_.partitionWorker(e.worker, false);
                    record(e, "stop", target + " reconnected");
                    break;
                case FaultKind::Restart:
                    record(e, "start", nodes(e.nodes) + " killed (no persistence)");
                    deployment_.stopPrimary(e.nodes[0]);
                    wait();
                    deployment_.startPrimary(e.nodes[0]);
                    record(e, "stop", nodes(e.nodes) + " started again, empty");
                    break;
                case FaultKind::Failover:
                    record(e, "start", nodes(e.nodes) + ": replication held back");
                    deployment_.holdReplication(e.nodes[0]);
                    wait();
                    waitForHolder(e.worker);  // one that acquired while replication was held
                    deployment_.promoteReplica(e.nodes[0]);
                    record(e, "stop", nodes(e.nodes) + ": replica promoted, clients moved");
                    break;
                case FaultKind::Clock:
                    record(e, "start",
                           nodes(e.nodes) + ": expiry jumps " +
                               std::to_string(e.magnitude.count()) + " ms forward (emulated)");
                    for (int n : e.nodes) deployment_.jumpClock(n, e.magnitude);
                    clockEmulated_ = true;
                    record(e, "stop", nodes(e.nodes) + ": jumped");
                    break;
                case FaultKind::ServerStall:
                    record(e, "start",
                           nodes(e.nodes) + ": CLIENT PAUSE " + std::to_string(e.length.count()) +
                               " ms");
                    deployment_.stallServer(e.nodes[0], e.length);
                    wait();
                    record(e, "stop", nodes(e.nodes) + ": serving again");
                    break;
            }
        } catch (const Error& error) {
            record(e, "stop", std::string("the fault failed: ") + error.what());
        }
    }

    Deployment& deployment_;
    WorkerPool& workers_;
    std::int64_t startNs_;
    const TortureOptions& options_;
    History history_;
    bool clockEmulated_ = false;
    const std::atomic<bool>& interrupted_;  // set by SIGINT/SIGTERM
};

}  // namespace lockscope::torture
