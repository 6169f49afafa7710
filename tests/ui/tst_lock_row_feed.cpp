// The lock table's row feed between a real ConnectionHub and the table model, wired as the
// inspector wires it (hub → feed → model), against a real redis-server: every lock the
// server holds is one row, once, and the rows follow deletions and new locks, with no ghost
// of a deleted key and no lock missed, also when a scan streams more than one slice.
#include <QSet>
#include <QSignalSpy>
#include <QTest>

#include "lockscope/connection.h"
#include "lockscope/sandbox/local_redis_server.h"
#include "models/lock_row_feed.h"
#include "models/lock_table_model.h"
#include "session/connection_hub.h"

using namespace lockscope;
using namespace lockscope::ui;

namespace {

// More than one slice (the feed applies 2,000 records a turn) and more than one SCAN batch.
constexpr int kLocks = 5000;

std::string lockKey(int i) {
    return "lock:feed:" + std::to_string(i);
}

void setLocks(Connection& redis, int from, int to) {
    std::vector<std::vector<std::string>> load;
    for (int i = from; i < to; ++i)
        load.push_back({"SET", lockKey(i), "token-" + std::to_string(i), "PX", "600000"});
    redis.pipeline(load);
}

void deleteLocks(Connection& redis, int from, int to) {
    std::vector<std::vector<std::string>> load;
    for (int i = from; i < to; ++i) load.push_back({"DEL", lockKey(i)});
    redis.pipeline(load);
}

// Every key of the server under lock:*, by SCAN (what a user would check with redis-cli).
QSet<QString> serverKeys(Connection& redis) {
    QSet<QString> keys;
    std::string cursor = "0";
    do {
        const Reply reply = redis.command({"SCAN", cursor, "MATCH", "lock:*", "COUNT", "1000"});
        cursor = std::string(reply[0].text());
        const ReplyView batch = reply[1];
        for (std::size_t i = 0; i < batch.size(); ++i)
            keys.insert(QString::fromStdString(std::string(batch[i].text())));
    } while (cursor != "0");
    return keys;
}

// The model's keys; a key shown twice is counted in `duplicates`.
QSet<QString> modelKeys(const LockTableModel& model, int* duplicates) {
    QSet<QString> keys;
    *duplicates = 0;
    for (int row = 0; row < model.rowCount(); ++row) {
        const auto* record = model.recordAt(row);
        if (!record) continue;
        const QString key = QString::fromStdString(record->key);
        if (keys.contains(key)) ++*duplicates;
        keys.insert(key);
    }
    return keys;
}

}  // namespace

class LockRowFeedTest : public QObject {
    Q_OBJECT

  private:
    std::unique_ptr<LocalRedisServer> server_;
    std::unique_ptr<Connection> redis_;
    std::unique_ptr<ConnectionHub> hub_;
    std::unique_ptr<LockTableModel> model_;
    std::unique_ptr<LockRowFeed> feed_;

    // Wired as LockInspectorView::connectFeed wires it.
    void wire() {
        connect(hub_.get(), &ConnectionHub::locksChanged, feed_.get(),
                &LockRowFeed::onLocksChanged);
        connect(hub_.get(), &ConnectionHub::serverEmptied, feed_.get(),
                &LockRowFeed::onServerEmptied);
        connect(hub_.get(), &ConnectionHub::locksMoved, feed_.get(), &LockRowFeed::onLocksMoved);
        connect(hub_.get(), &ConnectionHub::instanceClosed, feed_.get(),
                &LockRowFeed::onInstanceClosed);
        connect(hub_.get(), &ConnectionHub::scanStarted, feed_.get(), &LockRowFeed::onScanStarted);
        connect(hub_.get(), &ConnectionHub::scanFinished, feed_.get(),
                [this](const QString&, bool cancelled) { feed_->onScanFinished(cancelled); });
    }

    // The model shows exactly the server's locks, each once.
    bool showsExactlyTheServer(QString* why) {
        int duplicates = 0;
        const QSet<QString> shown = modelKeys(*model_, &duplicates);
        const QSet<QString> held = serverKeys(*redis_);
        if (duplicates > 0) {
            *why = QStringLiteral("%1 rows shown twice").arg(duplicates);
            return false;
        }
        if (shown != held || model_->rowCount() != held.size()) {
            *why = QStringLiteral("%1 rows for %2 locks (%3 missing, %4 ghosts)")
                       .arg(model_->rowCount())
                       .arg(held.size())
                       .arg((held - shown).size())
                       .arg((shown - held).size());
            return false;
        }
        return feed_->isIdle();
    }

    void waitUntilTheModelShowsTheServer() {
        QString why;
        QTRY_VERIFY2_WITH_TIMEOUT(showsExactlyTheServer(&why), qPrintable(why), 30000);
    }

  private slots:
    void init() {
        server_ = std::make_unique<LocalRedisServer>();
        redis_ = std::make_unique<Connection>(Connection::open(server_->endpoint()));
        hub_ = std::make_unique<ConnectionHub>(nullptr);
        model_ = std::make_unique<LockTableModel>();
        feed_ = std::make_unique<LockRowFeed>(*model_);
        wire();
    }

    void cleanup() {
        hub_->closeAll();
        feed_.reset();
        model_.reset();
        hub_.reset();
        redis_.reset();
        server_.reset();
    }

    void everyLockOfAScanIsOneRow() {
        setLocks(*redis_, 0, kLocks);
        QSignalSpy finished(hub_.get(), &ConnectionHub::scanFinished);
        hub_->open(ConnectionProfile::create(QStringLiteral("feed"), server_->endpoint()));
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() >= 1, 30000);
        waitUntilTheModelShowsTheServer();
        QCOMPARE(model_->rowCount(), kLocks);
        QCOMPARE(model_->instanceNames().size(), 1);
    }

    void deletedLocksLeaveAndNewOnesArrive() {
        setLocks(*redis_, 0, kLocks);
        hub_->open(ConnectionProfile::create(QStringLiteral("feed"), server_->endpoint()));
        waitUntilTheModelShowsTheServer();
        const QString instance = model_->instanceNames().value(0);
        // Taken while watched: the new lock gets a history (a track) to end.
        setLocks(*redis_, kLocks, kLocks + 1);
        hub_->refreshAll();
        waitUntilTheModelShowsTheServer();
        // A quarter released, and as many new locks as a slice and a half.
        deleteLocks(*redis_, 0, kLocks / 4);
        deleteLocks(*redis_, kLocks, kLocks + 1);
        setLocks(*redis_, kLocks + 1, kLocks + 3001);
        hub_->refreshAll();
        waitUntilTheModelShowsTheServer();
        QCOMPARE(model_->rowCount(), kLocks - kLocks / 4 + 3000);
        // The history says how the watched lock went: released, not expired.
        const LockTrack* track = feed_->history().track(
            LockTableModel::rowKey(instance, QString::fromStdString(lockKey(kLocks))));
        QVERIFY(track);
        QVERIFY(!track->holders.isEmpty());
        QCOMPARE(toString(track->holders.last().event), toString(HolderEvent::Released));
    }

    void closingTheConnectionTakesItsRows() {
        setLocks(*redis_, 0, 100);
        const auto profile = ConnectionProfile::create(QStringLiteral("feed"), server_->endpoint());
        hub_->open(profile);
        waitUntilTheModelShowsTheServer();
        hub_->close(profile.id);
        QTRY_COMPARE_WITH_TIMEOUT(model_->rowCount(), 0, 10000);
        QVERIFY(feed_->isIdle());
    }
};

QTEST_GUILESS_MAIN(LockRowFeedTest)
#include "tst_lock_row_feed.moc"
