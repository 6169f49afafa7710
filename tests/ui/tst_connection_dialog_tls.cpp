// The connection dialog's TLS section against a real TLS-only redis-server (certificates
// made for the run with lib's writeTlsCertificates): Test reports protocol, cipher, the
// server certificate's subject and expiry; a CA that did not sign the server is refused with
// the issuer named; verification off is loudly marked and reported as not verified; a
// profile keeps the TLS paths and switches and never a key's contents; the window, given the
// profile the dialog made, fills its lock table from the TLS-only server. Saves screenshots.
#include <QApplication>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "lockscope/sandbox/local_redis_server.h"
#include "lockscope/sandbox/tls_certificates.h"
#include "models/lock_table_model.h"
#include "session/profile_store.h"
#include "ui_test_support.h"
#include "widgets/connection_dialog.h"
#include "widgets/lock_inspector_view.h"
#include "widgets/main_window.h"
#include "widgets/screen_fit.h"
#include "widgets/tls_settings_box.h"

using namespace lockscope;
using namespace lockscope::ui;

class ConnectionDialogTlsTest : public QObject {
    Q_OBJECT
  private:
    QTemporaryDir certDir_;
    TlsCertificateSet certs_;
    std::unique_ptr<LocalRedisServer> server_;

    QString tlsUrl() const { return QStringLiteral("rediss://localhost:%1").arg(server_->port()); }
    // Clicks Test and returns (ok, message) once it finished.
    static std::pair<bool, QString> runTest(ConnectionDialog& dialog) {
        QSignalSpy finished(&dialog, &ConnectionDialog::testFinished);
        dialog.testButton()->click();
        if (!finished.wait(10000)) return {false, QStringLiteral("(no answer)")};
        return {finished.at(0).at(0).toBool(), finished.at(0).at(1).toString()};
    }
    void typeUrl(ConnectionDialog& dialog, const QString& url) {
        dialog.urlEdit()->clear();
        QTest::keyClicks(dialog.urlEdit(), url);
    }

  private slots:
    void initTestCase() {
        QVERIFY(certDir_.isValid());
        certs_ = writeTlsCertificates(certDir_.path().toStdString());
        LocalRedisServerOptions options;
        options.tls = LocalRedisTls{certs_.serverCert, certs_.serverKey, certs_.caCert, false};
        server_ = std::make_unique<LocalRedisServer>(options);
    }

    void theDialogFitsA720pScreenAndShowsTlsFieldsOnlyWhenOn() {
        // With every TLS field always shown (disabled), the dialog needed 744 px: taller than a
        // 720 px screen, its buttons out of reach.
        ConnectionDialog dialog;
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QVERIFY(!dialog.tlsBox()->caFileEdit()->isVisible());
        QVERIFY2(dialog.sizeHint().height() <= 640,
                 qPrintable(QString::number(dialog.sizeHint().height())));
        dialog.tlsBox()->setChecked(true);
        QVERIFY(dialog.tlsBox()->caFileEdit()->isVisible());
        QVERIFY(dialog.tlsBox()->verifySwitch()->isVisible());
        auto* sections = dialog.findChild<QScrollArea*>();
        QVERIFY(sections);
        QTRY_VERIFY(dialog.sizeHint().height() > 600);
        // On a screen too short for all of it (a 720 px projector with a panel and a title
        // bar), the sections scroll and OK stays on screen.
        fitHeight(&dialog, 600);
        QCOMPARE(dialog.height(), 600);
        auto* buttons = dialog.findChild<QDialogButtonBox*>();
        QVERIFY(buttons && buttons->isVisible());
        QTRY_VERIFY(dialog.rect().contains(buttons->geometry()));
        QTRY_VERIFY(sections->verticalScrollBar()->isVisible());
        QVERIFY(testing::saveScreenshot(&dialog, "connection-dialog-tls-on-600px"));
        // Where there is room, all of it shows and nothing scrolls.
        fitHeight(&dialog, 2000);
        QCOMPARE(dialog.height(), dialog.sizeHint().height());
        QTRY_VERIFY(!sections->verticalScrollBar()->isVisible());
        QVERIFY(testing::saveScreenshot(&dialog, "connection-dialog-tls-on"));
        dialog.tlsBox()->setChecked(false);
        QVERIFY(!dialog.tlsBox()->caFileEdit()->isVisible());
        QTRY_VERIFY(dialog.height() <= 640);
        QVERIFY(testing::saveScreenshot(&dialog, "connection-dialog-plain"));
    }

    void typingARedissUrlSwitchesTlsOnAndTestReportsTheSession() {
        ConnectionDialog dialog;
        dialog.show();
        typeUrl(dialog, tlsUrl());
        QVERIFY(dialog.tlsBox()->isChecked());
        QTest::keyClicks(dialog.tlsBox()->caFileEdit(), QString::fromStdString(certs_.caCert));
        auto [ok, message] = runTest(dialog);
        QVERIFY2(ok, qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("PONG")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("TLS: TLSv1.")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("localhost")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("Valid until")), qPrintable(message));
        QVERIFY2(!message.contains(QStringLiteral("NOT VERIFIED")), qPrintable(message));
        QVERIFY(!dialog.tlsBox()->insecureWarning()->isVisible());
        dialog.resize(dialog.sizeHint().expandedTo(QSize(640, 0)));
        QTest::qWait(100);
        QVERIFY(testing::saveScreenshot(&dialog, "connection-dialog-tls"));
    }

    void aCaThatDidNotSignTheServerIsRefusedNamingTheIssuer() {
        ConnectionDialog dialog;
        typeUrl(dialog, tlsUrl());
        dialog.tlsBox()->caFileEdit()->setText(QString::fromStdString(certs_.foreignCaCert));
        auto [ok, message] = runTest(dialog);
        QVERIFY2(!ok, qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("localhost")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("CA"), Qt::CaseInsensitive), qPrintable(message));
        QVERIFY2(dialog.testResult().startsWith(QStringLiteral("✘")),
                 qPrintable(dialog.testResult()));
    }

    void verificationOffIsLoudAndReportedAsNotVerified() {
        ConnectionDialog dialog;
        dialog.show();
        typeUrl(dialog, tlsUrl());
        dialog.tlsBox()->caFileEdit()->setText(QString::fromStdString(certs_.foreignCaCert));
        dialog.tlsBox()->verifySwitch()->setChecked(false);
        QVERIFY(dialog.tlsBox()->insecureWarning()->isVisible());
        QVERIFY(dialog.tlsBox()->title().contains(QStringLiteral("NOT VERIFIED")));
        auto [ok, message] = runTest(dialog);
        QVERIFY2(ok, qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("NOT VERIFIED")), qPrintable(message));
        QVERIFY(dialog.profile().endpoint.tls.insecure);
        dialog.resize(dialog.sizeHint().expandedTo(QSize(640, 0)));
        QTest::qWait(100);
        QVERIFY(testing::saveScreenshot(&dialog, "connection-dialog-tls-insecure"));
    }

    void aPlaintextClientOnTheTlsPortIsToldToTryRediss() {
        ConnectionDialog dialog;
        typeUrl(dialog, QStringLiteral("redis://127.0.0.1:%1").arg(server_->port()));
        QVERIFY(!dialog.tlsBox()->isChecked());
        auto [ok, message] = runTest(dialog);
        QVERIFY2(!ok, qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("rediss://")), qPrintable(message));
    }

    void aProfileKeepsTlsPathsAndSwitchesButNoKeyContents() {
        ConnectionDialog dialog;
        typeUrl(dialog, tlsUrl());
        TlsSettingsBox* tls = dialog.tlsBox();
        tls->caFileEdit()->setText(QString::fromStdString(certs_.caCert));
        tls->certEdit()->setText(QString::fromStdString(certs_.clientCert));
        tls->keyEdit()->setText(QString::fromStdString(certs_.clientKey));
        tls->serverNameEdit()->setText(QStringLiteral("localhost"));
        ConnectionProfile edited = dialog.profile();
        QCOMPARE(edited.displayUrl(), tlsUrl());

        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("profiles.ini"));
        {
            QSettings settings(ini, QSettings::IniFormat);
            ProfileStore(settings).save({edited});
        }
        QSettings settings(ini, QSettings::IniFormat);
        auto loaded = ProfileStore(settings).load();
        QCOMPARE(loaded.size(), 1);
        QVERIFY(loaded[0].endpoint.tls == edited.endpoint.tls);
        QCOMPARE(loaded[0].endpoint.tls.keyFile, certs_.clientKey);
        QFile file(ini);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray saved = file.readAll();
        QVERIFY2(!saved.contains("PRIVATE KEY") && !saved.contains("BEGIN"), saved.constData());

        // Opened again in the dialog, the section shows what was saved.
        ConnectionDialog again;
        again.setProfile(loaded[0]);
        QVERIFY(again.tlsBox()->isChecked());
        QCOMPARE(again.tlsBox()->keyEdit()->text(), QString::fromStdString(certs_.clientKey));
        QVERIFY(again.profile().endpoint.tls == edited.endpoint.tls);
    }

    void switchingTlsOffTurnsTheUrlBackToRedis() {
        ConnectionDialog dialog;
        typeUrl(dialog, tlsUrl());
        dialog.tlsBox()->setChecked(false);
        QVERIFY2(dialog.urlEdit()->text().startsWith(QStringLiteral("redis://")),
                 qPrintable(dialog.urlEdit()->text()));
        dialog.tlsBox()->setChecked(true);
        QVERIFY2(dialog.urlEdit()->text().startsWith(QStringLiteral("rediss://")),
                 qPrintable(dialog.urlEdit()->text()));
    }

    void theWindowFillsItsTableFromTheTlsServerTheDialogConnectsTo() {
        // Locks written over TLS (the server has no plaintext port).
        Endpoint e = server_->endpoint();
        e.host = "localhost";
        e.tls.enabled = true;
        e.tls.caFile = certs_.caCert;
        Connection c = Connection::open(e);
        c.command({"SET", "lock:{invoice-7}", "9f1c2e4a6b8d0f1e3a5c7e9b1d3f5a7c", "PX", "600000"});
        c.command({"SET", "lock:{nightly-report}", "1"});
        c.command({"HSET", "lock:{payout}", "6a7e3c2e-52a4-4d5c-9a1b-0c8d2e1f3a4b:57", "1"});
        c.command({"PEXPIRE", "lock:{payout}", "30000"});

        ConnectionDialog dialog;
        typeUrl(dialog, tlsUrl());
        QTest::keyClicks(dialog.tlsBox()->caFileEdit(), QString::fromStdString(certs_.caCert));
        ConnectionProfile profile = dialog.profile();
        QVERIFY(profile.endpoint.tls.enabled);
        QCOMPARE(QString::fromStdString(profile.endpoint.tls.caFile),
                 QString::fromStdString(certs_.caCert));

        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("lockscope.ini")), QSettings::IniFormat);
        MainWindowOptions options;
        options.extra.append(profile);
        MainWindow window(settings, options);
        window.resize(1280, 720);
        window.show();
        LockTableModel* model = window.inspector()->model();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 3, 15000);
        for (int row = 0; row < model->rowCount(); ++row)
            QVERIFY2(!model->index(row, LockTableModel::Remaining)
                          .data()
                          .toString()
                          .contains(QStringLiteral("last seen")),
                     "a row is stale: the TLS connection is not up");
        QTest::qWait(500);
        QVERIFY(testing::saveScreenshot(&window, "lock-table-tls"));
    }

    void cleanupTestCase() { server_.reset(); }
};

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    ConnectionDialogTlsTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_connection_dialog_tls.moc"
