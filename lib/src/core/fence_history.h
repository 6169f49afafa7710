#pragma once
// The highest fence this process has seen per lock and server, to notice a fence counter
// that went backwards (a server restarted without persistence starts INCR at 1 again).
// Safe to call from any thread.

#include <cstdint>
#include <string>

namespace lockscope::detail {

// Records `fence` for `lock` (server and fence key) and returns the highest fence recorded
// for it before this call (0 when none).
std::int64_t recordFence(const std::string& lock, std::int64_t fence);

}  // namespace lockscope::detail
