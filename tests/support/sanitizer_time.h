#pragma once
// Times in timing tests, stretched under the sanitizers. TSan sends every memory access of
// the instrumented code through its runtime (several times slower), so a lock whose TTL is
// 100 ms can be spent before tryAcquire has returned. The ASan build is a Debug build with
// checked memory: the CLI's hostile-reply sweep took 108 s there against 60 s, a 1 s scan
// deadline 3.3 s against 3 s, on a loaded machine. A test keeps its assertion and scales its
// durations with scaled(): unchanged in the normal build.

#include <chrono>

namespace lockscope::testing {

#if defined(__SANITIZE_THREAD__)  // GCC's -fsanitize=thread
inline constexpr int kSanitizerSlowdown = 10;
#elif defined(__SANITIZE_ADDRESS__)  // GCC's -fsanitize=address
inline constexpr int kSanitizerSlowdown = 3;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)  // Clang's
inline constexpr int kSanitizerSlowdown = 10;
#else
inline constexpr int kSanitizerSlowdown = 1;
#endif
#else
inline constexpr int kSanitizerSlowdown = 1;
#endif

// The duration d, times the sanitizer's slowdown.
template <class Rep, class Period>
constexpr std::chrono::duration<Rep, Period> scaled(std::chrono::duration<Rep, Period> d) {
    return d * kSanitizerSlowdown;
}

}  // namespace lockscope::testing
