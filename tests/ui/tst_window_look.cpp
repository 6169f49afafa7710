// How the window looks where it is hardest to get right: a dark palette at a device pixel
// ratio of 2, and the first run with no connection. Saves screenshots to look at.
#include <QApplication>
#include <QPalette>
#include <QPushButton>
#include <QSettings>
#include <QStyleFactory>
#include <QTemporaryDir>
#include <QTest>

#include "lockscope/sandbox/demo_workload.h"
#include "lockscope/sandbox/local_redis_server.h"
#include "models/lock_table_model.h"
#include "session/sandbox_session.h"
#include "ui_test_support.h"
#include "widgets/connection_sidebar.h"
#include "widgets/eliding_status_bar.h"
#include "widgets/load_indicator.h"
#include "widgets/lock_inspector_view.h"
#include "widgets/main_window.h"

using namespace lockscope;
using namespace lockscope::ui;

namespace {

QPalette darkPalette() {
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x30));
    p.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Base, QColor(0x1e, 0x1f, 0x22));
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2b));
    p.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Button, QColor(0x35, 0x37, 0x3b));
    p.setColor(QPalette::ButtonText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Highlight, QColor(0x3b, 0x6e, 0xa8));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::ToolTipBase, QColor(0x35, 0x37, 0x3b));
    p.setColor(QPalette::ToolTipText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::PlaceholderText, QColor(0x90, 0x90, 0x90));
    p.setColor(QPalette::Mid, QColor(0x60, 0x60, 0x60));
    return p;
}

}  // namespace

class WindowLookTest : public QObject {
    Q_OBJECT
  private slots:
    void firstRunOffersTheSandbox() {
        QTemporaryDir dir;
        QSettings settings(dir.filePath("lockscope.ini"), QSettings::IniFormat);
        MainWindow w(settings);
        w.resize(1200, 760);
        w.show();
        auto* start = w.findChild<QPushButton*>(QStringLiteral("welcomeSandbox"));
        QVERIFY(start && start->isVisible());
        QVERIFY(testing::saveScreenshot(&w, "first-run"));
        start->click();  // the embedded default: a private redis-server with demo locks
        QTRY_VERIFY_WITH_TIMEOUT(w.sandbox()->isRunning(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(w.inspector()->model()->rowCount() >= 4, 10000);
    }

    void aLongStatusMessageEndsBeforeTheLoadIndicatorAt1280() {
        // At 1280 px the keyspace note ran under the load indicator and was cut mid-word
        // ("…never switches them o"): it must end in "…" before it, whole in the tooltip.
        QTemporaryDir dir;
        QSettings settings(dir.filePath("lockscope.ini"), QSettings::IniFormat);
        MainWindow w(settings);
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* bar = qobject_cast<ElidingStatusBar*>(w.statusBar());
        QVERIFY(bar);
        auto* load = bar->findChild<LoadIndicator*>();
        QVERIFY(load);
        QTRY_VERIFY(load->isVisible() && load->x() > 0);
        const QString note = QStringLiteral(
            "rediss://cache-prod-eu-west-1.example.internal:6380: keyspace notifications are off "
            "on this server (notify-keyspace-events \"\"): changes are seen by polling every "
            "500 ms; LockScope never switches them on");
        bar->showMessage(note);
        const QString shown = bar->shownMessage();
        QVERIFY2(shown.endsWith(QChar(0x2026)), qPrintable(shown));
        QVERIFY2(bar->fontMetrics().horizontalAdvance(shown) <= load->x() - 8,
                 qPrintable(QStringLiteral("%1 px of text, the indicator at %2")
                                .arg(bar->fontMetrics().horizontalAdvance(shown))
                                .arg(load->x())));
        QCOMPARE(bar->toolTip(), note);
        QVERIFY(testing::saveScreenshot(&w, "status-bar-1280"));
    }

    void darkPaletteAtTwiceThePixelRatio() {
        QCOMPARE(qApp->devicePixelRatio(), 2.0);
        qApp->setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        qApp->setPalette(darkPalette());
        LocalRedisServer server;
        DemoWorkload workload(server.endpoint());
        QTemporaryDir dir;
        QSettings settings(dir.filePath("lockscope.ini"), QSettings::IniFormat);
        MainWindowOptions options;
        options.extra.append(
            ConnectionProfile::create(QStringLiteral("dark sandbox"), server.endpoint()));
        MainWindow w(settings, options);
        w.resize(1300, 820);
        w.show();
        QTRY_VERIFY_WITH_TIMEOUT(w.inspector()->model()->rowCount() >= 4, 10000);
        w.inspector()->selectKey(QString::fromStdString(server.endpoint().display()),
                                 QStringLiteral("lock:{report:nightly}"));
        QTest::qWait(2500);
        QPixmap shot = w.grab();
        QCOMPARE(shot.devicePixelRatio(), 2.0);
        QVERIFY(shot.width() >= 2 * 1300 - 2);
        QVERIFY(shot.save(testing::screenshotPath("main-window-dark-2x")));
    }
};

int main(int argc, char** argv) {
    qputenv("QT_SCALE_FACTOR", "2");
    QApplication app(argc, argv);
    WindowLookTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_window_look.moc"
