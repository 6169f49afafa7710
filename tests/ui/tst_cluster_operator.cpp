// Issue 35, the operator on a real Redis Cluster (tests/support/cluster_fixture): an edit of
// the connection's patterns reaches every primary's watch at once, and a cluster with a
// primary down says which node and which slots, in the sidebar and the status bar.
#include <QListWidget>
#include <QSettings>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include "cluster_fixture.h"
#include "lockscope/connection.h"
#include "lockscope/errors.h"
#include "models/command_log_model.h"
#include "models/lock_table_model.h"
#include "session/connection_hub.h"
#include "ui_test_support.h"
#include "widgets/connection_sidebar.h"
#include "widgets/lock_inspector_view.h"
#include "widgets/main_window.h"

using namespace lockscope;
using namespace lockscope::ui;

namespace {

struct ClusterWindow {
    QTemporaryDir config;
    QSettings settings{config.filePath("lockscope.ini"), QSettings::IniFormat};
    MainWindow window;

    explicit ClusterWindow(const ConnectionProfile& profile) : window(settings, options(profile)) {
        window.resize(1280, 720);
        window.show();
    }

  private:
    MainWindowOptions options(const ConnectionProfile& profile) const {
        MainWindowOptions o;
        o.auditLogPath = config.filePath("audit.jsonl");
        o.extra.append(profile);
        return o;
    }
};

// A key of the given prefix whose slot the primary `node` serves.
std::string keyOn(lockscope::testing::RedisCluster& cluster, std::size_t node,
                  const std::string& prefix) {
    for (int i = 0;; ++i)
        if (std::string key = prefix + "{op-" + std::to_string(i) + "}";
            cluster.primaryFor(key) == node)
            return key;
}

// Whether the window's command log shows a SCAN with this pattern sent to the node.
bool scannedWith(const CommandLogModel& log, const QString& node, const QString& pattern) {
    for (int row = 0; row < log.rowCount(); ++row) {
        const QString command = log.index(row, CommandLogModel::Command).data().toString();
        if (log.index(row, CommandLogModel::Instance).data().toString().contains(node) &&
            command.startsWith(QStringLiteral("SCAN ")) && command.contains(pattern))
            return true;
    }
    return false;
}

QString sidebarText(MainWindow& w) {
    QString text;
    for (int i = 0; i < w.sidebar()->list()->count(); ++i)
        text += w.sidebar()->list()->item(i)->text() + QLatin1Char('\n') +
                w.sidebar()->list()->item(i)->toolTip() + QLatin1Char('\n');
    return text;
}

}  // namespace

class ClusterOperatorTest : public QObject {
    Q_OBJECT

  private slots:
    // Before, an edit reached only the seed node's worker: the other primaries kept scanning
    // the old patterns, so their job-lock keys never showed (issue 35, item 1).
    void anEditedPatternReachesEveryPrimary() {
        lockscope::testing::RedisCluster cluster;
        std::vector<std::string> locks, jobs;
        for (std::size_t n = 0; n < 3; ++n) {
            locks.push_back(keyOn(cluster, n, "lock:"));
            jobs.push_back(keyOn(cluster, n, "job-lock:"));
            Connection c = cluster.connect(n);
            c.command({"SET", locks[n], "holder-" + std::to_string(n), "PX", "120000"});
            c.command({"SET", jobs[n], "ADDED:2026-12-05T01:00:00Z@host-" + std::to_string(n), "PX",
                       "120000"});
        }
        ConnectionProfile profile =
            ConnectionProfile::create(QStringLiteral("edited cluster"), cluster.endpoint(0));
        ClusterWindow window(profile);
        MainWindow& w = window.window;
        LockTableModel* model = w.inspector()->model();
        for (std::size_t n = 0; n < 3; ++n)
            QTRY_VERIFY_WITH_TIMEOUT(model->rowOf(QString::fromStdString(cluster.url(n)),
                                                  QString::fromStdString(locks[n])) >= 0,
                                     15000);
        QCOMPARE(model->rowCount(), 3);  // the job locks are outside the patterns

        w.addPatterns(profile.id, {QStringLiteral("job-lock:*")});
        for (std::size_t n = 0; n < 3; ++n) {
            QTRY_VERIFY2_WITH_TIMEOUT(model->rowOf(QString::fromStdString(cluster.url(n)),
                                                   QString::fromStdString(jobs[n])) >= 0,
                                      qPrintable(QString::fromStdString(jobs[n])), 10000);
            // The command log is coalesced every 100 ms: the row can be shown before the
            // SCAN that found it is.
            QTRY_VERIFY2_WITH_TIMEOUT(
                scannedWith(*w.commandLog(), QString::fromStdString(cluster.url(n)),
                            QStringLiteral("MATCH job-lock:*")),
                qPrintable(QString::fromStdString(cluster.url(n))), 5000);
        }
        QCOMPARE(model->rowCount(), 6);
        // The rows already shown stayed (the watch kept them: no reconnect, no rescan from
        // nothing), each under its own node.
        for (std::size_t n = 0; n < 3; ++n)
            QVERIFY(model->rowOf(QString::fromStdString(cluster.url(n)),
                                 QString::fromStdString(locks[n])) >= 0);
        QVERIFY(
            lockscope::ui::testing::saveScreenshot(&w, QStringLiteral("cluster-patterns-edited")));
    }

    // A primary without a replica dies: the sidebar and the status bar name it and the slots
    // left without a primary; when it is back, it is read again and the warning goes.
    void aClusterDownSaysWhichNodeAndWhichSlots() {
        lockscope::testing::RedisCluster cluster;
        const std::string key = keyOn(cluster, 1, "lock:");
        cluster.connect(1).command({"SET", key, "holder-1", "PX", "120000"});
        ConnectionProfile profile =
            ConnectionProfile::create(QStringLiteral("down cluster"), cluster.endpoint(0));
        ClusterWindow window(profile);
        MainWindow& w = window.window;
        LockTableModel* model = w.inspector()->model();
        const QString node1 = QString::fromStdString(cluster.url(1));
        QTRY_VERIFY_WITH_TIMEOUT(model->rowOf(node1, QString::fromStdString(key)) >= 0, 15000);

        cluster.node(1).server->stop();
        const QString hostPort = node1.section(QStringLiteral("//"), 1);
        QTRY_VERIFY2_WITH_TIMEOUT(
            sidebarText(w).contains(QStringLiteral("slots without a primary: 5461-10921")),
            qPrintable(sidebarText(w)), 15000);
        // The down node's own line says it, under the connection.
        QVERIFY2(sidebarText(w).contains(hostPort +
                                         QStringLiteral(" · primary · slots 5461-10921 · DOWN")),
                 qPrintable(sidebarText(w)));
        const QString status = w.statusBar()->currentMessage();
        QVERIFY2(status.contains(hostPort) && status.contains(QStringLiteral("5461-10921")),
                 qPrintable(status));
        // The reconnect attempts that follow (every half second) do not hide it: the status
        // bar keeps saying where and why while the cluster is down.
        QTest::qWait(3000);
        const QString later = w.statusBar()->currentMessage();
        QVERIFY2(later.contains(hostPort) && later.contains(QStringLiteral("5461-10921")),
                 qPrintable(later));
        QVERIFY(lockscope::ui::testing::saveScreenshot(&w, QStringLiteral("cluster-node-down")));

        cluster.node(1).server->start();
        QTRY_VERIFY2_WITH_TIMEOUT(!sidebarText(w).contains(QStringLiteral("slots without")) &&
                                      !sidebarText(w).contains(QStringLiteral("DOWN")),
                                  qPrintable(sidebarText(w)), 20000);
        // It restarted empty (no persistence here): a lock taken now is read there again.
        const std::string after = keyOn(cluster, 1, "lock:after-");
        auto written = [&] {  // once the node serves its slots again
            try {
                cluster.connect(1).command({"SET", after, "holder-2", "PX", "120000"});
                return true;
            } catch (const lockscope::Error&) {
                return false;
            }
        };
        QTRY_VERIFY_WITH_TIMEOUT(written(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(model->rowOf(node1, QString::fromStdString(after)) >= 0, 10000);
    }
};

QTEST_MAIN(ClusterOperatorTest)
#include "tst_cluster_operator.moc"
