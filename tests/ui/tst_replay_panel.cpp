// The teaching tab on the simulator alone (no Redis server): stepping, keys, predict
// prompts, forks, parameter edits, the broken-vs-fixed table, exports and screenshots.
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QHelpEvent>
#include <QImage>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>

#include "lockscope/sim/replay.h"
#include "teaching/live_run.h"
#include "teaching/narration_view.h"
#include "teaching/outcome_comparison.h"
#include "teaching/replay_panel.h"
#include "teaching/replay_pttl_plot.h"
#include "teaching/scenario_param_form.h"
#include "teaching/timeline_lanes.h"
#include "ui_test_support.h"
#include "widgets/main_window.h"

using namespace lockscope;
using namespace lockscope::ui;

namespace {

// The headline numbers of an outcome, as the story's table rows list them.
QList<int> headline(const sim::OutcomeSummary& outcome,
                    const std::string& scenario = "broken-report") {
    QList<int> values;
    for (const auto& row : sim::comparisonRowsFor(sim::scenarioNamed(scenario)))
        values << row.value(outcome);
    return values;
}

QList<int> column(const ReplayPanel& panel, int c) {
    QList<int> values;
    for (int r = 0; r < panel.comparison()->rowCount(); ++r)
        values << panel.comparison()->value(r, c);
    return values;
}

QStringList rowLabels(const OutcomeComparison& table) {
    QStringList labels;
    for (int r = 0; r < table.rowCount(); ++r) labels << table.verticalHeaderItem(r)->text();
    return labels;
}

QString header(const OutcomeComparison& table, int c) {
    return table.horizontalHeaderItem(c) ? table.horizontalHeaderItem(c)->text() : QString();
}

QPalette darkPalette() {
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x20, 0x22, 0x25));
    p.setColor(QPalette::WindowText, QColor(0xe8, 0xea, 0xed));
    p.setColor(QPalette::Base, QColor(0x16, 0x18, 0x1b));
    p.setColor(QPalette::AlternateBase, QColor(0x24, 0x27, 0x2b));
    p.setColor(QPalette::Text, QColor(0xe8, 0xea, 0xed));
    p.setColor(QPalette::Button, QColor(0x2b, 0x2e, 0x33));
    p.setColor(QPalette::ButtonText, QColor(0xe8, 0xea, 0xed));
    p.setColor(QPalette::Mid, QColor(0x5f, 0x63, 0x68));
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0xa0, 0xa6));
    p.setColor(QPalette::Highlight, QColor(0x8a, 0xb4, 0xf8));
    p.setColor(QPalette::ToolTipBase, QColor(0x30, 0x33, 0x38));
    p.setColor(QPalette::ToolTipText, QColor(0xe8, 0xea, 0xed));
    return p;
}

}  // namespace

class ReplayPanelTest : public QObject {
    Q_OBJECT

  private:
    std::unique_ptr<ReplayPanel> openPanel(
        const QString& scenario = QStringLiteral("broken-report")) {
        auto panel = std::make_unique<ReplayPanel>();
        panel->resize(1600, 1000);
        panel->show();
        [&] { QVERIFY(QTest::qWaitForWindowExposed(panel.get())); }();
        if (scenario != QStringLiteral("broken-report"))
            [&] { QVERIFY(panel->loadScenario(scenario)); }();
        return panel;
    }

    void shoot(ReplayPanel& panel, const QString& name) {
        panel.pttlPlot()->redraw();
        QCoreApplication::processEvents();
        QVERIFY(testing::saveScreenshot(&panel, name));
    }

    static void toEnd(ReplayPanel& panel) {
        int guard = 0;
        while (!panel.replay().atEnd() && guard++ < 10000) panel.stepForward();
        QVERIFY(panel.replay().atEnd());
    }

  private slots:
    void brokenReportShowsItsOutcomeAtTheEnd() {
        auto panel = openPanel();
        QCOMPARE(panel->replay().scenario().name, std::string("broken-report"));
        QCOMPARE(panel->replay().currentBeat(), -1);
        QCOMPARE(column(*panel, ReplayPanel::kBrokenColumn),
                 headline(sim::Replay("broken-report").outcome()));
        QCOMPARE(column(*panel, ReplayPanel::kFixedColumn),
                 headline(sim::Replay("fixed-report").outcome()));
        QVERIFY(column(*panel, ReplayPanel::kBrokenColumn) !=
                column(*panel, ReplayPanel::kFixedColumn));
        // Nothing drawn before the first beat: the story has not started.
        QCOMPARE(panel->lanes()->visibleMarkerCount(), 0);

        bool shotForeignDel = false;
        const auto& events = panel->replay().recording().events;
        while (!panel->replay().atEnd()) {
            panel->stepForward();
            const sim::Replay& r = panel->replay();
            // The table follows the story: the current column is the outcome so far.
            if (!r.atEnd())
                QCOMPARE(column(*panel, ReplayPanel::kCurrentColumn), headline(r.outcomeSoFar()));
            // Nothing after the current beat is drawn.
            for (const auto& e : events)
                if (e.beat > r.currentBeat())
                    QVERIFY2(!panel->lanes()->eventVisible(e), e.detail.c_str());
            if (!shotForeignDel && r.outcomeSoFar().foreignDeletions == 1) {
                shotForeignDel = true;
                QVERIFY(r.beat()->command.rfind("DEL", 0) == 0);
                QVERIFY(
                    panel->narration()->plainText().contains(QStringLiteral("DEL lock:report")));
                QVERIFY(!panel->lanes()->markerRect(r.beat()->eventIndex).isEmpty());
                shoot(*panel, QStringLiteral("teaching-broken-foreign-del"));
            }
        }
        QVERIFY(shotForeignDel);
        QCOMPARE(column(*panel, ReplayPanel::kCurrentColumn), headline(panel->replay().outcome()));
        QCOMPARE(column(*panel, ReplayPanel::kCurrentColumn),
                 column(*panel, ReplayPanel::kBrokenColumn));
        QVERIFY(panel->lanes()->visibleMarkerCount() > 10);
        // The PTTL curve is drawn up to now and no further.
        panel->pttlPlot()->redraw();
        QVERIFY(!panel->pttlPlot()->xs().isEmpty());
        for (double x : panel->pttlPlot()->xs())
            QVERIFY(x <= panel->replay().currentTime() / 1000.0 + 1e-9);
        shoot(*panel, QStringLiteral("teaching-broken-end"));
    }

    void stepBackThenForwardReturnsToTheSameBeat() {
        auto panel = openPanel();
        for (int i = 0; i < 9; ++i) panel->stepForward();
        QCOMPARE(panel->replay().currentBeat(), 8);
        QString narration = panel->narration()->plainText();
        QVERIFY(narration.contains(QString::fromStdString(panel->replay().beat()->actor)));
        panel->stepBack();
        QCOMPARE(panel->replay().currentBeat(), 7);
        QVERIFY(panel->narration()->plainText() != narration);
        panel->stepForward();
        QCOMPARE(panel->replay().currentBeat(), 8);
        QCOMPARE(panel->narration()->plainText(), narration);
        // The scrubber moves the story too.
        panel->seek(2);
        QCOMPARE(panel->replay().currentBeat(), 2);
    }

    void keysStepPlayAndRestart() {
        auto panel = openPanel();
        // The keys work from the moment the tab appears: the panel, not a spin box, has
        // the focus.
        panel->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(panel.get()));
        QVERIFY(QApplication::focusWidget() == panel.get());
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Right);
        QCOMPARE(panel->replay().currentBeat(), 0);
        panel->restart();
        QTest::keyClick(panel.get(), Qt::Key_Right);
        QTest::keyClick(panel.get(), Qt::Key_Right);
        QCOMPARE(panel->replay().currentBeat(), 1);
        QTest::keyClick(panel.get(), Qt::Key_Left);
        QCOMPARE(panel->replay().currentBeat(), 0);
        QTest::keyClick(panel.get(), Qt::Key_Home);
        QCOMPARE(panel->replay().currentBeat(), -1);
        // The lanes pass the keys they do not use on to the panel.
        QTest::keyClick(panel->lanes(), Qt::Key_Right);
        QCOMPARE(panel->replay().currentBeat(), 0);
        panel->setPredictEnabled(false);  // play through without stopping at questions
        panel->setSpeed(50);
        QTest::keyClick(panel.get(), Qt::Key_Space);
        QVERIFY(panel->isPlaying());
        QTRY_VERIFY_WITH_TIMEOUT(panel->replay().currentBeat() >= 4, 5000);
        QTest::keyClick(panel.get(), Qt::Key_Space);
        QVERIFY(!panel->isPlaying());
        int stopped = panel->replay().currentBeat();
        QTest::qWait(100);
        QCOMPARE(panel->replay().currentBeat(), stopped);
    }

    void predictPromptsAskThenAnswer() {
        auto panel = openPanel();
        QVERIFY(panel->predictEnabled());
        int asked = -1;
        while (!panel->replay().atEnd()) {
            if (panel->replay().pendingQuestion()) {
                asked = panel->replay().currentBeat();
                break;
            }
            QVERIFY(!panel->narration()->showsQuestion());
            panel->stepForward();
        }
        QVERIFY(asked >= -1 && panel->replay().pendingQuestion());
        QString question = QString::fromStdString(*panel->replay().pendingQuestion());
        QVERIFY(panel->narration()->showsQuestion());
        QVERIFY(panel->narration()->plainText().contains(question));
        const sim::Beat& next = panel->replay().beats()[asked + 1];
        QString answer = QString::fromStdString(next.predict->answer);
        QVERIFY(!panel->narration()->plainText().contains(answer));
        shoot(*panel, QStringLiteral("teaching-predict-question"));
        panel->stepForward();
        QVERIFY(panel->narration()->showsAnswer());
        QVERIFY(panel->narration()->plainText().contains(answer));
        // Predict off: neither the question nor the answer box.
        panel->predictToggle()->setChecked(false);
        QVERIFY(!panel->narration()->showsAnswer());
        panel->stepBack();
        QVERIFY(!panel->narration()->showsQuestion());
    }

    void rightClickForksChangeTheOutcome() {
        auto panel = openPanel();
        // After A's SET (the third beat), crash A: the Replay decides what follows.
        for (int i = 0; i < 3; ++i) panel->stepForward();
        QCOMPARE(panel->replay().beat()->actor, std::string("A"));
        sim::Replay reference("broken-report");
        reference.seek(2);
        reference.crashInstance("A");
        QVERIFY(panel->crashInstance(QStringLiteral("A")));
        QCOMPARE(panel->replay().currentBeat(), 2);
        QCOMPARE(panel->replay().outcome(), reference.outcome());
        QVERIFY(headline(panel->replay().outcome()) !=
                headline(sim::Replay("broken-report").outcome()));
        toEnd(*panel);
        QCOMPARE(column(*panel, ReplayPanel::kCurrentColumn), headline(reference.outcome()));
        bool crashBand = false;
        for (const auto& i : panel->replay().recording().intervals)
            crashBand |= i.kind == sim::IntervalKind::Crashed && i.label == "crashed";
        QVERIFY(crashBand);
        shoot(*panel, QStringLiteral("teaching-broken-crash-fork"));
        // A crashed instance cannot be crashed again: refused with a message.
        QVERIFY(!panel->crashInstance(QStringLiteral("A")));
        QVERIFY(!panel->lastError().isEmpty());

        // A pause forked "here" (the lanes' right-click at 35 s, when B's scheduler fires) as the
        // Replay says.
        auto paused = openPanel();
        toEnd(*paused);
        sim::Replay pauseReference("broken-report");
        pauseReference.seekTime(35000);
        pauseReference.pauseInstance("B", 20000);
        // Through the lanes' signal, as the context menu sends it after asking the duration.
        emit paused->lanes()->pauseRequested(QStringLiteral("B"), 35000, 20000);
        QVERIFY2(paused->lastError().isEmpty(), qPrintable(paused->lastError()));
        QCOMPARE(paused->replay().currentTime(), sim::VirtualMs(35000));
        QCOMPARE(paused->replay().outcome(), pauseReference.outcome());
        QCOMPARE(paused->replay().transcript(), pauseReference.transcript());
    }

    void parameterEditsRerunTheStory() {
        auto panel = openPanel();
        QSpinBox* ttl = panel->paramForm()->editor(QStringLiteral("lock_ttl_s"));
        QVERIFY(ttl);
        QCOMPARE(ttl->value(), 10);
        sim::Replay before("broken-report");
        ttl->setValue(120);  // a TTL longer than the slow job
        QCOMPARE(panel->replay().params().get("lock_ttl_s"), std::int64_t(120));
        sim::ScenarioParams params = sim::scenarioNamed("broken-report").defaults();
        params.set("lock_ttl_s", 120);
        QCOMPARE(panel->replay().outcome(), sim::Replay("broken-report", params).outcome());
        QVERIFY(panel->replay().outcome() != before.outcome());
        // Fewer instances, fewer lanes.
        int lanes = static_cast<int>(panel->replay().recording().lanes.size());
        panel->paramForm()->editor(QStringLiteral("instances"))->setValue(2);
        QCOMPARE(static_cast<int>(panel->replay().recording().lanes.size()), lanes - 1);
        // Out of range: refused, the editor shows the value in force.
        QVERIFY(!panel->setParam(QStringLiteral("lock_ttl_s"), 0));
        QVERIFY(panel->lastError().contains(QStringLiteral("lock_ttl_s")));
        QCOMPARE(ttl->value(), 120);
        // The seed editor re-runs the story with the new seed: the same story as a Replay
        // with that seed (the jitter is drawn from it).
        QVERIFY(panel->setParam(QStringLiteral("jitter_ms"), 20000));
        auto* seed = panel->findChild<QSpinBox*>(QStringLiteral("replaySeed"));
        QVERIFY(seed);
        seed->setValue(7);
        QCOMPARE(panel->replay().seed(), std::uint64_t(7));
        sim::ScenarioParams jittered = panel->replay().params();
        QCOMPARE(jittered.get("jitter_ms"), std::int64_t(20000));
        QCOMPARE(panel->replay().transcript(),
                 sim::Replay("broken-report", jittered, 7).transcript());
        QVERIFY(panel->replay().transcript() !=
                sim::Replay("broken-report", jittered, 1).transcript());
        // The chooser loads another scenario with its own parameters.
        panel->scenarioChooser()->setCurrentIndex(
            panel->scenarioChooser()->findData(QStringLiteral("fixed-report")));
        QCOMPARE(panel->replay().scenario().name, std::string("fixed-report"));
        QVERIFY(panel->paramForm()->editor(QStringLiteral("ttl_ms")));
        QVERIFY(panel->loadScenario(QStringLiteral("expiry-race")));
        QVERIFY(panel->paramForm()->editor(QStringLiteral("sleep_ms")));
        QVERIFY(!panel->paramForm()->editor(QStringLiteral("lock_ttl_s")));
    }

    void tooltipsDescribeMarkersAndBars() {
        auto panel = openPanel();
        for (int i = 0; i < 3; ++i) panel->stepForward();
        const sim::Beat* beat = panel->replay().beat();
        QRectF marker = panel->lanes()->markerRect(beat->eventIndex);
        QVERIFY(!marker.isEmpty());
        QString tip = panel->lanes()->toolTipAt(marker.center().toPoint());
        QVERIFY2(tip.contains(QString::fromStdString(beat->command).toHtmlEscaped()),
                 qPrintable(tip));
        // A real tooltip event shows it.
        QPoint at = marker.center().toPoint();
        QHelpEvent help(QEvent::ToolTip, at, panel->lanes()->mapToGlobal(at));
        QApplication::sendEvent(panel->lanes(), &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY(QToolTip::text().contains(QStringLiteral("SET lock:report")));
        QToolTip::hideText();
        // The key lane's ownership bar a moment later.
        // The lock expires the millisecond after its 10 s deadline (Redis 7's rule).
        panel->seekTime(10001);
        QCOMPARE(panel->replay().currentTime(), sim::VirtualMs(10001));
        int keyLane = -1;
        const auto& lanes = panel->replay().recording().lanes;
        for (std::size_t i = 0; i < lanes.size(); ++i)
            if (lanes[i].kind == sim::LaneKind::RedisKey) keyLane = int(i);
        QVERIFY(keyLane >= 0);
        double x = panel->lanes()->mapTimeToX(1000);
        QCOMPARE(panel->lanes()->mapXToTime(x), sim::VirtualMs(1000));
        int y = -1;
        for (int py = 0; py < panel->lanes()->height(); ++py)
            if (panel->lanes()->laneAt(QPoint(int(x), py)) == keyLane)
                y = py;  // the lane's bottom part
        QVERIFY(y > 0);
        QVERIFY(panel->lanes()
                    ->toolTipAt(QPoint(int(x), y - 8))
                    .contains(QStringLiteral("holds the lock")));
    }

    void exportsPngAndPdf() {
        auto panel = openPanel();
        for (int i = 0; i < 9; ++i) panel->stepForward();
        QTemporaryDir dir;
        QString png = dir.filePath(QStringLiteral("timeline.png"));
        QString pdf = dir.filePath(QStringLiteral("timeline.pdf"));
        QVERIFY(panel->exportPng(png));
        QVERIFY(panel->exportPdf(pdf));
        QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() > 800 && image.height() > 400);
        QFile file(pdf);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.size() > 1000);
        QCOMPARE(file.read(4), QByteArray("%PDF"));
        // Kept beside the screenshots for a person to open.
        QString keptPng = testing::screenshotPath(QStringLiteral("teaching-export-timeline"));
        QString keptPdf = QString(keptPng).replace(QStringLiteral(".png"), QStringLiteral(".pdf"));
        QFile::remove(keptPng);
        QFile::remove(keptPdf);
        QVERIFY(QFile::copy(png, keptPng));
        QVERIFY(QFile::copy(pdf, keptPdf));
        QVERIFY(!panel->exportPng(dir.filePath(QStringLiteral("no/such/dir/x.png"))));
    }

    void fixedReportAndDarkPalette() {
        auto panel = openPanel(QStringLiteral("fixed-report"));
        toEnd(*panel);
        QCOMPARE(column(*panel, ReplayPanel::kCurrentColumn), headline(panel->replay().outcome()));
        QCOMPARE(column(*panel, ReplayPanel::kCurrentColumn),
                 column(*panel, ReplayPanel::kFixedColumn));
        shoot(*panel, QStringLiteral("teaching-fixed-end"));
        // A 720p projector: smaller, and still readable.
        panel->resize(1280, 720);
        QCoreApplication::processEvents();
        QCOMPARE(panel->size(), QSize(1280, 720));  // it fits: nothing pushed off the screen
        QVERIFY(panel->lanes()->height() >= panel->lanes()->minimumSizeHint().height());
        shoot(*panel, QStringLiteral("teaching-fixed-720p"));

        auto dark = openPanel();
        dark->setPalette(darkPalette());
        while (dark->replay().outcomeSoFar().foreignDeletions == 0 && !dark->replay().atEnd())
            dark->stepForward();
        dark->stepForward();
        QImage shot = dark->grab().toImage();
        // The lanes are painted with the dark base colour, not a light default.
        QCOMPARE(dark->lanes()
                         ->grab()
                         .toImage()
                         .pixelColor(dark->lanes()->width() - 5, dark->lanes()->height() - 3)
                         .lightness() < 100,
                 true);
        QVERIFY(!shot.isNull());
        shoot(*dark, QStringLiteral("teaching-dark-broken"));
    }

    void redlockTableShowsTheDistributedRowsAgainstItsOwnFix() {
        // A Redlock story is not judged by emails and duplicate report runs: its table says
        // whether two clients held the lock at once and whether a stale write landed, for
        // the story as told, with fencing, and this run.
        auto panel = openPanel(QStringLiteral("redlock-gc-pause"));
        const OutcomeComparison& table = *panel->comparison();
        QStringList expected;
        for (const auto& row : sim::comparisonRowsFor(sim::scenarioNamed("redlock-gc-pause")))
            expected << QString::fromStdString(row.label);
        QCOMPARE(rowLabels(table), expected);
        QVERIFY(rowLabels(table).contains(QStringLiteral("Times two clients held it at once")));
        QVERIFY(!rowLabels(table).contains(QStringLiteral("Emails sent")));
        QVERIFY(header(table, ReplayPanel::kFixedColumn).contains(QStringLiteral("fencing=1")));

        const sim::OutcomeSummary told = sim::Replay("redlock-gc-pause").outcome();
        sim::ScenarioParams fencing = sim::scenarioNamed("redlock-gc-pause").defaults();
        fencing.assign("fencing=1");
        const sim::OutcomeSummary fenced = sim::Replay("redlock-gc-pause", fencing).outcome();
        QCOMPARE(column(*panel, ReplayPanel::kBrokenColumn), headline(told, "redlock-gc-pause"));
        QCOMPARE(column(*panel, ReplayPanel::kFixedColumn), headline(fenced, "redlock-gc-pause"));
        // The rows a reader looks at: both clients held it in either run, the stale write
        // landed without fencing and was rejected with it.
        const int overlap =
            static_cast<int>(expected.indexOf(QStringLiteral("Times two clients held it at once")));
        const int accepted =
            static_cast<int>(expected.indexOf(QStringLiteral("Stale writes accepted")));
        const int rejected =
            static_cast<int>(expected.indexOf(QStringLiteral("Stale writes rejected")));
        QCOMPARE(table.value(overlap, ReplayPanel::kBrokenColumn), 1);
        QCOMPARE(table.value(accepted, ReplayPanel::kBrokenColumn), 1);
        QCOMPARE(table.value(accepted, ReplayPanel::kFixedColumn), 0);
        QCOMPARE(table.value(rejected, ReplayPanel::kFixedColumn), 1);
        toEnd(*panel);
        QCOMPARE(column(*panel, ReplayPanel::kCurrentColumn),
                 column(*panel, ReplayPanel::kBrokenColumn));
        shoot(*panel, QStringLiteral("teaching-redlock-gc-pause-table"));

        // Back to a report story: the report rows and the guide's two jobs again.
        QVERIFY(panel->loadScenario(QStringLiteral("broken-report")));
        QVERIFY(rowLabels(table).contains(QStringLiteral("Emails sent")));
        QCOMPARE(column(*panel, ReplayPanel::kFixedColumn),
                 headline(sim::Replay("fixed-report").outcome()));
    }

    void theAtomicCounterTableShowsItsOwnMeasuresAcrossModes() {
        // Lost updates and what each mode pays for correctness, nothing about emails: the
        // story as told (mode=0) against INCR (mode=2), and this run (here mode=1).
        auto panel = openPanel(QStringLiteral("atomic-counter"));
        const OutcomeComparison& table = *panel->comparison();
        QCOMPARE(rowLabels(table), QStringList({QStringLiteral("Lost updates"),
                                                QStringLiteral("Commands per update")}));
        QCOMPARE(table.visibleRowLabels(), rowLabels(table));
        QVERIFY(header(table, ReplayPanel::kFixedColumn).contains(QStringLiteral("mode=2")));
        QVERIFY(table.value(0, ReplayPanel::kBrokenColumn) > 0);
        QCOMPARE(table.value(1, ReplayPanel::kBrokenColumn), 2);
        QCOMPARE(table.value(0, ReplayPanel::kFixedColumn), 0);
        QCOMPARE(table.value(1, ReplayPanel::kFixedColumn), 1);
        QVERIFY(panel->setParam(QStringLiteral("mode"), 1));
        toEnd(*panel);
        QCOMPARE(table.value(0, ReplayPanel::kCurrentColumn), 0);
        QCOMPARE(table.value(1, ReplayPanel::kCurrentColumn), 4);
        // A cost is not tinted as harm or protection.
        QCOMPARE(table.item(1, ReplayPanel::kCurrentColumn)->background().style(), Qt::NoBrush);
        shoot(*panel, QStringLiteral("teaching-atomic-counter-table"));
        // Another story, other measures.
        QVERIFY(panel->loadScenario(QStringLiteral("get-then-del")));
        QCOMPARE(rowLabels(table), QStringList({QStringLiteral("Foreign deletions")}));
    }

    void theVerdictAtTheEndFollowsTheRunNotTheStorysText() {
        // atomic-counter's lock is PX 1000: a worker that thinks 1.5 s between GET and SET
        // loses it, and the verdict at the end says updates were lost, wherever it is shown.
        auto panel = openPanel(QStringLiteral("atomic-counter"));
        QVERIFY(panel->setParam(QStringLiteral("mode"), 1));
        QVERIFY(panel->setParam(QStringLiteral("think_ms"), 1500));
        auto* summary = panel->findChild<QLabel*>(QStringLiteral("replaySummary"));
        QVERIFY(summary);
        panel->restart();
        QVERIFY(!summary->text().contains(QStringLiteral("Verdict:")));
        toEnd(*panel);
        QVERIFY(panel->replay().outcome().lostUpdates > 0);
        QVERIFY2(summary->text().contains(QStringLiteral("went wrong")),
                 qPrintable(summary->text()));
        QVERIFY(!summary->text().contains(QStringLiteral("came out correct")));
        const QString narration = panel->narration()->plainText();
        QVERIFY2(narration.contains(QStringLiteral("Verdict:")) &&
                     narration.contains(QStringLiteral("were lost")),
                 qPrintable(narration));
        // INCR with the same think time: nothing lost, and the verdict says so.
        QVERIFY(panel->setParam(QStringLiteral("mode"), 2));
        toEnd(*panel);
        QVERIFY2(summary->text().contains(QStringLiteral("no update was lost")),
                 qPrintable(summary->text()));
    }

    void everyScenarioPlaysToItsEnd() {
        // Each registered scenario loads, steps to its end with the table equal to the
        // Replay's outcome, and leaves a screenshot to look at.
        auto panel = openPanel();
        for (const sim::Scenario& s : sim::scenarios()) {
            QString name = QString::fromStdString(s.name);
            QVERIFY(panel->loadScenario(name));
            QCOMPARE(panel->scenarioChooser()->currentText(), name);
            QCOMPARE(panel->paramForm()->names().size(), static_cast<qsizetype>(s.params.size()));
            toEnd(*panel);
            QCOMPARE(column(*panel, ReplayPanel::kCurrentColumn),
                     headline(panel->replay().outcome(), s.name));
            QVERIFY(panel->lanes()->visibleMarkerCount() > 0);
            shoot(*panel, QStringLiteral("teaching-%1-end").arg(name));
        }
    }

    void liveRunTellsTheSameStoryOnARealServer() {
        if (QStandardPaths::findExecutable(QStringLiteral("redis-server")).isEmpty())
            QSKIP("redis-server is not on PATH");
        auto panel = openPanel();
        QSignalSpy done(panel->liveRun(), &LiveRun::finished);
        QVERIFY(panel->startLiveRun(20));
        QVERIFY(panel->liveRun()->running());
        QVERIFY(!panel->startLiveRun(20));  // one at a time
        // The GUI thread stays free while the worker plays against the server.
        panel->stepForward();
        QCOMPARE(panel->replay().currentBeat(), 0);
        QVERIFY(done.wait(30000));
        const LiveRunResult& r = panel->liveRun()->result();
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY2(r.divergences.isEmpty(), qPrintable(r.divergences.join(QLatin1Char('\n'))));
        QVERIFY(r.matchesSimulation);
        QCOMPARE(r.beats, static_cast<int>(panel->replay().beats().size()));
        QCOMPARE(column(*panel, ReplayPanel::kLiveColumn),
                 headline(sim::Replay("broken-report").outcome()));
        QVERIFY(panel->lastError().isEmpty());
    }

    void liveRunOfAFailoverStartsItsOwnServers() {
        // The failover story needs a primary and two replicas: the live run starts three
        // redis-servers of its own, promotes a real replica, and the table's live column
        // says so and agrees with the simulation.
        if (QStandardPaths::findExecutable(QStringLiteral("redis-server")).isEmpty())
            QSKIP("redis-server is not on PATH");
        auto panel = openPanel(QStringLiteral("failover"));
        QSignalSpy done(panel->liveRun(), &LiveRun::finished);
        QVERIFY(panel->startLiveRun());
        QVERIFY(done.wait(30000));
        const LiveRunResult& r = panel->liveRun()->result();
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY2(r.divergences.isEmpty(), qPrintable(r.divergences.join(QLatin1Char('\n'))));
        QVERIFY(r.matchesSimulation);
        QCOMPARE(r.servers, 3);
        QVERIFY(header(*panel->comparison(), ReplayPanel::kLiveColumn)
                    .contains(QStringLiteral("3 servers")));
        QCOMPARE(column(*panel, ReplayPanel::kLiveColumn),
                 headline(sim::Replay("failover").outcome(), "failover"));
        toEnd(*panel);
        shoot(*panel, QStringLiteral("teaching-failover-live"));
    }

    void theWindowHasATeachingTab() {
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("lockscope.ini")), QSettings::IniFormat);
        MainWindow window(settings);
        int found = -1;
        for (int i = 0; i < window.tabs()->count(); ++i)
            if (qobject_cast<ReplayPanel*>(window.tabs()->widget(i))) found = i;
        QVERIFY(found >= 0);
        QCOMPARE(window.tabs()->tabText(found), QStringLiteral("Teaching"));
    }
};

QTEST_MAIN(ReplayPanelTest)
#include "tst_replay_panel.moc"
