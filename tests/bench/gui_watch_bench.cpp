// The inspector window watching 10,000 live locks on a sandbox redis-server: the longest
// GUI event-loop stall (the worst lateness of a 5 ms timer) while watching and while a
// 1,000,000-key scan streams in, next to the app's CPU use while watching.

#include <QApplication>
#include <QElapsedTimer>
#include <QSettings>
#include <QTemporaryDir>
#include <chrono>
#include <cstdio>
#include <thread>

#include "gui_bench_support.h"
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

using bench::loadLocks;
using bench::runFor;
using bench::runUntil;
using bench::StallProbe;

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    int locks = qEnvironmentVariableIntValue("LOCKSCOPE_BENCH_GUI_LOCKS");
    if (locks <= 0) locks = 10'000;
    int bulk = qEnvironmentVariableIntValue("LOCKSCOPE_BENCH_GUI_BULK");
    if (bulk <= 0) bulk = 1'000'000;

    LocalRedisServer server({.configLines = {"enable-debug-command yes"}});
    Connection c = Connection::open(server.endpoint(), {.commandTimeout = 60s});
    loadLocks(c, locks, {.prefix = "job:", .ttlMs = 600000});

    // A live workload beside it: one lock renewed and one handed off every 100 ms.
    std::atomic<bool> stop{false};
    std::thread churn([&] {
        // DEBUG POPULATE blocks the server for seconds on a loaded machine: wait it out.
        Connection w = Connection::open(server.endpoint(), {.commandTimeout = 60s});
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
    double cpu0 = bench::processCpuSeconds();
    QElapsedTimer wall;
    wall.start();
    runFor(10s);
    double cpuShare = (bench::processCpuSeconds() - cpu0) / (double(wall.elapsed()) / 1000.0);
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
