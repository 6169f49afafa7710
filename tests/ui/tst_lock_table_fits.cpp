// Issue 35 item 7: at 1280x720 with the sidebar open and two connections (so the Instance
// column shows), every column of the lock table, Findings included, is on screen without
// horizontal scrolling; numbers are never cut; a width the operator dragged is kept. Against
// two real redis-servers, in the real window.
#include <QHeaderView>
#include <QScrollBar>
#include <QSettings>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "lockscope/connection.h"
#include "lockscope/sandbox/local_redis_server.h"
#include "models/lock_table_model.h"
#include "session/connection_hub.h"
#include "session/profile_store.h"
#include "ui_test_support.h"
#include "widgets/lock_inspector_view.h"
#include "widgets/lock_inspector_view_columns.h"
#include "widgets/main_window.h"

using namespace lockscope;
using namespace lockscope::ui;

namespace {

// The shown columns whose header section is not wholly inside the viewport, by title.
QStringList columnsOffScreen(const QTableView& table) {
    const QHeaderView* header = table.horizontalHeader();
    QStringList off;
    for (int column = 0; column < header->count(); ++column) {
        if (header->isSectionHidden(column)) continue;
        const int left = header->sectionViewportPosition(column);
        if (left < 0 || left + header->sectionSize(column) > table.viewport()->width())
            off << table.model()->headerData(column, Qt::Horizontal).toString();
    }
    return off;
}

// Number cells on screen whose text is wider than their column: "Seen for 14 …1 s".
QStringList numbersCut(const QTableView& table) {
    const QFontMetrics metrics(table.font());
    constexpr int kTextMargins = 8;  // the item's own margins, both sides
    QStringList cut;
    for (int column : {LockTableModel::Fence, LockTableModel::SeenFor, LockTableModel::Age,
                       LockTableModel::Renewals})
        for (int row = 0; row < table.model()->rowCount(); ++row) {
            const QString text = table.model()->index(row, column).data().toString();
            if (metrics.horizontalAdvance(text) + kTextMargins > table.columnWidth(column))
                cut << text;
        }
    return cut;
}

}  // namespace

class LockTableFitsTest : public QObject {
    Q_OBJECT

  private slots:
    void everyColumnIsOnScreenAt1280() {
        LocalRedisServer jobs, billing;
        {
            Connection c = Connection::open(jobs.endpoint());
            c.command({"SET", "lock:job-lock:{billing-reconcile}:nightly", "worker-7:8f3a", "PX",
                       "900000"});
            c.command({"SET", "lock:report", "tok-1", "PX", "600000"});
            c.command({"SET", "lock:stuck-export", "tok-9"});  // no TTL: a finding
            Connection d = Connection::open(billing.endpoint());
            d.command({"SET", "lock:invoice:2026-12", "tok-2", "PX", "600000"});
        }
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("fits.ini")), QSettings::IniFormat);
        ProfileStore(settings).save(
            {ConnectionProfile::create(QStringLiteral("jobs-production"), jobs.endpoint()),
             ConnectionProfile::create(QStringLiteral("billing-production"), billing.endpoint())});
        MainWindow w(settings);  // connects the saved connections on start
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        LockInspectorView& view = *w.inspector();
        QTableView& table = *view.table();
        QTRY_COMPARE_WITH_TIMEOUT(view.model()->rowCount(), 4, 15000);
        QTRY_VERIFY(!table.isColumnHidden(LockTableModel::Instance));
        QTest::qWait(100);  // laid out with the Instance column

        QCOMPARE(columnsOffScreen(table), QStringList());
        QCOMPARE(table.horizontalScrollBar()->maximum(), 0);
        // Findings is last and stretched: on screen with room for a badge.
        QVERIFY2(table.columnWidth(LockTableModel::Findings) >= 100,
                 qPrintable(QString::number(table.columnWidth(LockTableModel::Findings))));
        QCOMPARE(numbersCut(table), QStringList());
        // The "Seen for 14 …1 s": a lock seen for 14 min 21 s reads whole.
        const QString seen = LockTableModel::formatDuration(std::int64_t{14 * 60 + 21} * 1000);
        QVERIFY2(QFontMetrics(table.font()).horizontalAdvance(seen) + 8 <=
                     table.columnWidth(LockTableModel::SeenFor),
                 qPrintable(QString::number(table.columnWidth(LockTableModel::SeenFor))));
        QVERIFY(testing::saveScreenshot(&w, QStringLiteral("lock-table-fits-1280")));

        // The operator widens the key column: kept through a resize of the window, and the
        // other columns fit around it.
        table.horizontalHeader()->resizeSection(LockTableModel::Key, 190);
        QVERIFY(view.columns()->isOperatorSized(LockTableModel::Key));
        w.resize(1400, 720);
        QTRY_VERIFY(table.viewport()->width() > 1100);
        w.resize(1280, 720);
        QTRY_VERIFY(table.viewport()->width() < 1100);
        QTest::qWait(100);
        QCOMPARE(table.columnWidth(LockTableModel::Key), 190);
        QCOMPARE(columnsOffScreen(table), QStringList());
        QVERIFY(testing::saveScreenshot(&w, QStringLiteral("lock-table-fits-key-widened")));

        // One connection closed: the Instance column goes, the others take its room back.
        const int holderWidth = table.columnWidth(LockTableModel::Holder);
        w.hub()->close(w.hub()->profileForInstance(view.model()->instanceNames().first())->id);
        QTRY_VERIFY(table.isColumnHidden(LockTableModel::Instance));
        QVERIFY(table.columnWidth(LockTableModel::Holder) > holderWidth);
        QCOMPARE(columnsOffScreen(table), QStringList());
    }
};

QTEST_MAIN(LockTableFitsTest)
#include "tst_lock_table_fits.moc"
