// The window behind Sentinel (tests/support/sentinel_fixture: a primary, a replica and three
// Sentinels): a connection given as redis-sentinel://…#mymaster finds the primary through the
// Sentinels and, on SENTINEL FAILOVER, follows the promoted replica with the same rows.
#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include "command_log_search.h"
#include "lockscope/connection.h"
#include "lockscope/inspect/doctor.h"
#include "lockscope/sandbox/local_redis_server.h"
#include "models/command_log_model.h"
#include "models/lock_table_model.h"
#include "sentinel_fixture.h"
#include "session/connection_hub.h"
#include "session/profile_store.h"
#include "ui_test_support.h"
#include "widgets/connection_dialog.h"
#include "widgets/discover_dialog.h"
#include "widgets/lock_detail_pane.h"
#include "widgets/lock_inspector_view.h"
#include "widgets/main_window.h"
#include "widgets/pttl_plot.h"

using namespace lockscope;
using namespace lockscope::ui;

class SentinelWindowTest : public QObject {
    Q_OBJECT

  private slots:
    // The operator types the Sentinel URL into the connection dialog. The window finds the
    // primary, shows its lock, and when the Sentinels fail it over to the replica the row
    // stays (same instance, its renewal still counted, its token history unbroken), the
    // command log tells of the failover, the selected lock's PTTL plot marks it, and a release
    // reaches the new primary. Before, the dialog refused the URL (not a redis:// endpoint)
    // and the window had no way to reach a Sentinel-managed primary.
    void aSentinelConnectionFollowsAFailoverWithItsRows() {
        lockscope::testing::SentinelGroup group;
        const std::string key = "lock:{invoice-42}";
        {
            Connection primary = Connection::open(group.server(0).endpoint());
            primary.command({"SET", key, "worker-7", "PX", "60000"});
        }
        ConnectionDialog dialog;
        dialog.urlEdit()->setText(QString::fromStdString(group.url()));
        emit dialog.urlEdit()->textEdited(dialog.urlEdit()->text());
        ConnectionProfile profile = dialog.profile();
        QCOMPARE(profile.sentinelUrl, QString::fromStdString(group.url()));
        // Test asks the Sentinels and reaches the primary (before: it tried the first
        // Sentinel's address as a data node).
        QSignalSpy tested(&dialog, &ConnectionDialog::testFinished);
        dialog.testButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(tested.count(), 1, 10000);
        const QString primaryUrl = QString::fromStdString(group.server(0).endpoint().display());
        QVERIFY2(dialog.testResult().contains(
                     QStringLiteral("the primary of mymaster is %1").arg(primaryUrl)),
                 qPrintable(dialog.testResult()));
        const QString instance = profile.displayUrl();
        QVERIFY2(instance.startsWith(QStringLiteral("redis-sentinel://")) &&
                     instance.endsWith(QStringLiteral("#mymaster")),
                 qPrintable(instance));

        QTemporaryDir config;
        QSettings settings(config.filePath("lockscope.ini"), QSettings::IniFormat);
        MainWindowOptions options;
        options.auditLogPath = config.filePath("audit.jsonl");
        profile.name = QStringLiteral("billing (Sentinel)");
        options.extra.append(profile);
        MainWindow w(settings, options);
        w.resize(1280, 720);
        w.show();
        LockTableModel* model = w.inspector()->model();
        const QString k = QString::fromStdString(key);
        QTRY_VERIFY_WITH_TIMEOUT(model->rowOf(instance, k) >= 0, 15000);
        w.inspector()->selectKey(instance, k);
        {
            Connection primary = Connection::open(group.server(0).endpoint());
            primary.command({"PEXPIRE", key, "120000"});  // its holder renews it
            primary.command({"WAIT", "1", "2000"});       // and the replica has it
        }
        QTRY_COMPARE_WITH_TIMEOUT(model->recordAt(model->rowOf(instance, k))->renewals, 1, 5000);
        const int rowsBefore = model->rowCount();

        group.failover();
        QCOMPARE(group.primaryIndex(), 1);
        auto logged = [&](const QString& text) {
            return lockscope::ui::testing::commandLogContains(*w.commandLog(), text);
        };
        const QString promoted = QString::fromStdString(group.server(1).endpoint().display());
        QTRY_VERIFY_WITH_TIMEOUT(
            logged(QStringLiteral("failover: the primary is now %1").arg(promoted)), 10000);
        PttlPlot* plot = w.inspector()->detail()->plot();
        QTRY_COMPARE_WITH_TIMEOUT(plot->failoverMarks(), 1, 3000);
        // Connected again, to the new primary, the row the same one (history kept).
        QTRY_VERIFY_WITH_TIMEOUT(!model->isStale(*model->recordAt(model->rowOf(instance, k))),
                                 10000);
        QCOMPARE(model->rowCount(), rowsBefore);
        const int row = model->rowOf(instance, k);
        QVERIFY(row >= 0);
        QCOMPARE(model->recordAt(row)->renewals, 1);
        const auto& shown = w.inspector()->detail()->shown();
        QVERIFY(shown);
        QCOMPARE(QString::fromStdString(shown->key), k);
        auto* holders = w.inspector()->detail()->findChild<QTableWidget*>();
        QVERIFY(holders);
        QCOMPARE(holders->rowCount(), 1);  // one holder throughout: no "(released)", no new one
        QCOMPARE(holders->item(0, 1)->text(), QStringLiteral("worker-7"));
        QTest::qWait(300);  // the plot's coalesced redraw
        QVERIFY(lockscope::ui::testing::saveScreenshot(w.inspector()->detail(),
                                                       QStringLiteral("sentinel-failover-pane")));
        QVERIFY(lockscope::ui::testing::saveScreenshot(&w, QStringLiteral("sentinel-window")));

        // The release goes to the new primary, where the lock is.
        QSignalSpy finished(w.hub(), &ConnectionHub::actionFinished);
        w.hub()->act(instance, LockAction::Release, *model->recordAt(row));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
        QVERIFY2(finished[0][3].toBool(), qPrintable(finished[0][5].toString()));
        Connection now = Connection::open(group.server(1).endpoint());
        QCOMPARE(now.command({"EXISTS", key}).integer(), 0);
    }

    // A Sentinel connection's endpoint holds the data nodes' user, password and TLS; its host
    // and port are no server of the service (the default 127.0.0.1:6379, or the first
    // Sentinel's as the dialog fills them). The window must never connect there. Before, it
    // asked that address whether it was a cluster node, sending the data password to whatever
    // listened on it.
    void aSentinelConnectionNeverConnectsToItsEndpointsPlaceholderAddress() {
        lockscope::testing::SentinelGroup group;
        LocalRedisServer decoy;
        Connection watcher = Connection::open(decoy.endpoint());
        auto connectionsReceived = [&] {
            const std::string stats(watcher.command({"INFO", "stats"}).text());
            const auto at = stats.find("total_connections_received:");
            return std::stol(stats.substr(at + std::string("total_connections_received:").size()));
        };
        const long before = connectionsReceived();
        {
            Connection primary = Connection::open(group.server(0).endpoint());
            primary.command({"SET", "lock:{payroll}", "runner-3", "PX", "60000"});
            // Lock-shaped, outside the profile's patterns: for Discover to find on the primary.
            primary.command(
                {"SET", "nightly-report", "a3b1c0d2e4f611ee8a1b0242ac120002", "PX", "600000"});
        }
        ConnectionProfile profile = ConnectionProfile::createForSentinel(
            QStringLiteral("payroll"), QString::fromStdString(group.url()));
        profile.endpoint.host = decoy.endpoint().host;
        profile.endpoint.port = decoy.port();
        QTemporaryDir config;
        QSettings settings(config.filePath("lockscope.ini"), QSettings::IniFormat);
        MainWindowOptions options;
        options.auditLogPath = config.filePath("audit.jsonl");
        options.extra.append(profile);
        MainWindow w(settings, options);
        w.show();
        QTRY_VERIFY_WITH_TIMEOUT(w.inspector()->model()->rowOf(
                                     profile.displayUrl(), QStringLiteral("lock:{payroll}")) >= 0,
                                 15000);
        // Discover scans the service's primary too (before: the placeholder address).
        DiscoverDialog* discover = w.discoverLocks(profile.id);
        QVERIFY(discover);
        QTRY_VERIFY_WITH_TIMEOUT(!discover->running(), 20000);
        bool proposed = false;
        for (int r = 0; r < discover->table()->rowCount(); ++r)
            proposed |= discover->table()->item(r, 0)->text() == QStringLiteral("nightly-*");
        QVERIFY2(proposed, qPrintable(discover->summary()->text()));
        discover->close();
        QCOMPARE(connectionsReceived(), before);
    }

    // "Scan replicas": the dialog offers it (for a cluster too), the settings keep it,
    // and the window reads the locks from the replica the Sentinels list (a key written only
    // there shows) while a release goes to the primary, where the lock is deleted. Before,
    // the window always read the primary (only the CLI had --scan-replicas).
    void scanningAReplicaReadsItAndReleasesOnThePrimary() {
        lockscope::testing::SentinelGroup group;
        const std::string key = "lock:{ledger-close}";
        {
            Connection primary = Connection::open(group.server(0).endpoint());
            primary.command({"SET", key, "closer-2", "PX", "120000"});
            primary.command({"WAIT", "1", "2000"});
            // A key only the replica holds: seen in the window only if the replica is read.
            Connection replica = Connection::open(group.server(1).endpoint());
            replica.command({"CONFIG", "SET", "replica-read-only", "no"});
            replica.command({"SET", "lock:{replica-only}", "ghost", "PX", "120000"});
        }
        ConnectionDialog dialog;
        QVERIFY(dialog.scanReplicaBox()->isEnabled());  // for a cluster or Sentinel alike
        dialog.urlEdit()->setText(QString::fromStdString(group.url()));
        emit dialog.urlEdit()->textEdited(dialog.urlEdit()->text());
        QVERIFY(dialog.scanReplicaBox()->isEnabled());
        dialog.scanReplicaBox()->setChecked(true);
        ConnectionProfile profile = dialog.profile();
        QVERIFY(profile.scanReplica);

        QTemporaryDir config;
        QSettings settings(config.filePath("lockscope.ini"), QSettings::IniFormat);
        ProfileStore(settings).save({profile});
        const QList<ConnectionProfile> loaded = ProfileStore(settings).load();
        QCOMPARE(loaded.size(), 1);
        QVERIFY(loaded[0].scanReplica);
        settings.clear();  // the window below gets the profile as an extra, not twice

        MainWindowOptions options;
        options.auditLogPath = config.filePath("audit.jsonl");
        profile.name = QStringLiteral("ledger (replica)");
        options.extra.append(profile);
        MainWindow w(settings, options);
        w.resize(1280, 720);
        w.show();
        LockTableModel* model = w.inspector()->model();
        const QString instance = profile.displayUrl();
        QTRY_VERIFY_WITH_TIMEOUT(model->rowOf(instance, QStringLiteral("lock:{replica-only}")) >= 0,
                                 15000);
        QTRY_VERIFY_WITH_TIMEOUT(model->rowOf(instance, QString::fromStdString(key)) >= 0, 5000);
        const QString replica = QString::fromStdString(group.server(1).endpoint().display());
        const QString primary = QString::fromStdString(group.server(0).endpoint().display());
        // The log says the replica is scanned, at once or, when the replica was not yet online
        // at the primary (a loaded machine), once it is ("a replica answers again: scanning
        // replica ... instead of the primary ..."). The note and the rows reach the window
        // apart: the rows can come first.
        const QString scanningReplica = QStringLiteral("scanning replica ") + replica;
        QTRY_VERIFY2_WITH_TIMEOUT(
            lockscope::ui::testing::commandLogLinesWith(*w.commandLog(), scanningReplica)
                .contains(QStringLiteral("the primary ") + primary),
            qPrintable(lockscope::ui::testing::commandLogLinesWith(*w.commandLog(),
                                                                   QStringLiteral("replica"))),
            10000);
        // Read on a replica as asked: no "point LockScope at the primary" advice.
        const auto* onReplica =
            model->recordAt(model->rowOf(instance, QString::fromStdString(key)));
        QVERIFY(!(onReplica->findings & inspect::bit(inspect::RuleId::OnReplica)));
        QVERIFY(onReplica->findings & inspect::bit(inspect::RuleId::ReplicatedPrimary));
        QVERIFY(
            lockscope::ui::testing::saveScreenshot(&w, QStringLiteral("sentinel-replica-scan")));

        QSignalSpy finished(w.hub(), &ConnectionHub::actionFinished);
        w.hub()->act(instance, LockAction::Release,
                     *model->recordAt(model->rowOf(instance, QString::fromStdString(key))));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
        QVERIFY2(finished[0][3].toBool(), qPrintable(finished[0][5].toString()));
        QCOMPARE(Connection::open(group.server(0).endpoint()).command({"EXISTS", key}).integer(),
                 0);
        // The replica follows, and so does the window.
        QTRY_VERIFY_WITH_TIMEOUT(model->rowOf(instance, QString::fromStdString(key)) < 0, 10000);
        // The replica's own key is not on the primary: its release deletes nothing there.
        w.hub()->act(
            instance, LockAction::Release,
            *model->recordAt(model->rowOf(instance, QStringLiteral("lock:{replica-only}"))));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 5000);
        QVERIFY2(!finished[1][3].toBool(), qPrintable(finished[1][5].toString()));
        QCOMPARE(Connection::open(group.server(1).endpoint())
                     .command({"EXISTS", "lock:{replica-only}"})
                     .integer(),
                 1);
    }
};

QTEST_MAIN(SentinelWindowTest)
#include "tst_sentinel_window.moc"
