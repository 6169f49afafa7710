// The lock table's model at the sizes an operator meets: its order holds through updates,
// inserts and removals while it sorts itself, a selection follows its lock through a
// re-sort, and an update of any size reaches a view as at most one insert, one layout
// change and one removal (each costs a view O(rows), so per-row signals do not scale).

#include <QAbstractItemModelTester>
#include <QColor>
#include <QFile>
#include <QPersistentModelIndex>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <chrono>
#include <memory>
#include <random>
#include <thread>

#include "lock_test_records.h"
#include "lockscope/inspect/doctor.h"
#include "lockscope/inspect/liveness/holder_verdict.h"
#include "models/audit_log_model.h"
#include "models/lock_filter_proxy.h"
#include "models/lock_table_model.h"

using namespace lockscope;
using namespace lockscope::ui;
using lockscope::ui::testing::kInstance;
using lockscope::ui::testing::Records;

namespace {

// Rows in the proxy by remaining TTL, ascending, "no TTL" after every countdown.
bool sortedByRemaining(const QAbstractItemModel& view) {
    bool sawNoTtl = false;
    qint64 previous = 0;
    for (int row = 0; row < view.rowCount(); ++row) {
        qint64 left = view.index(row, LockTableModel::Remaining)
                          .data(LockTableModel::RemainingMsRole)
                          .toLongLong();
        if (left < 0) {
            sawNoTtl = true;
            continue;
        }
        if (sawNoTtl || left < previous) return false;
        previous = left;
    }
    return true;
}

// Every key's row says that key: the index from key to row is right after reordering.
bool rowOfAgreesWithRows(const LockTableModel& model) {
    for (int row = 0; row < model.rowCount(); ++row) {
        const auto* record = model.recordAt(row);
        if (model.rowOf(kInstance, QString::fromStdString(record->key)) != row) return false;
    }
    return true;
}

}  // namespace

// A model whose clock stands still, so reading the countdowns row by row compares them at
// one instant.
void freezeClock(LockTableModel& model) {
    const auto frozen = std::chrono::steady_clock::now();
    model.setClock([frozen] { return frozen; });
}

// The model and the filter proxy in front of it, as the window has them.
struct Table {
    LockTableModel model;
    LockFilterProxy proxy;
    Table() {
        freezeClock(model);
        proxy.setSourceModel(&model);
    }
};

class LockTableModelTest : public QObject {
    Q_OBJECT
  private slots:
    void orderHoldsThroughUpdatesInsertsAndRemovals() {
        Table table;
        auto& [model, proxy] = table;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(
            &proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.sort(LockTableModel::Remaining);
        Records make(7);
        QVector<inspect::LockRecord> live = make.range(0, 300);
        model.apply(kInstance, live, true);
        QCOMPARE(proxy.rowCount(), 300);
        QVERIFY(sortedByRemaining(proxy));

        for (int round = 0; round < 5; ++round) {
            // Some locks renewed or handed off with new TTLs, some gone, some new.
            for (int n = 0; n < 60; ++n) {
                auto& r = live[int(make.random()() % live.size())];
                r.pttlMs = std::int64_t(make.random()() % 600'000);
                r.token += "'";
            }
            for (int n = 0; n < 40; ++n) live.remove(int(make.random()() % live.size()));
            live += make.range(300 + round * 100, 400 + round * 100);
            model.apply(kInstance, live, true);
            QCOMPARE(model.rowCount(), live.size());
            QVERIFY2(sortedByRemaining(proxy), qPrintable(QStringLiteral("round %1").arg(round)));
            QVERIFY(rowOfAgreesWithRows(model));
        }
        // A few renewals alone (the common case while watching): placed one by one.
        for (int round = 0; round < 20; ++round) {
            for (int n = 0; n < 3; ++n)
                live[int(make.random()() % live.size())].pttlMs =
                    std::int64_t(make.random()() % 600'000);
            model.apply(kInstance, live, false);
            QVERIFY2(sortedByRemaining(proxy),
                     qPrintable(QStringLiteral("renewal round %1").arg(round)));
            QVERIFY(rowOfAgreesWithRows(model));
        }
    }

    void everyLockIsFoundAfterRemovalsAndGrowth() {
        // The key -> row index through what a long watch does to it: grown from empty past
        // several doublings, most rows removed at random (each removal closes the gap in its
        // probe run), new rows reusing the freed ids. Every live lock is found at its row,
        // and a removed one is not found.
        Table table;
        auto& [model, proxy] = table;
        proxy.sort(LockTableModel::Remaining);
        Records make(5);
        QVector<inspect::LockRecord> live = make.range(0, 40'000);
        model.apply(kInstance, live, true);
        QStringList gone;
        for (int n = 0; n < 25'000; ++n) {
            const int at = int(make.random()() % live.size());
            gone << QString::fromStdString(live[at].key);
            live.remove(at);
        }
        model.removeKeys(kInstance, gone);
        live += make.range(40'000, 60'000);
        model.apply(kInstance, live, true);
        QCOMPARE(model.rowCount(), live.size());
        QVERIFY(rowOfAgreesWithRows(model));
        for (const QString& key : gone) QCOMPARE(model.rowOf(kInstance, key), -1);
        QCOMPARE(model.rowOf(QStringLiteral("redis://elsewhere:1"),
                             QString::fromStdString(live.front().key)),
                 -1);
    }

    void rowsAreFoundAfterTheIndexAdoptsSlotsMadeElsewhere() {
        // A large scan's row index gets its slots from a pool thread (their first touch is
        // then not the GUI thread's): the rows it had are moved in, and later ones go on.
        Table table;
        auto& [model, proxy] = table;
        proxy.sort(LockTableModel::Remaining);
        Records make(9);
        QVector<inspect::LockRecord> live = make.range(0, 3'000);
        model.apply(kInstance, live, true);
        LockRowIndex::Storage ready;
        std::thread([&ready] { ready = LockRowIndex::storageFor(200'000); }).join();
        model.reserve(200'000, std::move(ready));
        QVERIFY(rowOfAgreesWithRows(model));
        live += make.range(3'000, 20'000);
        model.apply(kInstance, live, true);
        QCOMPARE(model.rowCount(), 20'000);
        QVERIFY(rowOfAgreesWithRows(model));
    }

    void sortsByAnyColumnBothWays() {
        Table table;
        auto& [model, proxy] = table;
        Records make(11);
        model.apply(kInstance, make.range(0, 300), true);
        proxy.sort(LockTableModel::Key, Qt::DescendingOrder);
        for (int row = 1; row < proxy.rowCount(); ++row)
            QVERIFY(proxy.index(row - 1, LockTableModel::Key).data().toString() >=
                    proxy.index(row, LockTableModel::Key).data().toString());
        proxy.sort(LockTableModel::Remaining, Qt::DescendingOrder);
        qint64 first = proxy.index(0, LockTableModel::Remaining)
                           .data(LockTableModel::RemainingMsRole)
                           .toLongLong();
        QCOMPARE(first, -1);  // descending: locks that never expire first
        QVERIFY(rowOfAgreesWithRows(model));
    }

    void aLargeUpdateIsOneInsertOneLayoutChangeOneRemoval() {
        Table table;
        auto& [model, proxy] = table;
        proxy.sort(LockTableModel::Remaining);
        Records make(3);
        QVector<inspect::LockRecord> live = make.range(0, 20'000);
        model.apply(kInstance, live, true);
        // A selection: the persistent index a view keeps on the selected row.
        const int selectedSourceRow = model.rowOf(kInstance, QStringLiteral("lock:{r12346}"));
        QPersistentModelIndex selected(proxy.mapFromSource(model.index(selectedSourceRow, 0)));

        QSignalSpy inserted(&proxy, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&proxy, &QAbstractItemModel::rowsRemoved);
        QSignalSpy layouts(&proxy, &QAbstractItemModel::layoutChanged);
        QVector<inspect::LockRecord> next;
        for (const auto& r : live)
            if (std::stoi(r.key.substr(7)) % 4 != 1)
                next.append(r);              // every 4th lock gone, scattered
        next += make.range(20'000, 25'000);  // new ones, TTLs all over
        model.apply(kInstance, next, true);

        QCOMPARE(model.rowCount(), next.size());
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(removed.count(), 1);
        QVERIFY2(layouts.count() <= 2, qPrintable(QString::number(layouts.count())));
        QVERIFY(sortedByRemaining(proxy));
        QVERIFY(selected.isValid());
        QCOMPARE(selected.sibling(selected.row(), LockTableModel::Key).data().toString(),
                 QStringLiteral("lock:{r12346}"));
    }

    // Issue 12: a watched server with 100,000 rows restarts empty and the rescan removes them
    // all: gathering and removing every row stalled the window 1.3 s. Every row gone is one
    // reset; the index answers for the rows that come back.
    void everyRowGoneIsOneResetAndRowsComeBack() {
        Table table;
        auto& [model, proxy] = table;
        QAbstractItemModelTester tester(&proxy,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.sort(LockTableModel::Remaining);
        Records make(5);
        QVector<inspect::LockRecord> live = make.range(0, 20'000);
        model.apply(kInstance, live, true);
        QSignalSpy resets(&proxy, &QAbstractItemModel::modelReset);
        QSignalSpy removed(&proxy, &QAbstractItemModel::rowsRemoved);
        QSignalSpy vanished(&model, &LockTableModel::vanished);
        QStringList keys;
        for (const auto& r : live) keys << QString::fromStdString(r.key);
        model.removeKeys(kInstance, keys);
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(proxy.rowCount(), 0);
        QCOMPARE(resets.count(), 1);
        QCOMPARE(removed.count(), 0);
        QCOMPARE(vanished.count(), 20'000);
        QCOMPARE(model.rowOf(kInstance, QStringLiteral("lock:{r10}")), -1);
        model.apply(kInstance, make.range(0, 100), false);  // the server fills up again
        QCOMPARE(model.rowCount(), 100);
        QVERIFY(rowOfAgreesWithRows(model));
        QVERIFY(sortedByRemaining(proxy));
    }

    // A server restarted empty: its rows go without a key list (no lookup per key), the other
    // server's rows stay, and the instance is still known for the rows that come next.
    void removeRowsOfOneInstanceKeepsTheOthers() {
        Table table;
        auto& [model, proxy] = table;
        QAbstractItemModelTester tester(&proxy,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.sort(LockTableModel::Remaining);
        const QString other = QStringLiteral("redis://127.0.0.1:2");
        Records make(6);
        QVector<inspect::LockRecord> elsewhere = make.range(0, 300);
        auto otherName = std::make_shared<const std::string>(other.toStdString());
        for (auto& r : elsewhere) r.instance = otherName;
        model.apply(kInstance, make.range(0, 1000), true);
        model.apply(other, elsewhere, true);
        QSignalSpy resets(&proxy, &QAbstractItemModel::modelReset);
        model.removeRowsOf(kInstance);
        QCOMPARE(model.rowCount(), 300);
        QCOMPARE(resets.count(), 0);
        QCOMPARE(model.rowOf(kInstance, QStringLiteral("lock:{r10}")), -1);
        QVERIFY(model.rowOf(other, QStringLiteral("lock:{r10}")) >= 0);
        QCOMPARE(model.instanceCount(), 2);
        QVERIFY(sortedByRemaining(proxy));
        model.removeRowsOf(other);  // every row left: one reset
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(resets.count(), 1);
        model.removeRowsOf(other);  // nothing to remove: no signal
        QCOMPARE(resets.count(), 1);
        model.apply(kInstance, make.range(0, 10), false);
        QCOMPARE(model.rowCount(), 10);
        QVERIFY(rowOfAgreesWithRows(model));
    }

    void theSidebarsLockCountsFollowTheRows() {
        // Kept as rows come and go (issue 36), so they must agree with the rows at each step.
        LockTableModel model;
        const QString other = QStringLiteral("redis://127.0.0.1:2");
        Records make(9);
        QVector<inspect::LockRecord> elsewhere = make.range(0, 30);
        auto otherName = std::make_shared<const std::string>(other.toStdString());
        for (auto& r : elsewhere) r.instance = otherName;
        model.apply(kInstance, make.range(0, 100), false);
        model.apply(other, elsewhere, false);
        model.apply(kInstance, make.range(50, 120), false);  // 50 updated, 20 new
        QCOMPARE(model.rowCountsByInstance(), (QHash<QString, int>{{kInstance, 120}, {other, 30}}));
        model.removeKeys(kInstance, {QStringLiteral("lock:{r1}"), QStringLiteral("lock:{r2}"),
                                     QStringLiteral("lock:{nothing}")});
        model.apply(kInstance, make.range(0, 60), true);  // the rest of kInstance's rows go
        QCOMPARE(model.rowCountsByInstance(), (QHash<QString, int>{{kInstance, 60}, {other, 30}}));
        model.removeInstance(other);
        QCOMPARE(model.rowCountsByInstance(), (QHash<QString, int>{{kInstance, 60}}));
        model.removeRowsOf(kInstance);  // every row: one reset
        QCOMPARE(model.rowCountsByInstance(), (QHash<QString, int>{}));
        model.apply(kInstance, make.range(0, 5), false);
        QCOMPARE(model.rowCountsByInstance(), (QHash<QString, int>{{kInstance, 5}}));
    }

    void aResortDelayGathersMovesIntoOneLayoutChange() {
        LockTableModel model;
        freezeClock(model);
        model.setResortDelay(std::chrono::milliseconds(50));
        LockFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.sort(LockTableModel::Remaining);
        Records make(13);
        QVector<inspect::LockRecord> live = make.range(0, 500);
        model.apply(kInstance, live, true);
        QTRY_VERIFY_WITH_TIMEOUT(sortedByRemaining(proxy), 2000);
        QSignalSpy layouts(&model, &QAbstractItemModel::layoutChanged);
        for (int batch = 0; batch < 5; ++batch) {  // five polls, each renewing some locks
            for (int n = 0; n < 10; ++n)
                live[int(make.random()() % live.size())].pttlMs =
                    std::int64_t(make.random()() % 600'000);
            live.remove(int(make.random()() % live.size()));  // and one lock gone
            model.apply(kInstance, live, true);
        }
        QTRY_VERIFY_WITH_TIMEOUT(sortedByRemaining(proxy), 2000);
        QVERIFY(rowOfAgreesWithRows(model));
        // One re-sort for the five polls; removals gathered at the tail may add their own.
        QVERIFY2(layouts.count() <= 6, qPrintable(QString::number(layouts.count())));
        QCOMPARE(model.rowCount(), live.size());
    }

    void ageComesFromTheBestEvidenceAndSaysWhich() {
        // "Held for" was the time LockScope had watched the key, shown as if it were the
        // lock's age. Now: "Seen for" for that, and Age from the token, the lease, or unknown.
        Table table;
        auto& model = table.model;
        QCOMPARE(model.headerData(LockTableModel::SeenFor, Qt::Horizontal).toString(),
                 QStringLiteral("Seen for"));
        QCOMPARE(model.headerData(LockTableModel::Age, Qt::Horizontal).toString(),
                 QStringLiteral("Age"));
        const std::int64_t acquired = 1704164645;  // 2024-01-02T03:04:05Z
        model.setWallClock([&] {
            return std::chrono::system_clock::time_point(std::chrono::seconds(acquired + 600));
        });
        Records make(3);
        auto redisPy = make.make(1);
        const std::uint64_t ticks = std::uint64_t(acquired) * 10'000'000ULL + 0x01B21DD213814000ULL;
        redisPy.token = QStringLiteral("%1%2%3%4")
                            .arg(ticks & 0xffffffffULL, 8, 16, QLatin1Char('0'))
                            .arg((ticks >> 32) & 0xffffULL, 4, 16, QLatin1Char('0'))
                            .arg(0x1000 | ((ticks >> 48) & 0x0fffULL), 4, 16, QLatin1Char('0'))
                            .arg(QStringLiteral("8a1b0242ac120002"))
                            .toStdString();
        redisPy.kind = inspect::LockKind::RedisPy;
        auto leased = make.make(2);
        leased.pttlMs = 30'000;
        leased.firstPttlMs = 9'000;
        leased.leasePttlMs = 30'000;
        auto unknown = make.make(3);
        model.apply(kInstance, {redisPy, leased, unknown}, true);
        auto age = [&](const inspect::LockRecord& r) {
            return model.index(model.rowOf(kInstance, QString::fromStdString(r.key)),
                               LockTableModel::Age);
        };
        QCOMPARE(age(redisPy).data().toString(), QStringLiteral("10 min 00 s"));
        QVERIFY(age(redisPy).data(Qt::ToolTipRole).toString().contains("token"));
        QCOMPARE(age(leased).data().toString(), QStringLiteral("≥ 21 s"));
        QCOMPARE(age(unknown).data().toString(), QStringLiteral("unknown"));
        QVERIFY(age(unknown).data(Qt::ToolTipRole).toString().contains("Seen for"));
    }

    void aliveColumnWordsTheVerdictWithItsEvidence() {
        // Issue 31: the "Alive?" column says alive / gone / unknown in a few words, its
        // tooltip gives every evidence line, sorting puts the orphans first, and a lock no
        // reader judged says so instead of guessing.
        Table table;
        auto& model = table.model;
        const auto now = std::chrono::system_clock::time_point(std::chrono::seconds(1'800'000'000));
        model.setWallClock([&] { return now; });
        QCOMPARE(model.headerData(LockTableModel::Alive, Qt::Horizontal).toString(),
                 QStringLiteral("Alive?"));
        Records make(5);
        auto verdict = [&](inspect::Verdict v, std::chrono::seconds sinceAgo, std::string line) {
            inspect::Evidence e;
            e.text = std::move(line);
            e.seenAt = now - std::chrono::seconds(2);
            e.pointsTo = v;
            e.since = now - sinceAgo;
            return std::make_shared<const inspect::HolderVerdict>(inspect::weigh({e}));
        };
        auto alive = make.make(1);
        alive.liveness = verdict(inspect::Verdict::Alive, std::chrono::seconds(180),
                                 "job 7 is in queue 'email''s active list");
        auto gone = make.make(2);
        gone.liveness = verdict(inspect::Verdict::Gone, std::chrono::seconds(120),
                                "no connection named as a worker of queue 'email'");
        auto unjudged = make.make(3);
        model.apply(kInstance, {alive, gone, unjudged}, true);
        auto cell = [&](const inspect::LockRecord& r) {
            return model.index(model.rowOf(kInstance, QString::fromStdString(r.key)),
                               LockTableModel::Alive);
        };
        QCOMPARE(cell(alive).data().toString(), QStringLiteral("alive · 3 min 00 s"));
        QCOMPARE(cell(gone).data().toString(), QStringLiteral("gone · 2 min 00 s ago"));
        QCOMPARE(cell(unjudged).data().toString(), QStringLiteral("—"));
        QVERIFY(cell(gone)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains("no connection named as a worker of queue 'email'"));
        QVERIFY(cell(gone).data(Qt::ToolTipRole).toString().contains("orphan"));
        QVERIFY(cell(unjudged).data(Qt::ToolTipRole).toString().contains("Not judged"));
        QVERIFY(cell(gone).data(LockTableModel::OrphanRole).toBool());
        QVERIFY(!cell(alive).data(LockTableModel::OrphanRole).toBool());
        QVERIFY(cell(gone).data(Qt::DecorationRole).canConvert<QColor>());
        QVERIFY(!cell(unjudged).data(Qt::DecorationRole).isValid());
        model.sort(LockTableModel::Alive, Qt::AscendingOrder);
        QCOMPARE(model.index(0, LockTableModel::Key).data().toString(),
                 QString::fromStdString(gone.key));
        QCOMPARE(model.index(2, LockTableModel::Key).data().toString(),
                 QString::fromStdString(unjudged.key));
    }

    void rowsHoldStillWhileHeld() {
        // Sorted by TTL, every renewal re-sorted the rows and a click landed on another lock.
        Table table;
        auto& model = table.model;
        model.sort(LockTableModel::Remaining);
        Records make(9);
        QVector<inspect::LockRecord> rows = make.range(1, 6);
        for (int i = 0; i < rows.size(); ++i) rows[i].pttlMs = std::int64_t{1000} * (i + 1);
        model.apply(kInstance, rows, true);
        const QString first = QString::fromStdString(model.recordAt(0)->key);
        model.setOrderHeld(true);
        auto renewed = rows[0];
        renewed.pttlMs = 60'000;  // would sort last
        renewed.renewals = 1;
        model.apply(kInstance, {renewed}, false);
        QCOMPARE(QString::fromStdString(model.recordAt(0)->key), first);
        model.setOrderHeld(false);
        QVERIFY(QString::fromStdString(model.recordAt(0)->key) != first);
        QCOMPARE(QString::fromStdString(model.recordAt(model.rowCount() - 1)->key), first);
    }

    void rowsThatVanishWhileHeldStayUntilTheHoldEnds() {
        // A short-lived lock above the pointer vanished between press and release: the rows
        // below moved up a place and the click selected the next lock.
        Table table;
        auto& model = table.model;
        model.sort(LockTableModel::Remaining);
        Records make(9);
        QVector<inspect::LockRecord> rows = make.range(1, 6);
        for (int i = 0; i < rows.size(); ++i) rows[i].pttlMs = std::int64_t{1000} * (i + 1);
        model.apply(kInstance, rows, true);
        const QString top = QString::fromStdString(model.recordAt(0)->key);
        const QString third = QString::fromStdString(model.recordAt(2)->key);
        const QString fourth = QString::fromStdString(model.recordAt(3)->key);
        model.setOrderHeld(true);
        model.removeKeys(kInstance, {top});
        model.apply(kInstance, QVector<inspect::LockRecord>(rows.begin() + 1, rows.end()), true);
        QCOMPARE(model.rowCount(), 5);  // still there, in its place
        QCOMPARE(QString::fromStdString(model.recordAt(2)->key), third);
        QVERIFY(model.index(0, 0).data(LockTableModel::StaleRole).toBool());  // greyed
        QVERIFY(model.isStale(*model.recordAt(0)));  // so no action can be taken on it
        QVERIFY(!model.isStale(*model.recordAt(2)));
        // A vanished lock that comes back during the hold is its row again, not stale.
        model.removeKeys(kInstance, {fourth});
        QVERIFY(model.isStale(*model.recordAt(3)));
        model.apply(kInstance, {rows[3]}, false);
        QVERIFY(!model.isStale(*model.recordAt(3)));
        model.setOrderHeld(false);
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.rowOf(kInstance, top), -1);
        QVERIFY(model.rowOf(kInstance, fourth) >= 0);
        QVERIFY(rowOfAgreesWithRows(model));
        // Not held, a removal is at once.
        model.removeKeys(kInstance, {third});
        QCOMPARE(model.rowCount(), 3);
    }

    void staleRowsSayWhenTheyWereLastSeen() {
        Table table;
        auto& model = table.model;
        Records make(5);
        model.apply(kInstance, make.range(0, 3), true);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setInstanceStale(kInstance, true);
        QCOMPARE(changed.count(), 1);
        QVERIFY(model.index(0, LockTableModel::Remaining).data(LockTableModel::StaleRole).toBool());
        QVERIFY(model.index(0, LockTableModel::Remaining)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("last seen")));
        QVERIFY(model.index(0, LockTableModel::Key).data(Qt::ForegroundRole).isValid());
        model.setInstanceStale(kInstance, false);
        QVERIFY(
            !model.index(0, LockTableModel::Remaining).data(LockTableModel::StaleRole).toBool());
        QVERIFY(!model.index(0, LockTableModel::Remaining)
                     .data()
                     .toString()
                     .startsWith(QStringLiteral("last seen")));
    }

    void auditLogModelListsEntriesAndSurvivesBadLines() {
        QTemporaryDir dir;
        const QString path = dir.filePath("audit.jsonl");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(
            R"({"time":"2026-12-01T00:00:00.000Z","user":"ops","instance":"redis://127.0.0.1:6379","key":"lock:{a}","action":"release","token_seen":"t1","result":"done","detail":"released"})"
            "\n");
        file.write("not json at all\n");
        file.write(QByteArray("\x00\xff\xfe{\n", 5));
        file.write(
            R"({"time":"2026-12-01T00:00:01.000Z","user":"ops","instance":"x","key":"lock:{b}","action":"release","result":"refused"})");  // no newline yet
        file.flush();
        AuditLogModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setPath(path);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.index(0, AuditLogModel::User).data().toString(), QStringLiteral("ops"));
        QCOMPARE(model.index(0, AuditLogModel::Key).data().toString(), QStringLiteral("lock:{a}"));
        QCOMPARE(model.index(0, AuditLogModel::Result).data().toString(), QStringLiteral("done"));
        QVERIFY(model.index(0, AuditLogModel::Key).data(Qt::ToolTipRole).toString().contains("t1"));
        QCOMPARE(model.index(1, AuditLogModel::Result).data().toString(),
                 QStringLiteral("unreadable line"));
        QCOMPARE(model.index(2, AuditLogModel::Result).data().toString(),
                 QStringLiteral("unreadable line"));
        file.write("\n");  // the last line is complete now
        file.flush();
        model.reload();
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.index(3, AuditLogModel::Result).data().toString(),
                 QStringLiteral("refused"));
        model.setPath(dir.filePath("missing.jsonl"));
        QCOMPARE(model.rowCount(), 0);
    }

    void auditIntentAndResultAreOneRow() {
        // The viewer showed an action as two identical-looking rows, the first with an empty
        // Result: the intent (written before the command is sent) and the result.
        QTemporaryDir dir;
        const QString path = dir.filePath("audit.jsonl");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(
            R"({"time":"2026-12-01T00:00:00.000Z","instance":"redis://a:1","key":"lock:{a}","action":"release","token_seen":"t1","result":"","id":"i1","phase":"intent"})"
            "\n"
            R"({"time":"2026-12-01T00:00:00.010Z","instance":"redis://a:1","key":"lock:{a}","action":"release","token_seen":"t1","result":"done","detail":"released","id":"i1","phase":"result"})"
            "\n"
            R"({"time":"2026-12-01T00:00:01.000Z","instance":"redis://a:1","key":"lock:{b}","action":"release","token_seen":"t2","result":"","id":"i2","phase":"intent"})"
            "\n");
        file.flush();
        AuditLogModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setPath(path);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, AuditLogModel::Key).data().toString(), QStringLiteral("lock:{a}"));
        QCOMPARE(model.index(0, AuditLogModel::Result).data().toString(), QStringLiteral("done"));
        // An intent with no result yet says so, distinct from any result.
        QCOMPARE(model.index(1, AuditLogModel::Result).data().toString(),
                 QStringLiteral("sent: no result recorded yet"));
        // Its result, written later, completes the same row.
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        file.write(
            R"({"time":"2026-12-01T00:00:01.020Z","instance":"redis://a:1","key":"lock:{b}","action":"release","token_seen":"t2","result":"token-changed","detail":"now held by t3","id":"i2","phase":"result"})"
            "\n");
        file.flush();
        model.reload();
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(1, AuditLogModel::Result).data().toString(),
                 QStringLiteral("token-changed"));
        QVERIFY(model.index(1, AuditLogModel::Key).data(Qt::ToolTipRole).toString().contains("t3"));
        QVERIFY(changed.count() >= 1);
        // A result whose intent is not in the part read (a long log) is a row of its own.
        file.write(
            R"({"time":"2026-12-01T00:00:02.000Z","instance":"redis://a:1","key":"lock:{c}","action":"release","result":"done","id":"gone","phase":"result"})"
            "\n");
        file.flush();
        model.reload();
        QCOMPARE(model.rowCount(), 3);
    }

    void filterMatchesAnyCaseAndFindingIds() {
        Table table;
        auto& [model, proxy] = table;
        Records make(5);
        QVector<inspect::LockRecord> records = make.range(0, 100);
        records[42].findings = inspect::bit(inspect::RuleId::NoTtl);
        model.apply(kInstance, records, true);
        proxy.setFilterText(QStringLiteral("LOCK:{R4"));
        QCOMPARE(proxy.rowCount(), 11);  // r4 and r40..r49
        proxy.setFilterText(QStringLiteral("no-ttl"));
        QCOMPARE(proxy.rowCount(), 1);
        QCOMPARE(proxy.index(0, LockTableModel::Key).data().toString(),
                 QStringLiteral("lock:{r42}"));
        proxy.setFilterText(QStringLiteral("   "));
        QCOMPARE(proxy.rowCount(), 100);
        proxy.setFilterText(QStringLiteral("nothing-like-this"));
        QCOMPARE(proxy.rowCount(), 0);
    }
};

QTEST_MAIN(LockTableModelTest)
#include "tst_lock_table_model.moc"
