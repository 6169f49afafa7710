// The connection dialog's secrets, against real servers (tests/support's Sentinel group with
// requirepass on the Sentinels, a redis-server with requirepass): the Sentinels' password has
// its own masked field, and one typed into the URL moves there (the URL then shows without
// it); typed there, Test reaches the primary, a wrong or empty one is a clear refusal, and it
// never lands in the settings file. Bad URLs (an empty, a huge, a binary password) change
// nothing. Test on a saved connection reads its secrets from the keychain first; here none
// answers ("Cannot autolaunch D-Bus"), and Test says the saved password could not be read.
#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <memory>
#include <optional>

#include "lockscope/connection.h"
#include "lockscope/sandbox/local_redis_server.h"
#include "sentinel_fixture.h"
#include "session/password_vault.h"
#include "session/profile_store.h"
#include "ui_test_support.h"
#include "widgets/connection_dialog.h"
#include "widgets/connection_secrets.h"

using namespace lockscope;
using namespace lockscope::ui;

namespace {

// Quotes, '#', '&', '%', '=' and a space: everything a URL or a config file could mangle.
const QString kSentinelPassword = QStringLiteral("s3nt #&%=\"pw");

std::pair<bool, QString> runTest(ConnectionDialog& dialog) {
    QSignalSpy finished(&dialog, &ConnectionDialog::testFinished);
    dialog.testButton()->click();
    if (!finished.wait(15000)) return {false, QStringLiteral("(no answer)")};
    return {finished.at(0).at(0).toBool(), finished.at(0).at(1).toString()};
}

// As a program or a paste sets it: the whole text at once.
void setUrl(ConnectionDialog& dialog, const QString& url) {
    dialog.urlEdit()->setText(url);
    emit dialog.urlEdit()->textEdited(url);
}

}  // namespace

class ConnectionDialogSecretsTest : public QObject {
    Q_OBJECT
  private:
    std::unique_ptr<lockscope::testing::SentinelGroup> group_;
    QString url_;      // with ?sentinel-password=
    QString bareUrl_;  // without

  private slots:
    void initTestCase() {
        group_ = std::make_unique<lockscope::testing::SentinelGroup>(
            "mymaster", kSentinelPassword.toStdString());
        url_ = QString::fromStdString(group_->url());
        bareUrl_ = QString::fromStdString(group_->target().display());
        QVERIFY(url_.contains(QStringLiteral("?sentinel-password=")));
    }

    void aPasswordTypedIntoTheUrlMovesToItsMaskedField() {
        ConnectionDialog dialog;
        dialog.show();
        QVERIFY(QTest::qWaitForWindowActive(&dialog));
        const int plainHeight = dialog.height();
        dialog.urlEdit()->clear();
        dialog.urlEdit()->setFocus();
        QTest::keyClicks(dialog.urlEdit(), url_);
        // While the operator types, the URL stays as typed (not rewritten under the cursor).
        QCOMPARE(dialog.urlEdit()->text(), url_);
        QCOMPARE(dialog.sentinelPasswordEdit()->text(), kSentinelPassword);
        QVERIFY(dialog.sentinelPasswordEdit()->isVisible());
        // Leaving the URL field: it shows as saved, the password only in its masked field.
        dialog.sentinelPasswordEdit()->setFocus();
        QTRY_COMPARE(dialog.urlEdit()->text(), bareUrl_);
        const ConnectionProfile p = dialog.profile();
        QCOMPARE(p.sentinelPassword, kSentinelPassword);
        QVERIFY(p.needsSentinelPassword);
        QCOMPARE(p.sentinelUrlToSave(), bareUrl_);
        QVERIFY(!p.sentinelUrl.contains(QStringLiteral("sentinel-password")));
        // The cluster section hid: the dialog follows, no room left over.
        QTest::qWait(200);  // the layouts settle (a hint read at once may be the old one)
        QTRY_COMPARE(dialog.height(), dialog.sizeHint().height());
        QVERIFY2(dialog.height() < plainHeight,
                 qPrintable(QStringLiteral("%1 px, %2 with the cluster section")
                                .arg(dialog.height())
                                .arg(plainHeight)));
        QVERIFY(lockscope::ui::testing::saveScreenshot(
            &dialog, QStringLiteral("connection-dialog-sentinel-pw")));

        // Set at once (pasted, as tst_sentinel_credentials does): moved and rewritten at once.
        ConnectionDialog pasted;
        setUrl(pasted, url_);
        QCOMPARE(pasted.sentinelPasswordEdit()->text(), kSentinelPassword);
        QCOMPARE(pasted.urlEdit()->text(), bareUrl_);

        // The Sentinels' user stays in the URL (it is saved), only the password moves.
        const QString service = QStringLiteral("#mymaster");
        const QString base = bareUrl_.left(bareUrl_.size() - service.size());
        ConnectionDialog withUser;
        setUrl(withUser,
               base + QStringLiteral("?sentinel-user=watcher&sentinel-password=pw%26") + service);
        QCOMPARE(withUser.sentinelPasswordEdit()->text(), QStringLiteral("pw&"));
        QCOMPARE(withUser.urlEdit()->text(),
                 base + QStringLiteral("?sentinel-user=watcher") + service);
        QCOMPARE(withUser.profile().sentinelTarget().sentinelUser, std::string("watcher"));

        // The URL edited back to none: what it brought goes with it; typed by hand, it stays.
        setUrl(pasted, bareUrl_);
        QVERIFY(pasted.sentinelPasswordEdit()->text().isEmpty());
        QVERIFY(!pasted.profile().needsSentinelPassword);
        QTest::keyClicks(pasted.sentinelPasswordEdit(), QStringLiteral("typed"));
        setUrl(pasted, bareUrl_ + QStringLiteral(" "));
        QCOMPARE(pasted.sentinelPasswordEdit()->text(), QStringLiteral("typed"));
    }

    void typedInTheFieldTestReachesThePrimaryAndAWrongOrEmptyOneIsRefused() {
        ConnectionDialog dialog;
        dialog.show();
        setUrl(dialog, bareUrl_);
        QTest::keyClicks(dialog.sentinelPasswordEdit(), kSentinelPassword);
        auto [ok, message] = runTest(dialog);
        QVERIFY2(ok, qPrintable(message));
        const int primary = group_->primaryIndex();
        QVERIFY(primary >= 0);
        QVERIFY2(message.contains(QStringLiteral("the primary of mymaster is %1")
                                      .arg(QString::fromStdString(
                                          group_->server(primary).endpoint().display()))),
                 qPrintable(message));
        QVERIFY(lockscope::ui::testing::saveScreenshot(
            &dialog, QStringLiteral("connection-dialog-sentinel-test")));

        for (const QString& typed : {QStringLiteral("wrong"), QString()}) {
            dialog.sentinelPasswordEdit()->setText(typed);
            auto [refused, said] = runTest(dialog);
            QVERIFY2(!refused, qPrintable(said));
            QVERIFY2(said.contains(QStringLiteral("no primary found for service \"mymaster\"")),
                     qPrintable(said));
            QVERIFY2(said.contains(typed.isEmpty() ? QStringLiteral("NOAUTH")
                                                   : QStringLiteral("WRONGPASS")),
                     qPrintable(said));
            QVERIFY(dialog.testResult().startsWith(QStringLiteral("✘")));
        }
    }

    void theSentinelPasswordGoesToTheKeychainNeverTheSettingsFile() {
        ConnectionDialog dialog;
        setUrl(dialog, bareUrl_);
        dialog.sentinelPasswordEdit()->setText(kSentinelPassword);
        ConnectionProfile p = dialog.profile();

        // "Remember": ConnectionSecrets::keep hands the field's password to the keychain,
        // which stores it or (here, no D-Bus) says it could not.
        PasswordVault vault;
        ConnectionSecrets secrets(vault, &dialog);
        QSignalSpy notStored(&secrets, &ConnectionSecrets::notStored);
        secrets.keep(p, true);
        QVERIFY(p.needsSentinelPassword);
        std::optional<QString> inKeychain;
        bool read = false;
        vault.load(PasswordVault::sentinelPasswordId(p.id), [&](std::optional<QString> s) {
            inKeychain = std::move(s);
            read = true;
        });
        QTRY_VERIFY_WITH_TIMEOUT(read, 10000);
        if (inKeychain) {
            QCOMPARE(*inKeychain, kSentinelPassword);
            secrets.forget(p.id);
        } else {
            QTRY_VERIFY_WITH_TIMEOUT(!notStored.isEmpty(), 10000);
            QVERIFY2(notStored.last()[0].toString().contains(
                         QStringLiteral("Sentinel password not stored")),
                     qPrintable(notStored.last()[0].toString()));
        }

        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("lockscope.ini"));
        {
            QSettings settings(ini, QSettings::IniFormat);
            ProfileStore(settings).save({p});
        }
        QFile file(ini);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray saved = file.readAll();
        for (const QByteArray& secret : {kSentinelPassword.toUtf8(), QByteArray("s3nt"),
                                         QByteArray("sentinel-password"), QByteArray("%22pw")})
            QVERIFY2(!saved.contains(secret), saved.constData());
        QVERIFY2(saved.contains("needsSentinelPassword=true"), saved.constData());
    }

    void badPasswordsInTheUrlAreRefusedAndChangeNothing() {
        ConnectionDialog dialog;
        setUrl(dialog, bareUrl_);
        dialog.sentinelPasswordEdit()->setText(QStringLiteral("kept"));
        const QString service = QStringLiteral("#mymaster");
        const QString base = bareUrl_.left(bareUrl_.size() - service.size());

        // Empty: nothing to move; the field keeps what was typed, the URL loses the parameter.
        setUrl(dialog, base + QStringLiteral("?sentinel-password=") + service);
        QCOMPARE(dialog.sentinelPasswordEdit()->text(), QStringLiteral("kept"));
        QCOMPARE(dialog.urlEdit()->text(), bareUrl_);
        QCOMPARE(dialog.profile().sentinelPassword, QStringLiteral("kept"));

        struct Bad {
            QString url;
            QString error;
        };
        const QList<Bad> bad = {
            // Past the URL's 4096 characters.
            {base + QStringLiteral("?sentinel-password=") + QString(5000, QLatin1Char('x')) +
                 service,
             QStringLiteral("longer than 4096")},
            // Bytes that are no text: the field could not hold them as typed.
            {base + QStringLiteral("?sentinel-password=%FF%FE%00") + service,
             QStringLiteral("not UTF-8 text")},
            // A raw control character; a broken escape.
            {base +
                 QStringLiteral("?sentinel-password=a\x01"
                                "z") +
                 service,
             QStringLiteral("control character")},
            {base + QStringLiteral("?sentinel-password=%G1") + service,
             QStringLiteral("bad %-escape")},
        };
        for (const Bad& b : bad) {
            setUrl(dialog, b.url);
            QVERIFY2(dialog.testResult().startsWith(QStringLiteral("✘")),
                     qPrintable(dialog.testResult()));
            QVERIFY2(dialog.testResult().contains(b.error), qPrintable(dialog.testResult()));
            QCOMPARE(dialog.sentinelPasswordEdit()->text(), QStringLiteral("kept"));
            const ConnectionProfile p = dialog.profile();
            QCOMPARE(p.sentinelUrl, bareUrl_);
            QCOMPARE(p.sentinelPassword, QStringLiteral("kept"));
        }

        // A long one that fits the URL moves whole.
        const QString longPassword = QString(3000, QLatin1Char('p')) + QStringLiteral("!");
        setUrl(dialog, base + QStringLiteral("?sentinel-password=") + longPassword + service);
        QCOMPARE(dialog.sentinelPasswordEdit()->text(), longPassword);
        QCOMPARE(dialog.urlEdit()->text(), bareUrl_);
    }

    void testOnASavedConnectionSaysWhenTheKeychainCannotGiveItsPassword() {
        // A server under requirepass, saved with its password in the keychain: the dialog
        // opens with the field empty, as the window's Edit opens it.
        LocalRedisServerOptions options;
        options.configLines = {"requirepass data-s3cret"};
        LocalRedisServer server(options);
        ConnectionProfile saved =
            ConnectionProfile::create(QStringLiteral("orders"), parseEndpoint(server.url()));
        saved.needsPassword = true;
        ConnectionDialog dialog;
        dialog.show();
        dialog.setProfile(saved);
        QVERIFY(dialog.passwordEdit()->text().isEmpty());
        // The keychain answers later: the click returns at once, Test says it is testing.
        QSignalSpy finished(&dialog, &ConnectionDialog::testFinished);
        dialog.testButton()->click();
        QCOMPARE(dialog.testResult(), QStringLiteral("Testing…"));
        QVERIFY(!dialog.testButton()->isEnabled());
        QVERIFY(finished.wait(10000));
        auto [ok, message] = std::pair{finished[0][0].toBool(), finished[0][1].toString()};
        QVERIFY2(!ok, qPrintable(message));
        // No keychain answers here; with one that holds nothing, the same (its reason differs).
        QVERIFY2(message.startsWith(
                     QStringLiteral("The saved password could not be read from the keychain (")),
                 qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("): type it and test again")),
                 qPrintable(message));
        QVERIFY2(!message.contains(QStringLiteral("NOAUTH")), qPrintable(message));
        QVERIFY(dialog.testButton()->isEnabled());
        // Said in full: the result line is not cut (it holds two lines).
        QLabel* result = nullptr;
        for (QLabel* label : dialog.findChildren<QLabel*>())
            if (label->text() == dialog.testResult()) result = label;
        QVERIFY(result);
        QVERIFY2(result->heightForWidth(result->width()) <= result->height(),
                 qPrintable(QStringLiteral("%1 px needed, %2 px shown")
                                .arg(result->heightForWidth(result->width()))
                                .arg(result->height())));
        QVERIFY(lockscope::ui::testing::saveScreenshot(
            &dialog, QStringLiteral("connection-dialog-no-keychain")));

        // Typed, it is used as is (no keychain asked) and Test passes.
        dialog.passwordEdit()->setText(QStringLiteral("data-s3cret"));
        std::tie(ok, message) = runTest(dialog);
        QVERIFY2(ok, qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("PONG")), qPrintable(message));

        // Several secrets missing: each named. A TLS key's passphrase with the password.
        ConnectionProfile tls = saved;
        tls.endpoint.tls.enabled = true;
        tls.endpoint.tls.keyFile = "/etc/lockscope/client.key";
        tls.needsKeyPassphrase = true;
        dialog.setProfile(tls);
        std::tie(ok, message) = runTest(dialog);
        QVERIFY2(!ok, qPrintable(message));
        QVERIFY2(message.startsWith(
                     QStringLiteral("The saved password and TLS key passphrase could not be read")),
                 qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("type them")), qPrintable(message));

        // Behind Sentinel: the Sentinels' saved password likewise, not a bare NOAUTH.
        ConnectionProfile sentinel =
            ConnectionProfile::createForSentinel(QStringLiteral("payroll"), bareUrl_);
        sentinel.needsSentinelPassword = true;
        dialog.setProfile(sentinel);
        QVERIFY(dialog.sentinelPasswordEdit()->text().isEmpty());
        std::tie(ok, message) = runTest(dialog);
        QVERIFY2(!ok, qPrintable(message));
        QVERIFY2(
            message.startsWith(QStringLiteral("The saved Sentinel password could not be read")),
            qPrintable(message));
        QVERIFY2(!message.contains(QStringLiteral("NOAUTH")), qPrintable(message));
        QTest::keyClicks(dialog.sentinelPasswordEdit(), kSentinelPassword);
        std::tie(ok, message) = runTest(dialog);
        QVERIFY2(ok, qPrintable(message));
    }

    void cleanupTestCase() { group_.reset(); }
};

QTEST_MAIN(ConnectionDialogSecretsTest)
#include "tst_connection_dialog_secrets.moc"
