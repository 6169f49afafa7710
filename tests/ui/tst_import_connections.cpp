// File → Import connections… and Export connections… in the real window: a RESP.app file
// reviewed entry by entry, a RedisInsight export's embedded CA written to an owner-only file,
// an imported URL that then connects to a real redis-server and shows its lock, bad files
// refused with a message and nothing added, and an export with no secret that reads back.
#include <QApplication>
#include <QCheckBox>
#include <QFile>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include "lockscope/connection.h"
#include "lockscope/sandbox/local_redis_server.h"
#include "models/lock_table_model.h"
#include "session/profile_store.h"
#include "ui_test_support.h"
#include "widgets/connection_sidebar.h"
#include "widgets/import_connections_dialog.h"
#include "widgets/lock_inspector_view.h"
#include "widgets/main_window.h"

using namespace lockscope;
using namespace lockscope::ui;

namespace {

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& contents) {
    QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
    file.write(contents);
    return path;
}

const ConnectionProfile* profileNamed(const MainWindow& w, const QString& name) {
    for (const auto& p : w.sidebar()->profiles())
        if (p.name == name) return w.sidebar()->profile(p.id);
    return nullptr;
}

// The next message box the window opens is read and closed, as a person would: polled, since
// QMessageBox::warning shows it inside its own event loop.
void closeNextMessageBox(QString* text) {
    auto* poll = new QTimer;
    auto tries = std::make_shared<int>(0);
    QObject::connect(poll, &QTimer::timeout, [poll, text, tries] {
        for (QWidget* w : QApplication::topLevelWidgets())
            if (auto* box = qobject_cast<QMessageBox*>(w); box && box->isVisible()) {
                *text = box->text();
                box->accept();
                poll->deleteLater();
                return;
            }
        if (++*tries > 200) poll->deleteLater();
    });
    poll->start(20);
}

}  // namespace

class TestImportConnections : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        // Embedded certificates go under the app's data folder: a private one here.
        qputenv("XDG_DATA_HOME", dir_.filePath(QStringLiteral("data")).toUtf8());
    }

    void aRespAppFileIsReviewedEntryByEntry() {
        QSettings settings(dir_.filePath(QStringLiteral("resp.ini")), QSettings::IniFormat);
        MainWindow w(settings);
        w.resize(1280, 720);
        w.show();
        ConnectionProfile existing =
            ConnectionProfile::create(QStringLiteral("jobs"), parseEndpoint("redis://jobs:6379"));
        w.sidebar()->addProfile(existing);

        const QString path = writeFile(dir_, QStringLiteral("connections.json"), R"json([
          {"name": "azure cache", "host": "x.redis.cache.windows.net", "port": 6380,
           "auth": "azure-s3cret", "ssl": true, "ssl_ignore_all_errors": true,
           "keys_pattern": "*", "namespace_separator": ":", "timeout_connect": 60000},
          {"name": "staging", "connections": [
            {"name": "jobs", "host": "jobs.staging", "port": 6379, "auth": ""},
            {"name": "cache", "host": "cache.staging", "port": 6379,
             "ssh_host": "bastion.staging", "ssh_port": 22}]},
          {"name": "broken", "host": "", "port": 6379}
        ])json");
        ImportConnectionsDialog* dialog = w.importConnectionsFrom(path);
        QVERIFY(dialog);
        dialog->show();
        QTableWidget* table = dialog->table();
        QCOMPARE(table->rowCount(), 4);
        QVERIFY2(dialog->summary()->text().startsWith(QStringLiteral(
                     "RESP.app connections: 4 entries — 1 ready, 2 with notes, 1 failed")),
                 qPrintable(dialog->summary()->text()));
        auto name = [&](int row) { return table->item(row, ImportConnectionsDialog::Name); };
        auto notes = [&](int row) {
            return table->item(row, ImportConnectionsDialog::Notes)->text();
        };
        QCOMPARE(name(0)->checkState(), Qt::Checked);
        QVERIFY(notes(0).contains(QStringLiteral("did not verify")));
        QVERIFY(table->item(0, ImportConnectionsDialog::Kind)->text().contains("NOT VERIFIED"));
        // A name the sidebar has: shown, not ticked.
        QCOMPARE(name(1)->checkState(), Qt::Unchecked);
        QVERIFY(notes(1).contains(QStringLiteral("already has a connection of this name")));
        QCOMPARE(table->item(1, ImportConnectionsDialog::Group)->text(), QStringLiteral("staging"));
        QVERIFY(notes(2).contains(QStringLiteral("SSH tunnel via bastion.staging")));
        // A failed entry says why and cannot be ticked.
        QVERIFY(!(name(3)->flags() & Qt::ItemIsUserCheckable));
        QVERIFY2(notes(3).startsWith(QStringLiteral("not imported: host is missing")),
                 qPrintable(notes(3)));
        QCOMPARE(dialog->importButton()->text(), QStringLiteral("Import 2 connections"));
        QVERIFY(testing::saveScreenshot(dialog, QStringLiteral("import-connections")));

        name(1)->setCheckState(Qt::Checked);  // the second "jobs" after all
        QCOMPARE(dialog->importButton()->text(), QStringLiteral("Import 3 connections"));
        dialog->importButton()->click();

        QVERIFY(profileNamed(w, QStringLiteral("azure cache")));
        const ConnectionProfile* second = profileNamed(w, QStringLiteral("jobs (2)"));
        QVERIFY2(second, "a second connection of a taken name gets a number");
        QCOMPARE(second->group, QStringLiteral("staging"));
        QVERIFY(profileNamed(w, QStringLiteral("cache")));
        QVERIFY(!profileNamed(w, QStringLiteral("broken")));
        const ConnectionProfile* azure = profileNamed(w, QStringLiteral("azure cache"));
        QVERIFY(azure->endpoint.tls.enabled && azure->endpoint.tls.insecure);
        QVERIFY(azure->needsPassword);

        // Saved with groups, never with a password.
        settings.sync();
        QFile ini(settings.fileName());
        QVERIFY(ini.open(QIODevice::ReadOnly));
        const QByteArray saved = ini.readAll();
        QVERIFY2(!saved.contains("azure-s3cret"), saved.constData());
        QVERIFY2(saved.contains("group=staging"), saved.constData());
        const auto reloaded = ProfileStore(settings).load();
        QCOMPARE(reloaded.size(), 4);
    }

    void anEmbeddedCertificateBecomesAnOwnerOnlyFile() {
        QSettings settings(dir_.filePath(QStringLiteral("ri.ini")), QSettings::IniFormat);
        MainWindow w(settings);
        const QByteArray pem = "-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n";
        QByteArray pemInJson = pem;
        pemInJson.replace("\n", "\\n");
        const QString path = writeFile(dir_, QStringLiteral("redisinsight.json"),
                                       R"json([{"id": "1", "host": "cache.prod", "port": 6380,
            "name": "prod", "connectionType": "STANDALONE", "tls": true,
            "caCert": {"name": "ca", "certificate": ")json" +
                                           pemInJson + R"json("}}])json");
        ImportConnectionsDialog* dialog = w.importConnectionsFrom(path);
        QVERIFY(dialog);
        dialog->importButton()->click();
        const ConnectionProfile* prod = profileNamed(w, QStringLiteral("prod"));
        QVERIFY(prod);
        QFile ca(QString::fromStdString(prod->endpoint.tls.caFile));
        QVERIFY2(ca.exists(), qPrintable(ca.fileName()));
        QVERIFY(ca.fileName().startsWith(dir_.filePath(QStringLiteral("data"))));
        QCOMPARE(ca.permissions() & (QFile::ReadGroup | QFile::ReadOther), QFile::Permissions());
        QVERIFY(ca.open(QIODevice::ReadOnly));
        QCOMPARE(ca.readAll(), pem);
    }

    void anImportedUrlConnectsToItsServer() {
        LocalRedisServer server;
        Connection client = Connection::open(server.endpoint());
        client.command({"SET", "lock:{imported}", "tok-imported-1", "PX", "600000"});
        QSettings settings(dir_.filePath(QStringLiteral("url.ini")), QSettings::IniFormat);
        MainWindow w(settings);
        w.show();
        const QString path =
            writeFile(dir_, QStringLiteral("urls.txt"),
                      "# local\n" + QByteArray::fromStdString(server.url()) + "\n");
        ImportConnectionsDialog* dialog = w.importConnectionsFrom(path);
        QVERIFY(dialog);
        dialog->importButton()->click();
        QCOMPARE(w.sidebar()->profiles().size(), 1);
        w.connectProfile(w.sidebar()->profiles().front().id);
        QTRY_VERIFY_WITH_TIMEOUT(w.inspector()->model()->rowCount() >= 1, 10000);
    }

    void aBadFileIsRefusedAndAddsNothing() {
        QSettings settings(dir_.filePath(QStringLiteral("bad.ini")), QSettings::IniFormat);
        MainWindow w(settings);
        for (const QByteArray& junk :
             {QByteArray("\x89PNG\r\n\x1a\n\0\0", 10), QByteArray("[{\"host\": "),
              QByteArray("just some words\n"), QByteArray()}) {
            const QString path = writeFile(dir_, QStringLiteral("junk"), junk);
            QString message;
            closeNextMessageBox(&message);
            QVERIFY(!w.importConnectionsFrom(path));
            QVERIFY2(
                message.contains(QStringLiteral("was not imported: cannot import this file: ")),
                qPrintable(message));
            QCOMPARE(w.sidebar()->profiles().size(), 0);
        }
        QString message;
        closeNextMessageBox(&message);
        QVERIFY(!w.importConnectionsFrom(dir_.filePath(QStringLiteral("missing.json"))));
        QVERIFY2(message.contains(QStringLiteral("was not imported")), qPrintable(message));
    }

    void anExportHoldsNoSecretAndReadsBack() {
        QSettings settings(dir_.filePath(QStringLiteral("export.ini")), QSettings::IniFormat);
        MainWindow w(settings);
        ConnectionProfile p = ConnectionProfile::create(
            QStringLiteral("orders"), parseEndpoint("redis://ops:export-s3cret@orders:6379/2"));
        p.group = QStringLiteral("prod");
        w.sidebar()->addProfile(p);
        ConnectionProfile ha = ConnectionProfile::createForSentinel(
            QStringLiteral("queue"),
            QStringLiteral("redis-sentinel://app:data-s3cret@s1:26379,s2:26379/1"
                           "?sentinel-password=sentinel-s3cret#mymaster"));
        w.sidebar()->addProfile(ha);
        const QString path = dir_.filePath(QStringLiteral("exported.json"));
        QVERIFY(w.exportConnectionsTo(path));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        for (const char* secret : {"export-s3cret", "data-s3cret", "sentinel-s3cret"})
            QVERIFY2(!text.contains(secret), text.constData());

        QSettings other(dir_.filePath(QStringLiteral("reimport.ini")), QSettings::IniFormat);
        MainWindow again(other);
        ImportConnectionsDialog* dialog = again.importConnectionsFrom(path);
        QVERIFY(dialog);
        QVERIFY2(dialog->summary()->text().startsWith(
                     QStringLiteral("LockScope connections: 2 entries — 2 ready")),
                 qPrintable(dialog->summary()->text()));
        dialog->importButton()->click();
        const ConnectionProfile* orders = profileNamed(again, QStringLiteral("orders"));
        QVERIFY(orders);
        QCOMPARE(orders->group, QStringLiteral("prod"));
        QCOMPARE(orders->endpoint.db, 2);
        QCOMPARE(orders->endpoint.user, std::string("ops"));
        const ConnectionProfile* queue = profileNamed(again, QStringLiteral("queue"));
        QVERIFY(queue);
        QVERIFY2(queue->sentinelUrl.contains(QStringLiteral("s1:26379,s2:26379/1")),
                 qPrintable(queue->sentinelUrl));
        QVERIFY(queue->sentinelUrl.endsWith(QStringLiteral("#mymaster")));
    }

  private:
    QTemporaryDir dir_;
};

QTEST_MAIN(TestImportConnections)
#include "tst_import_connections.moc"
