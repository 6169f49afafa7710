#pragma once
// A bound on what a worker thread has handed to the GUI thread through queued signals and the
// GUI has not taken yet. Qt's queue has no bound of its own: while the GUI thread was busy,
// fifty connection workers kept queueing the rows they re-read, and the window grew to 24 GB
// before it showed them (issue 36). The worker acquires room before it sends; the receiver
// releases it once it is done with each unit: the lock table's feed when it has applied a
// row, not when it received it (a feed holding 20,000 unapplied rows of a worker keeps that
// worker waiting, so fifty workers never bury the GUI thread). A worker over the bound
// waits, so the engine's own pacing slows down (a scan pauses between batches, a round
// starts later) and nothing is dropped. One batch always goes when nothing is in flight,
// however large.

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace lockscope::ui {

// What a batch of rows counts against a credit: each record and each removed key, and one
// for the batch itself (so an empty batch still counts until it is taken).
constexpr std::int64_t handoverRowUnits(std::int64_t records, std::int64_t removed) {
    return records + removed + 1;
}

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
    bool isClosed() const {
        std::lock_guard lock(mutex_);
        return closed_;
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
