// The connection dialog's sections as the URL changes: a Sentinel URL shows the Sentinels'
// password field and hides the cluster nodes, any other URL the reverse; TLS off is the
// section's check box alone, with no empty framed strip under it; the dialog still fits a
// 720 px screen. The scan-replica switch is offered for every connection but the sandbox, and
// kept (dialog and settings file) for any. Saves screenshots.
#include <QApplication>
#include <QCheckBox>
#include <QFile>
#include <QGroupBox>
#include <QImage>
#include <QLineEdit>
#include <QSettings>
#include <QStyle>
#include <QTemporaryDir>
#include <QTest>

#include "lockscope/endpoint.h"
#include "session/connection_profile.h"
#include "session/profile_store.h"
#include "ui_test_support.h"
#include "widgets/connection_dialog.h"
#include "widgets/tls_settings_box.h"

using namespace lockscope;
using namespace lockscope::ui;

namespace {

void typeUrl(ConnectionDialog& dialog, const QString& url) {
    dialog.urlEdit()->clear();
    QTest::keyClicks(dialog.urlEdit(), url);
}

// The height of the TLS box's title line: a check box with the same text.
int titleLineHeight(const TlsSettingsBox* box) {
    QCheckBox probe(box->title());
    probe.setFont(box->font());
    return probe.sizeHint().height();
}

}  // namespace

class ConnectionDialogLayoutTest : public QObject {
    Q_OBJECT
  private slots:
    void aSentinelUrlShowsItsPasswordAndHidesTheClusterNodes() {
        ConnectionDialog dialog;
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QLineEdit* sentinelPassword = dialog.sentinelPasswordEdit();
        QCOMPARE(sentinelPassword->echoMode(), QLineEdit::Password);

        // A new connection (redis://): no Sentinel password, the cluster section there.
        QVERIFY(!sentinelPassword->isVisible());
        QVERIFY(dialog.clusterBox()->isVisible());
        QVERIFY(dialog.clusterMapEdit()->isVisible());

        typeUrl(dialog, QStringLiteral("redis-sentinel://127.0.0.1:26379#mymaster"));
        QVERIFY(sentinelPassword->isVisible());
        QVERIFY(!dialog.clusterBox()->isVisible());
        QVERIFY(!dialog.throughSeedHostBox()->isVisible());
        QVERIFY2(dialog.sizeHint().height() <= 640,
                 qPrintable(QString::number(dialog.sizeHint().height())));
        QTest::qWait(50);
        QVERIFY(testing::saveScreenshot(&dialog, QStringLiteral("connection-dialog-sentinel")));

        // Back to a single server, then a cluster seed, then TLS: the reverse.
        for (const QString& url : {QStringLiteral("redis://127.0.0.1:7001"),
                                   QStringLiteral("rediss://cache.example.com:6380")}) {
            typeUrl(dialog, url);
            QVERIFY2(!sentinelPassword->isVisible(), qPrintable(url));
            QVERIFY2(dialog.clusterBox()->isVisible(), qPrintable(url));
        }
        typeUrl(dialog, QStringLiteral("rediss-sentinel://10.0.0.1:26379,10.0.0.2:26379#orders"));
        QVERIFY(sentinelPassword->isVisible());
        QVERIFY(!dialog.clusterBox()->isVisible());

        // A saved connection opened for editing shows its own kind's sections.
        dialog.setProfile(ConnectionProfile::create(QStringLiteral("plain"),
                                                    parseEndpoint("redis://127.0.0.1:6379")));
        QVERIFY(!sentinelPassword->isVisible());
        QVERIFY(dialog.clusterBox()->isVisible());
        dialog.setProfile(ConnectionProfile::createForSentinel(
            QStringLiteral("payroll"), QStringLiteral("redis-sentinel://127.0.0.1:26379#payroll")));
        QVERIFY(sentinelPassword->isVisible());
        QVERIFY(!dialog.clusterBox()->isVisible());
    }

    void tlsOffIsItsCheckBoxAloneWithNoEmptyStrip() {
        ConnectionDialog dialog;
        dialog.resize(620, dialog.sizeHint().height());
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        TlsSettingsBox* tls = dialog.tlsBox();
        QVERIFY(!tls->isChecked());
        // The frame and its margins took a strip about 30 px tall under the title.
        const int title = titleLineHeight(tls);
        QVERIFY2(tls->height() <= title + 8,
                 qPrintable(QStringLiteral("TLS box %1 px, its title line %2 px")
                                .arg(tls->height())
                                .arg(title)));
        // Nothing is drawn below the title line: no frame, no strip.
        const QImage image = tls->grab().toImage();
        const QColor background = tls->palette().color(tls->backgroundRole());
        int drawn = 0;
        for (int y = title; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                if (image.pixelColor(x, y) != background) ++drawn;
        QVERIFY2(drawn == 0,
                 qPrintable(QStringLiteral("%1 pixels drawn under the title").arg(drawn)));
        QVERIFY(testing::saveScreenshot(tls, QStringLiteral("connection-dialog-tls-off-box")));

        // On, the fields and the frame come back; off again, gone again.
        tls->setChecked(true);
        QTRY_VERIFY(tls->caFileEdit()->isVisible());
        QTRY_VERIFY(tls->height() > title + 100);
        tls->setChecked(false);
        QTRY_VERIFY(tls->height() <= title + 8);
        QTRY_VERIFY(dialog.height() <= 640);  // the dialog follows, no room left over
        QVERIFY(testing::saveScreenshot(&dialog, QStringLiteral("connection-dialog-no-strip")));
    }

    void scanReplicasIsOfferedAndKeptForEveryConnection() {
        ConnectionDialog dialog;
        QCheckBox* scan = dialog.scanReplicaBox();
        QCOMPARE(scan->text(), QStringLiteral("Scan replicas; releases go to the primary"));
        for (const char* said : {"Redis Cluster", "one replica per shard", "READONLY", "Sentinel",
                                 "no scan load", "lag", "single server it has no effect"})
            QVERIFY2(scan->toolTip().contains(QLatin1String(said)), said);

        // A single server or a cluster seed (a redis:// URL), a Sentinel URL: all offer it.
        for (const QString& url : {QStringLiteral("redis://127.0.0.1:7001"),
                                   QStringLiteral("redis-sentinel://127.0.0.1:26379#mymaster"),
                                   QStringLiteral("unix:///run/redis/redis.sock")}) {
            typeUrl(dialog, url);
            QVERIFY2(scan->isEnabled(), qPrintable(url));
            scan->setChecked(true);
            QVERIFY2(dialog.profile().scanReplica, qPrintable(url));
            scan->setChecked(false);
            QVERIFY2(!dialog.profile().scanReplica, qPrintable(url));
        }
        // The sandbox (a private redis-server of the app) has no replica: not offered.
        ConnectionProfile sandbox = ConnectionProfile::create(QStringLiteral("sandbox"),
                                                              parseEndpoint("redis://127.0.0.1:1"));
        sandbox.isSandbox = true;
        sandbox.scanReplica = true;
        dialog.setProfile(sandbox);
        QVERIFY(!scan->isEnabled());
        QVERIFY(!dialog.profile().scanReplica);

        // Saved and loaded for a cluster connection as for a Sentinel one.
        ConnectionProfile cluster = ConnectionProfile::create(
            QStringLiteral("cluster"), parseEndpoint("redis://127.0.0.1:7001"));
        dialog.setProfile(cluster);
        QVERIFY(scan->isEnabled());
        scan->setChecked(true);
        ConnectionProfile sentinel = ConnectionProfile::createForSentinel(
            QStringLiteral("payroll"), QStringLiteral("redis-sentinel://127.0.0.1:26379#payroll"));
        sentinel.scanReplica = true;
        ConnectionProfile plain = ConnectionProfile::create(
            QStringLiteral("plain"), parseEndpoint("redis://127.0.0.1:6379"));
        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("lockscope.ini"));
        {
            QSettings settings(ini, QSettings::IniFormat);
            ProfileStore(settings).save({dialog.profile(), sentinel, plain});
        }
        {
            QSettings settings(ini, QSettings::IniFormat);
            const QList<ConnectionProfile> loaded = ProfileStore(settings).load();
            QCOMPARE(loaded.size(), 3);
            QVERIFY(loaded[0].scanReplica);
            QVERIFY(loaded[1].scanReplica);
            QVERIFY(!loaded[2].scanReplica);
            // Opened again, the switch shows what was saved.
            dialog.setProfile(loaded[0]);
            QVERIFY(scan->isChecked() && scan->isEnabled());
        }

        // Settings written before: the switch saved false for all but Sentinel connections,
        // and before that not at all. They load as they were.
        QFile old(dir.filePath(QStringLiteral("old.ini")));
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write(
            "[connections]\n"
            "1\\id=a\n1\\host=127.0.0.1\n1\\port=7001\n1\\scanReplica=false\n"
            "2\\id=b\n2\\host=127.0.0.1\n2\\sentinel=redis-sentinel://127.0.0.1:26379#m\n"
            "2\\scanReplica=true\n"
            "3\\id=c\n3\\host=127.0.0.1\n3\\port=6379\n"
            "size=3\n");
        old.close();
        QSettings settings(old.fileName(), QSettings::IniFormat);
        const QList<ConnectionProfile> loaded = ProfileStore(settings).load();
        QCOMPARE(loaded.size(), 3);
        QVERIFY(!loaded[0].scanReplica);
        QVERIFY(loaded[1].scanReplica);
        QCOMPARE(loaded[1].sentinelUrl, QStringLiteral("redis-sentinel://127.0.0.1:26379#m"));
        QVERIFY(!loaded[2].scanReplica);
    }
};

QTEST_MAIN(ConnectionDialogLayoutTest)
#include "tst_connection_dialog_layout.moc"
