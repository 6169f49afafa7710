// The inspector window watching 10,000 live locks on a sandbox redis-server: the longest
// GUI event-loop stall (the worst lateness of a 5 ms timer) while watching and while a
// 1,000,000-key scan streams in, next to the app's CPU use while watching.

#include <sys/resource.h>
#include <time.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QSettings>
#include <QTemporaryDir>
#include <QTimer>
#include <chrono>
#include <cstdio>
#include <thread>

#include "lockscope/connection.h"
#include "lockscope/redis_lock.h"
#include "lockscope/sandbox/local_redis_server.h"
#include "models/lock_table_model.h"
#include "session/connection_hub.h"
#include "widgets/lock_inspector_view.h"
#include "widgets/main_window.h"

using namespace lockscope;
using namespace lockscope::ui;
using namespace std::chrono_literals;

namespace {

double cpuSeconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

double threadCpuMs() {
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

// Runs the event loop (sleeping while idle, as the app does) for the duration.
void runFor(std::chrono::milliseconds d) {
    QEventLoop loop;
    QTimer::singleShot(int(d.count()), &loop, &QEventLoop::quit);
    loop.exec();
}

// Runs the event loop until done() holds (checked every 20 ms) or the limit passes.
bool runUntil(const std::function<bool()>& done, std::chrono::milliseconds limit) {
    QEventLoop loop;
    QTimer check;
    QObject::connect(&check, &QTimer::timeout, [&] {
        if (done()) loop.quit();
    });
    check.start(20);
    QTimer::singleShot(int(limit.count()), &loop, &QEventLoop::quit);
    if (!done()) loop.exec();
    return done();
}

void loadLocks(Connection& c, int count, const std::string& prefix) {
    std::vector<std::vector<std::string>> batch;
    for (int i = 0; i < count; ++i) {
        std::string name = prefix + std::to_string(i);
        batch.push_back(
            {"SET", "lock:{" + name + "}", "token-" + std::to_string(i), "PX", "600000"});
        batch.push_back({"SET", "fence:{" + name + "}", std::to_string(i % 97 + 1)});
        if (batch.size() >= 2000) c.pipeline(batch), batch.clear();
    }
    if (!batch.empty()) c.pipeline(batch);
}

}  // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    int locks = qEnvironmentVariableIntValue("LOCKSCOPE_BENCH_GUI_LOCKS");
    if (locks <= 0) locks = 10'000;
    int bulk = qEnvironmentVariableIntValue("LOCKSCOPE_BENCH_GUI_BULK");
    if (bulk <= 0) bulk = 1'000'000;

    LocalRedisServer server({.configLines = {"enable-debug-command yes"}});
    Connection c = Connection::open(server.endpoint(), {.commandTimeout = 60s});
    loadLocks(c, locks, "job:");

    // A live workload beside it: one lock renewed and one handed off every 100 ms.
    std::atomic<bool> stop{false};
    std::thread churn([&] {
        Connection w = Connection::open(server.endpoint());
        for (int i = 0; !stop; ++i) {
            w.command({"PEXPIRE", "lock:{job:" + std::to_string(i % locks) + "}", "600000"});
            w.command({"SET", "lock:{job:" + std::to_string((i * 7) % locks) + "}",
                       "handoff-" + std::to_string(i), "PX", "600000"});
            std::this_thread::sleep_for(100ms);
        }
    });

    QTemporaryDir dir;
    QSettings settings(dir.filePath("bench.ini"), QSettings::IniFormat);
    MainWindowOptions options;
    options.auditLogPath = dir.filePath("audit.jsonl");
    options.extra.append(ConnectionProfile::create(QStringLiteral("bench"), server.endpoint()));
    MainWindow window(settings, options);
    window.resize(1400, 900);
    window.show();
    auto* model = window.inspector()->model();
    if (!runUntil([&] { return model->rowCount() >= locks; }, 120s)) {
        std::fprintf(stderr, "only %d of %d locks appeared\n", model->rowCount(), locks);
        return 1;
    }
    runFor(2s);  // settle

    StallProbe watching;
    double cpu0 = cpuSeconds();
    QElapsedTimer wall;
    wall.start();
    runFor(10s);
    double cpuShare = (cpuSeconds() - cpu0) / (double(wall.elapsed()) / 1000.0);
    double watchStall = watching.worstMs();

    // A million more keys under the pattern, then a rescan streams them in.
    c.command({"DEBUG", "POPULATE", std::to_string(bulk), "lock:bulk"});
    StallProbe scanning;
    QElapsedTimer scanClock;
    scanClock.start();
    window.hub()->refreshAll();
    bool complete = runUntil([&] { return model->rowCount() >= locks + bulk; }, 300s);
    double scanSeconds = double(scanClock.elapsed()) / 1000.0;
    double scanStall = scanning.worstMs();
    scanning.timer.stop();
    stop = true;
    churn.join();

    std::printf(
        "watch %d locks: worst GUI stall %.1f ms, CPU %.1f%% of a core | %s %d-key scan: worst GUI "
        "stall %.1f ms "
        "(GUI thread busy %.1f ms of it; longest busy stretch %.1f ms), %.1f s to show all rows | "
        "goal: stalls < 50 "
        "ms, CPU < 15%%\n",
        locks, watchStall, cpuShare * 100, complete ? "during a" : "INCOMPLETE", bulk, scanStall,
        scanning.worstGapCpuMs(), scanning.longestBusyMs(), scanSeconds);
    return 0;
}
