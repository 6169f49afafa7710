// The single-instance clients: the broken SETNX + EXPIRE + DEL pattern, and the guide's
// RedisLock with and without fencing and with its watchdog.

#include <thread>

#include "lock_client.h"
#include "lockscope/connection.h"
#include "lockscope/errors.h"
#include "lockscope/redis_lock.h"

namespace lockscope::torture {
namespace {

using namespace std::chrono_literals;

Connection openNode(int port, long long ttlMs) {
    Endpoint e;
    e.port = port;
    // Commands must not wait longer than a lease: a stalled server is a failed attempt.
    auto timeout = std::chrono::milliseconds(std::max(100LL, ttlMs));
    return Connection::open(e, {timeout, timeout, false});
}

// The guide's first broken lock: SETNX, then EXPIRE in a second command, and an
// unconditional DEL that removes whatever lock is there, ours or not.
class SetnxDelClient : public LockClient {
  public:
    explicit SetnxDelClient(const WorkerConfig& c)
        : port_(c.ports.at(0)), ttl_(c.ttlMs), connection_(openNode(port_, ttl_)) {}

    std::optional<Grant> acquire(Clock::time_point until) override {
        std::string key = std::string("lock:{") + kTortureLockName + "}";
        while (true) {
            if (connection_.command({"SETNX", key, "1"}).integer() == 1) {
                connection_.command({"PEXPIRE", key, std::to_string(ttl_)});
                return Grant{"1", std::nullopt};
            }
            if (Clock::now() + 20ms > until) return std::nullopt;
            std::this_thread::sleep_for(20ms);
        }
    }
    bool release() override {
        std::string key = std::string("lock:{") + kTortureLockName + "}";
        return connection_.command({"DEL", key}).integer() == 1;  // 0: it had expired
    }
    void recover() noexcept override {
        try {
            connection_.reconnect();
        } catch (const Error&) {
        }
    }

  private:
    int port_;
    long long ttl_;
    Connection connection_;
};

// The guide's RedisLock: token, Lua release, a fencing counter; optionally its watchdog.
class GuideClient : public LockClient {
  public:
    GuideClient(const WorkerConfig& c, bool watchdog)
        : ttl_(c.ttlMs), watchdog_(watchdog), connection_(openNode(c.ports.at(0), ttl_)) {}

    std::optional<Grant> acquire(Clock::time_point until) override {
        LockOptions options;
        options.ttl = std::chrono::milliseconds(ttl_);
        lock_ = std::make_unique<RedisLock>(connection_, kTortureLockName, options);
        auto fence = lock_->acquire(until, RetryOptions{10ms, 20ms});
        if (!fence) return std::nullopt;
        if (watchdog_) lock_->startWatchdog();
        return Grant{lock_->token(), fence};
    }
    bool stillHeld() override { return !lock_ || !lock_->watchdog() || !lock_->watchdog()->lost(); }
    bool release() override { return lock_ && lock_->release(); }
    void recover() noexcept override {
        lock_.reset();  // stops a watchdog that might still renew
        try {
            connection_.reconnect();
        } catch (const Error&) {
        }
    }

  private:
    long long ttl_;
    bool watchdog_;
    Connection connection_;
    std::unique_ptr<RedisLock> lock_;
};

}  // namespace

std::unique_ptr<LockClient> makeLockClient(const WorkerConfig& c) {
    if (!c.adapterCommand.empty()) return makeAdapterClient(c);
    if (c.client == "setnx-del") return std::make_unique<SetnxDelClient>(c);
    if (c.client == "guide" || c.client == "guide-fenced")
        return std::make_unique<GuideClient>(c, false);
    if (c.client == "guide-watchdog") return std::make_unique<GuideClient>(c, true);
    if (c.client == "redlock") return makeRedlockClient(c, false);
    if (c.client == "redlock-fenced") return makeRedlockClient(c, true);
    throw InvalidArgumentError("torture: unknown client \"" + c.client + "\"");
}

}  // namespace lockscope::torture
