// The lock table's filter proxy against the rule it implements: its rows are exactly the
// source rows that match the filter, in the source's order, through every kind of change the
// table makes (inserts, removals, re-sorts, rows that start or stop matching, a new filter),
// with Qt's model tester watching every signal, and a selection following its lock.

#include <QAbstractItemModelTester>
#include <QPersistentModelIndex>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTest>
#include <algorithm>

#include "lock_test_records.h"
#include "lockscope/inspect/liveness/holder_verdict.h"
#include "models/lock_filter_proxy.h"
#include "models/lock_table_model.h"

using namespace lockscope;
using namespace lockscope::ui;
using lockscope::ui::testing::kInstance;
using lockscope::ui::testing::Records;

namespace {

QString keyAt(const QAbstractItemModel& model, int row) {
    return model.index(row, LockTableModel::Key).data().toString();
}

// What the proxy must show: the source's rows whose text matches, in the source's order.
QStringList expectedKeys(const LockTableModel& model, const QString& filter) {
    QStringList keys;
    const std::string lower = filter.trimmed().toLower().toStdString();
    for (int row = 0; row < model.rowCount(); ++row)
        if (model.rowMatches(row, lower)) keys << keyAt(model, row);
    return keys;
}

QStringList shownKeys(const LockFilterProxy& proxy) {
    QStringList keys;
    for (int row = 0; row < proxy.rowCount(); ++row) keys << keyAt(proxy, row);
    return keys;
}

struct Fixture {
    LockTableModel model;
    LockFilterProxy proxy;
    QAbstractItemModelTester tester{&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest};
    Records make{21};
    QVector<inspect::LockRecord> live;

    Fixture() {
        const auto frozen = std::chrono::steady_clock::now();
        model.setClock([frozen] { return frozen; });
        proxy.setSourceModel(&model);
        proxy.sort(LockTableModel::Remaining);
        live = make.range(0, 400);
        model.apply(kInstance, live, true);
    }

    // One poll's worth of change: renewals (re-sorts), hand-offs to tokens that do or do not
    // carry the marker "-x", locks gone (never `keep`) and new ones.
    void churn(int round, const std::string& keep = {}) {
        auto pick = [&] { return int(make.random()() % live.size()); };
        for (int n = 0; n < 40; ++n) live[pick()].pttlMs = std::int64_t(make.random()() % 600'000);
        for (int n = 0; n < 30; ++n) {
            auto& token = live[pick()].token;
            if (token.ends_with("-x"))
                token = token.view().substr(0, token.size() - 2);
            else
                token += "-x";
        }
        for (int n = 0; n < 25; ++n) {
            const int at = pick();
            if (live[at].key != keep) live.remove(at);
        }
        live += make.range(400 + round * 50, 450 + round * 50);
        model.apply(kInstance, live, true);
    }
};

}  // namespace

class LockFilterProxyTest : public QObject {
    Q_OBJECT
  private slots:
    void withoutAFilterEveryRowInTheSourceOrder() {
        Fixture f;
        for (int round = 0; round < 4; ++round) {
            f.churn(round);
            QCOMPARE(shownKeys(f.proxy), expectedKeys(f.model, {}));
        }
    }

    void withAFilterExactlyTheMatchingRowsThroughEveryChange() {
        Fixture f;
        f.proxy.setFilterText(QStringLiteral("  -X "));  // trimmed, any case
        QCOMPARE(f.proxy.rowCount(), 0);
        for (int round = 0; round < 6; ++round) {
            f.churn(round);
            QCOMPARE(shownKeys(f.proxy), expectedKeys(f.model, QStringLiteral("-x")));
        }
        QVERIFY(f.proxy.rowCount() > 0);  // hand-offs made rows start matching
        f.proxy.setFilterText(QStringLiteral("r1"));
        QCOMPARE(shownKeys(f.proxy), expectedKeys(f.model, QStringLiteral("r1")));
        f.churn(7);
        QCOMPARE(shownKeys(f.proxy), expectedKeys(f.model, QStringLiteral("r1")));
        f.proxy.setFilterText({});
        QCOMPARE(f.proxy.rowCount(), f.model.rowCount());
    }

    void aRowThatStopsMatchingLeavesAndOneThatStartsArrives() {
        Fixture f;
        f.proxy.setFilterText(QStringLiteral("-x"));
        QSignalSpy inserted(&f.proxy, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&f.proxy, &QAbstractItemModel::rowsRemoved);
        f.live[5].token += "-x";
        f.model.apply(kInstance, f.live, true);
        QCOMPARE(shownKeys(f.proxy), QStringList{QStringLiteral("lock:{r5}")});
        QCOMPARE(inserted.count(), 1);
        f.live[5].token = "t5";
        f.model.apply(kInstance, f.live, true);
        QCOMPARE(f.proxy.rowCount(), 0);
        QCOMPARE(removed.count(), 1);
    }

    void orphansOnlyShowsTheLocksWhoseHolderIsGoneAsVerdictsChange() {
        // Issue 31: the window's orphan filter. The verdicts are the engine's; the filter
        // keeps exactly the gone ones, with the text filter on top, and follows a verdict
        // that changes (a worker killed: alive -> gone; one that came back: gone -> alive).
        Fixture f;
        auto judged = [](inspect::Verdict v) {
            auto verdict = std::make_shared<inspect::HolderVerdict>();
            verdict->verdict = v;
            return std::shared_ptr<const inspect::HolderVerdict>(verdict);
        };
        f.live[3].liveness = judged(inspect::Verdict::Gone);
        f.live[10].liveness = judged(inspect::Verdict::Gone);
        f.live[11].liveness = judged(inspect::Verdict::Alive);
        f.live[12].liveness = judged(inspect::Verdict::Unknown);
        f.model.apply(kInstance, f.live, true);
        f.proxy.setOrphansOnly(true);
        QStringList orphans{QStringLiteral("lock:{r3}"), QStringLiteral("lock:{r10}")};
        auto sorted = [](QStringList keys) {
            keys.sort();
            return keys;
        };
        QCOMPARE(sorted(shownKeys(f.proxy)), sorted(orphans));
        f.proxy.setFilterText(QStringLiteral("r1"));
        QCOMPARE(shownKeys(f.proxy), QStringList{QStringLiteral("lock:{r10}")});
        f.proxy.setFilterText({});
        f.live[11].liveness = judged(inspect::Verdict::Gone);  // its worker was killed
        f.live[3].liveness = judged(inspect::Verdict::Alive);  // evidence of life after all
        f.model.apply(kInstance, f.live, true);
        QCOMPARE(sorted(shownKeys(f.proxy)),
                 sorted({QStringLiteral("lock:{r10}"), QStringLiteral("lock:{r11}")}));
        f.proxy.setOrphansOnly(false);
        QCOMPARE(f.proxy.rowCount(), f.model.rowCount());
    }

    void aSelectedRowFollowsItsLockThroughResortsWithAndWithoutAFilter() {
        for (const QString& filter : {QString(), QStringLiteral("r3")}) {
            Fixture f;
            f.proxy.setFilterText(filter);
            const int source = f.model.rowOf(kInstance, QStringLiteral("lock:{r37}"));
            QPersistentModelIndex selected(f.proxy.mapFromSource(f.model.index(source, 0)));
            QVERIFY(selected.isValid());
            for (int round = 0; round < 3; ++round) {
                f.live.erase(std::remove_if(f.live.begin(), f.live.end(),
                                            [](const auto& r) { return r.key == "lock:{r37}"; }),
                             f.live.end());
                auto r37 = f.make.make(37);
                f.live.append(r37);  // a new TTL: it moves in the order
                f.churn(round, "lock:{r37}");
                QVERIFY(selected.isValid());
                QCOMPARE(keyAt(f.proxy, selected.row()), QStringLiteral("lock:{r37}"));
            }
        }
    }

    void anyOtherTableModelWithRowsInsertedAndRemovedInTheMiddle() {
        // The lock table only appends and removes at its tail; any other source may change
        // rows anywhere, which shifts the matching rows after them.
        QStandardItemModel source;
        LockFilterProxy proxy;
        QAbstractItemModelTester tester(&proxy,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&source);
        auto expected = [&] {
            QStringList out;
            for (int row = 0; row < source.rowCount(); ++row)
                if (source.item(row)->text().contains(QStringLiteral("7")))
                    out << source.item(row)->text();
            return out;
        };
        auto shown = [&] {
            QStringList out;
            for (int row = 0; row < proxy.rowCount(); ++row)
                out << proxy.index(row, 0).data().toString();
            return out;
        };
        for (int i = 0; i < 100; ++i) source.appendRow(new QStandardItem(QString::number(i)));
        proxy.setFilterText(QStringLiteral("7"));
        QCOMPARE(shown(), expected());
        std::mt19937 random(5);
        for (int round = 0; round < 60; ++round) {
            const int at = int(random() % std::uint32_t(source.rowCount()));
            if (round % 3 == 0) {
                source.removeRows(at, std::min(3, source.rowCount() - at));
            } else {
                source.insertRow(at, new QStandardItem(QString::number(1000 + round)));
                source.item(at / 2)->setText(source.item(at / 2)->text() + "7");  // now matches
            }
            QCOMPARE(shown(), expected());
        }
    }

    void aScopeShowsOneGroupsOrOneConnectionsLocks() {
        // Issue 36: a table across many connections, narrowed to a group or a connection,
        // with the text filter on top; a connection told its group late brings its rows.
        Fixture f;
        const QString a = QStringLiteral("redis://10.0.0.1:6379");
        const QString b = QStringLiteral("redis://10.0.0.2:6379");
        const QString c = QStringLiteral("redis://10.0.0.3:6379");
        const QString late = QStringLiteral("redis://10.0.0.4:6379");
        for (const QString& instance : {a, b, c, late})
            f.model.apply(instance, f.make.range(0, 60), true);
        f.model.setInstanceScope(kInstance, QStringLiteral("id-k"), {});
        f.model.setInstanceScope(a, QStringLiteral("id-a"), QStringLiteral("prod"));
        f.model.setInstanceScope(b, QStringLiteral("id-b"), QStringLiteral("prod"));
        f.model.setInstanceScope(c, QStringLiteral("id-c"), QStringLiteral("staging"));
        // What a user expects: the rows of exactly these servers, in the table's order.
        auto rowsOf = [&](const QStringList& instances, const QString& text = {}) {
            QStringList out;
            const std::string lower = text.toLower().toStdString();
            for (int row = 0; row < f.model.rowCount(); ++row) {
                const auto key = f.model.index(row, 0).data(LockTableModel::RowKeyRole);
                if (instances.contains(key.value<RowKey>().instance) &&
                    f.model.rowMatches(row, lower))
                    out << key.value<RowKey>().instance + QLatin1Char(' ') + keyAt(f.model, row);
            }
            return out;
        };
        auto shown = [&] {
            QStringList out;
            for (int row = 0; row < f.proxy.rowCount(); ++row)
                out << f.proxy.index(row, 0)
                               .data(LockTableModel::RowKeyRole)
                               .value<RowKey>()
                               .instance +
                           QLatin1Char(' ') + keyAt(f.proxy, row);
            return out;
        };
        f.proxy.setScope(RowScope::ofGroup(QStringLiteral("prod")));
        QCOMPARE(f.proxy.rowCount(), 120);
        QCOMPARE(shown(), rowsOf({a, b}));
        f.proxy.setScope(RowScope::ofConnection(QStringLiteral("id-c")));
        QCOMPARE(shown(), rowsOf({c}));
        f.proxy.setFilterText(QStringLiteral("r1"));
        QCOMPARE(shown(), rowsOf({c}, QStringLiteral("r1")));
        f.proxy.setFilterText({});
        // The late server joins staging: its rows arrive in the group's scope as rows.
        f.proxy.setScope(RowScope::ofGroup(QStringLiteral("staging")));
        QCOMPARE(shown(), rowsOf({c}));
        QSignalSpy inserted(&f.proxy, &QAbstractItemModel::rowsInserted);
        f.model.setInstanceScope(late, QStringLiteral("id-late"), QStringLiteral("staging"));
        QCOMPARE(shown(), rowsOf({c, late}));
        QVERIFY(inserted.count() > 0);
        // Churn on another connection leaves the scope's rows as they are.
        f.churn(0);
        QCOMPARE(shown(), rowsOf({c, late}));
        f.proxy.setScope(RowScope::all());
        QCOMPARE(f.proxy.rowCount(), f.model.rowCount());
        // An unknown group or connection shows nothing rather than everything.
        f.proxy.setScope(RowScope::ofGroup(QStringLiteral("nowhere")));
        QCOMPARE(f.proxy.rowCount(), 0);
        f.proxy.setScope(RowScope::ofConnection(QStringLiteral("id-a\nid-b")));
        QCOMPARE(f.proxy.rowCount(), 0);
    }

    void aRowTheFilterHidesHasNoProxyIndex() {
        Fixture f;
        f.proxy.setFilterText(QStringLiteral("r2"));
        const int hidden = f.model.rowOf(kInstance, QStringLiteral("lock:{r5}"));
        QVERIFY(!f.proxy.mapFromSource(f.model.index(hidden, 0)).isValid());
        QVERIFY(!f.proxy.mapToSource(f.proxy.index(f.proxy.rowCount(), 0)).isValid());
    }
};

QTEST_GUILESS_MAIN(LockFilterProxyTest)
#include "tst_lock_filter_proxy.moc"
