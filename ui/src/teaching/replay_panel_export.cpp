// ReplayPanel's exports for slides: the timeline (title, lanes, PTTL plot) as PNG or PDF,
// from code (tests) or through a file dialog.
#include <qcustomplot.h>
#include <QFileDialog>

#include "elided_label.h"
#include "replay_panel.h"
#include "replay_pttl_plot.h"
#include "sim_text.h"
#include "timeline_export.h"

namespace lockscope::ui {

void ReplayPanel::prepareExport() {
    pttl_->redraw();
    pttl_->plot()->replot(QCustomPlot::rpImmediateRefresh);
}

bool ReplayPanel::exportPng(const QString& path) {
    prepareExport();
    QString error;
    if (!exportWidgetPng(timeline_, path, &error)) {
        showError(error);
        return false;
    }
    return true;
}

bool ReplayPanel::exportPdf(const QString& path) {
    prepareExport();
    QString error;
    if (!exportWidgetPdf(timeline_, path, title_->fullText(), &error)) {
        showError(error);
        return false;
    }
    return true;
}

void ReplayPanel::exportWithDialog(bool pdf) {
    QString base = QStringLiteral("%1-beat-%2")
                       .arg(qs(replay_->scenario().name))
                       .arg(replay_->currentBeat() + 1);
    QString path = QFileDialog::getSaveFileName(
        this, pdf ? tr("Export the timeline as PDF") : tr("Export the timeline as PNG"),
        base + (pdf ? QStringLiteral(".pdf") : QStringLiteral(".png")),
        pdf ? tr("PDF (*.pdf)") : tr("PNG image (*.png)"));
    if (path.isEmpty()) return;
    if (pdf ? exportPdf(path) : exportPng(path))
        showInfo(tr("Exported the timeline to %1").arg(path));
}

}  // namespace lockscope::ui
