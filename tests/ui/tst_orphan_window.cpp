// Is the holder alive? in the real window (issue 31), with a real BullMQ worker (npm, installed
// by scripts/install-npm-peers) holding a job's lock on a real redis-server: while it runs its
// row is never called gone; after kill -9 the Alive? column turns "gone" within BullMQ's own
// stall check, the Orphans toggle keeps exactly that row, the detail pane's "Holder alive?"
// tab opens first with the evidence, and the release confirmation states the verdict.
#include <QApplication>
#include <QFile>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <chrono>
#include <csignal>

#include <sys/prctl.h>

#include "lockscope/connection.h"
#include "lockscope/sandbox/local_redis_server.h"
#include "models/lock_filter_proxy.h"
#include "models/lock_table_model.h"
#include "session/profile_store.h"
#include "ui_test_support.h"
#include "widgets/lock_detail_pane.h"
#include "widgets/lock_inspector_view.h"
#include "widgets/main_window.h"

using namespace lockscope;
using namespace lockscope::ui;
using namespace std::chrono_literals;

namespace {

const QString kAdapters = QStringLiteral(LOCKSCOPE_SOURCE_DIR "/tests/torture/adapters");
const QString kWorker =
    QStringLiteral(LOCKSCOPE_SOURCE_DIR "/tests/inspect/liveness_peers/job_queue_worker.js");

// The liveness tests' BullMQ worker: it takes job 1 of queue "reports" and holds its lock
// (renewed by BullMQ) while the job runs; says "started <id>" on stdout.
bool startWorker(QProcess& worker, int port) {
    worker.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    // The worker dies with the test, even when the test itself is killed: left behind, it
    // held ctest's output pipe open until ctest's timeout.
    worker.setChildProcessModifier([] { prctl(PR_SET_PDEATHSIG, SIGKILL); });
    worker.start(QStringLiteral("node"),
                 {kWorker, kAdapters, QStringLiteral("bullmq"), QString::number(port),
                  QStringLiteral("reports"), QStringLiteral("60000"), QStringLiteral("600000")});
    if (!worker.waitForStarted(10000)) return false;
    for (QByteArray out; worker.waitForReadyRead(30000);)
        if ((out += worker.readAllStandardOutput()).contains("started ")) return true;
    return false;
}

QString aliveText(const MainWindow& w, const QString& instance, const QString& key) {
    const LockTableModel* model = w.inspector()->model();
    const int row = model->rowOf(instance, key);
    return row < 0 ? QString() : model->index(row, LockTableModel::Alive).data().toString();
}

// Reads and cancels the next modal dialog (the release confirmation): nothing is released.
void cancelNextDialog(QString* text) {
    auto* poll = new QTimer;
    poll->setInterval(20);
    QObject::connect(poll, &QTimer::timeout, [poll, text] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box) return;
        poll->stop();
        poll->deleteLater();
        *text = box->text() + '\n' + box->informativeText();
        ui::testing::saveScreenshot(box, QStringLiteral("release-confirmation-orphan"));
        QTest::keyClick(box, Qt::Key_Escape);
    });
    poll->start();
}

}  // namespace

class TestOrphanWindow : public QObject {
    Q_OBJECT

  private slots:
    void aKilledBullMqWorkersLockTurnsGoneInTheWindow() {
        if (!QFile::exists(kAdapters + QStringLiteral("/node_modules/bullmq")))
            QSKIP("bullmq is not installed: run ./scripts/install-npm-peers");
        LocalRedisServer server;
        QProcess worker;
        QVERIFY2(startWorker(worker, server.port()), "the BullMQ worker did not start its job");
        Connection c = Connection::open(server.endpoint());
        c.command({"SET", "lock:{nightly}", std::string(32, 'a'), "PX", "600000"});

        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("orphan.ini")), QSettings::IniFormat);
        ConnectionProfile p =
            ConnectionProfile::create(QStringLiteral("queues"), server.endpoint());
        p.patterns = {QStringLiteral("bull:*:lock"), QStringLiteral("lock:*")};
        ProfileStore(settings).save({p});
        MainWindow w(settings);
        w.resize(1280, 720);
        w.show();
        const QString instance = QString::fromStdString(server.endpoint().display());
        const QString jobLock = QStringLiteral("bull:reports:1:lock");
        QTRY_VERIFY_WITH_TIMEOUT(!aliveText(w, instance, jobLock).isEmpty(), 15000);
        // While the worker runs, its lock is never gone (10 s: past the engine's first reads).
        for (int i = 0; i < 20; ++i) {
            QVERIFY2(!aliveText(w, instance, jobLock).startsWith(QStringLiteral("gone")),
                     qPrintable(aliveText(w, instance, jobLock)));
            QTest::qWait(500);
        }

        worker.kill();  // SIGKILL: no chance to release its lock
        QVERIFY(worker.waitForFinished(5000));
        const auto killedAt = std::chrono::steady_clock::now();
        QTRY_VERIFY2_WITH_TIMEOUT(
            aliveText(w, instance, jobLock).startsWith(QStringLiteral("gone")),
            qPrintable(aliveText(w, instance, jobLock)), 40000);
        // Within BullMQ's own stall check (30 s by default) plus 5 s.
        QVERIFY(std::chrono::steady_clock::now() - killedAt < 35s);
        QVERIFY(!aliveText(w, instance, QStringLiteral("lock:{nightly}"))
                     .startsWith(QStringLiteral("gone")));  // no evidence: never an orphan

        // The Orphans toggle keeps exactly the gone holder's row.
        LockInspectorView* view = w.inspector();
        view->orphansOnlyButton()->click();
        QCOMPARE(view->proxy()->rowCount(), 1);
        QCOMPARE(view->proxy()->index(0, LockTableModel::Key).data().toString(), jobLock);

        // Selected: the evidence tab comes first and says why.
        view->selectKey(instance, jobLock);
        LockDetailPane* detail = view->detail();
        auto* evidence = detail->findChild<QTextBrowser*>(QStringLiteral("holderLiveness"));
        QVERIFY(evidence);
        QCOMPARE(detail->groupTabs()->currentWidget(), evidence);
        QVERIFY2(evidence->toPlainText().contains(QStringLiteral("reports")),
                 qPrintable(evidence->toPlainText()));
        QTest::qWait(300);  // the detail pane takes its height once a lock is selected
        QVERIFY(ui::testing::saveScreenshot(&w, QStringLiteral("window-orphan-bullmq")));

        // The release confirmation states the verdict before anything is released.
        QString asked;
        cancelNextDialog(&asked);
        detail->releaseButton()->click();
        QVERIFY2(asked.contains(QStringLiteral("Holder alive? gone")), qPrintable(asked));
        QVERIFY2(asked.contains(QStringLiteral("orphan")), qPrintable(asked));
        QCOMPARE(c.command({"EXISTS", jobLock.toStdString()}).integer(), 1);  // cancelled
    }
};

QTEST_MAIN(TestOrphanWindow)
#include "tst_orphan_window.moc"
