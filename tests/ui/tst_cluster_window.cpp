// The window on a real Redis Cluster (tests/support/cluster_fixture): the cluster is one
// connection whose nodes (role, slot ranges, state) are listed under it in the sidebar, and
// the table holds every primary's locks, each with the node that holds it.
#include <QCheckBox>
#include <QElapsedTimer>
#include <QFile>
#include <QHeaderView>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include "cluster_fixture.h"
#include "command_log_search.h"
#include "lockscope/connection.h"
#include "lockscope/inspect/audit_log.h"
#include "lockscope/inspect/cluster/cluster_addressing.h"
#include "lockscope/inspect/doctor.h"
#include "lockscope/inspect/hash_slot.h"
#include "models/command_log_model.h"
#include "models/lock_table_model.h"
#include "session/connection_hub.h"
#include "ui_test_support.h"
#include "widgets/connection_dialog.h"
#include "widgets/connection_sidebar.h"
#include "widgets/lock_detail_pane.h"
#include "widgets/lock_inspector_view.h"
#include "widgets/main_window.h"
#include "widgets/redlock_group_panel.h"

using namespace lockscope;
using namespace lockscope::ui;

namespace {

// The window watching a cluster through one node, at 1280x720, with its own settings and
// audit log in a temporary directory.
struct ClusterWindow {
    QTemporaryDir config;
    QSettings settings{config.filePath("lockscope.ini"), QSettings::IniFormat};
    MainWindow window;

    ClusterWindow(const QString& name, const Endpoint& seed)
        : ClusterWindow(ConnectionProfile::create(name, seed)) {}
    explicit ClusterWindow(const ConnectionProfile& profile) : window(settings, options(profile)) {
        window.resize(1280, 720);
        window.show();
    }
    QString auditLog() const { return config.filePath("audit.jsonl"); }

  private:
    MainWindowOptions options(const ConnectionProfile& profile) const {
        MainWindowOptions o;
        o.auditLogPath = auditLog();
        o.extra.append(profile);
        return o;
    }
};

}  // namespace

class ClusterWindowTest : public QObject {
    Q_OBJECT

  private slots:
    void aClusterIsOneConnectionWithItsNodesAndEveryLock() {
        lockscope::testing::RedisCluster cluster;
        std::vector<std::pair<std::string, std::size_t>> locks;  // key, node
        for (int i = 0; locks.size() < 12; ++i) {
            std::string key = "lock:{order-" + std::to_string(i) + "}";
            std::size_t node = cluster.primaryFor(key);
            if (std::count_if(locks.begin(), locks.end(),
                              [&](const auto& l) { return l.second == node; }) >= 4)
                continue;
            cluster.connect(node).command({"SET", key, "worker-" + std::to_string(i), "PX",
                                           std::to_string(60000 + i * 1000)});
            locks.emplace_back(key, node);
        }
        ClusterWindow window(QStringLiteral("orders cluster"), cluster.endpoint(0));
        MainWindow& w = window.window;
        LockTableModel* model = w.inspector()->model();
        for (const auto& [key, node] : locks)
            QTRY_VERIFY2_WITH_TIMEOUT(
                model->rowOf(QString::fromStdString(cluster.url(node)),
                             QString::fromStdString(key)) >= 0,
                qPrintable(QString::fromStdString(key + " of node " + cluster.url(node))), 15000);
        QCOMPARE(model->rowCount(), int(locks.size()));

        // The one connection lists the three primaries with their slot ranges.
        auto sidebarText = [&] {
            QString all;
            for (int i = 0; i < w.sidebar()->list()->count(); ++i)
                all += w.sidebar()->list()->item(i)->text() + QLatin1Char('\n');
            return all;
        };
        QTRY_VERIFY_WITH_TIMEOUT(sidebarText().contains(QStringLiteral("primary · slots 0-5460")),
                                 5000);
        QVERIFY2(sidebarText().contains(QStringLiteral("slots 10922-16383")),
                 qPrintable(sidebarText()));
        QCOMPARE(sidebarText().count(QStringLiteral("orders cluster")), 1);
        QVERIFY(lockscope::ui::testing::saveScreenshot(&w, QStringLiteral("cluster-window")));
    }

    // Issue 35 item 7: a sidekiq-unique-jobs digest's LOCKED hash sits in its own slot, on
    // whichever node serves it. Where no key of that slot was read, the Digest tab says its
    // holder is unknown, not that no job holds it.
    void aDigestWhoseLockedHashWasNotReadHasAnUnknownHolder() {
        lockscope::testing::RedisCluster cluster;
        const std::string digest = "uniquejobs:0cc175b9c0f1b6a831c399e269772661";
        auto on = [&](const std::string& key, const std::vector<std::string>& argv) {
            std::vector<std::string_view> views(argv.begin(), argv.end());
            cluster.connect(cluster.primaryFor(key))
                .command(Connection::Argv(views.data(), views.size()));
        };
        // The digest and its INFO, as lock.lua and lock_info write them; no LOCKED among the
        // keys read (here: none at all, which the window cannot tell from one not read).
        on(digest, {"SET", digest, "2f4a9c1e8b7d6a5f4e3d2c1b", "PX", "600000"});
        on(digest + ":INFO", {"SET", digest + ":INFO", R"({"worker":"SyncJob"})", "PX", "600000"});
        ConnectionProfile profile =
            ConnectionProfile::create(QStringLiteral("sidekiq cluster"), cluster.endpoint(0));
        profile.patterns = {QStringLiteral("uniquejobs:*")};
        ClusterWindow window(profile);
        MainWindow& w = window.window;
        const QString node = QString::fromStdString(cluster.url(cluster.primaryFor(digest)));
        QTRY_VERIFY_WITH_TIMEOUT(
            w.inspector()->model()->rowOf(node, QString::fromStdString(digest)) >= 0, 15000);
        w.inspector()->selectKey(node, QString::fromStdString(digest));
        const QString summary = w.inspector()->detail()->group()->summary();
        QVERIFY2(summary.contains(QStringLiteral("holder unknown")) &&
                     summary.contains(
                         QStringLiteral("slot %1").arg(inspect::keyHashSlot(digest + ":LOCKED"))),
                 qPrintable(summary));
        QVERIFY2(!summary.contains(QStringLiteral("no job holds it")), qPrintable(summary));
        QVERIFY(
            lockscope::ui::testing::saveScreenshot(&w, QStringLiteral("cluster-digest-unread")));
    }

    // A cluster whose nodes announce names this machine cannot resolve (NAT, containers): the
    // operator types the address map into the connection dialog, and the window reaches every
    // primary through it. Before, the dialog had no such field and the window showed the
    // seed's locks only (the other primaries' workers failed to connect).
    void theDialogsAddressMapReachesNodesAnnouncedAtUnreachableNames() {
        lockscope::testing::RedisCluster cluster({.unreachableHostPrefix = "lockscope-node"});
        std::vector<std::pair<std::string, std::size_t>> locks;  // one per primary
        for (int i = 0; locks.size() < 3; ++i) {
            std::string key = "lock:{nat-" + std::to_string(i) + "}";
            std::size_t node = cluster.primaryFor(key);
            if (std::any_of(locks.begin(), locks.end(),
                            [&](const auto& l) { return l.second == node; }))
                continue;
            cluster.connect(node).command(
                {"SET", key, "worker-" + std::to_string(i), "PX", "60000"});
            locks.emplace_back(key, node);
        }
        ConnectionDialog dialog;
        dialog.setProfile(
            ConnectionProfile::create(QStringLiteral("cluster behind NAT"), cluster.endpoint(0)));
        QStringList map;
        for (std::size_t node = 1; node < 3; ++node) {
            const QString port = QString::number(cluster.node(node).server->port());
            map << QStringLiteral("lockscope-node%1.invalid:%2=127.0.0.1:%2").arg(node).arg(port);
        }
        dialog.clusterMapEdit()->setText(map.join(QStringLiteral(", ")));
        dialog.resize(640, dialog.sizeHint().height());
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QVERIFY(lockscope::ui::testing::saveScreenshot(
            &dialog, QStringLiteral("connection-dialog-cluster-map")));
        const ConnectionProfile profile = dialog.profile();
        QCOMPARE(profile.clusterAddressing.addressMap.size(), std::size_t(2));
        dialog.throughSeedHostBox()->setChecked(true);
        QVERIFY(dialog.profile().clusterAddressing.throughSeedHost);
        dialog.hide();

        ClusterWindow window(profile);
        LockTableModel* model = window.window.inspector()->model();
        for (const auto& [key, node] : locks)
            QTRY_VERIFY2_WITH_TIMEOUT(
                model->rowOf(QString::fromStdString(cluster.url(node)),
                             QString::fromStdString(key)) >= 0,
                qPrintable(QString::fromStdString(key + " of node " + cluster.url(node))), 15000);
        QCOMPARE(model->rowCount(), 3);
        QVERIFY(lockscope::ui::testing::saveScreenshot(
            &window.window, QStringLiteral("cluster-window-address-map")));
    }

    // A TLS cluster behind an address map: its nodes announce names this machine cannot
    // reach them at, and each node's certificate names only the name it announces. The
    // profile has the CA and the map (announced name:port = 127.0.0.1:port); the window lists
    // every primary's locks and releases a lock of another primary through the map, over TLS,
    // each connection checking the name its node announces. Before, the other primaries'
    // workers checked 127.0.0.1, which their certificates do not name, and their locks never
    // appeared (the router, which checks the announced name, released them).
    void tlsAndTheAddressMapReachATlsCluster() {
        lockscope::testing::RedisCluster cluster({.tls = true, .certifiedNames = true});
        std::vector<std::string> keys(3);  // one lock on each primary
        for (int i = 0; keys[0].empty() || keys[1].empty() || keys[2].empty(); ++i) {
            std::string key = "lock:{vault-" + std::to_string(i) + "}";
            keys[cluster.primaryFor(key)] = key;
        }
        for (std::size_t n = 0; n < 3; ++n)
            cluster.connect(n).command(
                {"SET", keys[n], "teller-" + std::to_string(n), "PX", "120000"});
        ConnectionProfile profile =
            ConnectionProfile::create(QStringLiteral("vault cluster"), cluster.endpoint(0));
        QVERIFY(profile.endpoint.tls.enabled && profile.endpoint.tls.serverName.empty());
        for (std::size_t n = 0; n < 3; ++n) {
            const std::string port = std::to_string(cluster.node(n).server->port());
            std::string entry = n == 0 ? "localhost" : lockscope::testing::kCertifiedNodeName;
            entry.append(":").append(port).append("=127.0.0.1:").append(port);
            inspect::addAddressMapping(profile.clusterAddressing, entry);
        }
        ClusterWindow window(profile);
        MainWindow& w = window.window;
        LockTableModel* model = w.inspector()->model();
        for (std::size_t n = 0; n < 3; ++n)
            QTRY_VERIFY2_WITH_TIMEOUT(
                model->rowOf(QString::fromStdString(cluster.url(n)),
                             QString::fromStdString(keys[n])) >= 0,
                qPrintable(QString::fromStdString(keys[n] + " of node " + cluster.url(n))), 15000);
        QCOMPARE(model->rowCount(), 3);
        QVERIFY(
            lockscope::ui::testing::saveScreenshot(&w, QStringLiteral("cluster-window-tls-map")));

        const QString node2 = QString::fromStdString(cluster.url(2));
        const inspect::LockRecord seen =
            *model->recordAt(model->rowOf(node2, QString::fromStdString(keys[2])));
        QSignalSpy finished(w.hub(), &ConnectionHub::actionFinished);
        w.hub()->act(node2, LockAction::Release, seen);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
        QVERIFY2(finished[0][3].toBool(), qPrintable(finished[0][5].toString()));
        QCOMPARE(cluster.connect(2).command({"EXISTS", keys[2]}).integer(), 0);

        // A lock of node 1 whose slot then moves to node 0: node 1's worker sends the release,
        // hears MOVED and forwards it to node 0, checking node 0's name ("localhost"). Before,
        // it checked its own node's name there and the release failed the TLS handshake.
        const QString node1 = QString::fromStdString(cluster.url(1));
        const QString key1 = QString::fromStdString(keys[1]);
        const inspect::LockRecord first = *model->recordAt(model->rowOf(node1, key1));
        cluster.moveSlot(int(inspect::keyHashSlot(keys[1])), 0);
        w.hub()->act(node1, LockAction::Release, first);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 10000);
        QVERIFY2(finished[1][3].toBool(), qPrintable(finished[1][5].toString()));
        QCOMPARE(cluster.connect(0).command({"EXISTS", keys[1]}).integer(), 0);
    }

    // The operator releases locks whose slots moved after their rows appeared: one moved off
    // another primary (that worker's connection answers MOVED), one moved off the
    // connection's own node (its router's topology is stale: MOVED), one whose slot is half
    // way to another node (the key already there: ASK). Each release reaches the node that
    // holds the key now, the key is gone there, and the audit log says the release was done.
    // Before, the release was sent to the row's node only and failed on MOVED or ASK.
    void aReleaseReachesTheKeysSlotOwnerAfterTheSlotMoved() {
        lockscope::testing::RedisCluster cluster;
        struct Move {
            std::string key;
            std::size_t from, to;
            bool finished;  // false: the slot stays migrating (ASK)
        };
        std::vector<Move> moves{{"", 1, 2, true}, {"", 0, 1, true}, {"", 0, 2, false}};
        for (int i = 0, next = 0; next < int(moves.size()); ++i) {
            std::string key = "lock:{moving-" + std::to_string(i) + "}";
            if (cluster.primaryFor(key) == moves[std::size_t(next)].from)
                moves[std::size_t(next++)].key = key;
        }
        for (const auto& m : moves)
            cluster.connect(m.from).command({"SET", m.key, "holder-" + m.key, "PX", "120000"});
        ClusterWindow window(QStringLiteral("moving cluster"), cluster.endpoint(0));
        MainWindow& w = window.window;
        LockTableModel* model = w.inspector()->model();
        std::vector<inspect::LockRecord> seen;
        for (const auto& m : moves) {
            const QString node = QString::fromStdString(cluster.url(m.from));
            const QString key = QString::fromStdString(m.key);
            QTRY_VERIFY_WITH_TIMEOUT(model->rowOf(node, key) >= 0, 15000);
            seen.push_back(*model->recordAt(model->rowOf(node, key)));
        }

        for (const auto& m : moves) {
            const int slot = int(inspect::keyHashSlot(m.key));
            if (m.finished) {
                cluster.moveSlot(slot, m.to);
            } else {
                cluster.beginSlotMove(slot, m.from, m.to);
                cluster.migrateKeys(slot, m.from, m.to);
            }
        }
        QSignalSpy finished(w.hub(), &ConnectionHub::actionFinished);
        for (std::size_t i = 0; i < moves.size(); ++i)
            w.hub()->act(QString::fromStdString(cluster.url(moves[i].from)), LockAction::Release,
                         seen[i]);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), int(moves.size()), 10000);
        for (const auto& args : finished)
            QVERIFY2(args.at(3).toBool(), qPrintable(args.at(1).toString() + QStringLiteral(": ") +
                                                     args.at(5).toString()));

        QFile audit(window.auditLog());
        QVERIFY(audit.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = audit.readAll().split('\n');
        for (const auto& m : moves) {
            Connection owner = cluster.connect(m.to);
            if (!m.finished) owner.command({"ASKING"});  // the importing node, mid-move
            QCOMPARE(owner.command({"EXISTS", m.key}).integer(), 0);
            const bool done = std::any_of(lines.begin(), lines.end(), [&](const QByteArray& l) {
                return l.contains(QByteArray::fromStdString("\"" + m.key + "\"")) &&
                       l.contains(R"("result":"done")");
            });
            QVERIFY2(done, qPrintable(QString::fromStdString(m.key) + QStringLiteral(" not done")));
        }
    }

    // Each lock's row says what its node is in the cluster (the Node column: role and slot
    // ranges), and the one scan progress bar adds up the primaries' scans, which run at once:
    // it shows the whole cluster's fraction and its tooltip each node's (before, the last
    // primary to report overwrote the bar).
    void theNodeColumnAndEachPrimarysScanProgress() {
        lockscope::testing::RedisCluster cluster;
        std::vector<std::string> keys(3);  // one lock on each primary
        for (int i = 0; keys[0].empty() || keys[1].empty() || keys[2].empty(); ++i) {
            std::string key = "lock:{node-" + std::to_string(i) + "}";
            keys[cluster.primaryFor(key)] = key;
        }
        for (std::size_t n = 0; n < 3; ++n)
            cluster.connect(n).command(
                {"SET", keys[n], "worker-" + std::to_string(n), "PX", "120000"});
        ClusterWindow window(QStringLiteral("nodes cluster"), cluster.endpoint(0));
        MainWindow& w = window.window;
        LockTableModel* model = w.inspector()->model();
        const QStringList expected{QStringLiteral("primary · 0-5460"),
                                   QStringLiteral("primary · 5461-10921"),
                                   QStringLiteral("primary · 10922-16383")};
        QStringList urls;
        for (std::size_t n = 0; n < 3; ++n) {
            urls << QString::fromStdString(cluster.url(n));
            const QString key = QString::fromStdString(keys[n]);
            QTRY_VERIFY_WITH_TIMEOUT(model->rowOf(urls[int(n)], key) >= 0, 15000);
            QTRY_COMPARE_WITH_TIMEOUT(
                model->index(model->rowOf(urls[int(n)], key), LockTableModel::Node)
                    .data()
                    .toString(),
                expected[int(n)], 5000);
        }
        // Shown beside Instance, on screen at 1280x720 without scrolling.
        QTableView* table = w.inspector()->table();
        QVERIFY(!table->isColumnHidden(LockTableModel::Node));
        QCOMPARE(table->horizontalHeader()->visualIndex(LockTableModel::Node),
                 table->horizontalHeader()->visualIndex(LockTableModel::Instance) + 1);
        QVERIFY(table->columnViewportPosition(LockTableModel::Node) +
                    table->columnWidth(LockTableModel::Node) <=
                table->viewport()->width());
        QCOMPARE(model->headerData(LockTableModel::Node, Qt::Horizontal).toString(),
                 QStringLiteral("Node"));

        // Three scans at once, reported as the workers report them: one done, one half way,
        // one starting. The bar shows half of the cluster, the tooltip each node.
        QProgressBar* bar = w.inspector()->progress();
        QTRY_VERIFY_WITH_TIMEOUT(!bar->isVisible(), 15000);  // the first scans are over
        ConnectionHub* hub = w.hub();
        for (const QString& url : urls) emit hub->scanStarted(url);
        emit hub->scanProgress(urls[0], 1.0, 3000);
        emit hub->scanProgress(urls[1], 0.5, 1500);
        emit hub->scanProgress(urls[2], 0.0, 0);
        QVERIFY(bar->isVisible());
        QCOMPARE(bar->value(), 500);
        QCOMPARE(bar->text(), QStringLiteral("4500 keys scanned"));
        const QStringList lines = bar->toolTip().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 3);
        QVERIFY2(lines.contains(QStringLiteral("nodes cluster: 100% · 3000 keys")),
                 qPrintable(bar->toolTip()));
        QVERIFY2(lines.contains(QStringLiteral("nodes cluster · %1: 50% · 1500 keys")
                                    .arg(urls[1].section(QStringLiteral("//"), 1))),
                 qPrintable(bar->toolTip()));
        QVERIFY(lockscope::ui::testing::saveScreenshot(&w, QStringLiteral("cluster-window-nodes")));
        emit hub->scanFinished(urls[0], false, {});
        QCOMPARE(bar->value(), 500);  // a finished node still counts as scanned
        emit hub->scanFinished(urls[1], false, {});
        emit hub->scanFinished(urls[2], false, {});
        QVERIFY(!bar->isVisible());
    }

    // Watching a quiet cluster does not ask it for its topology every second (it did): asked
    // at the connect, then only for a reason (a redirect, a lost node) or every 30 s.
    void aQuietClusterIsNotAskedForItsTopologyEverySecond() {
        lockscope::testing::RedisCluster cluster;
        const std::string key = "lock:{quiet}";
        const std::size_t node = cluster.primaryFor(key);
        cluster.connect(node).command({"SET", key, "worker-1", "PX", "120000"});
        auto clusterCalls = [&] {  // CLUSTER SHARDS, SLOTS, NODES, MYID... on the primaries
            long long calls = 0;
            for (std::size_t i = 0; i < 3; ++i) {
                std::string info(cluster.connect(i).command({"INFO", "commandstats"}).text());
                for (auto at = info.find("cmdstat_cluster"); at != std::string::npos;
                     at = info.find("cmdstat_cluster", at + 1))
                    calls += std::stoll(info.substr(info.find("calls=", at) + 6));
            }
            return calls;
        };
        ClusterWindow window(QStringLiteral("quiet cluster"), cluster.endpoint(0));
        MainWindow& w = window.window;
        LockTableModel* model = w.inspector()->model();
        QTRY_VERIFY_WITH_TIMEOUT(model->rowOf(QString::fromStdString(cluster.url(node)),
                                              QString::fromStdString(key)) >= 0,
                                 15000);
        const long long before = clusterCalls();
        QTest::qWait(6000);
        const long long grown = clusterCalls() - before;
        QVERIFY2(grown <= 1,
                 qPrintable(QStringLiteral("%1 CLUSTER commands in 6 s of watching").arg(grown)));
    }

    // An operator moves a slot holding two locks from one primary to another while the window
    // watches. The rows follow the slot to the new node's worker in the same round: at every
    // moment each lock has exactly one row (before, its row vanished at the old node's next
    // read, which answered MOVED, and came back only at the new node's sweep, its renewals
    // reset and its history saying "released"); the renewal seen before the move is still
    // counted, the selection goes with the row, and the command log tells of the slot move.
    void aMovedSlotsRowsFollowItToTheNewOwnerWithTheirHistory() {
        lockscope::testing::RedisCluster cluster;
        std::string tag;  // a hash tag of primary 1: both locks in one slot
        for (int i = 0; tag.empty(); ++i)
            if (std::string t = "{shipment-" + std::to_string(i) + "}"; cluster.primaryFor(t) == 1)
                tag = t;
        const std::vector<std::string> keys{"lock:" + tag + ":pick", "lock:" + tag + ":pack"};
        const int slot = int(inspect::keyHashSlot(keys[0]));
        for (const auto& key : keys)
            cluster.connect(1).command({"SET", key, "worker-" + key, "PX", "60000"});
        ClusterWindow window(QStringLiteral("shipments cluster"), cluster.endpoint(0));
        MainWindow& w = window.window;
        LockTableModel* model = w.inspector()->model();
        const QString from = QString::fromStdString(cluster.url(1));
        const QString to = QString::fromStdString(cluster.url(2));
        const QString renewed = QString::fromStdString(keys[0]);
        for (const auto& key : keys)
            QTRY_VERIFY_WITH_TIMEOUT(model->rowOf(from, QString::fromStdString(key)) >= 0, 15000);
        w.inspector()->selectKey(from, renewed);
        cluster.connect(1).command({"PEXPIRE", keys[0], "120000"});  // its holder renews it
        QTRY_COMPARE_WITH_TIMEOUT(model->recordAt(model->rowOf(from, renewed))->renewals, 1, 5000);
        const int rowsBefore = model->rowCount();

        // Every 5 ms on the GUI thread, between its updates: one row per lock, never 0 or 2.
        QStringList violations;
        QTimer sampler;
        sampler.setInterval(5);
        QObject::connect(&sampler, &QTimer::timeout, [&] {
            for (const auto& key : keys) {
                const QString k = QString::fromStdString(key);
                const int rows = int(model->rowOf(from, k) >= 0) + int(model->rowOf(to, k) >= 0);
                if (rows != 1 && violations.size() < 10)
                    violations << QStringLiteral("%1: %2 rows").arg(k).arg(rows);
            }
        });
        sampler.start();
        cluster.moveSlot(slot, 2);
        QElapsedTimer moved;
        moved.start();
        for (const auto& key : keys)
            QTRY_VERIFY_WITH_TIMEOUT(model->rowOf(to, QString::fromStdString(key)) >= 0, 3000);
        const qint64 followedMs = moved.elapsed();
        QTest::qWait(2000);  // nothing comes back on the old node, nothing doubles
        sampler.stop();
        QVERIFY2(violations.isEmpty(), qPrintable(violations.join(QStringLiteral("; "))));
        qInfo("rows followed the slot %lld ms after the move", followedMs);
        QCOMPARE(model->rowCount(), rowsBefore);

        const int row = model->rowOf(to, renewed);
        QCOMPARE(model->recordAt(row)->renewals, 1);  // the history came along
        QCOMPARE(model->index(row, LockTableModel::Renewals).data().toString(),
                 QStringLiteral("1"));
        const auto& shown = w.inspector()->detail()->shown();
        QVERIFY(shown);
        QCOMPARE(QString::fromStdString(shown->instanceName()), to);  // the selection followed
        QCOMPARE(QString::fromStdString(shown->key), renewed);
        auto* holders = w.inspector()->detail()->findChild<QTableWidget*>();
        QVERIFY(holders && holders->rowCount() >= 1);
        for (int r = 0; r < holders->rowCount(); ++r)  // not "(released)" then "acquired"
            QVERIFY2(!holders->item(r, 1)->text().startsWith(QLatin1Char('(')),
                     qPrintable(holders->item(r, 1)->text()));
        auto logged = [&](const QString& text) {
            return lockscope::ui::testing::commandLogContains(*w.commandLog(), text);
        };
        QVERIFY(logged(QStringLiteral("cluster topology changed: slot %1 moved to").arg(slot)));
        QVERIFY(lockscope::ui::testing::saveScreenshot(
            &w, QStringLiteral("cluster-window-slot-moved")));
    }

    // Scale-out: a fourth primary joins with no slots (no worker watches it), then a slot
    // moves to it. The rows of that slot wait at the old node until the refreshed topology
    // opens the new primary's worker, then move there with their history: never gone, never
    // twice. Before, they left the table at once ("(released)" in the holder history) and came
    // back as new locks only when the new primary's first scan found them.
    void aSlotMovedToANewPrimaryKeepsItsRowsUntilItsWorkerTakesThem() {
        lockscope::testing::RedisCluster cluster({.primaries = 4, .emptyPrimaries = 1});
        std::string key;
        for (int i = 0; key.empty(); ++i)
            if (std::string k = "lock:{crate-" + std::to_string(i) + "}";
                cluster.primaryFor(k) == 1)
                key = k;
        cluster.connect(1).command({"SET", key, "worker-9", "PX", "60000"});
        ClusterWindow window(QStringLiteral("growing cluster"), cluster.endpoint(0));
        MainWindow& w = window.window;
        LockTableModel* model = w.inspector()->model();
        const QString from = QString::fromStdString(cluster.url(1));
        const QString to = QString::fromStdString(cluster.url(3));
        const QString k = QString::fromStdString(key);
        QTRY_VERIFY_WITH_TIMEOUT(model->rowOf(from, k) >= 0, 15000);
        w.inspector()->selectKey(from, k);
        cluster.connect(1).command({"PEXPIRE", key, "120000"});  // its holder renews it
        QTRY_COMPARE_WITH_TIMEOUT(model->recordAt(model->rowOf(from, k))->renewals, 1, 5000);

        QStringList violations;  // every 5 ms on the GUI thread: one row, never 0 or 2
        QTimer sampler;
        sampler.setInterval(5);
        QObject::connect(&sampler, &QTimer::timeout, [&] {
            const int rows = int(model->rowOf(from, k) >= 0) + int(model->rowOf(to, k) >= 0);
            if (rows != 1 && violations.size() < 10)
                violations << QStringLiteral("%1 rows").arg(rows);
        });
        sampler.start();
        cluster.moveSlot(int(inspect::keyHashSlot(key)), 3);
        QTRY_VERIFY_WITH_TIMEOUT(model->rowOf(to, k) >= 0, 8000);
        QTest::qWait(1500);  // nothing comes back on the old node, nothing doubles
        sampler.stop();
        QVERIFY2(violations.isEmpty(), qPrintable(violations.join(QStringLiteral("; "))));
        QCOMPARE(model->recordAt(model->rowOf(to, k))->renewals, 1);  // the history came along
        QCOMPARE(QString::fromStdString(model->recordAt(model->rowOf(to, k))->instanceName()), to);
        auto* holders = w.inspector()->detail()->findChild<QTableWidget*>();
        QVERIFY(holders && holders->rowCount() >= 1);
        for (int r = 0; r < holders->rowCount(); ++r)  // not "(released)" then "acquired"
            QVERIFY2(!holders->item(r, 1)->text().startsWith(QLatin1Char('(')),
                     qPrintable(holders->item(r, 1)->text()));
        QVERIFY(lockscope::ui::testing::saveScreenshot(
            &w, QStringLiteral("cluster-window-new-primary")));
    }

    // "Scan replicas" on a cluster: each primary's locks are read from an online replica of its
    // own shard (READONLY), so the primaries get no SCAN at all; the rows stay under their
    // primary, without the "point LockScope at the primary" advice, and a release still goes
    // to the primary. Before, the switch existed only behind Sentinel.
    void scanReplicasReadsEachShardsReplicaAndReleasesOnThePrimary() {
        lockscope::testing::RedisCluster cluster({.replicas = true});
        std::vector<std::string> keys(3);  // one lock on each primary
        for (int i = 0; keys[0].empty() || keys[1].empty() || keys[2].empty(); ++i) {
            std::string key = "lock:{replica-read-" + std::to_string(i) + "}";
            if (std::string& k = keys[cluster.primaryFor(key)]; k.empty()) k = key;
        }
        for (std::size_t n = 0; n < 3; ++n) {
            Connection primary = cluster.connect(n);
            primary.command({"SET", keys[n], "holder-" + std::to_string(n), "PX", "120000"});
            QCOMPARE(primary.command({"WAIT", "1", "2000"}).integer(), 1);
            primary.command({"CONFIG", "RESETSTAT"});
        }
        ConnectionProfile profile =
            ConnectionProfile::create(QStringLiteral("replica-read cluster"), cluster.endpoint(0));
        profile.scanReplica = true;
        ClusterWindow window(profile);
        MainWindow& w = window.window;
        LockTableModel* model = w.inspector()->model();
        auto logged = [&](const QString& text) {
            return lockscope::ui::testing::commandLogContains(*w.commandLog(), text);
        };
        std::vector<inspect::LockRecord> seen;
        for (std::size_t n = 0; n < 3; ++n) {
            const QString node = QString::fromStdString(cluster.url(n));
            const QString key = QString::fromStdString(keys[n]);
            QTRY_VERIFY_WITH_TIMEOUT(model->rowOf(node, key) >= 0, 15000);
            const auto* record = model->recordAt(model->rowOf(node, key));
            QVERIFY(!(record->findings & inspect::bit(inspect::RuleId::OnReplica)));
            QVERIFY(record->findings & inspect::bit(inspect::RuleId::ReplicatedPrimary));
            seen.push_back(*record);
            const Endpoint primary = cluster.endpoint(n), replica = cluster.endpoint(3 + n);
            // The engine's note (watch_event.h), as `watch` says it too.
            const QString note = QStringLiteral("scanning replica %1 of the primary %2")
                                     .arg(QString::fromStdString(replica.display()),
                                          QString::fromStdString(primary.display()));
            QTRY_VERIFY2_WITH_TIMEOUT(logged(note), qPrintable(note), 5000);
        }
        for (std::size_t n = 0; n < 3; ++n) {
            const std::string primaryStats =
                std::string(cluster.connect(n).command({"INFO", "commandstats"}).text());
            QVERIFY2(primaryStats.find("cmdstat_scan:") == std::string::npos,
                     qPrintable(QString::fromStdString(primaryStats)));
            const std::string replicaStats =
                std::string(cluster.connect(3 + n).command({"INFO", "commandstats"}).text());
            QVERIFY2(replicaStats.find("cmdstat_scan:") != std::string::npos,
                     qPrintable(QString::fromStdString(replicaStats)));
        }

        QSignalSpy finished(w.hub(), &ConnectionHub::actionFinished);
        w.hub()->act(QString::fromStdString(cluster.url(1)), LockAction::Release, seen[1]);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
        QVERIFY2(finished.at(0).at(3).toBool(), qPrintable(finished.at(0).at(5).toString()));
        QCOMPARE(cluster.connect(1).command({"EXISTS", keys[1]}).integer(), 0);
        QVERIFY(lockscope::ui::testing::saveScreenshot(
            &w, QStringLiteral("cluster-window-scan-replicas")));

        // Node 0's replica stops: its watch falls back to the primary (the rows stay); when
        // the replica is back, the watch returns to it within the retry period.
        const QString node0 = QString::fromStdString(cluster.url(0));
        const QString key0 = QString::fromStdString(keys[0]);
        auto scans = [&](std::size_t n) {
            const std::string stats(cluster.connect(n).command({"INFO", "commandstats"}).text());
            return stats.find("cmdstat_scan:") != std::string::npos;
        };
        cluster.node(3).server->stop();
        QTRY_VERIFY_WITH_TIMEOUT(scans(0), 10000);
        QVERIFY(model->rowOf(node0, key0) >= 0);
        cluster.node(3).server->start();
        QTRY_VERIFY_WITH_TIMEOUT(scans(3), 20000);
        QVERIFY(model->rowOf(node0, key0) >= 0);
    }

    // A primary dies: the cluster promotes its replica, the window notes the topology change in
    // the command log, lists the new primary under the connection and reads what it holds.
    void aFailoverIsAnEventAndThePromotedReplicaIsWatched() {
        lockscope::testing::RedisCluster cluster({.replicas = true});
        std::string before, after;  // keys of primary 1's slots, before and after the failover
        for (int i = 0; after.empty(); ++i) {
            std::string key = "lock:{invoice-" + std::to_string(i) + "}";
            if (cluster.primaryFor(key) != 1) continue;
            (before.empty() ? before : after) = key;
        }
        Connection primary = cluster.connect(1);
        primary.command({"SET", before, "worker-1", "PX", "120000"});
        primary.command({"WAIT", "1", "2000"});
        ClusterWindow window(QStringLiteral("invoices cluster"), cluster.endpoint(0));
        MainWindow& w = window.window;
        LockTableModel* model = w.inspector()->model();
        const QString node1 = QString::fromStdString(cluster.url(1));
        const QString node4 = QString::fromStdString(cluster.url(4));
        QTRY_VERIFY_WITH_TIMEOUT(model->rowOf(node1, QString::fromStdString(before)) >= 0, 15000);

        cluster.node(1).server->stop();
        QTRY_VERIFY_WITH_TIMEOUT(cluster.connect(4).command({"ROLE"})[0].text() == "master", 10000);
        cluster.connect(4).command({"SET", after, "worker-2", "PX", "120000"});
        auto logged = [&](const QString& text) {
            return lockscope::ui::testing::commandLogContains(*w.commandLog(), text);
        };
        QTRY_VERIFY_WITH_TIMEOUT(logged(QStringLiteral("cluster topology changed: failover")),
                                 10000);
        QTRY_VERIFY_WITH_TIMEOUT(model->rowOf(node4, QString::fromStdString(after)) >= 0, 10000);
        QVERIFY(
            lockscope::ui::testing::saveScreenshot(&w, QStringLiteral("cluster-window-failover")));
    }
};

QTEST_MAIN(ClusterWindowTest)
#include "tst_cluster_window.moc"
