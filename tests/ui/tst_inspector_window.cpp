// The inspector window against a real sandbox redis-server with the demo workload.
#include <qcustomplot.h>
#include <QAbstractItemModelTester>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "lockscope/connection.h"
#include "lockscope/sandbox/demo_workload.h"
#include "lockscope/sandbox/local_redis_server.h"
#include "models/command_log_model.h"
#include "models/lock_filter_proxy.h"
#include "models/lock_table_model.h"
#include "session/connection_hub.h"
#include "ui_test_support.h"
#include "widgets/connection_dialog.h"
#include "widgets/connection_sidebar.h"
#include "widgets/lock_detail_pane.h"
#include "widgets/lock_inspector_view.h"
#include "widgets/main_window.h"
#include "widgets/pttl_plot.h"
#include "widgets/redlock_group_panel.h"

using namespace lockscope;
using namespace lockscope::ui;
using namespace std::chrono_literals;

class InspectorWindowTest : public QObject {
    Q_OBJECT

  private:
    std::unique_ptr<LocalRedisServer> server_;
    std::unique_ptr<DemoWorkload> workload_;
    std::unique_ptr<QTemporaryDir> configDir_;
    std::unique_ptr<QSettings> settings_;

    std::unique_ptr<MainWindow> openWindow(bool readOnly = false, Endpoint endpoint = {}) {
        if (endpoint.port == 6379 && endpoint.host == "127.0.0.1") endpoint = server_->endpoint();
        MainWindowOptions options;
        auto profile = ConnectionProfile::create(QStringLiteral("test server"), endpoint);
        profile.readOnly = readOnly;
        options.extra.append(profile);
        auto window = std::make_unique<MainWindow>(*settings_, options);
        window->resize(1400, 900);
        window->show();
        return window;
    }

    Connection redis() { return Connection::open(server_->endpoint()); }

    int rowOf(MainWindow& w, const QString& key) {
        return w.inspector()->model()->rowOf(QString::fromStdString(server_->endpoint().display()),
                                             key);
    }

    void select(MainWindow& w, const QString& key) {
        w.inspector()->selectKey(QString::fromStdString(server_->endpoint().display()), key);
    }

  private slots:
    void init() {
        configDir_ = std::make_unique<QTemporaryDir>();
        settings_ = std::make_unique<QSettings>(configDir_->filePath("lockscope.ini"),
                                                QSettings::IniFormat);
        server_ = std::make_unique<LocalRedisServer>();
        workload_ = std::make_unique<DemoWorkload>(server_->endpoint());
    }

    void cleanup() {
        workload_.reset();
        server_.reset();
        settings_.reset();
    }

    void commandLogShowsTheScanTraffic() {
        // The scanner's commands go out on the streaming path; the drawer must list them
        // too, with what the server answered.
        auto w = openWindow();
        QTRY_VERIFY_WITH_TIMEOUT(w->inspector()->model()->rowCount() >= 4, 10000);
        auto* log = w->commandLog();
        auto sawCommand = [log](const QString& name) {
            for (int row = 0; row < log->rowCount(); ++row) {
                QString command = log->index(row, CommandLogModel::Command).data().toString();
                QString reply = log->index(row, CommandLogModel::Reply).data().toString();
                if (command.startsWith(name + ' ') && !reply.isEmpty()) return true;
            }
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(sawCommand(QStringLiteral("SCAN")), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(sawCommand(QStringLiteral("PTTL")), 5000);
    }

    void showsTheDemoLocksAndCountsDown() {
        auto w = openWindow();
        QTRY_VERIFY_WITH_TIMEOUT(w->inspector()->model()->rowCount() >= 4, 10000);
        auto* model = w->inspector()->model();
        for (const char* key : {"lock:{report:nightly}", "lock:{invoice:batch}",
                                "lock:{cache:rebuild}", "lock:report"})
            QVERIFY2(rowOf(*w, key) >= 0, key);
        int orphan = rowOf(*w, "lock:{cache:rebuild}");
        QCOMPARE(model->index(orphan, LockTableModel::Remaining)
                     .data(LockTableModel::RemainingMsRole)
                     .toLongLong(),
                 -1);
        QVERIFY(model->index(orphan, LockTableModel::Findings)
                    .data(LockTableModel::FindingsRole)
                    .toStringList()
                    .contains("no-ttl"));
        int fixed = rowOf(*w, "lock:report");
        QVERIFY(model->index(fixed, LockTableModel::Findings)
                    .data(LockTableModel::FindingsRole)
                    .toStringList()
                    .contains("fixed-value"));

        int invoice = rowOf(*w, "lock:{invoice:batch}");
        qint64 first = model->index(invoice, LockTableModel::Remaining)
                           .data(LockTableModel::RemainingMsRole)
                           .toLongLong();
        QTest::qWait(300);
        invoice = rowOf(*w, "lock:{invoice:batch}");
        qint64 second = model->index(invoice, LockTableModel::Remaining)
                            .data(LockTableModel::RemainingMsRole)
                            .toLongLong();
        QVERIFY2(second < first, qPrintable(QString("%1 then %2").arg(first).arg(second)));

        select(*w, "lock:{report:nightly}");
        QTest::qWait(4500);  // renewals make the sawtooth in the plot
        QVERIFY(w->inspector()->detail()->plot()->plot()->graph(0)->dataCount() >= 3);
        QVERIFY(testing::saveScreenshot(w.get(), "main-window"));
        QVERIFY(testing::saveScreenshot(w->inspector()->detail(), "detail-pane"));
    }

    void handoffUpdatesTokenAndFence() {
        auto w = openWindow();
        Connection c = redis();
        c.command({"SET", "lock:{handoff}", "token-one", "PX", "60000"});
        c.command({"SET", "fence:{handoff}", "7"});
        QTRY_VERIFY_WITH_TIMEOUT(rowOf(*w, "lock:{handoff}") >= 0, 10000);
        QSignalSpy handoffs(w->inspector()->model(), &LockTableModel::handoff);
        c.command({"SET", "lock:{handoff}", "token-two", "PX", "60000"});
        c.command({"INCR", "fence:{handoff}"});
        auto* model = w->inspector()->model();
        QTRY_COMPARE_WITH_TIMEOUT(model->index(rowOf(*w, "lock:{handoff}"), LockTableModel::Holder)
                                      .data(LockTableModel::FullTokenRole)
                                      .toString(),
                                  QStringLiteral("token-two"), 5000);
        QTRY_COMPARE_WITH_TIMEOUT(
            model->index(rowOf(*w, "lock:{handoff}"), LockTableModel::Fence).data().toLongLong(),
            8LL, 5000);
        QVERIFY(handoffs.count() >= 1);
        QVERIFY(model->index(rowOf(*w, "lock:{handoff}"), 0)
                    .data(LockTableModel::HighlightRole)
                    .toDouble() > 0);
    }

    void safeReleaseAndRacedRelease() {
        auto w = openWindow();
        Connection c = redis();
        c.command({"SET", "lock:{job:a}", "holder-a", "PX", "60000"});
        c.command({"SET", "lock:{job:b}", "holder-b", "PX", "60000"});
        QTRY_VERIFY_WITH_TIMEOUT(rowOf(*w, "lock:{job:b}") >= 0, 10000);

        // Safe release: the token is still the one shown, so the key goes.
        select(*w, "lock:{job:a}");
        auto* detail = w->inspector()->detail();
        QVERIFY(detail->releaseButton()->isEnabled());
        detail->releaseButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(c.command({"EXISTS", "lock:{job:a}"}).integer() == 0, 5000);
        QTRY_VERIFY2_WITH_TIMEOUT(
            detail->resultLabel()->text().startsWith(QStringLiteral("✔")),
            qPrintable(
                w->statusBar()->currentMessage() + " / shown=" +
                (detail->shown() ? QString::fromStdString(detail->shown()->key) : QString("none"))),
            5000);

        // Raced release: the lock changes hands after the operator looked.
        select(*w, "lock:{job:b}");
        QCOMPARE(QString::fromStdString(detail->shown()->token), QStringLiteral("holder-b"));
        c.command({"SET", "lock:{job:b}", "holder-c", "PX", "60000"});
        detail->releaseButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(detail->resultLabel()->text().startsWith(QStringLiteral("✘")),
                                 5000);
        QCOMPARE(c.command({"GET", "lock:{job:b}"}).text(), std::string_view("holder-c"));
        QVERIFY2(detail->resultLabel()->text().contains("holder-c") ||
                     detail->resultLabel()->text().contains("changed"),
                 qPrintable(detail->resultLabel()->text()));
        QTRY_VERIFY_WITH_TIMEOUT(w->auditView()->toPlainText().contains("token-changed"), 5000);
    }

    void readOnlyDisablesTheActions() {
        auto w = openWindow(true);
        QTRY_VERIFY_WITH_TIMEOUT(rowOf(*w, "lock:{cache:rebuild}") >= 0, 10000);
        select(*w, "lock:{cache:rebuild}");
        auto* detail = w->inspector()->detail();
        QVERIFY(detail->shown());
        QVERIFY(!detail->releaseButton()->isEnabled());
        QVERIFY(!detail->addTtlButton()->isEnabled());
        QVERIFY(!detail->forceDeleteButton()->isEnabled());
        QVERIFY(detail->findChild<QLabel*>() != nullptr);
        QVERIFY(testing::saveScreenshot(w.get(), "main-window-read-only"));
    }

    void wrongPasswordAndRefusedPortShowClearErrors() {
        LocalRedisServer locked({.configLines = {"requirepass right"}});
        Endpoint wrong = locked.endpoint();
        wrong.password = "wrong";
        auto w = openWindow(false, wrong);
        auto* list = w->sidebar()->list();
        QTRY_VERIFY_WITH_TIMEOUT(list->item(0)->toolTip().contains("WRONGPASS") ||
                                     list->item(0)->toolTip().contains("invalid"),
                                 10000);
        QVERIFY(list->item(0)->text().contains("failed"));
        QVERIFY(w->statusBar()->currentMessage().contains("AUTH"));

        Endpoint closed;
        closed.port = findFreePort();
        auto w2 = openWindow(false, closed);
        QTRY_VERIFY_WITH_TIMEOUT(w2->sidebar()->list()->item(0)->toolTip().contains("refused"),
                                 10000);
        QVERIFY(w2->sidebar()->list()->item(0)->text().contains("reconnecting"));
    }

    void connectionDialogTestsTheConnection() {
        ConnectionDialog dialog;
        auto profile = ConnectionProfile::create(QStringLiteral("sandbox"), server_->endpoint());
        profile.patterns = {"lock:*", "redisson_lock*"};
        dialog.setProfile(profile);
        dialog.show();
        QSignalSpy done(&dialog, &ConnectionDialog::testFinished);
        dialog.testButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 5000);
        QVERIFY(done.first().at(0).toBool());
        QVERIFY(dialog.testResult().contains("PONG"));
        QVERIFY(testing::saveScreenshot(&dialog, "connection-dialog"));

        dialog.urlEdit()->setText(QStringLiteral("redis://127.0.0.1:%1").arg(findFreePort()));
        QMetaObject::invokeMethod(dialog.urlEdit(), "textEdited",
                                  Q_ARG(QString, dialog.urlEdit()->text()));
        dialog.testButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 2, 5000);
        QVERIFY(!done.last().at(0).toBool());
        QVERIFY2(dialog.testResult().contains("refused"), qPrintable(dialog.testResult()));

        dialog.urlEdit()->setText(QStringLiteral("redis://host:notaport"));
        QMetaObject::invokeMethod(dialog.urlEdit(), "textEdited",
                                  Q_ARG(QString, dialog.urlEdit()->text()));
        QVERIFY2(dialog.testResult().contains("port"), qPrintable(dialog.testResult()));
    }

    void redlockGroupAcrossInstances() {
        LocalRedisServer second, third;
        MainWindowOptions options;
        for (const Endpoint& e : {server_->endpoint(), second.endpoint(), third.endpoint()})
            options.extra.append(ConnectionProfile::create(QString::fromStdString(e.display()), e));
        MainWindow w(*settings_, options);
        w.show();
        for (auto* s : {server_.get(), &second})
            Connection::open(s->endpoint())
                .command({"SET", "lock:{invoice}", "same-token", "PX", "30000"});
        Connection::open(third.endpoint())
            .command({"SET", "lock:{invoice}", "other-token", "PX", "30000"});
        QString instance = QString::fromStdString(server_->endpoint().display());
        QTRY_VERIFY_WITH_TIMEOUT(
            w.inspector()->model()->rowOf(QString::fromStdString(third.endpoint().display()),
                                          "lock:{invoice}") >= 0,
            10000);
        QTRY_VERIFY_WITH_TIMEOUT(
            w.inspector()->model()->rowOf(QString::fromStdString(second.endpoint().display()),
                                          "lock:{invoice}") >= 0,
            10000);
        w.inspector()->selectKey(instance, "lock:{invoice}");
        QString summary = w.inspector()->detail()->group()->summary();
        QVERIFY2(summary.contains("2 of 3") && summary.contains("same-token") &&
                     summary.contains("quorum 2"),
                 qPrintable(summary));
        QVERIFY(
            !w.inspector()->table()->isColumnHidden(LockTableModel::Instance));  // several servers
    }

    void modelPassesTheItemModelTester() {
        LockTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        LockFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester proxyTester(
            &proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.sort(LockTableModel::Remaining);
        auto instance = std::make_shared<const std::string>("redis://127.0.0.1:1");
        QVector<inspect::LockRecord> records;
        for (int i = 0; i < 50; ++i) {
            inspect::LockRecord r;
            r.instance = instance;
            r.key = "lock:{r" + std::to_string(i) + "}";
            r.token = "t" + std::to_string(i);
            r.pttlMs = i % 7 == 0 ? -1 : 1000 * (50 - i);
            r.observedAt = r.firstSeen = r.lastChange = std::chrono::steady_clock::now();
            records.append(r);
        }
        model.apply("redis://127.0.0.1:1", records, true);
        QCOMPARE(model.rowCount(), 50);
        // Sorted by remaining TTL: ascending, "no TTL" last.
        qint64 previous = -1;
        for (int row = 0; row < proxy.rowCount(); ++row) {
            qint64 left = proxy.index(row, LockTableModel::Remaining)
                              .data(LockTableModel::RemainingMsRole)
                              .toLongLong();
            if (left < 0) {
                previous = std::numeric_limits<qint64>::max();
                continue;
            }
            QVERIFY2(left >= previous && previous != std::numeric_limits<qint64>::max(),
                     "sort order broken");
            previous = left;
        }
        records.remove(10, 20);
        records[0].token = "changed";
        model.apply("redis://127.0.0.1:1", records, true);
        QCOMPARE(model.rowCount(), 30);
        proxy.setFilterText(QStringLiteral("r4"));
        QCOMPARE(proxy.rowCount(), 11);  // r4 and r40..r49
        model.removeInstance("redis://127.0.0.1:1");
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(InspectorWindowTest)
#include "tst_inspector_window.moc"
