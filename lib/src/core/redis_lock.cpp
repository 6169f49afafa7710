#include "lockscope/redis_lock.h"

#include <array>
#include <condition_variable>
#include <random>
#include <thread>
#include <utility>

#include "abandoned_acquire.h"
#include "command_budget.h"
#include "fence_history.h"
#include "held_lock_state.h"
#include "holder_identity.h"
#include "local_gate.h"
#include "lockscope/errors.h"
#include "lockscope/lock_scripts.h"
#include "lockscope/token.h"

namespace lockscope {
namespace {

using std::chrono::duration_cast;
using std::chrono::microseconds;
using std::chrono::milliseconds;

std::shared_ptr<Connection> required(std::shared_ptr<Connection> connection) {
    if (!connection) throw InvalidArgumentError("RedisLock needs a connection, got a null one");
    return connection;
}

// Sleeps until `until` or until `stop` is requested; false when stopped.
bool sleepUntil(RedisLock::Clock::time_point until, std::stop_token stop) {
    std::mutex mutex;
    std::condition_variable_any wake;
    std::unique_lock lock(mutex);
    return !wake.wait_until(lock, stop, until, [] { return false; }) && !stop.stop_requested();
}

milliseconds jitterOf(const RetryOptions& retry) {
    thread_local std::minstd_rand source{std::random_device{}()};  // timing only, not tokens
    return retry.jitter.count() > 0 ? milliseconds(source() % (retry.jitter.count() + 1))
                                    : milliseconds(0);
}

}  // namespace

const char* toString(AcquireStatus status) {
    switch (status) {
        case AcquireStatus::Acquired:
            return "acquired";
        case AcquireStatus::AlreadyHeld:
            return "already held";
        case AcquireStatus::Busy:
            return "busy";
        case AcquireStatus::FenceRegressed:
            return "fence regressed";
    }
    return "?";
}

RedisLock::RedisLock(std::shared_ptr<Connection> connection, std::string_view name,
                     LockOptions options)
    : connection_(required(std::move(connection))),
      name_(name),
      options_(std::move(options)),
      gate_(std::make_shared<detail::LocalGate>()) {
    validateLockName(name);
    validateLockOptions(options_);
    key_ = options_.lockPrefix + "{" + name_ + "}";
    fenceKey_ = options_.fencePrefix + "{" + name_ + "}";
    if (options_.holder.publish) holderKey_ = options_.holder.prefix + "{" + name_ + "}";
    token_ = randomToken();
    if (!holderKey_.empty() && options_.holder.nameConnection) nameOwnConnection();
}

RedisLock::RedisLock(Connection&& connection, std::string_view name, LockOptions options)
    : RedisLock(std::make_shared<Connection>(std::move(connection)), name, std::move(options)) {}

RedisLock::~RedisLock() {
    detachHandle();  // a HeldLock that outlives this lock must not reach into it
    std::shared_ptr<Watchdog> dog;
    {
        std::lock_guard lock(mutex_);
        dog = std::move(watchdog_);
    }
    if (dog) dog->stop();  // joins, unless this runs inside onLost on the watchdog's thread
}

void RedisLock::notify(const LockEvent& event) const {
    if (!options_.observer) return;
    try {
        options_.observer(event);
    } catch (...) {
        // A broken logger must not break locking.
    }
}

// Here, not before each acquire: the name is asked once per lock object, and a name command
// in front of the acquire would take the acquire's place as the one a stalled server leaves
// unanswered (the acquire would then never be sent: no ghost to clean, but no lock either).
// Best effort: a server that cannot be reached now or refuses CLIENT leaves the connection
// unnamed, and the holder hash says so (no connection field).
void RedisLock::nameOwnConnection() {
    try {
        connectionName_ = detail::nameConnection(*connection_);
    } catch (const CancelledError&) {
        throw;
    } catch (const Error&) {
        connectionName_.clear();
    }
}

Reply RedisLock::evalAcquireScript(const std::string& ttl) {
    if (holderKey_.empty())
        return connection_->eval(scripts::acquireOrRenew(), {key_, fenceKey_}, {token_, ttl});
    std::vector<std::string> args{token_, ttl};
    auto fields = detail::holderFields(token_, options_.holder.purpose, connectionName_);
    args.insert(args.end(), fields.begin(), fields.end());
    std::vector<std::string_view> argv(args.begin(), args.end());
    std::array<std::string_view, 3> keys{key_, fenceKey_, holderKey_};
    return connection_->eval(scripts::acquireOrRenew(), keys, argv);
}

Acquisition RedisLock::runAcquireScript() {
    Reply reply = evalAcquireScript(std::to_string(options_.ttl.count()));
    if (reply.size() != 2)
        throw ReplyError("acquire script on " + connection_->endpoint().display() + " answered " +
                         reply.summary() + ", not {fence, status}");
    Acquisition result;
    switch (reply[1].integer()) {
        case 1:
            result.status = AcquireStatus::Acquired;
            break;
        case 2:
            result.status = AcquireStatus::AlreadyHeld;
            break;
        default:
            return result;  // Busy
    }
    result.fence = reply[0].integer();
    return result;
}

Acquisition RedisLock::attemptOnce(Clock::time_point startedAt, Clock::time_point deadline) {
    detail::CommandBudget budget(*connection_, deadline);
    auto sentAt = Clock::now();
    Acquisition result;
    try {
        result = runAcquireScript();
    } catch (const OutcomeUnknownError& first) {
        // The script may have run. Running the idempotent acquire again answers it: our
        // token there → the fence (TTL reset); free → acquired now; another's → busy. The
        // lease can only have started after the first send, so that stays acquiredAt.
        if (Clock::now() >= deadline) throw;
        budget.cap();
        try {
            result = runAcquireScript();
        } catch (const IoError& second) {
            // Unanswered again: whether the first one ran is still unknown.
            throw OutcomeUnknownError(std::string(first.what()) +
                                      "; the retry that would have told got no answer either (" +
                                      second.what() + ")");
        }
    }
    if (result) recordAcquisition(result, sentAt, startedAt);
    return result;
}

void RedisLock::recordAcquisition(Acquisition& result, Clock::time_point sentAt,
                                  Clock::time_point startedAt) {
    std::int64_t fence = *result.fence;
    std::int64_t before =
        detail::recordFence(connection_->endpoint().display() + " " + fenceKey_, fence);
    bool fresh = result.status == AcquireStatus::Acquired;
    if (fresh ? before >= fence : before > fence) {
        result.status = AcquireStatus::FenceRegressed;
        result.highestFenceSeen = before;
    }
    bool wasOurs = false;
    {
        std::lock_guard lock(mutex_);
        wasOurs = fence_ == fence;
        fence_ = fence;
        if (!wasOurs) acquiredAt_ = sentAt;
        leaseEnd_ = sentAt + options_.ttl - leaseSafetyMargin(options_.ttl);
        if (watchdog_) watchdog_->leaseRenewed(sentAt, leaseEnd_);
    }
    auto waited = duration_cast<microseconds>(Clock::now() - startedAt);
    notify({.kind = LockEventKind::Acquired, .key = key_, .fence = fence, .waited = waited});
    if (result.status == AcquireStatus::FenceRegressed)
        notify({.kind = LockEventKind::FenceRegressed,
                .key = key_,
                .fence = fence,
                .highestFenceSeen = before,
                .reason = "fence " + std::to_string(fence) + " from " + fenceKey_ +
                          " is not above " + std::to_string(before) +
                          ", which this process saw before: the counter went backwards (a "
                          "restart without persistence?); a fenced resource will refuse it"});
}

Acquisition RedisLock::tryAcquire() {
    return attemptOnce(Clock::now(), Clock::time_point::max());
}

std::optional<std::int64_t> RedisLock::acquire() {
    return tryAcquire().fence;
}

std::optional<std::int64_t> RedisLock::acquire(Clock::time_point deadline, RetryOptions retry,
                                               std::stop_token stop) {
    return acquireUntil(deadline, retry, std::move(stop)).fence;
}

Acquisition RedisLock::acquireUntil(Clock::time_point deadline, RetryOptions retry,
                                    std::stop_token stop) {
    auto startedAt = Clock::now();
    std::exception_ptr ioError;
    bool unknown = false;   // an attempt may have set our token without our hearing of it
    bool answered = false;  // an attempt got an answer: the lock was busy, as far as we know
    while (!stop.stop_requested()) {
        try {
            Acquisition result = attemptOnce(startedAt, deadline);
            // An answer also settles an earlier unanswered attempt: it would have found our
            // token (already held) or lost to the same holder.
            ioError = nullptr;
            unknown = false;
            answered = true;
            if (result) return result;
        } catch (const OutcomeUnknownError&) {
            ioError = std::current_exception();
            unknown = true;
        } catch (const IoError&) {
            // Transient (a restart, a failover): the next attempt is idempotent.
            ioError = std::current_exception();
        }
        // The last attempt is made at the deadline itself, so a waiter gets the whole wait.
        auto now = Clock::now();
        if (now >= deadline) break;
        if (!sleepUntil(std::min(deadline, now + retry.delay + jitterOf(retry)), stop)) break;
    }
    if (unknown) abandonUnknownAcquire();
    // The last attempt, made at the deadline with what little time was left, may time out
    // where the earlier ones were answered "busy": that is a busy lock, not a failure.
    if (ioError && !answered && !stop.stop_requested()) std::rethrow_exception(ioError);
    return {};
}

void RedisLock::abandonUnknownAcquire() {
    if (fence()) return;  // a lease we held before: the unanswered attempt only renewed it
    detail::releaseWhenServerAnswers(connection_->endpoint(), connection_->options(), key_, token_,
                                     holderKey_);
    token_ = randomToken();  // a later acquire must not be mistaken for the abandoned one
}

bool RedisLock::extend() {
    if (!fence()) return false;
    auto sentAt = Clock::now();
    std::string ttl = std::to_string(options_.ttl.count());
    Reply reply = holderKey_.empty() ? connection_->eval(scripts::extend(), {key_}, {token_, ttl})
                                     : connection_->eval(scripts::extendWithHolder(),
                                                         {key_, holderKey_}, {token_, ttl});
    if (reply.integer() != 1) return false;
    microseconds held;
    {
        std::lock_guard lock(mutex_);
        leaseEnd_ = sentAt + options_.ttl - leaseSafetyMargin(options_.ttl);
        if (watchdog_) watchdog_->leaseRenewed(sentAt, leaseEnd_);
        held = duration_cast<microseconds>(Clock::now() - acquiredAt_);
    }
    notify({.kind = LockEventKind::Extended, .key = key_, .fence = fence(), .held = held});
    return true;
}

bool RedisLock::release() {
    std::shared_ptr<Watchdog> dog;
    std::optional<std::int64_t> fence;
    Clock::time_point acquiredAt;
    {
        std::lock_guard lock(mutex_);
        dog = std::move(watchdog_);
        fence = std::exchange(fence_, std::nullopt);
        acquiredAt = acquiredAt_;
        leaseEnd_ = {};
    }
    if (!fence) return false;  // never acquired, or released already: nothing to delete
    bool insideOnLost = dog && dog->onOwnThread();
    if (dog) dog->stop();  // no renewal can follow the release
    bool deleted = false;
    if (!insideOnLost) {
        try {
            deleted = runReleaseScript();
        } catch (const OutcomeUnknownError&) {
            // Whether the first ran or not, after this one the key no longer holds our token;
            // as far as we knew it did when we sent the first.
            runReleaseScript();
            deleted = true;
        }
    }
    notify({.kind = LockEventKind::Released,
            .key = key_,
            .fence = fence,
            .held = duration_cast<microseconds>(Clock::now() - acquiredAt),
            .stillOwned = deleted});
    return deleted;
}

bool RedisLock::runReleaseScript() {
    if (holderKey_.empty())
        return connection_->eval(scripts::release(), {key_}, {token_}).integer() == 1;
    return connection_->eval(scripts::releaseWithHolder(), {key_, holderKey_}, {token_})
               .integer() == 1;
}

bool RedisLock::isHeld() const {
    std::lock_guard lock(mutex_);
    if (!fence_) return false;
    auto until = leaseEnd_;
    if (watchdog_) {
        if (watchdog_->lost()) return false;
        until = std::max(until, watchdog_->deadline());
    }
    return Clock::now() < until;
}

bool RedisLock::ownedOnServer() {
    return connection_->command({"GET", key_}).text() == token_;
}

std::optional<std::int64_t> RedisLock::fence() const {
    std::lock_guard lock(mutex_);
    return fence_;
}

RedisLock::Clock::time_point RedisLock::acquiredAt() const {
    std::lock_guard lock(mutex_);
    return acquiredAt_;
}

std::shared_ptr<Watchdog> RedisLock::watchdog() const {
    std::lock_guard lock(mutex_);
    return watchdog_;
}

LockGuard::~LockGuard() noexcept {
    lock_->unlock();  // a destructor must not throw (redis-plus-plus #659)
}

}  // namespace lockscope
