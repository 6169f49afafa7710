// The teaching tab, classroom leftovers of issue 14: the narration in a second language
// (German, from the message ids lib/ gives), the export menu's size and scale chooser, the
// PTTL legend outside the plot with five Redlock nodes told apart, the cursor gliding while
// the story plays, and every story at 1920×1080 in presenter mode (the 1280×720 ones are
// tst_teaching_room's).
#include <qcustomplot.h>
#include <QAction>
#include <QApplication>
#include <QFileInfo>
#include <QImage>
#include <QMenu>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>

#include "teaching/export_options.h"
#include "teaching/narration_text.h"
#include "teaching/narration_view.h"
#include "teaching/pttl_legend.h"
#include "teaching/replay_panel.h"
#include "teaching/replay_pttl_plot.h"
#include "ui_test_support.h"
#include "widgets/main_window.h"

using namespace lockscope;
using namespace lockscope::ui;

namespace {

// The first beat of a story narrated by `id`.
int beatNarratedBy(const sim::Replay& replay, const std::string& id) {
    for (const sim::Beat& b : replay.beats())
        if (!b.narrationParts.empty() && b.narrationParts.front().id == id) return b.index;
    return -1;
}

QAction* actionNamed(QMenu* menu, const QString& text) {
    for (QAction* a : menu->actions()) {
        if (a->menu())
            if (QAction* inner = actionNamed(a->menu(), text)) return inner;
        if (a->text().startsWith(text)) return a;
    }
    return nullptr;
}

}  // namespace

class TeachingClassroomTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

  private slots:
    void withoutATranslationTheNarrationIsLibsEnglish() {
        for (const sim::Scenario& s : sim::scenarios()) {
            sim::Replay replay(s.name);
            for (const sim::Beat& b : replay.beats())
                QCOMPARE(narrationText(b), QString::fromStdString(b.narration));
        }
    }

    void theNarrationSpeaksGermanWithTheGermanTranslation() {
        ReplayPanel panel;
        panel.resize(1280, 720);
        panel.setPredictEnabled(false);
        QVERIFY(panel.loadScenario(QStringLiteral("get-then-del")));
        const int sendsDel = beatNarratedBy(panel.replay(), "sim.gtd.sends-del");
        QVERIFY(sendsDel >= 0);
        panel.seek(sendsDel);
        QVERIFY(panel.narration()->toPlainText().contains(QStringLiteral("a sends DEL.")));

        QVERIFY(installTeachingTranslation(*QCoreApplication::instance(),
                                           QLocale(QLocale::German, QLocale::Germany)));
        panel.seek(0);
        panel.seek(sendsDel);
        QVERIFY2(panel.narration()->toPlainText().contains(QStringLiteral("a sendet DEL.")),
                 qPrintable(panel.narration()->toPlainText()));
        // An id the German file does not hold stays English; arguments are put in.
        const int getFirst = beatNarratedBy(panel.replay(), "sim.gtd.get-first");
        panel.seek(getFirst);
        QVERIFY(panel.narration()->toPlainText().contains(
            QStringLiteral("a gibt den Lock vom Client aus frei")));
        QCOMPARE(messageText({"sim.counter.reads", {"w1", "4", "5"}}),
                 QStringLiteral("w1 liest den Zähler (4) und berechnet 5."));
        QCOMPARE(messageText({"sim.counter.waits", {"w2"}}),
                 QStringLiteral("w2 waits for the lock."));
        // The failover, seat-hold, Redlock and setnx-expire-crash stories speak German too (their
        // narration left lib/ as message ids as well).
        struct Story {
            const char* name;
            const char* id;
            QString german;
        };
        const Story stories[] = {
            {"failover", "sim.failover.takes-async",
             QStringLiteral("nimmt den Lock auf dem Primary")},
            {"seat-hold", "sim.seat.holds", QStringLiteral("und beginnt zu bezahlen.")},
            {"redlock-gc-pause", "sim.redlock.writes", QStringLiteral("schreibt seinen Bericht.")},
            {"redlock-clock-jump", "sim.redlock.writes",
             QStringLiteral("schreibt seinen Bericht.")},
            {"setnx-expire-crash", "sim.operator.opens",
             QStringLiteral("Der Operator öffnet den Inspektor von LockScope")},
            // The report jobs, the Redlock validity note and the clock jump (issue 14).
            {"broken-report", "sim.report.plain-del",
             QStringLiteral("A löscht den Lock mit einem einfachen DEL.")},
            {"fixed-report", "sim.report.renews",
             QStringLiteral("A hat Teil 0 erstellt und erneuert seinen Lock")},
            {"redlock-gc-pause", "sim.redlock.oks",
             QStringLiteral("eine Mehrheit sind 3) in 5 ms seit dem Start um 0.000s. "
                            "Gültigkeit = 10 s − 5 ms − Drift 102 ms = 9.893 s.")},
            {"redlock-clock-jump", "sim.clock.jumps",
             QStringLiteral("Die Uhr von C springt 9.5 s vor")},
        };
        for (const Story& story : stories) {
            QVERIFY(panel.loadScenario(QString::fromLatin1(story.name)));
            const int beat = beatNarratedBy(panel.replay(), story.id);
            QVERIFY2(beat >= 0, story.name);
            panel.seek(beat);
            QVERIFY2(panel.narration()->toPlainText().contains(story.german),
                     qPrintable(panel.narration()->toPlainText()));
        }
        QVERIFY(!installTeachingTranslation(*QCoreApplication::instance(),
                                            QLocale(QLocale::French, QLocale::France)));
        for (QTranslator* t : QCoreApplication::instance()->findChildren<QTranslator*>())
            QCoreApplication::removeTranslator(t);
        QCOMPARE(messageText({"sim.gtd.sends-del", {"a"}}), QStringLiteral("a sends DEL."));
    }

    void theExportMenuChoosesTheSlideSizeAndScale() {
        ReplayPanel panel;
        panel.resize(1280, 720);
        QVERIFY(panel.loadScenario(QStringLiteral("broken-report")));
        panel.seek(5);
        QMenu* menu = nullptr;  // the export button's menu: the one with the size chooser
        for (QMenu* m : panel.findChildren<QMenu*>())
            if (actionNamed(m, QStringLiteral("Slide size"))) menu = m;
        QVERIFY(menu);
        QAction* fullHd = actionNamed(menu, QStringLiteral("1920×1080"));
        QAction* oneX = actionNamed(menu, QStringLiteral("1×"));
        QVERIFY(fullHd && oneX);
        QVERIFY(actionNamed(menu, QStringLiteral("2×"))->isChecked());  // the default
        fullHd->trigger();
        oneX->trigger();
        QVERIFY(fullHd->isChecked() && oneX->isChecked());
        const QString png = dir_.filePath(QStringLiteral("slide.png"));
        QVERIFY(panel.exportAsChosen(ReplayPanel::ExportKind::Png, png));
        QCOMPARE(QImage(png).size(), QSize(1920, 1080));

        actionNamed(menu, QStringLiteral("1280×720"))->trigger();
        actionNamed(menu, QStringLiteral("2×"))->trigger();
        QVERIFY(panel.exportAsChosen(ReplayPanel::ExportKind::Png, png));
        QCOMPARE(QImage(png).size(), QSize(2560, 1440));

        // A custom size checks "Custom"; one out of range changes nothing.
        QVERIFY(panel.exportOptions()->setSize({1000, 500}));
        QAction* custom = actionNamed(menu, QStringLiteral("Custom"));
        QVERIFY(custom->isChecked());
        QVERIFY(custom->text().contains(QStringLiteral("1000×500")));
        QVERIFY(!panel.exportOptions()->setSize({100, 100000}));
        QCOMPARE(panel.exportOptions()->size(), QSize(1000, 500));
        QVERIFY(panel.exportAsChosen(ReplayPanel::ExportKind::Png, png));
        QCOMPARE(QImage(png).size(), QSize(2000, 1000));
        const QString pdf = dir_.filePath(QStringLiteral("slide.pdf"));
        QVERIFY(panel.exportAsChosen(ReplayPanel::ExportKind::Pdf, pdf));
        QVERIFY(QFileInfo(pdf).size() > 1000);
    }

    void thePttlLegendSitsAboveThePlotAndTellsFiveNodesApart() {
        ReplayPanel panel;
        panel.resize(1280, 720);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(panel.loadScenario(QStringLiteral("redlock-gc-pause")));
        panel.seek(static_cast<int>(panel.replay().beats().size()) - 1);
        panel.pttlPlot()->redraw();
        QCustomPlot* plot = panel.pttlPlot()->plot();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        QCoreApplication::processEvents();
        // The legend is a strip above the plot: it covers no curve and names all five nodes
        // (and the no-TTL line when one is drawn) with the curves' own pens.
        PttlLegend* legend = panel.pttlPlot()->legend();
        QVERIFY(legend->isVisible());
        QVERIFY(!plot->legend->visible());
        QVERIFY(legend->geometry().bottom() < plot->geometry().top());
        QCOMPARE(static_cast<int>(legend->entries().size()), 5);
        for (int a = 0; a < 5; ++a) {
            const QPen pa = legend->entries()[a].pen;
            QCOMPARE(pa, plot->graph(2 * a)->pen());
            QVERIFY(pa.widthF() >= 3);
            for (int b = a + 1; b < 5; ++b) {
                const QPen pb = legend->entries()[b].pen;
                QVERIFY2(pa.color() != pb.color() && pa.style() != pb.style(),
                         qPrintable(QStringLiteral("nodes %1 and %2 look alike").arg(a).arg(b)));
            }
        }
        // One node and no no-TTL line: no legend.
        QVERIFY(panel.loadScenario(QStringLiteral("broken-report")));
        panel.seek(10);
        panel.pttlPlot()->redraw();
        QVERIFY(legend->isHidden());
        QVERIFY(panel.loadScenario(QStringLiteral("redlock-gc-pause")));
        panel.seek(static_cast<int>(panel.replay().beats().size()) - 1);
        panel.pttlPlot()->redraw();
        QCoreApplication::processEvents();
        QVERIFY(testing::saveScreenshot(&panel, QStringLiteral("teaching-redlock-legend-720p")));
    }

    void theCursorGlidesBetweenBeatsWhilePlaying() {
        ReplayPanel panel;
        panel.resize(1280, 720);
        panel.show();
        panel.setPredictEnabled(false);
        QVERIFY(panel.loadScenario(QStringLiteral("broken-report")));
        const auto& beats = panel.replay().beats();
        int from = -1;
        for (std::size_t i = 1; i + 1 < beats.size() && from < 0; ++i)
            if (beats[i + 1].time - beats[i].time >= 1000) from = static_cast<int>(i) - 1;
        QVERIFY(from >= 0);
        panel.seek(from);
        panel.setSpeed(0.5);     // a beat every 2 s
        panel.setPlaying(true);  // steps to from + 1 at once, then glides toward from + 2
        const sim::VirtualMs start = beats[from + 1].time, next = beats[from + 2].time;
        QTRY_VERIFY_WITH_TIMEOUT(panel.cursorTime() > start, 1500);
        QVERIFY(panel.cursorTime() < next);
        QCOMPARE(panel.replay().currentBeat(), from + 1);
        const sim::VirtualMs first = panel.cursorTime();
        QTest::qWait(300);
        QVERIFY(panel.cursorTime() > first);  // still moving
        panel.setPlaying(false);
        QCOMPARE(panel.cursorTime(), panel.replay().currentTime());  // back on the beat
    }

    void everyStoryInPresenterModeAt1080p() {
        QSettings settings(dir_.filePath(QStringLiteral("lockscope.ini")), QSettings::IniFormat);
        MainWindow window(settings);
        window.resize(1920, 1080);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setPresenterMode(true);
        window.showNormal();
        window.setFixedSize(1920, 1080);
        QCoreApplication::processEvents();
        ReplayPanel* panel = window.teaching();
        for (const sim::Scenario& story : sim::scenarios()) {
            const QString name = QString::fromStdString(story.name);
            QVERIFY(panel->loadScenario(name));
            panel->seek(static_cast<int>(panel->replay().beats().size()) * 2 / 3);
            panel->pttlPlot()->redraw();
            QCoreApplication::processEvents();
            QVERIFY(testing::saveScreenshot(
                &window, QStringLiteral("teaching-presenter-1080p-%1").arg(name)));
        }
        window.setMinimumSize(0, 0);
        window.setMaximumSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX);
        window.setPresenterMode(false);
    }
};

QTEST_MAIN(TeachingClassroomTest)
#include "tst_teaching_classroom.moc"
