#pragma once
// Shared by the UI tests: screenshots into the build directory, so a person can look at
// what the tests saw.

#include <QDir>
#include <QPixmap>
#include <QString>
#include <QWidget>

namespace lockscope::ui::testing {

inline QString screenshotPath(const QString& name) {
    QDir().mkpath(QStringLiteral(LOCKSCOPE_SCREENSHOT_DIR));
    return QStringLiteral(LOCKSCOPE_SCREENSHOT_DIR) + QLatin1Char('/') + name +
           QStringLiteral(".png");
}

inline bool saveScreenshot(QWidget* widget, const QString& name) {
    return widget->grab().save(screenshotPath(name));
}

}  // namespace lockscope::ui::testing
