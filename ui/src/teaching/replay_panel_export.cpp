// ReplayPanel's export menu: PNG, PDF and a PDF of every beat, drawn by SlideExporter at the
// size and scale the menu's chooser holds. The file dialogs start in the user's Pictures or
// Documents folder.
#include <QFileDialog>
#include <QStandardPaths>

#include "export_options.h"
#include "replay_panel.h"
#include "sim_text.h"
#include "slide_exporter.h"

namespace lockscope::ui {

// The panel's parts the slides borrow, and how they see the story as it stands.
SlideExporter& ReplayPanel::slides() {
    if (!slides_)
        slides_ = std::make_unique<SlideExporter>(
            SlideExporter::Parts{this, timeline_, title_, legend_, comparison_, pttl_},
            [this]() -> sim::Replay& { return *replay_; }, [this] { showBeat(); });
    return *slides_;
}

// An export that fails says why in the panel's status line.
bool ReplayPanel::exported(bool ok) {
    if (!ok) showError(slides().error());
    return ok;
}

bool ReplayPanel::exportPng(const QString& path, QSize size, double scale) {
    return exported(slides().png(path, size, scale));
}

bool ReplayPanel::exportPdf(const QString& path, QSize size) {
    return exported(slides().pdf(path, size, false));
}

bool ReplayPanel::exportSlides(const QString& path, QSize size) {
    return exported(slides().pdf(path, size, true));
}

QString ReplayPanel::forkNote() const {
    return SlideExporter::forkNote(*replay_);
}

const SlideExporter::SlideFacts& ReplayPanel::lastSlide() {
    return slides().lastSlide();
}

void ReplayPanel::exportWithDialog(ExportKind kind) {
    const bool pdf = kind != ExportKind::Png;
    QString base = kind == ExportKind::Slides
                       ? QStringLiteral("%1-slides").arg(qs(replay_->scenario().name))
                       : QStringLiteral("%1-beat-%2")
                             .arg(qs(replay_->scenario().name))
                             .arg(replay_->currentBeat() + 1);
    // Pictures for an image, Documents for a PDF: never the process's working directory.
    QString folder = QStandardPaths::writableLocation(pdf ? QStandardPaths::DocumentsLocation
                                                          : QStandardPaths::PicturesLocation);
    if (folder.isEmpty()) folder = QStandardPaths::writableLocation(QStandardPaths::HomeLocation);
    QString path = QFileDialog::getSaveFileName(
        this, pdf ? tr("Export as PDF") : tr("Export as PNG"),
        folder + QLatin1Char('/') + base + (pdf ? QStringLiteral(".pdf") : QStringLiteral(".png")),
        pdf ? tr("PDF (*.pdf)") : tr("PNG image (*.png)"));
    if (path.isEmpty()) return;
    if (exportAsChosen(kind, path)) showInfo(tr("Exported to %1").arg(path));
}

bool ReplayPanel::exportAsChosen(ExportKind kind, const QString& path) {
    const QSize size = exportOptions_->size();
    switch (kind) {
        case ExportKind::Png:
            return exportPng(path, size, exportOptions_->scale());
        case ExportKind::Pdf:
            return exportPdf(path, size);
        case ExportKind::Slides:
            return exportSlides(path, size);
    }
    return false;
}

}  // namespace lockscope::ui
