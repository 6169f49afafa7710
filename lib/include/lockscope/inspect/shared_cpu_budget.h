#pragma once
// One CPU budget for the watcher's side of many watches in one process: the exporter's fleet
// of /scrape targets, the window's connections. A watch bounds its own CPU (the rotation of
// locks far from expiry and the sweep for new keys wait for it, watch_policy.h); alone, each
// watch's 3% of a core made fifty targets a process that took a core and more (issue 36:
// 108% of a core for 50 targets of 20,000 locks). Shared, each member may use the total
// divided by the members now, so the process stays within the total whatever the fleet's size.
//
// Threads: the members live on their own threads; joining, leaving and perMember() are safe
// from any of them.

#include <atomic>
#include <memory>

namespace lockscope::inspect {

class SharedCpuBudget {
  public:
    // total: share of one core for all members together, (0, 1]; throws InvalidArgumentError.
    explicit SharedCpuBudget(double total);
    double total() const { return total_; }
    // The share of one member now (the total while there is none).
    double perMember() const;
    int members() const { return members_.load(std::memory_order_relaxed); }

    // A member for as long as it lives; a copy is a member of its own (a move copies).
    class Membership {
      public:
        explicit Membership(std::shared_ptr<SharedCpuBudget> budget);
        ~Membership();
        Membership(const Membership& other);
        Membership& operator=(const Membership& other);
        double share() const { return budget_->perMember(); }
        const SharedCpuBudget& budget() const { return *budget_; }

      private:
        std::shared_ptr<SharedCpuBudget> budget_;
    };

  private:
    double total_;
    std::atomic<int> members_{0};
};

}  // namespace lockscope::inspect
