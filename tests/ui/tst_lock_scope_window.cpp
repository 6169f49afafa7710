// The lock table across several connections in the real window (issue 36), against real
// redis-servers in two groups: the Instance column names each lock's connection, and the
// scope control beside the filter narrows the table to one group or one connection, with
// the text filter on top, the counts saying how many of all it shows, and a selection
// kept while its lock stays in scope.
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "lockscope/connection.h"
#include "lockscope/sandbox/local_redis_server.h"
#include "models/lock_filter_proxy.h"
#include "models/lock_table_model.h"
#include "session/connection_hub.h"
#include "session/profile_store.h"
#include "ui_test_support.h"
#include "widgets/lock_inspector_view.h"
#include "widgets/lock_inspector_view_scope.h"
#include "widgets/main_window.h"

using namespace lockscope;
using namespace lockscope::ui;

namespace {

void setLocks(const LocalRedisServer& server, const std::string& prefix, int count) {
    Connection c = Connection::open(server.endpoint());
    for (int i = 0; i < count; ++i)
        c.command({"SET", "lock:" + prefix + "-" + std::to_string(i), "tok-" + std::to_string(i),
                   "PX", "600000"});
}

// What the table shows, as a reader reads it: "connection key" per row.
QStringList shownRows(const LockInspectorView& view) {
    QStringList rows;
    const QAbstractItemModel* proxy = view.table()->model();
    for (int row = 0; row < proxy->rowCount(); ++row)
        rows << proxy->index(row, LockTableModel::Instance).data().toString() + QLatin1Char(' ') +
                    proxy->index(row, LockTableModel::Key).data().toString();
    rows.sort();
    return rows;
}

QStringList scopeItems(const LockScopeBox& box) {
    QStringList items;
    for (int i = 0; i < box.count(); ++i) items << box.itemText(i).trimmed();
    return items;
}

bool chooseItem(LockScopeBox& box, const QString& text) {
    for (int i = 0; i < box.count(); ++i)
        if (box.itemText(i).trimmed() == text) {
            box.setCurrentIndex(i);
            return true;
        }
    return false;
}

QStringList expected(std::initializer_list<std::pair<const char*, int>> connections,
                     std::initializer_list<const char*> prefixes) {
    QStringList rows;
    auto prefix = prefixes.begin();
    for (const auto& [name, count] : connections) {
        for (int i = 0; i < count; ++i)
            rows << QStringLiteral("%1 lock:%2-%3")
                        .arg(QString::fromLatin1(name), QString::fromLatin1(*prefix))
                        .arg(i);
        ++prefix;
    }
    rows.sort();
    return rows;
}

}  // namespace

class TestLockScopeWindow : public QObject {
    Q_OBJECT

  private slots:
    void theTableNarrowsToAGroupOrAConnection() {
        LocalRedisServer ordersServer, cacheServer, jobsServer;
        setLocks(ordersServer, "order", 4);
        setLocks(cacheServer, "cache", 3);
        setLocks(jobsServer, "job", 2);
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("scope.ini")), QSettings::IniFormat);
        auto profile = [](const char* name, const char* group, const LocalRedisServer& server) {
            ConnectionProfile p =
                ConnectionProfile::create(QString::fromLatin1(name), server.endpoint());
            p.group = QString::fromLatin1(group);
            return p;
        };
        ProfileStore(settings).save({profile("orders", "production", ordersServer),
                                     profile("cache", "production", cacheServer),
                                     profile("jobs", "staging", jobsServer)});
        MainWindow w(settings);  // connects the saved connections on start
        w.resize(1280, 720);
        w.show();
        LockInspectorView& view = *w.inspector();
        // Every connection's locks, each row named by its connection (not host:port).
        const QStringList all =
            expected({{"orders", 4}, {"cache", 3}, {"jobs", 2}}, {"order", "cache", "job"});
        QTRY_COMPARE_WITH_TIMEOUT(shownRows(view), all, 15000);
        QVERIFY(!view.table()->isColumnHidden(LockTableModel::Instance));
        LockScopeBox& scope = *view.scopeBox();
        QVERIFY(scope.isVisible());
        QCOMPARE(scopeItems(scope), (QStringList{"All connections", "Group: production", "cache",
                                                 "orders", "Group: staging", "jobs"}));

        // One group: both of its connections, none of the other group's.
        QVERIFY(chooseItem(scope, QStringLiteral("Group: production")));
        QCOMPARE(shownRows(view), expected({{"orders", 4}, {"cache", 3}}, {"order", "cache"}));
        QVERIFY(view.findChild<QLabel*>(QStringLiteral("lockCounts"))
                    ->text()
                    .startsWith(QStringLiteral("7 of 9 lock")));
        QTest::qWait(50);  // the counts label laid out for its new text
        QVERIFY(testing::saveScreenshot(&w, QStringLiteral("lock-scope-group")));

        // One connection, with the text filter on top.
        QVERIFY(chooseItem(scope, QStringLiteral("jobs")));
        QCOMPARE(shownRows(view), expected({{"jobs", 2}}, {"job"}));
        view.filter()->setText(QStringLiteral("job-1"));
        QCOMPARE(shownRows(view), QStringList{QStringLiteral("jobs lock:job-1")});
        view.filter()->clear();

        // A selected lock stays selected while it is in scope.
        QVERIFY(chooseItem(scope, QStringLiteral("orders")));
        const QString ordersInstance =
            view.model()->instanceNames().filter(QString::number(ordersServer.port())).value(0);
        view.selectKey(ordersInstance, QStringLiteral("lock:order-2"));
        QVERIFY(chooseItem(scope, QStringLiteral("Group: production")));
        const auto selected = view.table()->selectionModel()->selectedRows();
        QCOMPARE(selected.size(), 1);
        QCOMPARE(selected.first().sibling(selected.first().row(), LockTableModel::Key).data(),
                 QVariant(QStringLiteral("lock:order-2")));

        // Scoped out, the lock is no longer shown in the detail pane nor released by Delete.
        QVERIFY(chooseItem(scope, QStringLiteral("Group: staging")));
        QVERIFY(view.table()->selectionModel()->selectedRows().isEmpty());
        QVERIFY(!w.releaseAction()->isEnabled());
        // A lock taken on a connection out of scope stays out; in scope it shows.
        setLocks(cacheServer, "cache", 5);
        setLocks(jobsServer, "job", 3);
        w.hub()->refreshAll();
        QTRY_COMPARE_WITH_TIMEOUT(shownRows(view), expected({{"jobs", 3}}, {"job"}), 15000);
        QTRY_COMPARE_WITH_TIMEOUT(view.model()->rowCount(), 12, 15000);
        QCOMPARE(shownRows(view), expected({{"jobs", 3}}, {"job"}));
        QTest::qWait(50);
        QVERIFY(testing::saveScreenshot(&w, QStringLiteral("lock-scope-connection")));

        // Back to all connections; the text filter finds a connection by its name too.
        QVERIFY(chooseItem(scope, QStringLiteral("All connections")));
        QCOMPARE(view.table()->model()->rowCount(), 12);
        view.filter()->setText(QStringLiteral("ORDERS"));
        QCOMPARE(shownRows(view), expected({{"orders", 4}}, {"order"}));
        view.filter()->clear();
        QVERIFY(view.findChild<QLabel*>(QStringLiteral("lockCounts"))
                    ->text()
                    .startsWith(QStringLiteral("12 lock")));
    }
};

QTEST_MAIN(TestLockScopeWindow)
#include "tst_lock_scope_window.moc"
