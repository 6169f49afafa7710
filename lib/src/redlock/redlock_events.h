#pragma once
// How a Redlock's watchdog tells the lock's observer that the lock was lost: the observer
// hears Lost first, with the watchdog's last renewal round, then the caller's onLost runs.

#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include "lockscope/lock_observer.h"
#include "lockscope/redlock/redlock_watchdog.h"

namespace lockscope::redlock_detail {

// Where the Lost event finds the watchdog, which is created after its options are made.
class WatchdogSlot {
  public:
    void set(const std::shared_ptr<RedlockWatchdog>& dog);
    std::shared_ptr<RedlockWatchdog> get() const;

  private:
    mutable std::mutex mutex_;  // the watchdog's thread reads what the creating thread set
    std::weak_ptr<RedlockWatchdog> dog_;
};

// Wraps options.onLost so that `observer` hears Lost (key, held since acquiredAt, the reason,
// the last renewal round) before the caller's callback. Fill the returned slot with the
// watchdog once it exists. Nothing here refers to the lock, which onLost may destroy.
std::shared_ptr<WatchdogSlot> reportLossTo(LockObserver observer, std::string key,
                                           std::chrono::steady_clock::time_point acquiredAt,
                                           WatchdogOptions& options);

}  // namespace lockscope::redlock_detail
