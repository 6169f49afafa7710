// The session layer without widgets: a ConnectionHub and its worker thread against a real
// sandbox redis-server. Cancel is pressed on the GUI thread while the worker scans; the
// ThreadSanitizer build (./scripts/test --tsan) runs this suite to check the hand-over.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTest>

#include "lockscope/connection.h"
#include "lockscope/sandbox/local_redis_server.h"
#include "session/connection_hub.h"

using namespace lockscope;
using namespace lockscope::ui;

class ConnectionHubTest : public QObject {
    Q_OBJECT

  private:
    std::unique_ptr<LocalRedisServer> server_;

    // Enough lock keys, scanned slowly enough (a small share of the server's time, a few
    // keys per SCAN), that a rescan is still running when the test presses Cancel.
    static constexpr int kLocks = 4000;
    inspect::WatchOptions slowScans() const {
        inspect::WatchOptions options;
        options.scan.count = 20;
        options.scan.maxLoad = 0.05;
        options.followKeyspaceEvents = false;
        return options;
    }

    void open(ConnectionHub& hub) {
        hub.open(ConnectionProfile::create(QStringLiteral("test"), server_->endpoint()),
                 slowScans());
    }

  private slots:
    void init() {
        server_ = std::make_unique<LocalRedisServer>();
        Connection redis = Connection::open(server_->endpoint());
        std::vector<std::vector<std::string>> load;
        for (int i = 0; i < kLocks; ++i)
            load.push_back({"SET", "lock:" + std::to_string(i), "t" + std::to_string(i)});
        redis.pipeline(load);
    }

    void cleanup() { server_.reset(); }

    void cancelEndsTheScanInProgress() {
        ConnectionHub hub(nullptr);
        QSignalSpy progress(&hub, &ConnectionHub::scanProgress);
        QSignalSpy finished(&hub, &ConnectionHub::scanFinished);
        open(hub);
        QTRY_VERIFY_WITH_TIMEOUT(progress.count() >= 2, 10000);
        hub.cancelScans();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
        QCOMPARE(finished.first().at(1).toBool(), true);  // reported as cancelled
        QVERIFY(progress.last().at(1).toDouble() < 1.0);  // and it did stop early
        hub.closeAll();
    }

    void cancelPressedWhileScansStartIsSafeAndDoesNotStick() {
        // The GUI thread cancels over and over while the worker keeps starting new scans:
        // each cancel must reach a scan (or none) without racing the worker's hand-over
        // of the next scan's stop token. Under TSan the old code (one stop_source
        // reassigned on the worker thread) is reported as a data race here.
        ConnectionHub hub(nullptr);
        QSignalSpy started(&hub, &ConnectionHub::scanStarted);
        QSignalSpy finished(&hub, &ConnectionHub::scanFinished);
        open(hub);
        QTRY_VERIFY_WITH_TIMEOUT(started.count() >= 1, 10000);
        QElapsedTimer pressing;
        pressing.start();
        while (pressing.elapsed() < 1500) {
            hub.refreshAll();
            hub.cancelScans();
            QTest::qWait(2);
        }
        // A later Refresh, with no Cancel, scans everything: no cancel was left behind.
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() >= 1, 10000);
        finished.clear();
        hub.refreshAll();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty() && !finished.last().at(1).toBool(), 60000);
        hub.closeAll();
    }

    void aConnectionsWatchYieldsTheCoresToTheGuiThread() {
        // Fifty watch threads at the GUI thread's weight left it a fiftieth of a busy
        // machine (issue 36): each connection's thread runs at a lower priority (a higher
        // nice) than the GUI thread's, as `ps -L` or top's threads view shows it.
        ConnectionHub hub(nullptr);
        QSignalSpy started(&hub, &ConnectionHub::scanStarted);
        open(hub);
        QTRY_VERIFY_WITH_TIMEOUT(started.count() >= 1, 10000);
        const QStringList workers = niceOfThreadsNamed(QStringLiteral("worker test"));
        QCOMPARE(workers.size(), 1);
        QVERIFY2(workers.first().toInt() > niceOfThisThread(),
                 qPrintable(QStringLiteral("the worker's nice %1, the GUI thread's %2")
                                .arg(workers.first())
                                .arg(niceOfThisThread())));
        hub.closeAll();
    }

  private:
    // Field 19 of /proc/self/task/<tid>/stat: the thread's nice.
    static QString niceOf(const QString& statPath) {
        QFile stat(statPath);
        if (!stat.open(QIODevice::ReadOnly)) return {};
        const QString line = QString::fromUtf8(stat.readAll());
        // After the command's closing parenthesis: state is field 3, nice is field 19.
        const QStringList fields =
            line.mid(line.lastIndexOf(QLatin1Char(')')) + 2).split(QLatin1Char(' '));
        return fields.value(19 - 3);
    }
    static int niceOfThisThread() {
        return niceOf(QStringLiteral("/proc/thread-self/stat")).toInt();
    }
    static QStringList niceOfThreadsNamed(const QString& name) {
        QStringList nices;
        const QDir tasks(QStringLiteral("/proc/self/task"));
        for (const QString& tid : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            QFile comm(tasks.filePath(tid + QStringLiteral("/comm")));
            if (!comm.open(QIODevice::ReadOnly)) continue;
            if (QString::fromUtf8(comm.readAll()).trimmed() != name) continue;
            nices << niceOf(tasks.filePath(tid + QStringLiteral("/stat")));
        }
        return nices;
    }
};

QTEST_GUILESS_MAIN(ConnectionHubTest)
#include "tst_connection_hub.moc"
