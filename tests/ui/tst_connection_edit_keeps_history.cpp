// Issue 32: editing an open connection's budget or name (anything that leaves where its watch
// connects alone), or a watch option of the Settings menu, applies to the running watch, so its
// rows keep their history: the first seen time and the renewals. An edit of the address reconnects
// and says so. Against real redis-servers, through the real Edit dialog of the real window.
#include <QAction>
#include <QApplication>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <functional>

#include "lockscope/connection.h"
#include "lockscope/sandbox/local_redis_server.h"
#include "models/lock_table_model.h"
#include "session/connection_hub.h"
#include "session/profile_store.h"
#include "ui_test_support.h"
#include "widgets/connection_dialog.h"
#include "widgets/lock_inspector_view.h"
#include "widgets/main_window.h"

using namespace lockscope;
using namespace lockscope::ui;

namespace {

const QString kKey = QStringLiteral("lock:report");

const inspect::LockRecord* reportLock(const MainWindow& w, const LocalRedisServer& server) {
    const LockTableModel& model = *w.inspector()->model();
    const int row = model.rowOf(QString::fromStdString(server.endpoint().display()), kKey);
    return row >= 0 ? model.recordAt(row) : nullptr;
}

std::uint32_t renewalsSeen(const MainWindow& w, const LocalRedisServer& server) {
    const inspect::LockRecord* r = reportLock(w, server);
    return r ? r->renewals : 0;
}

// Edits the connection through its dialog as the operator does: `change` fills the fields,
// then OK.
void editThroughDialog(MainWindow& w, const QString& id,
                       const std::function<void(ConnectionDialog&)>& change) {
    QTimer::singleShot(0, &w, [change] {
        auto* dialog = qobject_cast<ConnectionDialog*>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        change(*dialog);
        dialog->accept();
    });
    w.editConnection(id);
}

}  // namespace

class ConnectionEditTest : public QObject {
    Q_OBJECT

  private slots:
    void aBudgetAndNameEditKeepsTheRowsHistory() {
        LocalRedisServer server;
        Connection redis = Connection::open(server.endpoint());
        redis.command({"SET", kKey.toStdString(), "worker-1", "PX", "20000"});
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("edit.ini")), QSettings::IniFormat);
        const ConnectionProfile profile =
            ConnectionProfile::create(QStringLiteral("reports"), server.endpoint());
        ProfileStore(settings).save({profile});
        MainWindow w(settings);  // connects the saved connection on start
        w.resize(1280, 720);
        w.show();
        QTRY_VERIFY_WITH_TIMEOUT(reportLock(w, server) != nullptr, 15000);

        // The holder renews twice, each renewal seen.
        redis.command({"SET", kKey.toStdString(), "worker-1", "PX", "60000"});
        QTRY_COMPARE_WITH_TIMEOUT(renewalsSeen(w, server), 1u, 10000);
        redis.command({"SET", kKey.toStdString(), "worker-1", "PX", "90000"});
        QTRY_COMPARE_WITH_TIMEOUT(renewalsSeen(w, server), 2u, 10000);
        const auto firstSeen = reportLock(w, server)->firstSeen;

        QSignalSpy closed(w.hub(), &ConnectionHub::instanceClosed);
        QSignalSpy loads(w.hub(), &ConnectionHub::loadMeasured);
        editThroughDialog(w, profile.id, [](ConnectionDialog& dialog) {
            dialog.nameEdit()->setText(QStringLiteral("nightly reports"));
            dialog.budgetBox()->setValue(12.5);  // percent of a core
        });
        // The running watch took the budget (the load it reports is measured against it) and
        // the table names the connection anew...
        QTRY_VERIFY_WITH_TIMEOUT(!loads.isEmpty() && loads.last().at(3).toDouble() == 0.125, 5000);
        const LockTableModel& model = *w.inspector()->model();
        QTRY_COMPARE(
            model
                .index(model.rowOf(QString::fromStdString(server.endpoint().display()), kKey),
                       LockTableModel::Instance)
                .data(),
            QVariant(QStringLiteral("nightly reports")));
        // ...and the row is the same one, its history whole: no close, no new first sight.
        QTest::qWait(1500);  // rounds of the watch after the edit
        QCOMPARE(closed.count(), 0);
        QVERIFY(reportLock(w, server) != nullptr);
        QCOMPARE(reportLock(w, server)->firstSeen, firstSeen);
        QCOMPARE(renewalsSeen(w, server), 2u);
        QCOMPARE(w.hub()->profile(profile.id)->maxLoad, 0.125);
        QVERIFY(testing::saveScreenshot(&w, QStringLiteral("edit-keeps-history")));
    }

    // The Settings menu's watch options reach the running watch too: before, each change
    // reopened every connection and the rows started over.
    void aSettingsChangeKeepsTheRowsHistory() {
        LocalRedisServer server;
        Connection redis = Connection::open(server.endpoint());
        redis.command({"SET", kKey.toStdString(), "worker-1", "PX", "20000"});
        redis.command({"RPUSH", "lock:waiters", "job-1", "job-2"});  // a list: no lock
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
        const ConnectionProfile profile =
            ConnectionProfile::create(QStringLiteral("reports"), server.endpoint());
        ProfileStore(settings).save({profile});
        MainWindow w(settings);
        w.resize(1280, 720);
        w.show();
        QTRY_VERIFY_WITH_TIMEOUT(reportLock(w, server) != nullptr, 15000);
        redis.command({"SET", kKey.toStdString(), "worker-1", "PX", "60000"});
        QTRY_COMPARE_WITH_TIMEOUT(renewalsSeen(w, server), 1u, 10000);
        const auto firstSeen = reportLock(w, server)->firstSeen;
        const LockTableModel& model = *w.inspector()->model();
        const QString instance = QString::fromStdString(server.endpoint().display());
        QCOMPARE(model.rowOf(instance, QStringLiteral("lock:waiters")), -1);

        QAction* nonLocks = nullptr;
        for (QAction* a : w.findChildren<QAction*>())
            if (a->text() == QStringLiteral("Show non-lock keys")) nonLocks = a;
        QVERIFY(nonLocks);
        QSignalSpy closed(w.hub(), &ConnectionHub::instanceClosed);
        nonLocks->trigger();  // on
        QTRY_VERIFY_WITH_TIMEOUT(model.rowOf(instance, QStringLiteral("lock:waiters")) >= 0, 10000);
        QCOMPARE(reportLock(w, server)->firstSeen, firstSeen);
        QCOMPARE(renewalsSeen(w, server), 1u);
        nonLocks->trigger();  // off again
        QTRY_COMPARE_WITH_TIMEOUT(model.rowOf(instance, QStringLiteral("lock:waiters")), -1, 5000);
        QTest::qWait(1000);  // rounds of the watch after the change
        QCOMPARE(closed.count(), 0);
        QCOMPARE(model.rowOf(instance, QStringLiteral("lock:waiters")), -1);
        QVERIFY(reportLock(w, server) != nullptr);
        QCOMPARE(reportLock(w, server)->firstSeen, firstSeen);
        QCOMPARE(renewalsSeen(w, server), 1u);
    }

    void anAddressEditReconnectsAndSaysSo() {
        LocalRedisServer before, after;
        {
            Connection first = Connection::open(before.endpoint());
            first.command({"SET", "lock:old", "tok", "PX", "60000"});
            Connection second = Connection::open(after.endpoint());
            second.command({"SET", "lock:new", "tok", "PX", "60000"});
        }
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("move.ini")), QSettings::IniFormat);
        const ConnectionProfile profile =
            ConnectionProfile::create(QStringLiteral("moving"), before.endpoint());
        ProfileStore(settings).save({profile});
        MainWindow w(settings);
        w.resize(1280, 720);
        w.show();
        const LockTableModel& model = *w.inspector()->model();
        QTRY_VERIFY_WITH_TIMEOUT(
            model.rowOf(QString::fromStdString(before.endpoint().display()), "lock:old") >= 0,
            15000);

        QSignalSpy reconnecting(w.hub(), &ConnectionHub::reconnectingForEdit);
        editThroughDialog(w, profile.id, [&](ConnectionDialog& dialog) {
            dialog.urlEdit()->selectAll();  // typed over, as the operator does
            QTest::keyClicks(dialog.urlEdit(), QString::fromStdString(after.endpoint().display()));
        });
        QTRY_COMPARE(reconnecting.count(), 1);
        QCOMPARE(reconnecting.first().at(1).toString(), QStringLiteral("the address"));
        QTRY_VERIFY_WITH_TIMEOUT(
            model.rowOf(QString::fromStdString(after.endpoint().display()), "lock:new") >= 0,
            15000);
        QCOMPARE(model.rowOf(QString::fromStdString(before.endpoint().display()), "lock:old"), -1);
        QTRY_VERIFY(w.statusBar()->currentMessage().contains(
            QStringLiteral("reconnected, as the address changed")));
    }

    // A connection named by its address (none typed) is named by the new one after an edit.
    void anUnnamedConnectionIsNamedByItsNewAddress() {
        LocalRedisServer before, after;
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("unnamed.ini")), QSettings::IniFormat);
        const QString oldUrl = QString::fromStdString(before.endpoint().display());
        const QString newUrl = QString::fromStdString(after.endpoint().display());
        const ConnectionProfile profile = ConnectionProfile::create(oldUrl, before.endpoint());
        ProfileStore(settings).save({profile});
        MainWindow w(settings);
        w.show();
        QTRY_VERIFY(w.hub()->isOpen(profile.id));
        editThroughDialog(w, profile.id, [&](ConnectionDialog& dialog) {
            QCOMPARE(dialog.nameEdit()->text(), oldUrl);
            dialog.urlEdit()->selectAll();
            QTest::keyClicks(dialog.urlEdit(), newUrl);
        });
        QTRY_COMPARE(w.hub()->nameOf(profile.id), newUrl);
        // A name the operator gave stays through the same edit.
        editThroughDialog(w, profile.id, [&](ConnectionDialog& dialog) {
            dialog.nameEdit()->setText(QStringLiteral("orders"));
            dialog.urlEdit()->selectAll();
            QTest::keyClicks(dialog.urlEdit(), oldUrl);
        });
        QTRY_COMPARE(w.hub()->nameOf(profile.id), QStringLiteral("orders"));
    }
};

QTEST_MAIN(ConnectionEditTest)
#include "tst_connection_edit_keeps_history.moc"
