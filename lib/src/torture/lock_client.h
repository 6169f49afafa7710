#pragma once
// The lock client a worker tortures, behind one small interface: the built-in clients wrap
// the project's lock library (and the broken SETNX + DEL pattern), the adapter client talks
// to an external process in any language.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "worker_config.h"

namespace lockscope::torture {

struct Grant {
    std::string token;
    std::optional<std::int64_t> fence;
};

class LockClient {
  public:
    using Clock = std::chrono::steady_clock;
    virtual ~LockClient() = default;
    // Tries until `until`. nullopt: not acquired (someone else holds it). Throws an Error
    // when the outcome is unknown (a lost reply).
    virtual std::optional<Grant> acquire(Clock::time_point until) = 0;
    // Whether the client still believes it holds the lock (a watchdog or the validity says
    // so); a careful worker stops writing when it does not.
    virtual bool stillHeld() { return true; }
    // true: our lock was released; false: it was already gone (expired, taken over).
    // Throws an Error when the outcome is unknown.
    virtual bool release() = 0;
    // After an I/O error: reconnect so the next round can start. Never throws.
    virtual void recover() noexcept {}
};

// Throws InvalidArgumentError for an unknown client name.
std::unique_ptr<LockClient> makeLockClient(const WorkerConfig& config);
std::unique_ptr<LockClient> makeRedlockClient(const WorkerConfig& config, bool fenced);
std::unique_ptr<LockClient> makeAdapterClient(const WorkerConfig& config);

inline constexpr const char* kTortureLockName = "torture";

}  // namespace lockscope::torture
