// The bound on what a connection worker hands to the GUI thread and the GUI has not taken
// (support/handover_credit.h, issue 36): a sender over it waits until the receiver takes a
// batch, a batch always goes when nothing is in flight, and closing frees a waiting sender
// (a connection closing must never wait for a worker that waits for the GUI).

#include <QTest>
#include <atomic>
#include <chrono>
#include <thread>

#include "support/handover_credit.h"

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
};

QTEST_GUILESS_MAIN(HandoverCreditTest)
#include "tst_handover_credit.moc"
