// The Sentinels' own password in the window (tests/support/sentinel_fixture with requirepass on
// the Sentinels): typed into the URL (?sentinel-password=), it moves to the dialog's masked
// Sentinel password field and reaches the Sentinels from the dialog's Test and the window, goes to
// the keychain under its own id and never into the settings file; a window that reloads the
// connection gets it from the keychain or, as here where no keychain answers ("Cannot autolaunch
// D-Bus"), asks for it. A wrong or empty one is a clear failure, not endless retries.
#include <QApplication>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QInputDialog>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <optional>

#include "command_log_search.h"
#include "lockscope/connection.h"
#include "models/lock_table_model.h"
#include "sentinel_fixture.h"
#include "session/connection_hub.h"
#include "session/profile_store.h"
#include "ui_test_support.h"
#include "widgets/connection_dialog.h"
#include "widgets/connection_sidebar.h"
#include "widgets/lock_inspector_view.h"
#include "widgets/main_window.h"

using namespace lockscope;
using namespace lockscope::ui;

namespace {

// Quotes, '#', '&', '%', '=' and a space: everything a URL or a config file could mangle.
const std::string kSentinelPassword = "s3nt #&%=\"pw";

template <class Widget>
Widget* shownTopLevel() {
    for (QWidget* w : QApplication::topLevelWidgets())
        if (auto* found = qobject_cast<Widget*>(w); found && found->isVisible()) return found;
    return nullptr;
}

// Answers the next question the window asks (a password prompt) with text, or cancels it
// (answer empty optional); the prompt's label goes to *label.
void answerNextPrompt(const std::optional<QString>& answer, QString* label) {
    auto* poll = new QTimer;
    poll->setInterval(20);
    QObject::connect(poll, &QTimer::timeout, poll, [poll, answer, label] {
        auto* prompt = shownTopLevel<QInputDialog>();
        if (!prompt) return;
        *label = prompt->labelText();
        if (answer) {
            prompt->setTextValue(*answer);
            prompt->accept();
        } else {
            prompt->reject();
        }
        poll->deleteLater();
        poll->stop();
    });
    poll->start();
}

ConnectionState lastState(const QSignalSpy& states) {
    return states.isEmpty() ? ConnectionState::Stopped : states.last()[1].value<ConnectionState>();
}

}  // namespace

class SentinelCredentialsTest : public QObject {
    Q_OBJECT

  private slots:
    void theSentinelPasswordIsKeptOutOfTheSettingsAndAskedForAtConnect() {
        lockscope::testing::SentinelGroup group("mymaster", kSentinelPassword);
        const std::string key = "lock:{payroll-run}";
        {
            Connection primary = Connection::open(group.server(0).endpoint());
            primary.command({"SET", key, "payroll-1", "PX", "120000"});
        }
        const QString url = QString::fromStdString(group.url());
        QVERIFY(url.contains(QStringLiteral("?sentinel-password=")));
        const QString instance = QString::fromStdString(group.target().display());

        QTemporaryDir config;
        const QString iniPath = config.filePath("lockscope.ini");
        QString id;
        {
            // File → Add connection, as the operator does it: the URL with the Sentinels'
            // password, Test, "Remember", OK.
            QSettings settings(iniPath, QSettings::IniFormat);
            MainWindowOptions options;
            options.auditLogPath = config.filePath("audit.jsonl");
            MainWindow w(settings, options);
            w.resize(1280, 720);
            w.show();
            QString testSaid;
            QString urlShown;
            QString fieldHolds;
            bool dialogFound = false;
            QSignalSpy messages(w.statusBar(), &QStatusBar::messageChanged);
            QTimer::singleShot(0, &w, [&] {
                auto* dialog = shownTopLevel<ConnectionDialog>();
                dialogFound = dialog != nullptr;
                if (!dialog) return;  // addConnection's dialog stays open: the test times out
                dialog->urlEdit()->setText(url);
                emit dialog->urlEdit()->textEdited(url);
                // Moved out of the URL into the masked field, which Test and OK use.
                urlShown = dialog->urlEdit()->text();
                fieldHolds = dialog->sentinelPasswordEdit()->text();
                QSignalSpy tested(dialog, &ConnectionDialog::testFinished);
                dialog->testButton()->click();
                tested.wait(10000);
                testSaid = dialog->testResult();
                for (QCheckBox* box : dialog->findChildren<QCheckBox*>())
                    if (box->text().contains(QStringLiteral("Remember"))) box->setChecked(true);
                lockscope::ui::testing::saveScreenshot(dialog,
                                                       QStringLiteral("sentinel-password-dialog"));
                dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
            });
            w.addConnection();
            QVERIFY(dialogFound);
            QCOMPARE(fieldHolds, QString::fromStdString(kSentinelPassword));
            QCOMPARE(urlShown, instance);
            // Test reached the primary through the Sentinels, with their password.
            QVERIFY2(testSaid.contains(
                         QStringLiteral("the primary of mymaster is %1")
                             .arg(QString::fromStdString(group.server(0).endpoint().display()))),
                     qPrintable(testSaid));
            // No keychain here: the window says the password was not stored.
            auto saidNotStored = [&] {
                for (const auto& args : messages)
                    if (args[0].toString().contains(QStringLiteral("Sentinel password not stored")))
                        return true;
                return false;
            };
            QTRY_VERIFY_WITH_TIMEOUT(saidNotStored(), 5000);
            LockTableModel* model = w.inspector()->model();
            QTRY_VERIFY_WITH_TIMEOUT(model->rowOf(instance, QString::fromStdString(key)) >= 0,
                                     15000);
            QCOMPARE(w.sidebar()->profiles().size(), 1);
            id = w.sidebar()->profiles().first().id;
        }

        // The settings file holds that a Sentinel password is needed, never the password.
        QFile ini(iniPath);
        QVERIFY(ini.open(QIODevice::ReadOnly));
        const QByteArray saved = ini.readAll();
        for (const QByteArray& secret : {QByteArray::fromStdString(kSentinelPassword),
                                         QByteArray("s3nt"), QByteArray("sentinel-password")})
            QVERIFY2(!saved.contains(secret), saved.constData());
        QVERIFY2(saved.contains("needsSentinelPassword=true"), saved.constData());
        {
            QSettings settings(iniPath, QSettings::IniFormat);
            const QList<ConnectionProfile> loaded = ProfileStore(settings).load();
            QCOMPARE(loaded.size(), 1);
            QCOMPARE(loaded[0].sentinelUrl, instance);
            QVERIFY(loaded[0].needsSentinelPassword);
            QVERIFY(loaded[0].sentinelPassword.isEmpty());
        }

        // A new window from the saved settings: at start-up nothing is asked (the keychain
        // gives nothing), so the connection waits for the operator.
        QSettings settings(iniPath, QSettings::IniFormat);
        MainWindowOptions options;
        options.auditLogPath = config.filePath("audit2.jsonl");
        MainWindow w(settings, options);
        QSignalSpy states(w.hub(), &ConnectionHub::stateChanged);
        w.resize(1280, 720);
        w.show();
        QTest::qWait(1000);
        QVERIFY(!w.hub()->isOpen(id));
        QVERIFY(!shownTopLevel<QInputDialog>());

        // Connect: asked for the Sentinels' password (named as theirs), and connected with it.
        QString label;
        answerNextPrompt(QString::fromStdString(kSentinelPassword), &label);
        w.connectProfile(id);
        QTRY_VERIFY_WITH_TIMEOUT(!label.isEmpty(), 5000);
        QCOMPARE(label, QStringLiteral("Password of the Sentinels of %1:").arg(instance));
        LockTableModel* model = w.inspector()->model();
        QTRY_VERIFY_WITH_TIMEOUT(model->rowOf(instance, QString::fromStdString(key)) >= 0, 15000);
        QTRY_VERIFY_WITH_TIMEOUT(lastState(states) == ConnectionState::Connected, 5000);
        QVERIFY(
            lockscope::ui::testing::saveScreenshot(&w, QStringLiteral("sentinel-password-window")));

        // A cancelled question opens nothing.
        w.connectProfile(id);  // disconnect
        QTRY_VERIFY(!w.hub()->isOpen(id));
        label.clear();
        answerNextPrompt(std::nullopt, &label);
        w.connectProfile(id);
        QTRY_VERIFY_WITH_TIMEOUT(!label.isEmpty(), 5000);
        QTest::qWait(300);
        QVERIFY(!w.hub()->isOpen(id));

        // A wrong password, then an empty one: each a failure that says the Sentinels refused
        // it, once, not a connection retried for ever.
        for (const QString& typed : {QStringLiteral("wrong"), QString()}) {
            label.clear();
            states.clear();
            answerNextPrompt(typed, &label);
            w.connectProfile(id);
            QTRY_VERIFY_WITH_TIMEOUT(w.hub()->isOpen(id), 5000);
            QTRY_VERIFY_WITH_TIMEOUT(lastState(states) == ConnectionState::Failed, 10000);
            const QString shown = states.last()[2].toString();
            QVERIFY2(shown.contains(QStringLiteral("no primary found for service \"mymaster\"")),
                     qPrintable(shown));
            QVERIFY2(shown.contains(typed.isEmpty() ? QStringLiteral("NOAUTH")
                                                    : QStringLiteral("WRONGPASS")),
                     qPrintable(shown));
            QVERIFY2(!shown.contains(QString::fromStdString(kSentinelPassword)), qPrintable(shown));
            QTest::qWait(1500);  // a retry would come 0.5 s, then 1 s later
            for (const auto& args : states)
                QVERIFY(args[1].value<ConnectionState>() != ConnectionState::Reconnecting);
            w.connectProfile(id);  // disconnect (the hub still holds the failed session)
            QTRY_VERIFY(!w.hub()->isOpen(id));
        }
    }
};

QTEST_MAIN(SentinelCredentialsTest)
#include "tst_sentinel_credentials.moc"
