// lockscope: the desktop application. Parses the command line and opens the window.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QSettings>
#include <QUrl>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "lockscope/endpoint.h"
#include "lockscope/errors.h"
#include "lockscope/sentinel.h"
#include "lockscope/version.h"
#include "teaching/narration_text.h"
#include "widgets/main_window.h"

namespace {

struct GuiCommandLine {
    QCommandLineParser parser;
    QCommandLineOption sandbox{
        QStringLiteral("sandbox"),
        QStringLiteral("Start a private redis-server with live demo locks and open it.")};
    QCommandLineOption url{QStringList{QStringLiteral("u"), QStringLiteral("url")},
                           QStringLiteral("Connect to this Redis URL (repeatable)."),
                           QStringLiteral("URL")};
    QCommandLineOption readOnly{QStringLiteral("read-only"),
                                QStringLiteral("Open --url connections read-only.")};
    QCommandLineOption audit{QStringLiteral("audit-log"),
                             QStringLiteral("Append manual actions to this file."),
                             QStringLiteral("PATH")};

    GuiCommandLine() {
        parser.setApplicationDescription(
            QStringLiteral("Redis distributed lock inspector and teaching tool"));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addOptions({sandbox, url, readOnly, audit});
        parser.addPositionalArgument(
            QStringLiteral("file"),
            QStringLiteral("A .lockscope scenario file to open on the Teaching tab, or a torture "
                           "history (lockscope-cli torture --history FILE.json) to open in the "
                           "teaching lanes."),
            QStringLiteral("[FILE.lockscope | HISTORY.json...]"));
    }
};

void nameApplication() {
    QCoreApplication::setApplicationName(QStringLiteral("LockScope"));
    QCoreApplication::setOrganizationName(QStringLiteral("LockScope"));
    QCoreApplication::setApplicationVersion(QString::fromLatin1(lockscope::kVersion));
}

// --help and --version need no display: they are answered before QApplication, which aborts
// (SIGABRT) when it finds none.
bool asksForHelpOrVersion(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        std::string_view a(argv[i]);
        if (a == "--") break;
        if (a == "-h" || a == "--help" || a == "-?" || a == "--help-all" || a == "-v" ||
            a == "--version")
            return true;
    }
    return false;
}

bool hasDisplay(int argc, char** argv) {
    for (const char* variable : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        // Read once, before QApplication starts any thread.
        if (const char* value = std::getenv(variable);  // NOLINT(concurrency-mt-unsafe)
            value && *value)
            return true;
    for (int i = 1; i < argc; ++i)
        if (std::string_view(argv[i]) == "-platform") return true;
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    if (asksForHelpOrVersion(argc, argv)) {
        QCoreApplication core(argc, argv);
        nameApplication();
        GuiCommandLine line;
        line.parser.process(core);  // prints the help or version and exits
        return 0;
    }
    if (!hasDisplay(argc, argv)) {
        std::fputs(
            "lockscope: no display to open the window on (DISPLAY and WAYLAND_DISPLAY are "
            "unset); lockscope-cli works without one\n",
            stderr);
        return 1;
    }
    QApplication app(argc, argv);
    nameApplication();
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/lockscope.svg")));
    QApplication::setDesktopFileName(QStringLiteral("io.github.lockscope.lockscope"));
    // The teaching narration in the user's language where a translation ships (German).
    lockscope::ui::installTeachingTranslation(app, QLocale());

    GuiCommandLine line;
    line.parser.process(app);

    lockscope::ui::MainWindowOptions options;
    options.startSandbox = line.parser.isSet(line.sandbox);
    options.auditLogPath = line.parser.value(line.audit);
    // A .lockscope file is a scenario; any other file is a torture history.
    QStringList scenarios;
    for (const QString& file : line.parser.positionalArguments())
        (file.endsWith(QStringLiteral(".lockscope")) ? scenarios : options.histories).append(file);
    for (const QString& u : line.parser.values(line.url)) {
        try {
            auto profile = lockscope::isSentinelUrl(u.toStdString())
                               ? lockscope::ui::ConnectionProfile::createForSentinel(u, u)
                               : lockscope::ui::ConnectionProfile::create(
                                     u, lockscope::parseEndpoint(u.toStdString()));
            profile.name = profile.displayUrl();
            profile.readOnly = line.parser.isSet(line.readOnly);
            options.extra.append(profile);
        } catch (const lockscope::Error& e) {
            std::fprintf(stderr, "lockscope: %s\n", e.what());
            return 2;
        }
    }
    QSettings settings;
    lockscope::ui::MainWindow window(settings, options);
    window.show();
    // A scenario file (a double-click in the file manager, or `lockscope FILE`); a bad one
    // is explained on the Teaching tab.
    if (scenarios.size() > 1) {
        std::fputs("lockscope: give at most one scenario file\n", stderr);
        return 2;
    }
    if (!scenarios.isEmpty()) {
        const QUrl url =
            QUrl::fromUserInput(scenarios.first(), QDir::currentPath(), QUrl::AssumeLocalFile);
        window.openScenario(url.isLocalFile() ? url.toLocalFile() : scenarios.first());
    }
    return app.exec();
}
