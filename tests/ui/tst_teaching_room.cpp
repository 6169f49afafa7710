// The teaching tab in a lecture hall: a 1280×720 projector, presenter mode (F11, zoom), the
// keys, the predict prompt in view, the outcome table's rows and headers, forks at the time
// the menu says, changed parameters marked and reset, commands as the guide writes them,
// scenario files and "Copy as command". Screenshots of every story at 1280×720 in presenter
// mode, light and dark, go to the screenshots folder.
#include <QApplication>
#include <QFile>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QScrollBar>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

#include "lockscope/sim/run_verdict.h"
#include "lockscope/sim/scenario_file.h"
#include "teaching/lane_fonts.h"
#include "teaching/narration_view.h"
#include "teaching/outcome_comparison.h"
#include "teaching/replay_panel.h"
#include "teaching/replay_pttl_plot.h"
#include "teaching/scenario_param_form.h"
#include "teaching/timeline_lanes.h"
#include "ui_test_support.h"
#include "widgets/connection_sidebar.h"
#include "widgets/main_window.h"

using namespace lockscope;
using namespace lockscope::ui;

namespace {

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
    return p;
}

// The first beat whose next beat asks a question (so the prompt shows), else the middle.
int beatWithAQuestion(const sim::Replay& replay) {
    const auto& beats = replay.beats();
    for (std::size_t i = 1; i < beats.size(); ++i)
        if (beats[i].predict) return static_cast<int>(i) - 1;
    return static_cast<int>(beats.size()) / 2;
}

// The window in presenter mode at a projector's 1280×720. Offscreen "full screen" is the
// offscreen screen's size (800×800): a projector's size instead, with everything else
// presenter mode does (the xvfb run checks the real full screen). Back to normal on the way
// out, whether the test passed or not.
struct ProjectorWindow {
    std::unique_ptr<QSettings> settings;
    MainWindow window;
    bool exposed = false;

    explicit ProjectorWindow(std::unique_ptr<QSettings> s)
        : settings(std::move(s)), window(*settings) {
        window.resize(1280, 720);
        window.show();
        exposed = QTest::qWaitForWindowExposed(&window);
        window.setPresenterMode(true);
        window.showNormal();
        window.setFixedSize(1280, 720);
        QCoreApplication::processEvents();
    }
    ~ProjectorWindow() {
        window.setMinimumSize(0, 0);
        window.setMaximumSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX);
        window.setPresenterMode(false);
    }
};

// The normal window (sidebar, no presenter zoom) on a 1280×720 screen: offscreen's screen
// is 800×800, so the window is held at the projector's size, as a window manager holds a
// maximized window at its screen's size.
struct Normal720pWindow {
    std::unique_ptr<QSettings> settings;
    MainWindow window;
    bool exposed = false;

    explicit Normal720pWindow(std::unique_ptr<QSettings> s)
        : settings(std::move(s)), window(*settings) {
        window.setFixedSize(1280, 720);
        window.show();
        exposed = QTest::qWaitForWindowExposed(&window);
        window.tabs()->setCurrentWidget(window.teaching());
        QCoreApplication::processEvents();
    }
    ~Normal720pWindow() {
        window.setMinimumSize(0, 0);
        window.setMaximumSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX);
    }
};

// Wholly inside the window's visible area and laid out tall enough to be read.
bool onScreen(QWidget* w, QWidget* window) {
    const QRect where(w->mapTo(window, QPoint(0, 0)), w->size());
    return w->isVisible() && window->rect().contains(where) && where.height() > 0;
}

// Loads every story in turn into the panel and runs check(name) on it: the per-story
// tests' loop. False (the test has failed) when a story did not load or a check failed,
// which ends the loop there, as a QVERIFY in a plain loop did.
template <typename Check>
bool forEachStory(ReplayPanel* panel, Check check) {
    for (const sim::Scenario& story : sim::scenarios()) {
        const QString name = QString::fromStdString(story.name);
        if (!QTest::qVerify(panel->loadScenario(name), "panel->loadScenario(name)", "", __FILE__,
                            __LINE__))
            return false;
        check(name);
        if (QTest::currentTestFailed()) return false;
    }
    return true;
}

// Every bar label the lanes drew at the current beat fits its box (width and height, at its
// font) and its box lies in the room it was given (its bar, or the free row beside it).
// The labels drawn are counted into `drawn`.
void checkBarLabels(TimelineLanes* lanes, const QString& where, int& drawn) {
    lanes->repaint();  // paints now: what each bar drew is recorded
    const auto& labels = lanes->drawnLabels();
    for (std::size_t i = 0; i < labels.size(); ++i) {
        const TimelineLanes::DrawnLabel& label = labels[i];
        ++drawn;
        // Not over another label (a Redlock client's five bars, one over the other).
        for (std::size_t j = 0; j < i; ++j)
            QVERIFY2(!labels[j].rect.intersects(label.rect),
                     qPrintable(where + QStringLiteral(": \"") + label.text +
                                QStringLiteral("\" over \"") + labels[j].text + u'"'));
        const QFontMetricsF metrics(label.font);
        const QString what = where + QStringLiteral(": \"") + label.text +
                             QStringLiteral("\" needs %1×%2 px, has %3×%4")
                                 .arg(metrics.horizontalAdvance(label.text))
                                 .arg(metrics.height())
                                 .arg(label.rect.width())
                                 .arg(label.rect.height());
        QVERIFY2(metrics.horizontalAdvance(label.text) <= label.rect.width() + 0.5,
                 qPrintable(what));
        QVERIFY2(metrics.height() <= label.rect.height() + 0.5, qPrintable(what));
        QVERIFY2(label.space.adjusted(-0.5, -0.5, 0.5, 0.5).contains(label.rect), qPrintable(what));
    }
}

}  // namespace

class TeachingRoomTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    std::unique_ptr<QSettings> settings() {
        return std::make_unique<QSettings>(dir_.filePath(QStringLiteral("lockscope.ini")),
                                           QSettings::IniFormat);
    }

  private slots:
    void cleanup() { LaneFonts::zoom() = 1.0; }

    void theWindowFitsA720pProjector() {
        auto s = settings();
        MainWindow window(*s);
        window.resize(1280, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.tabs()->setCurrentWidget(window.teaching());
        QCoreApplication::processEvents();
        // The connection sidebar serves the Locks tab only.
        QVERIFY(!window.sidebar()->isVisible());
        QVERIFY(window.height() <= 720);
        QVERIFY2(window.minimumSizeHint().height() <= 720,
                 qPrintable(QString::number(window.minimumSizeHint().height())));
        ReplayPanel* panel = window.teaching();
        // The narration shows several lines, not one.
        const int line = QFontMetrics(panel->narration()->font()).lineSpacing();
        QVERIFY2(panel->narration()->viewport()->height() >= 3 * line,
                 qPrintable(QString::number(panel->narration()->viewport()->height())));
        // No header of the table is narrower than "broken-report".
        QHeaderView* header = panel->comparison()->horizontalHeader();
        const int word =
            QFontMetrics(header->font()).horizontalAdvance(QStringLiteral("broken-report"));
        // (The whole-night totals wait for the story's end, hidden: issue 35 item 12.)
        for (int c = 0; c < panel->comparison()->columnCount(); ++c)
            if (!panel->comparison()->isColumnHidden(c))
                QVERIFY2(header->sectionSize(c) >= word, qPrintable(QString::number(c)));
        window.tabs()->setCurrentIndex(0);
        QVERIFY(window.sidebar()->isVisible());
    }

    void theWindowNeverOutgrowsItsScreenWithAnyStory() {
        // Nine lanes and the PTTL plot made the window 789 px tall on a 720p screen (seen in
        // scripts/window-check-presenter under Xvfb): its bottom, the table and the verdict,
        // below the screen's edge. Run under `xvfb-run -s "-screen 0 1280x720x24"` with
        // QT_QPA_PLATFORM=xcb to check a projector's screen; offscreen's is 800×800.
        auto s = settings();
        MainWindow window(*s);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.tabs()->setCurrentWidget(window.teaching());
        const int screen = window.screen()->availableGeometry().height();
        forEachStory(window.teaching(), [&](const QString& name) {
            QCoreApplication::processEvents();
            QVERIFY2(window.minimumSizeHint().height() <= screen,
                     qPrintable(name + QStringLiteral(": needs ") +
                                QString::number(window.minimumSizeHint().height())));
            QVERIFY2(window.height() <= screen,
                     qPrintable(name + QStringLiteral(": ") + QString::number(window.height())));
        });
    }

    void thePredictPromptIsInViewWhenPlaybackStops() {
        auto s = settings();
        MainWindow window(*s);
        window.resize(1280, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        ReplayPanel* panel = window.teaching();
        window.tabs()->setCurrentWidget(panel);
        panel->setSpeed(50);
        panel->setPlaying(true);
        QTRY_VERIFY_WITH_TIMEOUT(!panel->isPlaying(), 20000);
        QVERIFY(panel->narration()->showsQuestion());
        QTRY_VERIFY(panel->narration()->questionInView());
        QVERIFY(testing::saveScreenshot(&window, QStringLiteral("teaching-720p-predict")));
    }

    void presenterModeIsFullScreenWithoutChromeAndZooms() {
        auto s = settings();
        MainWindow window(*s);
        window.resize(1280, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        ReplayPanel* panel = window.teaching();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(&window, Qt::Key_F11);
        QVERIFY(window.presenterMode());
        QVERIFY(window.isFullScreen());
        QCOMPARE(window.tabs()->currentWidget(), panel);
        QVERIFY(!window.sidebar()->isVisible());
        QVERIFY(!window.tabs()->tabBar()->isVisible());
        QVERIFY(!panel->sidebar()->isVisible());
        QVERIFY(panel->zoom() > 1.0);
        const double presenterZoom = panel->zoom();
        panel->setFocus();
        QTest::keyClick(panel, Qt::Key_Equal, Qt::ControlModifier);
        QVERIFY(panel->zoom() > presenterZoom);
        QTest::keyClick(panel, Qt::Key_Minus, Qt::ControlModifier);
        QTest::keyClick(panel, Qt::Key_Minus, Qt::ControlModifier);
        QVERIFY(panel->zoom() < presenterZoom);
        QTest::keyClick(panel, Qt::Key_0, Qt::ControlModifier);
        QCOMPARE(panel->zoom(), presenterZoom);
        QTest::keyClick(&window, Qt::Key_F11);
        QVERIFY(!window.presenterMode());
        QVERIFY(!window.isFullScreen());
        QVERIFY(panel->sidebar()->isVisible());
        QCOMPARE(panel->zoom(), 1.0);
    }

    void homeAndEndJumpToTheStartAndTheEnd() {
        ReplayPanel panel;
        panel.resize(1280, 720);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.setFocus();
        QTest::keyClick(&panel, Qt::Key_End);
        QVERIFY(panel.replay().atEnd());
        QTest::keyClick(&panel, Qt::Key_Home);
        QCOMPARE(panel.replay().currentBeat(), -1);
    }

    void theTableShowsOnlyTheStorysRows() {
        ReplayPanel panel;
        QVERIFY(panel.loadScenario(QStringLiteral("expiry-race")));
        QVERIFY(!panel.comparison()->visibleRowLabels().contains(QStringLiteral("Emails sent")));
        QVERIFY(!panel.comparison()->visibleRowLabels().isEmpty());
        QVERIFY(panel.loadScenario(QStringLiteral("redlock-gc-pause")));
        QVERIFY(
            !panel.comparison()->visibleRowLabels().contains(QStringLiteral("Seats sold twice")));
        QVERIFY(panel.loadScenario(QStringLiteral("broken-report")));
        QVERIFY(panel.comparison()->visibleRowLabels().contains(QStringLiteral("Emails sent")));
    }

    void aForkHappensAtTheTimeTheMenuSays() {
        ReplayPanel panel;
        const sim::VirtualMs at = 13'913;
        emit panel.lanes()->pauseRequested(QStringLiteral("A"), at, 5'000);
        QVERIFY2(panel.lastError().isEmpty(), qPrintable(panel.lastError()));
        QCOMPARE(panel.replay().forks().size(), std::size_t(1));
        QCOMPARE(panel.replay().forks().front().at, at);
        bool pausedThen = false;
        for (const auto& e : panel.replay().recording().events)
            pausedThen |= e.kind == sim::EventKind::PauseStarted && e.time == at && e.actor == "A";
        QVERIFY(pausedThen);
        // The sidebar names the fork.
        auto* forks = panel.findChild<QLabel*>(QStringLiteral("replayForks"));
        QVERIFY(forks && forks->text().contains(QStringLiteral("13.913")));
    }

    void changedParametersAreMarkedAndReset() {
        ReplayPanel panel;
        const QString name = panel.paramForm()->names().first();
        QSpinBox* box = panel.paramForm()->editor(name);
        QVERIFY(!panel.paramForm()->isChanged(name));
        box->setValue(box->value() + 1);
        QVERIFY(panel.paramForm()->isChanged(name));
        panel.paramForm()->resetToDefaults();
        QVERIFY(!panel.paramForm()->isChanged(name));
        QCOMPARE(panel.replay().params(), panel.replay().scenario().defaults());
    }

    void commandsReadAsTheGuideWritesThem() {
        ReplayPanel panel;
        QVERIFY(panel.loadScenario(QStringLiteral("fixed-report")));
        bool sawScript = false;
        while (!panel.replay().atEnd()) {
            panel.stepForward();
            const QString text = panel.narration()->plainText();
            QVERIFY2(!text.contains(QStringLiteral("EVALSHA")), qPrintable(text));
            sawScript |= text.contains(QStringLiteral("acquire(lock:"));
        }
        QVERIFY(sawScript);
        QVERIFY(panel.loadScenario(QStringLiteral("redlock-gc-pause")));
        for (int i = 0; i < 6; ++i) {
            panel.stepForward();
            QVERIFY(!panel.narration()->plainText().contains(QStringLiteral("A> ")));
        }
    }

    void aScenarioFileReopensTheSameStory() {
        ReplayPanel panel;
        QVERIFY(panel.loadScenario(QStringLiteral("fixed-report")));
        QVERIFY(panel.setParam(
            panel.paramForm()->names().first(),
            panel.paramForm()->editor(panel.paramForm()->names().first())->value() + 1));
        QVERIFY(panel.pauseInstanceAt(QStringLiteral("A"), 9'000, 30'000));
        panel.seek(6);
        const QString path = dir_.filePath(QStringLiteral("class.lockscope"));
        QVERIFY(panel.saveScenario(path));
        ReplayPanel other;
        QVERIFY2(other.openScenario(path), qPrintable(other.lastError()));
        QCOMPARE(other.replay().transcript(), panel.replay().transcript());
        QCOMPARE(other.replay().currentBeat(), 6);
        QCOMPARE(other.replay().forks(), panel.replay().forks());
        QVERIFY(
            other.commandLine().startsWith(QStringLiteral("lockscope-cli replay fixed-report")));
        QVERIFY(other.commandLine().contains(QStringLiteral("--pause A@9000+30000")));
        // A bad file: a clear error, and the story on screen does not change.
        QFile bad(dir_.filePath(QStringLiteral("bad.lockscope")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("\x89PNG garbage");
        bad.close();
        const std::string before = other.replay().transcript();
        QVERIFY(!other.openScenario(bad.fileName()));
        QVERIFY(other.lastError().contains(QStringLiteral("not JSON")));
        QCOMPARE(other.replay().transcript(), before);
        // The window opens one too (what `lockscope FILE` does).
        auto s = settings();
        MainWindow window(*s);
        QVERIFY(window.openScenario(path));
        QCOMPARE(window.tabs()->currentWidget(), window.teaching());
        QCOMPARE(window.teaching()->replay().transcript(), panel.replay().transcript());
    }

    void slidesCarryTheTitleTheNarrationTheTableAndTheFork() {
        ReplayPanel panel;
        panel.resize(1280, 720);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(panel.loadScenario(QStringLiteral("fixed-report")));
        QVERIFY(panel.pauseInstanceAt(QStringLiteral("B"), 40'000, 20'000));
        panel.seek(14);
        QVERIFY(panel.forkNote().contains(QStringLiteral("B frozen 20 s at 40.000s")));
        const QString png = dir_.filePath(QStringLiteral("slide.png"));
        QVERIFY(panel.exportPng(png));
        QImage image(png);
        QCOMPARE(image.size(), QSize(3200, 1800));  // 1600×900 at 2×
        QVERIFY(panel.exportPng(dir_.filePath(QStringLiteral("small.png")), QSize(1280, 720), 1));
        QCOMPARE(QImage(dir_.filePath(QStringLiteral("small.png"))).size(), QSize(1280, 720));
        QVERIFY(!panel.exportPng(dir_.filePath(QStringLiteral("huge.png")), QSize(90000, 10), 2));
        QVERIFY(!panel.exportPng(dir_.filePath(QStringLiteral("no/such/dir/x.png"))));
        // One page per beat, and the beat on screen is where it was.
        const QString pdf = dir_.filePath(QStringLiteral("slides.pdf"));
        QVERIFY(panel.exportSlides(pdf));
        QCOMPARE(panel.replay().currentBeat(), 14);
        QFile file(pdf);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        QVERIFY(bytes.startsWith("%PDF"));
        const qsizetype pages = bytes.count("/Type /Page\n") + bytes.count("/Type /Page\r") +
                                bytes.count("/Type /Page ") + bytes.count("/Type /Page>");
        QCOMPARE(pages, static_cast<qsizetype>(panel.replay().beats().size()));
        // Kept beside the screenshots for a person to open.
        const QString kept =
            testing::screenshotPath(QStringLiteral("teaching-slide-fixed-report-fork"));
        QFile::remove(kept);
        QVERIFY(QFile::copy(png, kept));
        const QString keptPdf =
            QString(kept).replace(QStringLiteral(".png"), QStringLiteral("-slides.pdf"));
        QFile::remove(keptPdf);
        QVERIFY(QFile::copy(pdf, keptPdf));
    }

    void theExploreTableOpensACounterexample() {
        ReplayPanel panel;
        QVERIFY(panel.loadScenario(QStringLiteral("broken-report")));
        sim::ExploreResult result = panel.exploreFaults(60);
        QCOMPARE(result.schedules, 60);
        std::unique_ptr<QTableWidget> table(ReplayPanel::exploreTable(result));
        QCOMPARE(table->rowCount(), 4);
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("mutual exclusion"));
        QVERIFY(table->item(0, 1)->text().endsWith(QStringLiteral("of 60")));
        const int stale = static_cast<int>(sim::Property::StaleWriteAccepted);
        QVERIFY(result.properties[stale].shortest);
        QVERIFY(panel.openCounterexample(result, stale));
        QCOMPARE(panel.replay().forks(), result.properties[stale].shortest->forks);
        QVERIFY(!panel.openCounterexample(result, 7));
    }

    void thePresenterTableFitsA720pProjector() {
        // Every row and column of each story's table in view at 1280×720 (no scroll bar),
        // with the narration still a few lines tall and the lanes the larger part.
        ProjectorWindow projector(settings());
        QVERIFY(projector.exposed);
        MainWindow& window = projector.window;
        ReplayPanel* panel = window.teaching();
        OutcomeComparison* table = panel->comparison();
        forEachStory(panel, [&](const QString& name) {
            panel->seek(static_cast<int>(panel->replay().beats().size()) - 1);
            QCoreApplication::processEvents();
            QVERIFY(testing::saveScreenshot(
                &window, QStringLiteral("teaching-presenter-720p-end-%1").arg(name)));
            QVERIFY2(table->horizontalScrollBar()->maximum() == 0,
                     qPrintable(name + QStringLiteral(" scrolls sideways by ") +
                                QString::number(table->horizontalScrollBar()->maximum())));
            QVERIFY2(table->verticalScrollBar()->maximum() == 0,
                     qPrintable(name + QStringLiteral(" scrolls down by ") +
                                QString::number(table->verticalScrollBar()->maximum())));
            // The box, its scrolling text and the verdict pinned under it together.
            const int line = QFontMetrics(panel->narration()->font()).lineSpacing();
            QVERIFY2(panel->narration()->contentsRect().height() >= 3 * line, qPrintable(name));
            QVERIFY2(panel->timeline()->height() >= table->height(), qPrintable(name));
        });
    }

    void laneNamesAreWholeInPresenterModeAt720p() {
        // A student reads "reports.db" and "lock:{report:daily}", never "re…db": every lane
        // header of every story shows its whole name at 1280×720 in presenter mode, or (a
        // Redlock node's key lane) its node's name, a whole word, with the full name in the
        // header's tooltip.
        ProjectorWindow projector(settings());
        QVERIFY(projector.exposed);
        MainWindow& window = projector.window;
        ReplayPanel* panel = window.teaching();
        TimelineLanes* lanes = panel->lanes();
        forEachStory(panel, [&](const QString& name) {
            panel->seek(beatWithAQuestion(panel->replay()));
            QCoreApplication::processEvents();
            // Painting fills in what each header drew.
            QVERIFY(testing::saveScreenshot(
                &window, QStringLiteral("teaching-presenter-720p-lanes-%1").arg(name)));
            const auto& all = panel->replay().recording().lanes;
            for (int i = 0; i < static_cast<int>(all.size()); ++i) {
                const QString full = QString::fromStdString(all[i].name);
                const QString shown = lanes->headerName(i);
                const QString where = name + QStringLiteral(": lane \"") + full +
                                      QStringLiteral("\" shows \"") + shown + u'"';
                QVERIFY2(!shown.isEmpty() && !shown.contains(QChar(0x2026)), qPrintable(where));
                const bool whole = shown == full;
                const bool nodeName = full.startsWith(shown + u' ') &&
                                      lanes->headerToolTip(i).contains(full.toHtmlEscaped());
                QVERIFY2(whole || nodeName, qPrintable(where));
                // Inside the header column, not under the time area's markers.
                QVERIFY2(lanes->headerNameRect(i).right() <= lanes->leftMargin(),
                         qPrintable(where));
            }
        });
    }

    void laneStatesAreWholeInPresenterModeAt720p() {
        // Issue 14: at 1280×720 in presenter mode "holds the lock on 5 of 5", "A · fence 1 ·
        // 29.9 s left" and "stale writes rejected: 1" ended in "…", readable only in the
        // tooltip. At every beat of every story, each lane's state fits the box the painter
        // gives it, at its font.
        ProjectorWindow projector(settings());
        QVERIFY(projector.exposed);
        MainWindow& window = projector.window;
        ReplayPanel* panel = window.teaching();
        TimelineLanes* lanes = panel->lanes();
        forEachStory(panel, [&](const QString& name) {
            const int beats = static_cast<int>(panel->replay().beats().size());
            for (int beat = -1; beat < beats; ++beat) {
                panel->seek(beat);
                QCoreApplication::processEvents();
                lanes->repaint();  // paints now: what each header drew is recorded
                for (int i = 0; i < static_cast<int>(panel->replay().recording().lanes.size());
                     ++i) {
                    const TimelineLanes::DrawnState state = lanes->headerState(i);
                    if (state.text.isEmpty()) continue;
                    const QFontMetricsF metrics(state.font);
                    const QString where =
                        QStringLiteral("%1 beat %2 lane %3: \"%4\" needs %5 px, has %6")
                            .arg(name)
                            .arg(beat)
                            .arg(i)
                            .arg(state.text)
                            .arg(metrics.horizontalAdvance(state.text))
                            .arg(state.rect.width());
                    QVERIFY2(metrics.horizontalAdvance(state.text) <= state.rect.width(),
                             qPrintable(where));
                    // Still the lane font's size or near it: not shrunk out of reading.
                    QVERIFY2(state.font.pixelSize() >= LaneFonts::subtitle().pixelSize() - 2,
                             qPrintable(where));
                }
            }
            QVERIFY(testing::saveScreenshot(
                &window, QStringLiteral("teaching-presenter-720p-states-%1").arg(name)));
        });
    }

    void theBookingsLaneSaysWhatTheBookingsTableDid() {
        // Issue 14: seat-hold's bookings lane said "stale writes rejected: 0", the fenced
        // store's wording, while seats were being sold twice in it. At every beat, as told
        // and with fix=1, it counts the rows booked so far and the seats sold twice or the
        // confirmations refused, as the run counted them.
        ReplayPanel panel;
        panel.resize(1280, 720);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(panel.loadScenario(QStringLiteral("seat-hold")));
        for (const qint64 fix : {0, 1}) {
            QVERIFY(panel.setParam(QStringLiteral("fix"), fix));
            const sim::Recording& r = panel.replay().recording();
            int bookings = -1;
            for (std::size_t i = 0; i < r.lanes.size(); ++i)
                if (r.lanes[i].name == "bookings") bookings = static_cast<int>(i);
            QVERIFY(bookings >= 0);
            const int beats = static_cast<int>(panel.replay().beats().size());
            for (int beat = -1; beat < beats; ++beat) {
                panel.seek(beat);
                QCoreApplication::processEvents();
                panel.lanes()->repaint();
                const QString shown = panel.lanes()->headerState(bookings).text;
                const sim::OutcomeSummary& so = panel.replay().outcomeSoFar();
                const QString where =
                    QStringLiteral("fix=%1 beat %2: \"%3\"").arg(fix).arg(beat).arg(shown);
                QVERIFY2(!shown.contains(QStringLiteral("stale")), qPrintable(where));
                QVERIFY2(shown.contains(QString::number(so.bookingsConfirmed)), qPrintable(where));
                if (so.seatsSoldTwice)
                    QVERIFY2(shown.contains(QStringLiteral("%1 sold twice").arg(so.seatsSoldTwice)),
                             qPrintable(where));
                if (so.bookingsRefused)
                    QVERIFY2(shown.contains(QStringLiteral("refused %1").arg(so.bookingsRefused)),
                             qPrintable(where));
            }
            // The story's end shows the harm (as told) or the fix working (fix=1).
            const sim::OutcomeSummary& end = panel.replay().outcome();
            QVERIFY(fix ? end.bookingsRefused > 0 : end.seatsSoldTwice > 0);
        }
        QVERIFY(testing::saveScreenshot(&panel, QStringLiteral("teaching-seat-hold-bookings")));
    }

    void theVerdictAndThePromptStayInViewAt720p() {
        // On a projector the class reads the verdict after the last beat and the question
        // that stops playback: neither may sit below the fold of the narration box, for any
        // story, however long its verdict, nor with the longest question of all.
        ProjectorWindow projector(settings());
        QVERIFY(projector.exposed);
        MainWindow& window = projector.window;
        ReplayPanel* panel = window.teaching();
        NarrationView* narration = panel->narration();
        // Wholly inside the window (onScreen), as the box lays it out (its own checks:
        // under the scrolling text, tall enough for every wrapped line).
        QString longestStory;
        int longestBeat = -1;
        std::size_t longest = 0;
        if (!forEachStory(panel, [&](const QString& name) {
                const auto& beats = panel->replay().beats();
                for (std::size_t i = 0; i < beats.size(); ++i)
                    if (beats[i].predict && beats[i].predict->question.size() > longest) {
                        longest = beats[i].predict->question.size();
                        longestStory = name;
                        longestBeat = static_cast<int>(i);
                    }
                panel->seek(static_cast<int>(beats.size()) - 1);
                QCoreApplication::processEvents();
                QVERIFY(narration->showsVerdict());
                QVERIFY2(narration->verdictInView(), qPrintable(name));
                QVERIFY2(onScreen(narration->pinned(), &window), qPrintable(name));
                QVERIFY2(narration->pinned()->text().contains(
                             QString::fromStdString(sim::runVerdict(panel->replay().outcome()))
                                 .toHtmlEscaped()),
                         qPrintable(name));
                QVERIFY(testing::saveScreenshot(
                    &window, QStringLiteral("teaching-presenter-720p-verdict-%1").arg(name)));
            }))
            return;
        // The longest verdict the counter can give (a lock whose TTL runs out mid-update)
        // names its cause, and it is in view too.
        QVERIFY(panel->loadScenario(QStringLiteral("atomic-counter")));
        QVERIFY(panel->setParam(QStringLiteral("mode"), 1));
        QVERIFY(panel->setParam(QStringLiteral("think_ms"), 1500));
        panel->seek(static_cast<int>(panel->replay().beats().size()) - 1);
        QCoreApplication::processEvents();
        QVERIFY2(
            narration->pinned()->text().contains(QStringLiteral("Why: the lock's TTL ran out")),
            qPrintable(narration->pinned()->text()));
        QVERIFY(narration->verdictInView());
        QVERIFY(onScreen(narration->pinned(), &window));
        QVERIFY(testing::saveScreenshot(
            &window,
            QStringLiteral("teaching-presenter-720p-verdict-atomic-counter-expired-lock")));
        // The longest question of any story, asked before its beat.
        QVERIFY(longestBeat > 0);
        QVERIFY(panel->loadScenario(longestStory));
        panel->seek(longestBeat - 1);
        QCoreApplication::processEvents();
        const QString question = QString::fromStdString(*panel->replay().pendingQuestion());
        QCOMPARE(question.size(), static_cast<qsizetype>(longest));
        QVERIFY(narration->showsQuestion());
        QVERIFY(testing::saveScreenshot(
            &window,
            QStringLiteral("teaching-presenter-720p-longest-prompt-%1").arg(longestStory)));
        QVERIFY2(narration->questionInView(), qPrintable(longestStory));
        QVERIFY(onScreen(narration->pinned(), &window));
        QVERIFY(narration->pinned()->text().contains(question.toHtmlEscaped()));
        QVERIFY(testing::saveScreenshot(
            &window,
            QStringLiteral("teaching-presenter-720p-longest-prompt-%1").arg(longestStory)));
    }

    void theVerdictAndThePromptStayInViewAt720pWithoutPresenterMode() {
        // Issue 14: in the normal window (sidebar, no presenter zoom) at 1280×720 the nine
        // lanes of the Redlock stories pushed the narration box's bottom, and the predict
        // question pinned there, below the window's edge. Every story, its question and its
        // verdict, must be in view.
        Normal720pWindow normal(settings());
        QVERIFY(normal.exposed);
        MainWindow& window = normal.window;
        ReplayPanel* panel = window.teaching();
        NarrationView* narration = panel->narration();
        QVERIFY(!window.presenterMode());
        forEachStory(panel, [&](const QString& name) {
            panel->seek(beatWithAQuestion(panel->replay()));
            QCoreApplication::processEvents();
            QVERIFY(testing::saveScreenshot(
                &window, QStringLiteral("teaching-normal-720p-predict-%1").arg(name)));
            // Every lane whole and in view: the box does not win its room by squeezing or
            // hiding the lanes.
            QVERIFY2(panel->lanes()->height() >= panel->lanes()->minimumSizeHint().height(),
                     qPrintable(name));
            QVERIFY2(onScreen(panel->lanes(), &window), qPrintable(name));
            // A story that asks nothing (atomic-counter) has its verdict only.
            if (panel->replay().pendingQuestion()) {
                QVERIFY2(narration->showsQuestion(), qPrintable(name));
                QVERIFY2(narration->questionInView(), qPrintable(name));
                QVERIFY2(
                    onScreen(narration->pinned(), &window),
                    qPrintable(
                        name + QStringLiteral(": the question at y ") +
                        QString::number(narration->pinned()->mapTo(&window, QPoint(0, 0)).y()) +
                        QStringLiteral(", ") + QString::number(narration->pinned()->height()) +
                        QStringLiteral(" px tall")));
            }
            panel->seek(static_cast<int>(panel->replay().beats().size()) - 1);
            QCoreApplication::processEvents();
            QVERIFY(testing::saveScreenshot(
                &window, QStringLiteral("teaching-normal-720p-verdict-%1").arg(name)));
            QVERIFY2(narration->verdictInView(), qPrintable(name));
            QVERIFY2(onScreen(narration->pinned(), &window), qPrintable(name));
        });
    }

    void theOutcomeTableFitsTheNormalWindowAt720p() {
        // Issue 14: in the normal window (sidebar, no presenter zoom) at 1280×720 the outcome
        // table scrolled sideways, the third column cut at the edge. For every story, at its
        // end: no horizontal scroll bar, every column header whole (each line inside its
        // section, every line's height inside the header), and each row label whole or
        // elided with its whole text in the tooltip.
        Normal720pWindow normal(settings());
        QVERIFY(normal.exposed);
        MainWindow& window = normal.window;
        ReplayPanel* panel = window.teaching();
        OutcomeComparison* table = panel->comparison();
        QVERIFY(!window.presenterMode());
        forEachStory(panel, [&](const QString& name) {
            panel->seek(static_cast<int>(panel->replay().beats().size()) - 1);
            QCoreApplication::processEvents();
            QVERIFY(testing::saveScreenshot(
                &window, QStringLiteral("teaching-normal-720p-table-%1").arg(name)));
            QVERIFY2(table->horizontalScrollBar()->maximum() == 0,
                     qPrintable(name + QStringLiteral(" scrolls sideways by ") +
                                QString::number(table->horizontalScrollBar()->maximum())));
            QHeaderView* header = table->horizontalHeader();
            const QFontMetrics headerFont(header->font());
            const int margin =
                header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
            int columns = 0;
            for (int c = 0; c < table->columnCount(); ++c) {
                const QStringList lines = table->horizontalHeaderItem(c)->text().split(u'\n');
                QVERIFY2(header->height() >= lines.size() * headerFont.height(),
                         qPrintable(name + QStringLiteral(": header %1 px for %2 lines")
                                               .arg(header->height())
                                               .arg(lines.size())));
                for (const QString& line : lines)
                    QVERIFY2(
                        header->sectionSize(c) >= headerFont.horizontalAdvance(line) + 2 * margin,
                        qPrintable(name + QStringLiteral(": \"") + line +
                                   QStringLiteral("\" in %1 px").arg(header->sectionSize(c))));
                columns += header->sectionSize(c);
            }
            // Every column in view: the columns end inside the viewport.
            QVERIFY2(columns <= table->viewport()->width(), qPrintable(name));
            QHeaderView* rows = table->verticalHeader();
            const QFontMetrics rowFont(rows->font());
            for (int r = 0; r < table->rowCount(); ++r) {
                const QString label = table->verticalHeaderItem(r)->text();
                const QString shown = table->shownRowLabel(r);
                const QString where = name + QStringLiteral(": row \"") + label +
                                      QStringLiteral("\" shows \"") + shown +
                                      QStringLiteral("\" in %1 px").arg(rows->width());
                // Whole, or elided with "…" and whole in the tooltip; never cut mid-letter.
                QVERIFY2(rowFont.horizontalAdvance(shown) + 2 * margin <= rows->width(),
                         qPrintable(where));
                QVERIFY2(shown == label || (shown.endsWith(QChar(0x2026)) &&
                                            table->verticalHeaderItem(r)->toolTip() == label),
                         qPrintable(where));
            }
        });
    }

    void barLabelsAreDrawnOnlyWhereTheyFit() {
        // Issue 14: on short lanes (nine of them at 720p) a bar's label was set in a 9-px
        // font on a bar two pixels tall: half of each letter hidden. A label is drawn whole
        // inside its bar, or beside it in the free row, or not at all (its tooltip has it),
        // at every beat of every story, on a projector and on a large window.
        int drawnOnProjector = 0;
        {
            ProjectorWindow projector(settings());
            QVERIFY(projector.exposed);
            ReplayPanel* panel = projector.window.teaching();
            if (!forEachStory(panel, [&](const QString& name) {
                    const int beats = static_cast<int>(panel->replay().beats().size());
                    for (int beat = 0; beat < beats; ++beat) {
                        panel->seek(beat);
                        checkBarLabels(panel->lanes(),
                                       QStringLiteral("720p %1 beat %2").arg(name).arg(beat),
                                       drawnOnProjector);
                        if (QTest::currentTestFailed()) return;
                    }
                }))
                return;
        }
        int drawnLarge = 0;
        ReplayPanel panel;
        panel.resize(1600, 1000);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        if (!forEachStory(&panel, [&](const QString& name) {
                const int beats = static_cast<int>(panel.replay().beats().size());
                for (int beat = 0; beat < beats; ++beat) {
                    panel.seek(beat);
                    checkBarLabels(panel.lanes(),
                                   QStringLiteral("1600x1000 %1 beat %2").arg(name).arg(beat),
                                   drawnLarge);
                    if (QTest::currentTestFailed()) return;
                }
                QVERIFY(testing::saveScreenshot(
                    &panel, QStringLiteral("teaching-bar-labels-%1").arg(name)));
            }))
            return;
        // Where the bars are tall enough, their labels are still there.
        QVERIFY2(drawnLarge > 0, qPrintable(QString::number(drawnLarge)));
    }

    void everyStoryInPresenterModeAt720p() {
        ProjectorWindow projector(settings());
        QVERIFY(projector.exposed);
        MainWindow& window = projector.window;
        ReplayPanel* panel = window.teaching();
        for (bool dark : {false, true}) {
            window.setPalette(dark ? darkPalette() : QApplication::style()->standardPalette());
            if (!forEachStory(panel, [&](const QString& name) {
                    panel->seek(beatWithAQuestion(panel->replay()));
                    panel->pttlPlot()->redraw();
                    QCoreApplication::processEvents();
                    QVERIFY(testing::saveScreenshot(
                        &window,
                        QStringLiteral("teaching-presenter-720p-%1-%2")
                            .arg(name, dark ? QStringLiteral("dark") : QStringLiteral("light"))));
                }))
                return;
        }
    }
};

QTEST_MAIN(TeachingRoomTest)
#include "tst_teaching_room.moc"
