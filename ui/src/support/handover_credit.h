#pragma once
// A bound on what a worker thread has handed to the GUI thread through queued signals and the
// GUI has not taken yet. Qt's queue has no bound of its own: while the GUI thread was busy,
// fifty connection workers kept queueing the rows they re-read, and the window grew to 24 GB
// before it showed them (issue 36). The worker acquires room before it sends; the receiver
// releases it as it takes each batch. A worker over the bound waits, so the engine's own
// pacing slows down (a scan pauses between batches, a round starts later) and nothing is
// dropped. One batch always goes when nothing is in flight, however large.

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace lockscope::ui {

class HandoverCredit {
  public:
    explicit HandoverCredit(std::int64_t limit) : limit_(limit) {}

    // The sender: waits until `units` more fit (or nothing is in flight, or the credit is
    // closed), then counts them in flight.
    void acquire(std::int64_t units) {
        std::unique_lock lock(mutex_);
        room_.wait(lock, [&] { return closed_ || inFlight_ == 0 || inFlight_ + units <= limit_; });
        inFlight_ += units;
    }
    // The sender, when it may skip a send instead (what it would send keeps): whether the
    // units fit now, counted in flight if so.
    bool tryAcquire(std::int64_t units) {
        std::lock_guard lock(mutex_);
        if (!closed_ && inFlight_ > 0 && inFlight_ + units > limit_) return false;
        inFlight_ += units;
        return true;
    }
    // The receiver took `units`.
    void release(std::int64_t units) {
        {
            std::lock_guard lock(mutex_);
            inFlight_ = std::max<std::int64_t>(0, inFlight_ - units);
        }
        room_.notify_all();
    }
    // The receiver is going away (the connection closes): no sender waits from now on.
    void close() {
        {
            std::lock_guard lock(mutex_);
            closed_ = true;
        }
        room_.notify_all();
    }
    std::int64_t inFlight() const {
        std::lock_guard lock(mutex_);
        return inFlight_;
    }

  private:
    mutable std::mutex mutex_;
    std::condition_variable room_;
    const std::int64_t limit_;
    std::int64_t inFlight_ = 0;
    bool closed_ = false;
};

}  // namespace lockscope::ui
