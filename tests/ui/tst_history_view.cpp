// File → Open history: a torture history (the JSON that `lockscope-cli torture --history`
// writes) opens in a tab of its own, in the teaching lanes: a lane per worker, the resource,
// the servers; ownership bars, fault bands, the resource's writes; the checker's verdict on
// top. A file that is no history is refused with a message and changes nothing. Screenshot.
#include <QApplication>
#include <QFile>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "lockscope/errors.h"
#include "lockscope/torture/history.h"
#include "teaching/history_view.h"
#include "teaching/timeline_lanes.h"
#include "ui_test_support.h"
#include "widgets/main_window.h"

using namespace lockscope;
using namespace lockscope::ui;
using torture::Op;
using torture::OpType;

namespace {

constexpr std::int64_t kMs = 1'000'000;

Op workerOp(OpType type, const char* f, int worker, std::int64_t ms, std::int64_t fence,
            std::string detail = {}) {
    Op op;
    op.type = type;
    op.f = f;
    op.process = worker;
    op.timeNs = ms * kMs;
    op.token = "token-" + std::to_string(fence);
    op.fence = fence;
    op.round = 1;
    op.detail = std::move(detail);
    return op;
}

Op resourceWrite(int writer, std::int64_t ms, std::int64_t fence, const char* phase, bool accepted,
                 std::int64_t seq) {
    Op op;
    op.type = OpType::Ok;
    op.f = "write";
    op.process = torture::kResource;
    op.timeNs = ms * kMs;
    op.fence = fence;
    op.writer = writer;
    op.phase = phase;
    op.accepted = accepted;
    op.seq = seq;
    return op;
}

Op fault(const char* f, std::int64_t ms, const char* phase, std::string detail) {
    Op op;
    op.type = OpType::Info;
    op.f = f;
    op.process = torture::kNemesis;
    op.timeNs = ms * kMs;
    op.phase = phase;
    op.detail = std::move(detail);
    return op;
}

// Worker 0 takes fence 1 and is paused inside its work; its lease runs out, worker 1 takes
// fence 2 and writes; worker 0 wakes and writes with fence 1: the resource (no fencing here)
// accepts it, so the two overlap and a stale write is accepted. A restart follows.
torture::History pausedHolderHistory() {
    return {
        workerOp(OpType::Invoke, "acquire", 0, 0, 1),
        workerOp(OpType::Ok, "acquire", 0, 10, 1),
        resourceWrite(0, 20, 1, "begin", true, 1),
        fault("pause", 30, "start", "worker 0 stopped (SIGSTOP)"),
        workerOp(OpType::Invoke, "acquire", 1, 40, 2),
        workerOp(OpType::Ok, "acquire", 1, 1100, 2),
        resourceWrite(1, 1110, 2, "begin", true, 2),
        fault("pause", 1500, "stop", "worker 0 continued (SIGCONT)"),
        resourceWrite(0, 1510, 1, "end", true, 3),
        workerOp(OpType::Fail, "release", 0, 1520, 1, "the lock was already gone"),
        resourceWrite(1, 1600, 2, "end", true, 4),
        workerOp(OpType::Ok, "release", 1, 1610, 2),
        fault("restart", 1700, "start", "node 0 killed (no persistence)"),
        fault("restart", 1900, "stop", "node 0 started again, empty"),
        workerOp(OpType::Ok, "acquire", 0, 2000, 3),
        resourceWrite(0, 2010, 3, "begin", false, 5),
        workerOp(OpType::Ok, "release", 0, 2100, 3),
    };
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes) {
    QFile f(dir.filePath(name));
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write(bytes);
    return f.fileName();
}

}  // namespace

class HistoryViewTest : public QObject {
    Q_OBJECT
  private slots:
    void aHistoryOpensInTheTeachingLanes() {
        QTemporaryDir dir;
        const std::string json = torture::toJson(pausedHolderHistory());
        const QString path = writeFile(dir, "run.json", QByteArray::fromStdString(json));
        QSettings settings(dir.filePath("lockscope.ini"), QSettings::IniFormat);
        MainWindow w(settings);
        w.resize(1500, 900);
        w.show();
        const int tabsBefore = w.tabs()->count();
        QVERIFY(w.openHistory(path));
        QCOMPARE(w.tabs()->count(), tabsBefore + 1);
        auto* view = qobject_cast<HistoryView*>(w.tabs()->currentWidget());
        QVERIFY(view);
        QCOMPARE(w.tabs()->tabText(w.tabs()->currentIndex()), QStringLiteral("History: run.json"));
        const sim::Recording& r = view->replay()->recording();
        QCOMPARE(int(r.lanes.size()), 4);  // two workers, the resource, the servers
        QCOMPARE(QString::fromStdString(r.lanes[0].name), QStringLiteral("worker 0"));
        const QString verdict = view->verdictText();
        QVERIFY2(verdict.contains(QStringLiteral("1 overlaps")), qPrintable(verdict));
        QVERIFY2(verdict.contains(QStringLiteral("stale writes accepted 1")), qPrintable(verdict));
        // Ownership bars for the three acquisitions, the pause on worker 0, the restart.
        int ownership = 0, pauses = 0, crashes = 0;
        for (const auto& in : r.intervals) {
            ownership += in.kind == sim::IntervalKind::Ownership;
            pauses += in.kind == sim::IntervalKind::Pause && in.lane == 0;
            crashes += in.kind == sim::IntervalKind::Crashed && in.lane == 3;
        }
        QCOMPARE(ownership, 3);
        QCOMPARE(pauses, 1);
        QCOMPARE(crashes, 1);
        // It opens at the end: every marker is drawn; the resource's header counts.
        QVERIFY(view->replay()->atEnd());
        QCOMPARE(view->replay()->outcomeSoFar().staleWritesAccepted, 1);
        QCOMPARE(view->replay()->outcomeSoFar().staleWritesRejected, 1);
        QCOMPARE(view->lanes()->visibleMarkerCount() > 0, true);
        // A recorded run cannot be forked: it happened.
        sim::Replay copy = *view->replay();
        QVERIFY_THROWS_EXCEPTION(Error, copy.pauseInstance("worker 0", 100));
        QVERIFY_THROWS_EXCEPTION(Error, copy.setParam("ttl", 5));
        // Stepping back hides what comes later.
        view->seek(0);
        QVERIFY(!view->replay()->atEnd());
        QCOMPARE(view->replay()->outcomeSoFar().staleWritesAccepted, 0);
        view->seek(int(view->replay()->beats().size()) - 1);
        QTest::qWait(200);
        QVERIFY(testing::saveScreenshot(&w, "torture-history"));
    }

    void aFileThatIsNoHistoryIsRefusedAndChangesNothing() {
        QTemporaryDir dir;
        QSettings settings(dir.filePath("lockscope.ini"), QSettings::IniFormat);
        MainWindow w(settings);
        const int tabsBefore = w.tabs()->count();
        QFile huge(dir.filePath("huge.json"));
        QVERIFY(huge.open(QIODevice::WriteOnly));
        QVERIFY(huge.resize(qint64(300) << 20));  // sparse: costs no disk
        huge.close();
        const QList<std::pair<QString, QString>> cases = {
            {dir.filePath("missing.json"), QStringLiteral("Cannot open")},
            {writeFile(dir, "empty.json", ""), QStringLiteral("not a torture history")},
            {writeFile(dir, "binary.json", QByteArray("\x00\xff\xfe{[\x01", 6)),
             QStringLiteral("not a torture history")},
            {writeFile(dir, "nobody.json", "[]"), QStringLiteral("no worker")},
            {writeFile(dir, "wrong.json",
                       R"([{"type":"maybe","f":"acquire","process":0,"time":1}])"),
             QStringLiteral("unknown operation type")},
            {huge.fileName(), QStringLiteral("larger than")},
            {writeFile(dir, "run.edn", "[{:type :ok}]"), QStringLiteral("EDN")},
        };
        for (const auto& [path, expected] : cases) {
            QVERIFY2(!w.openHistory(path), qPrintable(path));
            const QString message = w.statusBar()->currentMessage();
            QVERIFY2(message.contains(expected), qPrintable(path + ": " + message));
            QCOMPARE(w.tabs()->count(), tabsBefore);
        }
    }
};

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    HistoryViewTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_history_view.moc"
