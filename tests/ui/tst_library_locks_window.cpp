// The window with the other libraries' locks (written with each library's own commands,
// tests/formats/formats_test_support.cpp) on a private redis-server:
//  - a Redisson fenced lock's row shows the counter of redisson_lock_token:{name} as its fence;
//  - a sidekiq-unique-jobs key shows its digest as one group (keys and the job holding it),
//    and Release on any of its keys removes the whole digest the way the library does;
//  - Release of a Redisson lock publishes the unlock, so a waiting client wakes;
//  - a Spring RedisLockRegistry's locks show as spring-integration with the registry's client
//    id as holder, and Release publishes on the registry's channel (its waiters wake);
//  - sorted by Resource, a sidekiq digest's keys sit right under its lock, marked as its part.
#include <QApplication>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "formats_test_support.h"
#include "lockscope/sandbox/local_redis_server.h"
#include "models/lock_filter_proxy.h"
#include "models/lock_table_model.h"
#include "session/connection_hub.h"
#include "ui_test_support.h"
#include "widgets/lock_detail_pane.h"
#include "widgets/lock_inspector_view.h"
#include "widgets/main_window.h"
#include "widgets/redlock_group_panel.h"

using namespace lockscope;
using namespace lockscope::ui;

class LibraryLocksWindowTest : public QObject {
    Q_OBJECT
  private:
    std::unique_ptr<LocalRedisServer> server_;
    std::unique_ptr<QTemporaryDir> dir_;
    std::unique_ptr<QSettings> settings_;
    std::unique_ptr<MainWindow> window_;

    QString instance() const { return QString::fromStdString(server_->endpoint().display()); }
    LockTableModel* model() const { return window_->inspector()->model(); }
    QString cell(const QString& key, int column) const {
        int row = model()->rowOf(instance(), key);
        return row < 0 ? QStringLiteral("(no row)") : model()->index(row, column).data().toString();
    }
    bool select(const QString& key) {
        window_->inspector()->selectKey(instance(), key);
        const auto& shown = window_->inspector()->detail()->shown();
        return shown && shown->key == key.toStdString();
    }
    QTabWidget* detailTabs() const {
        return qobject_cast<QTabWidget*>(
            window_->inspector()->detail()->group()->parentWidget()->parentWidget());
    }

  private slots:
    void init() {
        server_ = std::make_unique<LocalRedisServer>();
        Connection c = Connection::open(server_->endpoint());
        formats_test::writeEveryFormat(c);
        dir_ = std::make_unique<QTemporaryDir>();
        settings_ =
            std::make_unique<QSettings>(dir_->filePath("lockscope.ini"), QSettings::IniFormat);
        settings_->setValue("actions/confirmRelease", false);
        MainWindowOptions options;
        auto profile = ConnectionProfile::create(QStringLiteral("libraries"), server_->endpoint());
        profile.patterns = {QStringLiteral("*")};
        options.extra.append(profile);
        window_ = std::make_unique<MainWindow>(*settings_, options);
        window_->resize(1600, 900);
        window_->show();
        QTRY_VERIFY_WITH_TIMEOUT(model()->rowCount() >= 20, 15000);
    }
    void cleanup() {
        window_.reset();
        settings_.reset();
        server_.reset();
    }

    void aRedissonFencedLockShowsItsTokenAsFence() {
        // writeEveryFormat: RedissonFencedLock "ledger" with redisson_lock_token:{ledger} = 7.
        QTRY_COMPARE_WITH_TIMEOUT(cell(QStringLiteral("ledger"), LockTableModel::Fence),
                                  QStringLiteral("7"), 5000);
        // A new token (the next holder's) reaches the lock's row, not only the token's.
        Connection c = Connection::open(server_->endpoint());
        c.command({"INCR", "redisson_lock_token:{ledger}"});
        window_->hub()->refreshAll();
        QTRY_COMPARE_WITH_TIMEOUT(cell(QStringLiteral("ledger"), LockTableModel::Fence),
                                  QStringLiteral("8"), 8000);
    }

    void aSidekiqDigestIsOneGroupAndReleasedWhole() {
        const QString digest = QString::fromStdString(formats_test::kDigest);
        const QString queued = digest + QStringLiteral(":QUEUED");
        QTRY_VERIFY_WITH_TIMEOUT(model()->rowOf(instance(), queued) >= 0, 5000);
        QVERIFY(select(queued));
        QTabWidget* tabs = detailTabs();
        QVERIFY(tabs);
        QCOMPARE(tabs->tabText(tabs->indexOf(window_->inspector()->detail()->group())),
                 QStringLiteral("Digest"));
        const QString summary = window_->inspector()->detail()->group()->summary();
        QVERIFY2(summary.contains(QString::fromStdString(formats_test::kJid)), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("4 keys")), qPrintable(summary));
        tabs->setCurrentWidget(window_->inspector()->detail()->group());
        QTest::qWait(300);
        QVERIFY(testing::saveScreenshot(window_.get(), "sidekiq-digest-group"));

        // Release on the QUEUED list releases the digest: every key and its set entries.
        QPushButton* release = window_->inspector()->detail()->releaseButton();
        QVERIFY(release->isEnabled());
        release->click();
        Connection c = Connection::open(server_->endpoint());
        const std::string d = formats_test::kDigest;
        QTRY_VERIFY_WITH_TIMEOUT(c.command({"EXISTS", d + ":LOCKED"}).integer() == 0, 5000);
        for (const std::string& key : {d, d + ":PRIMED", d + ":INFO"})
            QVERIFY2(c.command({"EXISTS", key}).integer() == 0, key.c_str());
        QVERIFY(c.command({"ZSCORE", "uniquejobs:digests", d}).isNil());
    }

    void aSpringRegistrysLocksShowTheirKindAndReleaseWakesItsWaiter();
    void aSidekiqDigestsKeysSitUnderItsLockSortedByResource();

    void releasingARedissonLockWakesItsWaiter() {
        QTRY_VERIFY_WITH_TIMEOUT(model()->rowOf(instance(), QStringLiteral("ledger")) >= 0, 5000);
        Connection waiter = Connection::open(server_->endpoint());
        waiter.command({"SUBSCRIBE", "redisson_lock__channel:{ledger}"});
        QVERIFY(select(QStringLiteral("ledger")));
        window_->inspector()->detail()->releaseButton()->click();
        QVERIFY2(waiter.waitForReply(std::chrono::milliseconds(5000)),
                 "no unlock message reached the waiting client");
        Reply message = waiter.receive();
        QCOMPARE(QString::fromStdString(std::string(message[2].text())), QStringLiteral("0"));
        Connection c = Connection::open(server_->endpoint());
        QCOMPARE(c.command({"EXISTS", "ledger"}).integer(), 0);
    }
};

void LibraryLocksWindowTest::aSpringRegistrysLocksShowTheirKindAndReleaseWakesItsWaiter() {
    // writeEveryFormat: RedisLockRegistry "orders" holds order-17 and order-18 with one client
    // id. Before, the window showed them as plain "uuid" locks and released them with a
    // compare-and-delete that told no waiter.
    for (const QString& key :
         {QStringLiteral("orders:order-17"), QStringLiteral("orders:order-18")}) {
        QTRY_COMPARE_WITH_TIMEOUT(cell(key, LockTableModel::Kind),
                                  QStringLiteral("spring-integration"), 8000);
        QVERIFY2(cell(key, LockTableModel::Holder)
                     .contains(QString::fromStdString(formats_test::kClientB).left(8)),
                 qPrintable(cell(key, LockTableModel::Holder)));
    }
    // A third lock of the registry taken while watched is recognised too.
    Connection c = Connection::open(server_->endpoint());
    c.command({"SET", "orders:order-19", formats_test::kClientB, "PX", "60000"});
    window_->hub()->refreshAll();
    QTRY_COMPARE_WITH_TIMEOUT(cell(QStringLiteral("orders:order-19"), LockTableModel::Kind),
                              QStringLiteral("spring-integration"), 8000);

    Connection waiter = Connection::open(server_->endpoint());
    waiter.command({"SUBSCRIBE", "orders-channel"});
    QVERIFY(select(QStringLiteral("orders:order-17")));
    QVERIFY(testing::saveScreenshot(window_.get(), "spring-integration-locks"));
    window_->inspector()->detail()->releaseButton()->click();
    QVERIFY2(waiter.waitForReply(std::chrono::milliseconds(5000)),
             "no unlock message reached the registry's channel");
    Reply message = waiter.receive();
    QCOMPARE(QString::fromStdString(std::string(message[2].text())),
             QStringLiteral("orders:order-17"));
    QCOMPARE(c.command({"EXISTS", "orders:order-17"}).integer(), 0);
    QCOMPARE(c.command({"EXISTS", "orders:order-18"}).integer(), 1);
}

void LibraryLocksWindowTest::aSidekiqDigestsKeysSitUnderItsLockSortedByResource() {
    const QString digest = QString::fromStdString(formats_test::kDigest);
    const QString locked = digest + QStringLiteral(":LOCKED");
    QTRY_VERIFY_WITH_TIMEOUT(model()->rowOf(instance(), locked) >= 0, 5000);
    window_->inspector()->table()->sortByColumn(LockTableModel::Resource, Qt::AscendingOrder);
    const int lockRow = model()->rowOf(instance(), locked);
    QCOMPARE(model()->index(lockRow, LockTableModel::Resource).data().toString(), digest);
    // The digest's other keys follow its lock, each marked as its part.
    int parts = 0;
    for (int row = lockRow + 1; row < model()->rowCount(); ++row) {
        const QString resource = model()->index(row, LockTableModel::Resource).data().toString();
        if (resource != QStringLiteral("\u21b3 ") + digest) break;
        ++parts;
    }
    QVERIFY2(parts >= 3, qPrintable(QStringLiteral("%1 part(s) under the lock").arg(parts)));
    const QString tip =
        model()->index(lockRow + 1, LockTableModel::Resource).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(QStringLiteral("released with it")), qPrintable(tip));
    QVERIFY(select(locked));
    window_->inspector()->table()->scrollTo(
        window_->inspector()->proxy()->mapFromSource(model()->index(lockRow, 0)));
    QTest::qWait(300);
    QVERIFY(testing::saveScreenshot(window_.get(), "sidekiq-digest-rows-grouped"));
}

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    LibraryLocksWindowTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_library_locks_window.moc"
