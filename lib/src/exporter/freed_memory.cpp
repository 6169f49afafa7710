#include "freed_memory.h"

#include <malloc.h>

#include <atomic>
#include <chrono>

namespace lockscope::exporter {
namespace {

constexpr std::chrono::seconds kLeastGap{2};
std::atomic<std::chrono::steady_clock::rep> lastTrim{0};

}  // namespace

void releaseFreedMemory() {
    const auto now = std::chrono::steady_clock::now().time_since_epoch();
    auto last = lastTrim.load();
    if (now - std::chrono::steady_clock::duration(last) < kLeastGap) return;
    if (!lastTrim.compare_exchange_strong(last, now.count())) return;  // another census trims
    malloc_trim(0);
}

}  // namespace lockscope::exporter
