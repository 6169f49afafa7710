// The lock table's display order against the rule it keeps: after any re-sort of the rows
// that changed, the order is exactly the full sort of every row, and each id's position is
// where it stands. Re-sorts only rewrite the span the moved rows cross, so the cases cover
// rows that move to the very top, the very bottom, not at all, across each other, and many
// rounds of random moves checked against a full sort.

#include <QTest>
#include <algorithm>
#include <random>
#include <vector>

#include "models/lock_row_order.h"

using lockscope::ui::LockRowOrder;

namespace {

// Rows with a sort key each; equal keys sort by id, as the table orders equal rows by arrival.
struct Rows {
    std::vector<int> key;
    LockRowOrder order;

    explicit Rows(std::vector<int> keys) : key(std::move(keys)) {
        std::vector<int> ids(key.size());
        for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = int(i);
        order.append(ids);
        order.sortAll(less());
    }
    LockRowOrder::Less less() const {
        return [this](int l, int r) {
            return key[std::size_t(l)] != key[std::size_t(r)]
                       ? key[std::size_t(l)] < key[std::size_t(r)]
                       : l < r;
        };
    }
    void move(const std::vector<int>& ids, const std::vector<int>& newKeys) {
        for (std::size_t i = 0; i < ids.size(); ++i) key[std::size_t(ids[i])] = newKeys[i];
        order.resort(ids, less());
    }
    std::vector<int> shown() const {
        std::vector<int> ids;
        for (int p = 0; p < order.size(); ++p) ids.push_back(order.idAt(p));
        return ids;
    }
    std::vector<int> fullySorted() const {
        std::vector<int> ids(key.size());
        for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = int(i);
        std::sort(ids.begin(), ids.end(), less());
        return ids;
    }
    bool positionsAgree() const {
        for (int p = 0; p < order.size(); ++p)
            if (order.positionOf(order.idAt(p)) != p) return false;
        return true;
    }
};

}  // namespace

class LockRowOrderTest : public QObject {
    Q_OBJECT
  private slots:
    void aRowMovesToTheTopTheBottomOrNowhere() {
        Rows rows({10, 20, 30, 40, 50, 60});
        rows.move({3}, {5});  // 40 -> 5: to the top
        QCOMPARE(rows.shown(), (std::vector<int>{3, 0, 1, 2, 4, 5}));
        rows.move({1}, {99});  // 20 -> 99: to the bottom
        QCOMPARE(rows.shown(), (std::vector<int>{3, 0, 2, 4, 5, 1}));
        rows.move({4}, {50});  // unchanged
        QCOMPARE(rows.shown(), (std::vector<int>{3, 0, 2, 4, 5, 1}));
        QVERIFY(rows.positionsAgree());
    }

    void rowsThatCrossEachOtherLandInOrder() {
        Rows rows({10, 20, 30, 40, 50, 60});
        rows.move({0, 5}, {65, 15});  // the first and the last swap ends
        QCOMPARE(rows.shown(), (std::vector<int>{5, 1, 2, 3, 4, 0}));
        rows.move({2, 3}, {45, 25});  // two neighbours pass each other (30 -> 45, 40 -> 25)
        QCOMPARE(rows.shown(), (std::vector<int>{5, 1, 3, 2, 4, 0}));
        QVERIFY(rows.positionsAgree());
    }

    void randomMovesAlwaysLeaveTheFullSort() {
        std::mt19937 random(18);
        std::vector<int> keys(3000);
        for (int& k : keys) k = int(random() % 500);  // ties, ordered by id
        Rows rows(keys);
        QCOMPARE(rows.shown(), rows.fullySorted());
        for (int round = 0; round < 400; ++round) {
            // Mostly a few rows (renewals), sometimes hundreds (a rescan's slice).
            const std::size_t count = round % 10 == 0 ? 300 : 1 + random() % 8;
            std::vector<int> ids;
            std::vector<int> newKeys;
            while (ids.size() < count) {
                const int id = int(random() % keys.size());
                if (std::find(ids.begin(), ids.end(), id) != ids.end()) continue;
                ids.push_back(id);
                // Some move a little, some far, some to either end.
                const int k = rows.key[std::size_t(id)];
                switch (random() % 4) {
                    case 0:
                        newKeys.push_back(k + int(random() % 5) - 2);
                        break;
                    case 1:
                        newKeys.push_back(int(random() % 500));
                        break;
                    case 2:
                        newKeys.push_back(-1 - int(random() % 3));
                        break;
                    default:
                        newKeys.push_back(600 + int(random() % 3));
                        break;
                }
            }
            rows.move(ids, newKeys);
            if (rows.shown() != rows.fullySorted())
                QFAIL(qPrintable(QStringLiteral("round %1: not the full sort").arg(round)));
            QVERIFY(rows.positionsAgree());
        }
    }
};

QTEST_GUILESS_MAIN(LockRowOrderTest)
#include "tst_lock_row_order.moc"
