#pragma once
// The share of the cores a connection worker's thread asks for. On the shared 2-core machine
// of gui_fleet_bench, twenty watch threads at the GUI thread's weight left it 6% of the
// samples: its timers ran 1.1 s late while it used 16 ms (issue 36). A worker at nice 10
// weighs about a ninth of the GUI thread (the kernel's weights: 110 against 1024), so the
// window answers first and the watches take what is left; they pace themselves by what
// they read, not by when they run, and nothing they read is dropped. Linux sets nice per
// thread; elsewhere this does nothing.

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace lockscope::ui {

inline constexpr int kWorkerNice = 10;

// Called on the worker's own thread.
inline void yieldToTheGuiThread() {
#ifdef __linux__
    const auto thread = static_cast<id_t>(::syscall(SYS_gettid));
    const int now = ::getpriority(PRIO_PROCESS, thread);
    if (now < kWorkerNice) ::setpriority(PRIO_PROCESS, thread, kWorkerNice);
#endif
}

}  // namespace lockscope::ui
