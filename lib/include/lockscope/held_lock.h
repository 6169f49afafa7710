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
// Lifetime: a HeldLock may outlive the RedisLock that made it (returned out of the function
// that owned the lock, say). The lock detaches its handle when it is destroyed: it releases
// the key itself (the handle can no longer), and the handle reports the loss like any other
// — lost() true, lostReason() "the RedisLock ... was destroyed while this HeldLock held it",
// onLost called once, cancellation() requested — then release() returns false and sends
// nothing, and lock() throws InvalidArgumentError. A handle from holdLock() (hold_lock.h)
// owns its lock and connection, so it has no such limit.
//
// Exclusion: while a HeldLock holds it, its RedisLock is locked for hold() and the standard
// interface (try_lock() is false, a second hold() waits until its deadline and returns
// nullopt); release() unlocks it. The existing lease and its watchdog are never touched by
// such a refused call.
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
namespace detail {
struct HeldLockAccess;
}

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
    // The lock this handle holds. Throws InvalidArgumentError once the lock was destroyed.
    RedisLock& lock() const;

    // Stops the watchdog and deletes the key if it still holds our token. true: we held the
    // lock until now; false: it had been lost (lostReason() says why; onLost was called).
    // A second call returns false and sends nothing. Throws IoError when the server cannot
    // be reached (the lease then expires by itself).
    [[nodiscard]] bool release();

  private:
    friend class RedisLock;
    friend struct detail::HeldLockAccess;  // holdLock() hands the handle its own lock
    struct State;
    explicit HeldLock(std::shared_ptr<State> state);
    const State& state() const;

    std::shared_ptr<State> state_;
};

}  // namespace lockscope
