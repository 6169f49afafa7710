#include "watch_thread_priority.h"

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace lockscope::exporter {

void lowerThisWatchThreadPriority() {
#if defined(__linux__)
    // On Linux, PRIO_PROCESS with a thread id sets that thread's nice alone.
    const auto tid = static_cast<id_t>(syscall(SYS_gettid));
    const int now = getpriority(PRIO_PROCESS, tid);
    (void)setpriority(PRIO_PROCESS, tid, now + kSteadyWatchNice);
#endif
}

}  // namespace lockscope::exporter
