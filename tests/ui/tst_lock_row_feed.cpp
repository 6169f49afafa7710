// The lock table's row feed between a real ConnectionHub and the table model, wired as the
// inspector wires it (hub → feed → model), against a real redis-server: every lock the
// server holds is one row, once, and the rows follow deletions and new locks, with no ghost
// of a deleted key and no lock missed, also when a scan streams more than one slice. While the
// window is busy, what waits for it is bounded by its rows, not by the updates the watch
// reads meanwhile (issue 36), and it ends with each lock's latest holder.
#include <QSet>
#include <QSignalSpy>
#include <QTest>
#include <thread>

#include "lockscope/connection.h"
#include "lockscope/inspect/liveness/holder_verdict.h"
#include "lockscope/sandbox/local_redis_server.h"
#include "models/lock_row_feed.h"
#include "models/lock_table_model.h"
#include "session/connection_hub.h"
#include "session/row_feed_wiring.h"

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

// Every lock's token, by key, as GET reads it (what a user would check with redis-cli).
QHash<QString, QString> serverTokens(Connection& redis, const QSet<QString>& keys) {
    QHash<QString, QString> tokens;
    for (const QString& key : keys)
        tokens[key] =
            QString::fromStdString(std::string(redis.command({"GET", key.toStdString()}).text()));
    return tokens;
}

// Hands every lock of [0, count) to a new holder, `rounds` times, then to "final-<i>".
void handOffRepeatedly(const Endpoint& endpoint, int count, int rounds) {
    Connection writer = Connection::open(endpoint);
    for (int round = 0; round <= rounds; ++round) {
        std::vector<std::vector<std::string>> load;
        for (int i = 0; i < count; ++i) {
            const std::string holder = round == rounds ? "final-" : "round" + std::to_string(round);
            load.push_back({"SET", lockKey(i), holder + std::to_string(i), "PX", "600000"});
        }
        writer.pipeline(load);
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
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
    void wire() { feedRowsFrom(*hub_, *feed_); }

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

    void aBusyWindowWaitsForItsRowsNotForEveryUpdate() {
        // Keyspace notifications on: the watch re-reads every handed-off lock at once, as
        // fast as the server changes (the most a connection can report).
        redis_->command({"CONFIG", "SET", "notify-keyspace-events", "KEA"});
        constexpr int kChurned = 2000, kRounds = 20;
        setLocks(*redis_, 0, kChurned);
        hub_->open(ConnectionProfile::create(QStringLiteral("feed"), server_->endpoint()));
        waitUntilTheModelShowsTheServer();
        qint64 delivered = 0;
        const auto counting = connect(
            hub_.get(), &ConnectionHub::locksChanged, this,
            [&](const QString&, const QVector<inspect::SharedLockRecord>& changed,
                const QStringList& removed) { delivered += changed.size() + removed.size(); });
        // The GUI thread is busy (it sleeps) while every lock changes hands 21 times: 42,000
        // updates of 2,000 rows.
        std::thread churn(handOffRepeatedly, server_->endpoint(), kChurned, kRounds);
        churn.join();
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));
        // What queued meanwhile reaches the feed (no timer runs: nothing is applied yet).
        QCoreApplication::sendPostedEvents();
        QVERIFY2(
            delivered <= 25'000,
            qPrintable(QStringLiteral("%1 updates queued behind the busy window").arg(delivered)));
        disconnect(counting);
        QVERIFY2(feed_->waitingRecords() <= kChurned,
                 qPrintable(QStringLiteral("%1 records wait for %2 rows")
                                .arg(feed_->waitingRecords())
                                .arg(kChurned)));
        waitUntilTheModelShowsTheServer();
        // Each row shows the lock's latest holder, none an older one.
        const QHash<QString, QString> held = serverTokens(*redis_, serverKeys(*redis_));
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (int row = 0; row < model_->rowCount(); ++row) {
                    const auto* r = model_->recordAt(row);
                    if (QString::fromStdString(r->token) !=
                        held.value(QString::fromStdString(r->key)))
                        return false;
                }
                return true;
            }(),
            30000);
        QCOMPARE(model_->rowCount(), kChurned);
    }

    void twoConnectionsToOneServerKeepTheirOwnRows() {
        // Two connections to one server with other patterns (issue 36): each row belongs to
        // the connection that found it, so the view names it and sends its focus and its
        // actions there. Before, both connections' rows carried the server's name, and
        // everything meant for the second reached the first.
        setLocks(*redis_, 0, 200);
        auto first = ConnectionProfile::create(QStringLiteral("first"), server_->endpoint());
        first.patterns = {QStringLiteral("lock:feed:1*")};
        auto second = ConnectionProfile::create(QStringLiteral("second"), server_->endpoint());
        second.patterns = {QStringLiteral("lock:feed:2*")};
        hub_->open(first);
        hub_->open(second);
        QTRY_COMPARE_WITH_TIMEOUT(model_->rowCount(), 111 + 11, 30000);  // 1, 1x, 1xx; 2, 2x
        QCOMPARE(model_->instanceNames().size(), 2);
        for (int row = 0; row < model_->rowCount(); ++row) {
            const auto* r = model_->recordAt(row);
            const ConnectionProfile* owner =
                hub_->profileForInstance(QString::fromStdString(r->instanceName()));
            QVERIFY(owner);
            const QString expected = r->key.starts_with("lock:feed:1") ? first.name : second.name;
            QCOMPARE(owner->name, expected);
        }
    }

    void aRenewedLockNobodyTouchesIsNotSentAgain() {
        // The holder renews once: the watch says it is alive (renewed with the same token).
        // From then on nothing changes, and the window is sent nothing more about it. Before,
        // each liveness turn (every 2 s) found the verdict's `since` a few microseconds off
        // and sent the row again: thousands of untouched rows a second over a fleet.
        const std::string key = lockKey(0);
        redis_->command({"SET", key, "token-0", "PX", "600000"});
        hub_->open(ConnectionProfile::create(QStringLiteral("feed"), server_->endpoint()));
        waitUntilTheModelShowsTheServer();
        QTest::qWait(1500);
        redis_->command({"PEXPIRE", key, "600000"});
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const auto* r = model_->rowCount() == 1 ? model_->recordAt(0) : nullptr;
                return r && r->liveness && r->liveness->verdict == inspect::Verdict::Alive;
            }(),
            20000);
        QTest::qWait(1000);  // what the renewal's own read sent has arrived
        int sentAgain = 0;
        connect(hub_.get(), &ConnectionHub::locksChanged, this,
                [&](const QString&, const QVector<inspect::SharedLockRecord>& changed) {
                    sentAgain += int(changed.size());
                });
        QTest::qWait(5000);  // two liveness turns and more
        QCOMPARE(sentAgain, 0);
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
