#pragma once
// The live demo locks of the sandbox, written with this library so a newcomer sees every
// kind of lock the guide talks about at once:
//  - lock:{report:nightly}  a long job renewed by its watchdog (the guide's fix)
//  - lock:{invoice:batch}   two workers taking turns (handoffs, rising fences)
//  - lock:{cache:rebuild}   an orphan with no TTL (SETNX, then a crash before EXPIRE)
//  - lock:report            the broken fixed value "1" (SET lock:report 1 NX EX 10)

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stop_token>
#include <thread>
#include <vector>

#include "lockscope/endpoint.h"

namespace lockscope {

class DemoWorkload {
  public:
    explicit DemoWorkload(Endpoint endpoint);
    ~DemoWorkload();  // stops every holder; the orphan stays, as a crashed client's would
    DemoWorkload(const DemoWorkload&) = delete;
    DemoWorkload& operator=(const DemoWorkload&) = delete;

    void stop();
    int errors() const { return errors_.load(); }  // holder loops that hit a Redis error

  private:
    void longJob(const std::stop_token& stop);
    void turnTaker(const std::stop_token& stop, int worker);
    void fixedValueHolder(const std::stop_token& stop);
    void leaveOrphan();
    // Sleeps until the duration passes or stop is requested; false when stopping.
    bool sleepFor(const std::stop_token& stop, std::chrono::milliseconds duration);

    Endpoint endpoint_;
    std::atomic<int> errors_{0};
    std::mutex mutex_;
    std::condition_variable_any wake_;
    std::vector<std::jthread> holders_;
};

}  // namespace lockscope
