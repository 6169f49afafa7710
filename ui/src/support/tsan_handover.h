#pragma once
// Hand-overs between threads that ThreadSanitizer cannot see. Debian's Qt is not built with
// -fsanitize=thread: a queued signal's arguments and a QThreadPool task are ordered by
// futexes inside libQt6Core, so TSan saw the sending thread's writes and the receiving
// thread's reads with nothing between them and reported each as a race. The sender calls
// handOver(p) after its last write to what it hands over, the receiver takeOver(p), with the
// same address, before its first read (an empty container's null data hands over nothing).
// Outside TSan both are empty.

#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#endif

namespace lockscope::ui {

inline void handOver([[maybe_unused]] const void* address) {
#if defined(__SANITIZE_THREAD__)
    if (address) __tsan_release(const_cast<void*>(address));
#endif
}

inline void takeOver([[maybe_unused]] const void* address) {
#if defined(__SANITIZE_THREAD__)
    if (address) __tsan_acquire(const_cast<void*>(address));
#endif
}

}  // namespace lockscope::ui
