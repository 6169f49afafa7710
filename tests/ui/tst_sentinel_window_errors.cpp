// The window behind Sentinel when the Sentinels cannot help (tests/support/sentinel_fixture: a
// primary, a replica and three Sentinels): all of them down is said plainly and retried until
// one answers; a service name no Sentinel knows is said plainly, naming it, and not retried,
// and the dialog's Test button says the same words.
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include "command_log_search.h"
#include "lockscope/connection.h"
#include "models/command_log_model.h"
#include "models/lock_table_model.h"
#include "sentinel_fixture.h"
#include "session/connection_hub.h"
#include "ui_test_support.h"
#include "widgets/connection_dialog.h"
#include "widgets/connection_sidebar.h"
#include "widgets/lock_inspector_view.h"
#include "widgets/main_window.h"

using namespace lockscope;
using namespace lockscope::ui;

namespace {

// The sidebar line of the connection named name (its text: name, address, state).
QListWidgetItem* sidebarItem(MainWindow& w, const QString& name) {
    QListWidget* list = w.sidebar()->list();
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->text().startsWith(name)) return list->item(i);
    return nullptr;
}

int countStates(const QSignalSpy& states, ConnectionState state) {
    int n = 0;
    for (const auto& args : states) n += args[1].value<ConnectionState>() == state ? 1 : 0;
    return n;
}

int commandLogLinesContaining(const CommandLogModel& log, const QString& text) {
    int n = 0;
    for (int row = 0; row < log.rowCount(); ++row)
        n += log.index(row, CommandLogModel::Command).data().toString().contains(text) ? 1 : 0;
    return n;
}

}  // namespace

class SentinelWindowErrorsTest : public QObject {
    Q_OBJECT

  private slots:
    // Every Sentinel down as the window opens: the status line and the sidebar's tooltip say
    // "no Sentinel answered (asked 3 Sentinels for "mymaster")" with each Sentinel's reason,
    // the command log says it once (not at every retry), the connection keeps retrying, and
    // once the Sentinels are back the primary's lock appears. Before, the command log said
    // nothing at all while the connection retried.
    void allSentinelsDownIsSaidAndRetriedUntilOneAnswers() {
        lockscope::testing::SentinelGroup group;
        const std::string key = "lock:{nightly-report}";
        {
            Connection primary = Connection::open(group.server(0).endpoint());
            primary.command({"SET", key, "cron-3", "PX", "120000"});
        }
        for (std::size_t i = 0; i < group.sentinelCount(); ++i) group.sentinel(i).stop();

        QTemporaryDir config;
        QSettings settings(config.filePath("lockscope.ini"), QSettings::IniFormat);
        MainWindowOptions options;
        options.auditLogPath = config.filePath("audit.jsonl");
        const QString name = QStringLiteral("reports (Sentinel)");
        options.extra.append(
            ConnectionProfile::createForSentinel(name, QString::fromStdString(group.url())));
        MainWindow w(settings, options);
        QSignalSpy states(w.hub(), &ConnectionHub::stateChanged);  // queued: none missed
        w.resize(1280, 720);
        w.show();

        const QString said =
            QStringLiteral("no Sentinel answered (asked 3 Sentinels for \"mymaster\")");
        QTRY_VERIFY_WITH_TIMEOUT(w.statusBar()->currentMessage().contains(said), 10000);
        // Each Sentinel is named with what went wrong there.
        const QString shown = w.statusBar()->currentMessage();
        for (std::size_t i = 0; i < group.sentinelCount(); ++i)
            QVERIFY2(shown.contains(QStringLiteral("127.0.0.1:%1").arg(group.sentinel(i).port())),
                     qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("retrying in")), qPrintable(shown));
        QListWidgetItem* item = sidebarItem(w, name);
        QVERIFY(item);
        QVERIFY2(item->text().contains(QStringLiteral("reconnecting")), qPrintable(item->text()));
        QVERIFY2(item->toolTip().contains(said), qPrintable(item->toolTip()));
        const QString note = QStringLiteral("not connected: ") + said;
        QTRY_VERIFY_WITH_TIMEOUT(lockscope::ui::testing::commandLogContains(*w.commandLog(), note),
                                 3000);
        // It keeps trying (0.5 s, then 1 s, 2 s... apart), and says so in the log only once.
        QTRY_VERIFY_WITH_TIMEOUT(countStates(states, ConnectionState::Reconnecting) >= 3, 10000);
        QCOMPARE(countStates(states, ConnectionState::Failed), 0);
        QCOMPARE(commandLogLinesContaining(*w.commandLog(), note), 1);
        QCOMPARE(w.inspector()->model()->rowCount(), 0);
        QVERIFY(lockscope::ui::testing::saveScreenshot(&w, QStringLiteral("sentinel-all-down")));

        for (std::size_t i = 0; i < group.sentinelCount(); ++i) group.sentinel(i).start();
        const QString instance = QString::fromStdString(group.target().display());
        LockTableModel* model = w.inspector()->model();
        QTRY_VERIFY_WITH_TIMEOUT(model->rowOf(instance, QString::fromStdString(key)) >= 0, 20000);
        const QString primary = QString::fromStdString(group.server(0).endpoint().display());
        QTRY_VERIFY_WITH_TIMEOUT(
            lockscope::ui::testing::commandLogContains(
                *w.commandLog(),
                QStringLiteral("Sentinel: the primary of \"mymaster\" is %1").arg(primary)),
            5000);  // the note and the rows reach the window apart: rows can come first
        QTRY_VERIFY_WITH_TIMEOUT(item->text().contains(QStringLiteral("connected")) &&
                                     !item->text().contains(QStringLiteral("reconnecting")),
                                 5000);
    }

    // A service name no Sentinel knows: the dialog's Test and the window say the same
    // ("no primary found for service "billing-typo": no Sentinel knows a service of that name
    // (asked ...)"), the
    // connection fails once (red, not retried: asking again cannot fix a name) and shows no
    // rows, not even the primary's lock. Before, it retried every 10 s for ever, as if the
    // Sentinels were down, and the command log said nothing.
    void aWrongServiceNameIsNamedNotRetriedAndShowsNoRows() {
        lockscope::testing::SentinelGroup group;
        {
            Connection primary = Connection::open(group.server(0).endpoint());
            primary.command({"SET", "lock:{invoice-7}", "worker-1", "PX", "120000"});
        }
        std::string url = group.url();
        url.replace(url.rfind('#'), std::string::npos, "#billing-typo");

        ConnectionDialog dialog;
        dialog.urlEdit()->setText(QString::fromStdString(url));
        emit dialog.urlEdit()->textEdited(dialog.urlEdit()->text());
        QSignalSpy tested(&dialog, &ConnectionDialog::testFinished);
        dialog.testButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(tested.count(), 1, 10000);
        QVERIFY(!tested[0][0].toBool());
        const QString said = QStringLiteral("no primary found for service \"billing-typo\"");
        const QString testSaid = dialog.testResult();
        QVERIFY2(testSaid.contains(said), qPrintable(testSaid));
        // Once, with the Sentinels asked (before: "knows no service" once per Sentinel).
        QVERIFY2(
            testSaid.contains(
                QStringLiteral("no Sentinel knows a service of that name (asked 127.0.0.1:%1, ")
                    .arg(group.sentinel(0).port())),
            qPrintable(testSaid));
        QCOMPARE(testSaid.count(QStringLiteral("billing-typo")), 1);
        dialog.show();
        QVERIFY(lockscope::ui::testing::saveScreenshot(
            &dialog, QStringLiteral("sentinel-unknown-service-test")));

        QTemporaryDir config;
        QSettings settings(config.filePath("lockscope.ini"), QSettings::IniFormat);
        MainWindowOptions options;
        options.auditLogPath = config.filePath("audit.jsonl");
        ConnectionProfile profile = dialog.profile();
        profile.name = QStringLiteral("billing (typo)");
        options.extra.append(profile);
        MainWindow w(settings, options);
        QSignalSpy states(w.hub(), &ConnectionHub::stateChanged);
        w.resize(1280, 720);
        w.show();

        QTRY_COMPARE_WITH_TIMEOUT(countStates(states, ConnectionState::Failed), 1, 10000);
        const QString shown = w.statusBar()->currentMessage();
        QVERIFY2(shown.contains(said), qPrintable(shown));
        // The window's words are the Test button's (the dialog adds only its ✘).
        QVERIFY2(testSaid.contains(shown.mid(shown.indexOf(said))), qPrintable(shown));
        QListWidgetItem* item = sidebarItem(w, profile.name);
        QVERIFY(item);
        QVERIFY2(item->text().contains(QStringLiteral("failed")), qPrintable(item->text()));
        QVERIFY2(item->toolTip().contains(said), qPrintable(item->toolTip()));
        QTRY_VERIFY_WITH_TIMEOUT(
            lockscope::ui::testing::commandLogContains(
                *w.commandLog(), QStringLiteral("connection failed, not retried (edit the "
                                                "connection to fix it): ") +
                                     said),
            3000);
        QTest::qWait(2000);  // a retry would come 0.5 s, then 1 s later
        QCOMPARE(countStates(states, ConnectionState::Reconnecting), 0);
        QCOMPARE(countStates(states, ConnectionState::Failed), 1);
        QCOMPARE(w.inspector()->model()->rowCount(), 0);
        QVERIFY(
            lockscope::ui::testing::saveScreenshot(&w, QStringLiteral("sentinel-unknown-service")));
    }
};

QTEST_MAIN(SentinelWindowErrorsTest)
#include "tst_sentinel_window_errors.moc"
