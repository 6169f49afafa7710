#pragma once
// Shared by the window benchmarks: the event-loop stall probe, running the loop for a while
// or until a condition holds, the process's CPU time and resident memory, and the locks they
// load into the server.

#include <sys/resource.h>

#include <unistd.h>

#include <ctime>

#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QTimer>
#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

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

// CPU seconds per thread of this process, by thread name (several of one name are added up):
// tells the window's GUI thread from its connection workers and Qt's helpers.
inline std::map<std::string, double> threadCpuSecondsByName() {
    std::map<std::string, double> out;
    const auto tick = double(sysconf(_SC_CLK_TCK));
    for (const QString& tid :
         QDir(QStringLiteral("/proc/self/task")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile stat(QStringLiteral("/proc/self/task/%1/stat").arg(tid));
        if (!stat.open(QIODevice::ReadOnly)) continue;
        const QByteArray text = stat.readAll();
        // "tid (comm) state ..." where comm may hold spaces: fields after the last ')'.
        const qsizetype open = text.indexOf('('), close = text.lastIndexOf(')');
        if (open < 0 || close < open) continue;
        const QList<QByteArray> fields = text.mid(close + 2).split(' ');
        if (fields.size() < 13) continue;  // utime and stime are fields 14 and 15 of stat
        out[text.mid(open + 1, close - open - 1).toStdString()] +=
            (fields[11].toDouble() + fields[12].toDouble()) / tick;
    }
    return out;
}

// CPU time of the calling thread, in ms.
inline double threadCpuMs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

// Measures the worst lateness of a 5 ms timer while the event loop runs, and how much CPU
// the GUI thread itself used during that worst gap: on a shared, loaded machine a gap can
// be the scheduler's (other processes had the cores), and the CPU figure tells them apart.
struct StallProbe {
    QElapsedTimer clock;
    qint64 last = 0, worst = 0;
    double lastCpu = 0, worstCpu = 0, worstBusy = 0;
    QTimer timer;
    StallProbe() {
        timer.setTimerType(Qt::PreciseTimer);
        timer.setInterval(5);
        QObject::connect(&timer, &QTimer::timeout, [this] {
            qint64 now = clock.nsecsElapsed();
            double cpu = threadCpuMs();
            if (last) {
                qint64 late = now - last - 5'000'000;
                if (late > worst) worst = late, worstCpu = cpu - lastCpu;
                worstBusy = std::max(worstBusy, cpu - lastCpu);
            }
            last = now;
            lastCpu = cpu;
        });
        clock.start();
        lastCpu = threadCpuMs();
        timer.start();
    }
    double worstMs() const { return double(worst) / 1e6; }
    // GUI-thread CPU during the worst gap, and the most it used between two ticks.
    double worstGapCpuMs() const { return worstCpu; }
    double longestBusyMs() const { return worstBusy; }
};

// What the benches load: count locks lock:{<prefix><i>} holding "token-<i>" with a TTL of
// ttlMs (+ i % ttlSpreadMs, so they do not all expire in one instant), and with fences their
// fence:{<prefix><i>} counters, pipelined in batches.
struct LockLoad {
    std::string prefix = "job:";
    bool fences = true;
    long long ttlMs = 3'600'000;
    int ttlSpreadMs = 0;
};

inline void loadLocks(Connection& c, int count, const LockLoad& load = {}) {
    std::vector<std::vector<std::string>> batch;
    for (int i = 0; i < count; ++i) {
        const std::string name = load.prefix + std::to_string(i);
        const long long ttl = load.ttlMs + (load.ttlSpreadMs > 0 ? i % load.ttlSpreadMs : 0);
        batch.push_back({"SET", "lock:{" + name + "}", "token-" + std::to_string(i), "PX",
                         std::to_string(ttl)});
        if (load.fences)
            batch.push_back({"SET", "fence:{" + name + "}", std::to_string(i % 97 + 1)});
        if (batch.size() >= 4000) c.pipeline(batch), batch.clear();
    }
    if (!batch.empty()) c.pipeline(batch);
}

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
