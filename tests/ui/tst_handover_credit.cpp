// The bound on what a connection worker hands to the GUI thread and the GUI has not taken
// (support/handover_credit.h, issue 36): a sender over it waits until the receiver takes a
// batch, a batch always goes when nothing is in flight, and closing frees a waiting sender
// (a connection closing must never wait for a worker that waits for the GUI). And on a real
// connection to a real redis-server: the window's feed gives the credit back when it has
// applied the rows, not when it received them, so a worker waits while the GUI thread holds
// its rows unapplied and resumes once they are applied.

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTest>
#include <atomic>
#include <chrono>
#include <thread>

#include "lockscope/connection.h"
#include "lockscope/sandbox/local_redis_server.h"
#include "models/lock_row_feed.h"
#include "models/lock_table_model.h"
#include "session/connection_hub.h"
#include "session/connection_worker.h"
#include "session/row_feed_wiring.h"
#include "support/handover_credit.h"

using namespace lockscope;
using namespace lockscope::ui;
using namespace std::chrono_literals;

namespace {

// Whether `done` becomes true within `limit` (checked every 5 ms).
bool becomesTrue(const std::atomic<bool>& done, std::chrono::milliseconds limit) {
    for (auto waited = 0ms; waited < limit; waited += 5ms) {
        if (done) return true;
        std::this_thread::sleep_for(5ms);
    }
    return done;
}

void setLocks(Connection& redis, int count) {
    std::vector<std::vector<std::string>> load;
    for (int i = 0; i < count; ++i)
        load.push_back({"SET", "lock:credit:" + std::to_string(i), "token-" + std::to_string(i),
                        "PX", "600000"});
    redis.pipeline(load);
}

// The GUI thread busy elsewhere: it takes what the workers queued (queued calls only) but
// applies nothing (the feed applies on timers, which do not run here). Until `received`,
// once it grew, has not grown for `quiet`; at most `limit`.
void takeWithoutApplying(const qint64& received, std::chrono::milliseconds quiet,
                         std::chrono::milliseconds limit) {
    QElapsedTimer total, sinceGrowth;
    total.start();
    sinceGrowth.start();
    qint64 seen = received;
    while (total.elapsed() < limit.count() &&
           (received == 0 || sinceGrowth.elapsed() < quiet.count())) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::MetaCall);
        if (received != seen) seen = received, sinceGrowth.restart();
        std::this_thread::sleep_for(10ms);
    }
}

}  // namespace

class HandoverCreditTest : public QObject {
    Q_OBJECT
  private slots:
    void aSenderOverTheBoundWaitsUntilTheReceiverTakesABatch() {
        HandoverCredit credit(100);
        credit.acquire(60);
        std::atomic<bool> sent{false};
        std::thread sender([&] {
            credit.acquire(60);  // 120 > 100: waits
            sent = true;
        });
        QVERIFY(!becomesTrue(sent, 200ms));
        QCOMPARE(credit.inFlight(), 60);
        credit.release(60);  // the GUI took the first batch
        QVERIFY(becomesTrue(sent, 5000ms));
        sender.join();
        QCOMPARE(credit.inFlight(), 60);
    }

    void aBatchLargerThanTheBoundGoesWhenNothingIsInFlight() {
        HandoverCredit credit(100);
        credit.acquire(5000);  // a rescan's removals: never held back for good
        QCOMPARE(credit.inFlight(), 5000);
        QVERIFY(!credit.tryAcquire(1));
        credit.release(5000);
        QVERIFY(credit.tryAcquire(1));
        credit.release(7);  // more than in flight: never below zero
        QCOMPARE(credit.inFlight(), 0);
    }

    void closingFreesAWaitingSenderAndEveryLaterOne() {
        HandoverCredit credit(1);
        credit.acquire(1);
        std::atomic<bool> sent{false};
        std::thread sender([&] {
            credit.acquire(1);
            sent = true;
        });
        QVERIFY(!becomesTrue(sent, 100ms));
        credit.close();  // the connection closes: nobody will take the batch
        QVERIFY(becomesTrue(sent, 5000ms));
        sender.join();
        QVERIFY(credit.tryAcquire(1000));
    }

    void aWorkerWaitsWhileTheWindowHoldsItsRowsUnappliedAndResumesOnceApplied() {
        LocalRedisServer server;
        Connection redis = Connection::open(server.endpoint());
        // Half as many again as a worker may hand over unapplied.
        constexpr int kLocks = int(ConnectionWorker::kRowsInFlight) * 3 / 2;
        setLocks(redis, kLocks);
        ConnectionHub hub(nullptr);
        LockTableModel model;
        LockRowFeed feed(model);
        feedRowsFrom(hub, feed);  // as the window wires it
        qint64 received = 0;
        connect(&hub, &ConnectionHub::locksChanged, this,
                [&](const QString&, const QVector<inspect::SharedLockRecord>& changed) {
                    received += changed.size();
                });
        hub.open(ConnectionProfile::create(QStringLiteral("credit"), server.endpoint()));

        // The scan stalls once the feed holds a worker's worth of unapplied rows (before,
        // the credit came back on receipt and the whole scan queued up behind the GUI).
        takeWithoutApplying(received, 3s, 60s);
        QCOMPARE(model.rowCount(), 0);
        QVERIFY2(received >= ConnectionWorker::kRowsInFlight / 2 && received < kLocks,
                 qPrintable(QStringLiteral("%1 of %2 locks sent while none was applied")
                                .arg(received)
                                .arg(kLocks)));
        QVERIFY(feed.waitingRecords() <= ConnectionWorker::kRowsInFlight);

        // Applied: the worker goes on, and every lock becomes a row.
        QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), kLocks, 60000);
        QVERIFY(received >= kLocks);
        hub.closeAll();
    }
};

QTEST_GUILESS_MAIN(HandoverCreditTest)
#include "tst_handover_credit.moc"
