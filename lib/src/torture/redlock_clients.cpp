// Redlock over the run's N primaries, as the project's library implements it; the fenced
// variant adds a fence drawn after the lock from INCR on every node (the highest answer),
// which Redlock itself does not have: the resource's check is what makes it safe, and the
// run shows whether these fences were good enough.

#include <algorithm>

#include "lock_client.h"
#include "lockscope/errors.h"
#include "lockscope/redlock/redlock.h"
#include "redlock/node_set_access.h"

namespace lockscope::torture {
namespace {

using namespace std::chrono_literals;

std::vector<Endpoint> endpoints(const std::vector<int>& ports) {
    std::vector<Endpoint> out;
    for (int port : ports) {
        Endpoint e;
        e.port = port;
        out.push_back(e);
    }
    return out;
}

class RedlockClient : public LockClient {
  public:
    RedlockClient(const WorkerConfig& c, bool fenced)
        : ttl_(c.ttlMs),
          fenced_(fenced),
          nodes_(std::make_shared<RedlockNodeSet>(endpoints(c.ports))) {}

    std::optional<Grant> acquire(Clock::time_point until) override {
        RedlockOptions options;
        options.ttl = std::chrono::milliseconds(ttl_);
        lock_ = std::make_unique<Redlock>(nodes_, kTortureLockName, options);
        RedlockAttempt attempt = lock_->acquire(until, RetryOptions{10ms, 20ms});
        if (!attempt.succeeded) return std::nullopt;
        Grant grant{lock_->token(), std::nullopt};
        if (fenced_) grant.fence = drawFence();
        return grant;
    }
    // A Redlock user checks the validity before relying on the lock.
    bool stillHeld() override { return lock_ && lock_->isValid(); }
    bool release() override {
        if (!lock_) return false;
        RedlockAttempt attempt = lock_->release();
        return attempt.granted() >= attempt.quorum;  // fewer: our key was gone on a majority
    }

  private:
    // INCR fence:{torture} on every node; the highest answer from a majority is the fence.
    std::optional<std::int64_t> drawFence() {
        std::string key = std::string("fence:{") + kTortureLockName + "}";
        auto replies = redlock_detail::NodeSetAccess::roundTrip(*nodes_, {{"INCR", key}},
                                                                lock_->nodeTimeout());
        std::int64_t highest = 0;
        int answered = 0;
        for (const auto& node : replies) {
            if (!node.ok() || node.replies.empty() || node.replies[0].isError()) continue;
            ++answered;
            highest = std::max(highest, node.replies[0].integer());
        }
        if (answered < nodes_->quorum())
            throw ConnectionLostError("redlock-fenced: no majority answered the fence INCR");
        return highest;
    }

    long long ttl_;
    bool fenced_;
    std::shared_ptr<RedlockNodeSet> nodes_;  // shared with each Redlock
    std::unique_ptr<Redlock> lock_;
};

}  // namespace

std::unique_ptr<LockClient> makeRedlockClient(const WorkerConfig& c, bool fenced) {
    return std::make_unique<RedlockClient>(c, fenced);
}

}  // namespace lockscope::torture
