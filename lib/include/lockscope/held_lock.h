#pragma once
// A held lock as one value: what RedisLock::hold() returns. It owns the lease from the
// acquire to the end of its scope: the watchdog renews it, cancellation() tells the work
// when it is lost, and the destructor releases it (and stops the watchdog) without throwing.
//
//     if (auto held = lock.hold(deadline)) {
//         for (auto& chunk : chunks) {
//             if (held->cancellation().stop_requested()) return;  // lost: stop writing
//             write(chunk, held->fence());
//         }
//         if (!held->release()) log(held->lostReason());  // learn at the end that it was lost
//     }
//
// Loss is never silent: HoldOptions::watchdog.onLost hears it once (when the watchdog sees
// it, or at release when the key no longer held our token), lost() and lostReason() say it,
// and release() returns false.
//
// Thread rules: one thread uses a HeldLock (the thread that uses its RedisLock); lost(),
// lostReason() and cancellation() may be read from any thread. Moved-from: holds nothing,
// and every member but the destructor and assignment throws InvalidArgumentError.

#include <cstdint>
#include <memory>
#include <stop_token>
#include <string>

namespace lockscope {

class RedisLock;
class Watchdog;

class HeldLock {
  public:
    HeldLock(HeldLock&& other) noexcept;
    HeldLock& operator=(HeldLock&& other) noexcept;
    HeldLock(const HeldLock&) = delete;
    HeldLock& operator=(const HeldLock&) = delete;
    ~HeldLock();  // release(), errors swallowed (the TTL frees what a failed release leaves)

    std::int64_t fence() const;
    // True when the acquire saw a fence not above one this process saw before for this lock
    // (the server lost its counter): a fenced resource will refuse this holder's writes.
    bool fenceRegressed() const;
    // Requested as soon as the lock is lost.
    std::stop_token cancellation() const;
    bool lost() const;
    std::string lostReason() const;
    RedisLock& lock() const;

    // Stops the watchdog and deletes the key if it still holds our token. true: we held the
    // lock until now; false: it had been lost (lostReason() says why; onLost was called).
    // A second call returns false and sends nothing. Throws IoError when the server cannot
    // be reached (the lease then expires by itself).
    bool release();

  private:
    friend class RedisLock;
    struct State;
    HeldLock(RedisLock& lock, std::shared_ptr<State> state);
    const State& state() const;

    RedisLock* lock_ = nullptr;
    std::shared_ptr<State> state_;
};

}  // namespace lockscope
