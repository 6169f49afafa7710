// The inspector's queue of reported but not yet shown lock updates: slices hand out every
// record once, in the order reported, across batches; a key removed while its update waits
// is never shown; removals travel with the next slice of their instance. A row waits once,
// with its latest record, however many updates of it arrive (issue 36), and instances are
// served in turn.

#include <QTest>
#include <span>

#include "lock_test_records.h"
#include "models/pending_lock_updates.h"

using namespace lockscope;
using namespace lockscope::ui;
using lockscope::ui::testing::kInstance;
using lockscope::ui::testing::Records;

namespace {

QStringList keysOf(std::span<const inspect::LockRecord> records) {
    QStringList keys;
    for (const auto& r : records) keys << QString::fromStdString(r.key);
    return keys;
}

QStringList keysOf(std::span<const inspect::SharedLockRecord> records) {
    QStringList keys;
    for (const auto& r : records) keys << QString::fromStdString(r->key);
    return keys;
}

// The records as a watcher hands them over: shared, not copied.
QVector<inspect::SharedLockRecord> shared(const QVector<inspect::LockRecord>& records) {
    QVector<inspect::SharedLockRecord> out;
    for (const auto& r : records) out.push_back(std::make_shared<const inspect::LockRecord>(r));
    return out;
}

QStringList drain(PendingLockUpdates& pending, qsizetype sliceSize,
                  QStringList* removed = nullptr) {
    QStringList keys;
    while (!pending.isEmpty()) {
        auto slice = pending.take(sliceSize);
        if (slice.records.size() > std::size_t(sliceSize)) keys << QStringLiteral("OVERSIZED");
        keys += keysOf(slice.records);
        if (removed) *removed += slice.removed;
    }
    return keys;
}

}  // namespace

class PendingLockUpdatesTest : public QObject {
    Q_OBJECT
  private slots:
    void slicesHandOutEveryRecordOnceInOrderAcrossBatches() {
        Records make(1);
        PendingLockUpdates pending;
        pending.add(kInstance, shared(make.range(0, 7)), {});
        pending.add(kInstance, shared(make.range(7, 20)), {});
        QCOMPARE(pending.waitingRecords(), 20);
        QCOMPARE(drain(pending, 3), keysOf(make.range(0, 20)));
        QCOMPARE(pending.waitingRecords(), 0);
    }

    void aKeyRemovedWhileItsUpdateWaitsIsNeverShown() {
        Records make(2);
        PendingLockUpdates pending;
        pending.add(kInstance, shared(make.range(0, 10)), {});
        auto first = pending.take(4);  // r0..r3 shown
        QCOMPARE(first.records.size(), std::size_t(4));
        pending.add(kInstance, shared(make.range(10, 12)),
                    {QStringLiteral("lock:{r5}"), QStringLiteral("lock:{r1}")});
        QStringList removed;
        QStringList expected = keysOf(make.range(4, 12));
        expected.removeAll(QStringLiteral("lock:{r5}"));
        QCOMPARE(drain(pending, 100, &removed), expected);
        QCOMPARE(removed, (QStringList{QStringLiteral("lock:{r5}"), QStringLiteral("lock:{r1}")}));
    }

    void removalsAloneAndDroppedInstances() {
        Records make(3);
        PendingLockUpdates pending;
        pending.add(kInstance, {}, {QStringLiteral("lock:{gone}")});
        QCOMPARE(pending.takeRemovals(kInstance), QStringList{QStringLiteral("lock:{gone}")});
        QVERIFY(pending.isEmpty());
        pending.add(kInstance, shared(make.range(0, 5)), {});
        pending.add(QStringLiteral("redis://127.0.0.1:2"), shared(make.range(5, 6)), {});
        pending.drop(kInstance);
        QCOMPARE(pending.waitingRecords(), 1);
        pending.add(kInstance, {}, {});  // nothing: no queue
        QCOMPARE(drain(pending, 10), keysOf(make.range(5, 6)));
    }

    void manyUpdatesOfTheSameRowsWaitOnceEachWithTheLatestRecord() {
        // 200 rounds of re-reads of the same 100 locks while the window does not drain: what
        // waits is the 100 rows, each with what the last read saw, in their first order.
        Records make(4);
        const QVector<inspect::LockRecord> rows = make.range(0, 100);
        PendingLockUpdates pending;
        for (int round = 0; round < 200; ++round) {
            QVector<inspect::LockRecord> reread = rows;
            for (auto& r : reread) r.token = "round-" + std::to_string(round);
            pending.add(kInstance, shared(reread), {});
            QVERIFY2(pending.waitingRecords() <= rows.size(),
                     qPrintable(QStringLiteral("%1 records wait for %2 rows after round %3")
                                    .arg(pending.waitingRecords())
                                    .arg(rows.size())
                                    .arg(round)));
        }
        QCOMPARE(pending.waitingRecords(), rows.size());
        QStringList keys;
        while (!pending.isEmpty()) {
            const auto slice = pending.take(30);
            for (const auto& r : slice.records) {
                QCOMPARE(r->token, std::string("round-199"));
                keys << QString::fromStdString(r->key);
            }
        }
        QCOMPARE(keys, keysOf(rows));
    }

    void anUpdateThenARemovalCancelAndAComebackIsShown() {
        Records make(5);
        PendingLockUpdates pending;
        const QString r0 = QStringLiteral("lock:{r0}"), r1 = QStringLiteral("lock:{r1}");
        pending.add(kInstance, shared(make.range(0, 2)), {});
        pending.add(kInstance, {}, {r0, r0, r1});  // reported twice: removed once
        QCOMPARE(pending.waitingRecords(), 0);
        pending.add(kInstance, shared(make.range(1, 2)), {});  // r1 is held again
        QStringList removed;
        QCOMPARE(drain(pending, 10, &removed), QStringList{r1});
        QCOMPARE(removed, QStringList{r0});  // r1 came back: not removed
    }

    void instancesAreServedInTurn() {
        // A connection reporting a large scan does not hold back another's update.
        Records make(6);
        const QString other = QStringLiteral("redis://127.0.0.1:2");
        PendingLockUpdates pending;
        pending.add(kInstance, shared(make.range(0, 1000)), {});
        pending.add(other, shared(make.range(1000, 1001)), {});
        QStringList served;
        for (int i = 0; i < 2; ++i) served << pending.take(10).instance;
        QVERIFY2(served.contains(other), qPrintable(served.join(QLatin1Char(' '))));
    }
};

QTEST_GUILESS_MAIN(PendingLockUpdatesTest)
#include "tst_pending_lock_updates.moc"
