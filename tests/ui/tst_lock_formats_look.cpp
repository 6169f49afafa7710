// The lock formats of the other libraries as the window lists them: one lock of every kind
// (written with each library's own commands, tests/formats/formats_test_support.cpp) on a
// private redis-server, every key scanned. Saves a screenshot to look at, and checks that the
// table's Kind column and Holder tooltip show what the classifier and decoder return.
#include <QApplication>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include "formats_test_support.h"
#include "lockscope/sandbox/local_redis_server.h"
#include "models/lock_table_model.h"
#include "ui_test_support.h"
#include "widgets/lock_inspector_view.h"
#include "widgets/main_window.h"

using namespace lockscope;
using namespace lockscope::ui;

class LockFormatsLookTest : public QObject {
    Q_OBJECT
  private slots:
    void everyKindIsListedWithItsHolderFacts() {
        LocalRedisServer server;
        Connection c = Connection::open(server.endpoint());
        formats_test::writeEveryFormat(c);
        QTemporaryDir dir;
        QSettings settings(dir.filePath("lockscope.ini"), QSettings::IniFormat);
        MainWindowOptions options;
        auto profile = ConnectionProfile::create(QStringLiteral("libraries"), server.endpoint());
        profile.patterns = {QStringLiteral("*")};
        options.extra.append(profile);
        MainWindow w(settings, options);
        w.resize(1600, 900);
        w.show();
        auto* model = w.inspector()->model();
        QTRY_VERIFY_WITH_TIMEOUT(model->rowCount() >= 20, 15000);
        QStringList kinds;
        QString shedTip;
        QString shedHolder;
        QString redissonHolder;
        for (int row = 0; row < model->rowCount(); ++row) {
            const QString kind = model->index(row, LockTableModel::Kind).data().toString();
            kinds << kind;
            const QModelIndex holder = model->index(row, LockTableModel::Holder);
            if (model->index(row, LockTableModel::Key).data().toString().startsWith("job-lock:")) {
                shedTip = holder.data(Qt::ToolTipRole).toString();
                shedHolder = holder.data().toString();
            }
            if (kind == QStringLiteral("redisson")) redissonHolder = holder.data().toString();
        }
        for (const char* kind :
             {"shedlock", "laravel", "sidekiq-unique-jobs", "redlock-net", "pottery", "celery-once",
              "activejob-uniqueness", "redisson-rwlock", "redisson-rwlock-timeout", "redisson"})
            QVERIFY2(kinds.contains(QString::fromLatin1(kind)), kind);
        QVERIFY2(shedTip.contains(QStringLiteral("on build-7")), qPrintable(shedTip));
        // The table itself says who holds a lock where the format tells: ShedLock's host and
        // Redisson's client and thread, not the raw value (which stays in the tooltip).
        QVERIFY2(shedHolder.contains(QStringLiteral("on build-7")) &&
                     !shedHolder.startsWith(QStringLiteral("ADDED:")),
                 qPrintable(shedHolder));
        QVERIFY2(redissonHolder.contains(QStringLiteral("thread ")), qPrintable(redissonHolder));
        w.inspector()->selectKey(QString::fromStdString(server.endpoint().display()),
                                 QStringLiteral("stock"));
        QTest::qWait(1500);
        QVERIFY(testing::saveScreenshot(&w, "lock-formats"));
    }
};

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    LockFormatsLookTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_lock_formats_look.moc"
