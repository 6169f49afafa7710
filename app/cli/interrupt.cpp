#include "interrupt.h"

#include <atomic>
#include <chrono>
#include <csignal>

namespace lockscope::cli {
namespace {

// Written by the signal handler, read by the poller thread: a lock-free atomic is both
// async-signal-safe and ordered between threads (a volatile sig_atomic_t is only the first;
// ThreadSanitizer reported the race).
std::atomic<int> g_interrupted{0};
static_assert(std::atomic<int>::is_always_lock_free);

void onSigint(int) {
    g_interrupted = 1;
    std::signal(SIGINT, SIG_DFL);  // a second Ctrl+C ends the process
}

}  // namespace

InterruptStop::InterruptStop() {
    g_interrupted = 0;
    std::signal(SIGINT, onSigint);
    poller_ = std::jthread([this](std::stop_token done) {
        while (!done.stop_requested()) {
            if (g_interrupted) {
                source_.request_stop();
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    });
}

InterruptStop::~InterruptStop() {
    poller_.request_stop();
    poller_.join();
    std::signal(SIGINT, SIG_DFL);
}

}  // namespace lockscope::cli
