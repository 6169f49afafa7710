// ReplayPanel's scenario files (.lockscope): the Save and Open dialogs, which start in the
// user's Documents folder, and "Copy as command".
#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QStandardPaths>

#include "lockscope/sim/scenario_file.h"
#include "replay_panel.h"
#include "sim_text.h"

namespace lockscope::ui {

namespace {

QString documentsFolder() {
    QString dir = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return dir.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::HomeLocation) : dir;
}

}  // namespace

void ReplayPanel::saveWithDialog() {
    QString base =
        QStringLiteral("%1/%2.lockscope").arg(documentsFolder(), qs(replay_->scenario().name));
    QString path = QFileDialog::getSaveFileName(this, tr("Save the scenario"), base,
                                                tr("LockScope scenario (*.lockscope)"));
    if (path.isEmpty()) return;
    if (!path.endsWith(QLatin1String(".lockscope"))) path += QLatin1String(".lockscope");
    saveScenario(path);
}

void ReplayPanel::openWithDialog() {
    QString path = QFileDialog::getOpenFileName(this, tr("Open a scenario"), documentsFolder(),
                                                tr("LockScope scenario (*.lockscope)"));
    if (!path.isEmpty()) openScenario(path);
}

void ReplayPanel::copyCommand() {
    QApplication::clipboard()->setText(commandLine());
    showInfo(tr("Copied: %1").arg(commandLine()));
}

bool ReplayPanel::saveScenario(const QString& path) {
    try {
        sim::writeScenarioFile(path.toStdString(), sim::captureScenario(*replay_));
    } catch (const std::exception& e) {
        showError(qs(e.what()));
        return false;
    }
    showInfo(tr("Saved to %1").arg(path));
    return true;
}

bool ReplayPanel::openScenario(const QString& path) {
    try {
        adoptReplay(sim::openScenario(sim::readScenarioFile(path.toStdString())));
    } catch (const std::exception& e) {
        showError(tr("%1: %2").arg(path, qs(e.what())));
        return false;
    }
    showInfo(tr("Opened %1").arg(path));
    return true;
}

QString ReplayPanel::commandLine() const {
    return qs(sim::replayCommandLine(sim::captureScenario(*replay_)));
}

}  // namespace lockscope::ui
