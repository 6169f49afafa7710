#include "fence_history.h"

#include <algorithm>
#include <map>
#include <mutex>

namespace lockscope::detail {

std::int64_t recordFence(const std::string& lock, std::int64_t fence) {
    static std::mutex mutex;
    static std::map<std::string, std::int64_t, std::less<>> highest;  // grows with lock names
    std::lock_guard guard(mutex);
    std::int64_t& seen = highest[lock];
    std::int64_t before = seen;
    seen = std::max(seen, fence);
    return before;
}

}  // namespace lockscope::detail
