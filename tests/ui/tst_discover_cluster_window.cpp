// The operator's window on a real 3-primary cluster beside a plain server (issue 35): Discover
// runs on the connection highlighted in the sidebar and scans every shard, and with a node down
// says which and claims nothing about what it could not read; a redis-py lock on a cluster
// node gets no Redlock verdict; the release confirmation names the connection and the node.
#include <QApplication>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include "cluster_fixture.h"
#include "lockscope/connection.h"
#include "lockscope/sandbox/local_redis_server.h"
#include "models/lock_table_model.h"
#include "session/connection_hub.h"
#include "ui_test_support.h"
#include "widgets/connection_sidebar.h"
#include "widgets/discover_dialog.h"
#include "widgets/lock_detail_pane.h"
#include "widgets/lock_inspector_view.h"
#include "widgets/main_window.h"
#include "widgets/redlock_group_panel.h"

using namespace lockscope;
using namespace lockscope::ui;

namespace {

// The n-th key "<prefix>{dI}" whose slot the fixture gave to primary `node`.
std::string keyOn(lockscope::testing::RedisCluster& cluster, std::size_t node,
                  const std::string& prefix, int n = 0) {
    for (int i = 0;; ++i) {
        std::string key = prefix + "{d" + std::to_string(i) + "}";
        if (cluster.primaryFor(key) == node && n-- == 0) return key;
    }
}

// redis-py's Lock token: uuid1().hex.
constexpr const char* kRedisPyToken = "a3b1c0d2e4f611ee8a1b0242ac120002";

}  // namespace

class DiscoverClusterWindowTest : public QObject {
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> config_;
    std::unique_ptr<QSettings> settings_;

    // Answers the next message box with Enter, keeping its text.
    static void pressEnterOnNextDialog(QString* text, const QString& screenshot) {
        auto* poll = new QTimer;
        poll->setInterval(20);
        QObject::connect(poll, &QTimer::timeout, [poll, text, screenshot] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (!box) return;
            poll->stop();
            poll->deleteLater();
            *text = box->text() + '\n' + box->informativeText();
            lockscope::ui::testing::saveScreenshot(box, screenshot);
            QTest::keyClick(box, Qt::Key_Return);
        });
        poll->start();
    }

    static void highlight(ConnectionSidebar* sidebar, const QString& id) {
        for (int i = 0; i < sidebar->list()->count(); ++i)
            if (sidebar->list()->item(i)->data(Qt::UserRole + 1).toString() == id)
                sidebar->list()->setCurrentRow(i);
    }

  private slots:
    void init() {
        config_ = std::make_unique<QTemporaryDir>();
        settings_ =
            std::make_unique<QSettings>(config_->filePath("lockscope.ini"), QSettings::IniFormat);
    }

    void discoverScansEveryShardOfTheHighlightedCluster() {
        lockscope::testing::RedisCluster cluster;
        for (std::size_t node = 0; node < 3; ++node) {
            Connection c = cluster.connect(node);
            c.command({"SET", keyOn(cluster, node, "lock:"), kRedisPyToken, "PX", "600000"});
            c.command({"SET", keyOn(cluster, node, "nightly-"), kRedisPyToken, "PX", "600000"});
        }
        LocalRedisServer plain;
        Connection::open(plain.endpoint())
            .command({"SET", "lock:{plain}", kRedisPyToken, "PX", "600000"});
        MainWindowOptions options;
        options.auditLogPath = config_->filePath("audit.jsonl");
        const auto sandbox = ConnectionProfile::create(QStringLiteral("plain"), plain.endpoint());
        const auto prod =
            ConnectionProfile::create(QStringLiteral("prod cluster"), cluster.endpoint(1));
        options.extra = {sandbox, prod};
        MainWindow w(*settings_, options);
        w.resize(1280, 720);
        w.show();
        auto* model = w.inspector()->model();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 4, 15000);

        // A redis-py lock on a cluster node, with three other servers connected: no Redlock.
        const QString clusterKey = QString::fromStdString(keyOn(cluster, 0, "lock:"));
        const QString node0 = QString::fromStdString(cluster.endpoint(0).display());
        QTRY_VERIFY_WITH_TIMEOUT(model->rowOf(node0, clusterKey) >= 0, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!model->nodeDescription(node0).isEmpty(), 10000);
        w.inspector()->selectKey(node0, clusterKey);
        LockDetailPane* detail = w.inspector()->detail();
        QTabWidget* tabs = detail->groupTabs();
        QVERIFY(!tabs->isTabVisible(tabs->indexOf(detail->group())));
        QVERIFY2(!detail->group()->summary().contains(QStringLiteral("nobody holds")),
                 qPrintable(detail->group()->summary()));

        // The release confirmation says which connection and which node.
        QString confirmation;
        pressEnterOnNextDialog(&confirmation, QStringLiteral("release-confirmation-cluster"));
        detail->releaseButton()->click();
        QVERIFY2(confirmation.contains(QStringLiteral("Connection: prod cluster")),
                 qPrintable(confirmation));
        QVERIFY2(
            confirmation.contains(QStringLiteral("Node: ") + node0 + QStringLiteral(" (primary")),
            qPrintable(confirmation));
        QTRY_COMPARE_WITH_TIMEOUT(
            cluster.connect(0).command({"EXISTS", clusterKey.toStdString()}).integer(), 0LL, 5000);

        // A lock of the plain server stays selected; the cluster is highlighted in the sidebar:
        // Discover runs on the cluster, every shard of it.
        w.inspector()->selectKey(QString::fromStdString(plain.endpoint().display()),
                                 QStringLiteral("lock:{plain}"));
        highlight(w.sidebar(), prod.id);
        DiscoverDialog* dialog = w.discoverLocks();
        QVERIFY(dialog);
        QVERIFY2(dialog->windowTitle().contains(QStringLiteral("prod cluster")),
                 qPrintable(dialog->windowTitle()));
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->running(), 30000);
        QVERIFY2(dialog->summary()->text().contains(QStringLiteral("on 3 nodes")),
                 qPrintable(dialog->summary()->text()));
        QCOMPARE(dialog->table()->rowCount(), 1);
        QCOMPARE(dialog->table()->item(0, 0)->text(), QStringLiteral("nightly-*"));
        QCOMPARE(dialog->table()->item(0, 1)->text(), QStringLiteral("3"));
        QVERIFY(lockscope::ui::testing::saveScreenshot(dialog, "discover-cluster-every-shard"));
        dialog->close();

        // A primary down: the scan is partial, names the node and its slots, and does not say
        // that nothing is missing.
        cluster.node(2).server->stop();
        const QString slotRange = QStringLiteral("%1-16383").arg(cluster.node(2).firstSlot);
        dialog = w.discoverLocks(prod.id);
        QVERIFY(dialog);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->running(), 30000);
        const QString summary = dialog->summary()->text();
        QVERIFY2(summary.contains(QStringLiteral("on 2 of 3 nodes")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("Not scanned: 127.0.0.1:%1 (slots %2)")
                                      .arg(cluster.node(2).server->port())
                                      .arg(slotRange)),
                 qPrintable(summary));
        QVERIFY2(!summary.contains(QStringLiteral("No lock outside the patterns.")),
                 qPrintable(summary));
        QVERIFY(lockscope::ui::testing::saveScreenshot(dialog, "discover-cluster-node-down"));
        dialog->close();
    }
};

QTEST_MAIN(DiscoverClusterWindowTest)
#include "tst_discover_cluster_window.moc"
