#pragma once
// Shared by the window benchmarks: the event-loop stall probe, running the loop for a while
// or until a condition holds, and the process's CPU time and resident memory.

#include <sys/resource.h>

#include <ctime>

#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QTimer>
#include <algorithm>
#include <chrono>
#include <functional>
#include <string>

#include "lockscope/connection.h"

namespace lockscope::bench {

inline double processCpuSeconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// Resident memory of this process now (VmRSS), in MB.
inline double residentMb() {
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly)) return 0;
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith("VmRSS:")) return line.mid(6).trimmed().split(' ')[0].toDouble() / 1024;
    return 0;
}

// The server's own CPU seconds (user + sys) from INFO cpu.
inline double serverCpuSeconds(Connection& c) {
    std::string info(c.command({"INFO", "cpu"}).text());
    auto field = [&](const std::string& name) {
        auto at = info.find(name + ":");
        return at == std::string::npos ? 0.0 : std::stod(info.substr(at + name.size() + 1));
    };
    return field("used_cpu_sys") + field("used_cpu_user");
}

// The worst lateness of a 5 ms timer while the event loop runs.
struct StallProbe {
    QElapsedTimer clock;
    qint64 last = 0, worst = 0;
    QTimer timer;
    StallProbe() {
        timer.setTimerType(Qt::PreciseTimer);
        timer.setInterval(5);
        QObject::connect(&timer, &QTimer::timeout, [this] {
            qint64 now = clock.nsecsElapsed();
            if (last) worst = std::max(worst, now - last - 5'000'000);
            last = now;
        });
        clock.start();
        timer.start();
    }
    double worstMs() const { return double(worst) / 1e6; }
};

inline void runFor(std::chrono::milliseconds d) {
    QEventLoop loop;
    QTimer::singleShot(int(d.count()), &loop, &QEventLoop::quit);
    loop.exec();
}

// Runs the event loop until done() holds (checked every `every`) or the limit passes.
inline bool runUntil(const std::function<bool()>& done, std::chrono::milliseconds limit,
                     std::chrono::milliseconds every = std::chrono::milliseconds(20)) {
    QEventLoop loop;
    QTimer check;
    QObject::connect(&check, &QTimer::timeout, [&] {
        if (done()) loop.quit();
    });
    check.start(int(every.count()));
    QTimer::singleShot(int(limit.count()), &loop, &QEventLoop::quit);
    if (!done()) loop.exec();
    return done();
}

}  // namespace lockscope::bench
