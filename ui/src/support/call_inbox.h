#pragma once
// Calls made on an object's thread, posted from another thread in an order ThreadSanitizer
// sees. A queued lambda's captures are written on the posting thread and read on the
// receiving one, ordered only by Qt's posted-event list, a futex inside Debian's
// uninstrumented libQt6Core: when the receiving thread was awake already (no eventfd read),
// TSan saw nothing between them and reported the read of every capture as a race (the
// hub's stop of a busy worker, issue 32's TSan run). The calls wait here under a std::mutex,
// which TSan sees; Qt's queue carries only a member-function wake-up, one per call, so the
// calls keep their order with the object's other queued calls.

#include <deque>
#include <functional>
#include <mutex>
#include <utility>

namespace lockscope::ui {

class CallInbox {
  public:
    // On the posting thread; then wake the receiver once (runNext on its thread).
    void post(std::function<void()> call) {
        std::lock_guard lock(mutex_);
        calls_.push_back(std::move(call));
    }

    // On the receiving thread: the oldest call posted.
    void runNext() {
        std::function<void()> call;
        {
            std::lock_guard lock(mutex_);
            if (calls_.empty()) return;
            call = std::move(calls_.front());
            calls_.pop_front();
        }
        call();
    }

  private:
    std::mutex mutex_;
    std::deque<std::function<void()>> calls_;
};

}  // namespace lockscope::ui
