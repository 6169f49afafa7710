#pragma once
// The one definition of a stale write, shared by the stories' rules (the replay's verdict and
// outcome table), --explore's properties and torture's checker (DESIGN.md, "Words the
// stories, the explorer and the torture checker share"):
//  - a *stale write* is a write the resource accepted after it had accepted a write of a newer
//    holder: what fencing prevents (Kleppmann);
//  - a *late write* is a write accepted after its writer's lease ended while no newer holder
//    had written yet: the lock failed, but nothing newer was overwritten (yet).
// A refused write is sorted the same way: refused after a newer holder's write with a lower
// number (the fence did its work), refused only because a newer holder wrote the *same*
// number first (luck of order, not fencing: the other order refuses the holder), or refused
// although no newer holder had written (the holder lost its write: the number is no fence).
// Header-only and free of the simulator's types, so torture (which does not link the
// simulator) judges by the same rule.

#include <cstdint>
#include <optional>
#include <string>

namespace lockscope::sim {

// One write that reached the protected resource, in the order the resource saw them.
struct WriteAttempt {
    std::string holder;  // one tenure of the lock: an actor and its grant, a worker and round
    // Where the holder's tenure falls in the order the lock changed hands: a later tenure
    // has a higher rank. In a story it is the moment the holder learned it holds the lock (it
    // finished counting its replies, or got its SET's reply), when its token is handed out;
    // in a torture run it is the fence. Two
    // tenures of different holders with the same rank cannot be ordered: each counts as
    // newer than the other.
    std::int64_t rank = 0;
    bool leaseHeld = true;              // the writer still held its lease when the write landed
    bool accepted = true;               // the resource took it
    std::optional<std::int64_t> fence;  // the number the write carried, if any
};

enum class WriteClass {
    Current,        // accepted from the newest holder so far, lease held
    Late,           // accepted after the writer's lease ended; no newer holder had written
    Stale,          // accepted after a newer holder's write
    RefusedStale,   // refused after a newer holder wrote a higher number: fencing worked
    RefusedTie,     // refused only because a newer holder wrote the same number first
    RefusedHolder,  // refused though no newer holder had written, the lease still held
    RefusedLate,    // refused, lease ended, no newer holder had written
};

// Judges writes one by one, in the resource's order.
class WriteOrder {
  public:
    WriteClass judge(const WriteAttempt& w) {
        const bool newerWrote =
            newest_ &&
            (newest_->rank > w.rank || (newest_->rank == w.rank && newest_->holder != w.holder));
        if (!w.accepted) {
            if (newerWrote)
                return w.fence && newest_->fence && *w.fence == *newest_->fence
                           ? WriteClass::RefusedTie
                           : WriteClass::RefusedStale;
            return w.leaseHeld ? WriteClass::RefusedHolder : WriteClass::RefusedLate;
        }
        if (newerWrote) return WriteClass::Stale;
        if (!newest_ || w.rank > newest_->rank || w.holder == newest_->holder) newest_ = w;
        return w.leaseHeld ? WriteClass::Current : WriteClass::Late;
    }
    // The newest holder's write accepted so far, if any.
    const std::optional<WriteAttempt>& newest() const { return newest_; }

  private:
    std::optional<WriteAttempt> newest_;
};

}  // namespace lockscope::sim
