// lockscope: the desktop application. Parses the command line and opens the window.
#include <QApplication>
#include <QCommandLineParser>
#include <QSettings>
#include <cstdio>

#include "lockscope/endpoint.h"
#include "lockscope/errors.h"
#include "lockscope/version.h"
#include "widgets/main_window.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("LockScope"));
    QApplication::setOrganizationName(QStringLiteral("LockScope"));
    QApplication::setApplicationVersion(QString::fromLatin1(lockscope::kVersion));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/lockscope.svg")));
    QApplication::setDesktopFileName(QStringLiteral("lockscope"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Redis distributed lock inspector and teaching tool"));
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption sandbox(
        QStringLiteral("sandbox"),
        QStringLiteral("Start a private redis-server with live demo locks and open it."));
    QCommandLineOption url(QStringList{QStringLiteral("u"), QStringLiteral("url")},
                           QStringLiteral("Connect to this Redis URL (repeatable)."),
                           QStringLiteral("URL"));
    QCommandLineOption readOnly(QStringLiteral("read-only"),
                                QStringLiteral("Open --url connections read-only."));
    QCommandLineOption audit(QStringLiteral("audit-log"),
                             QStringLiteral("Append manual actions to this file."),
                             QStringLiteral("PATH"));
    parser.addOptions({sandbox, url, readOnly, audit});
    parser.process(app);

    lockscope::ui::MainWindowOptions options;
    options.startSandbox = parser.isSet(sandbox);
    options.auditLogPath = parser.value(audit);
    for (const QString& u : parser.values(url)) {
        try {
            auto profile = lockscope::ui::ConnectionProfile::create(
                u, lockscope::parseEndpoint(u.toStdString()));
            profile.name = QString::fromStdString(profile.endpoint.display());
            profile.readOnly = parser.isSet(readOnly);
            options.extra.append(profile);
        } catch (const lockscope::Error& e) {
            std::fprintf(stderr, "lockscope: %s\n", e.what());
            return 2;
        }
    }
    QSettings settings;
    lockscope::ui::MainWindow window(settings, options);
    window.show();
    return app.exec();
}
