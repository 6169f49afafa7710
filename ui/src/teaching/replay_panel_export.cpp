// ReplayPanel's exports for slides. A slide is drawn, not grabbed: at a chosen size (1600×900
// by default) and scale (2× by default), the full title, any fork note, the timeline (lanes
// and PTTL plot), the current beat's command and narration, and the outcome table. As a PNG,
// a one-page PDF, or a PDF with one page per beat for stepping in a PDF viewer. The file
// dialogs start in the user's Pictures or Documents folder.
#include <qcustomplot.h>
#include <QFile>
#include <QFileDialog>
#include <QHeaderView>
#include <QImage>
#include <QLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QStandardPaths>
#include <QTextDocument>
#include <algorithm>
#include <cmath>

#include "elided_label.h"
#include "export_options.h"
#include "lane_colors.h"
#include "lockscope/sim/run_verdict.h"
#include "narration_text.h"
#include "outcome_comparison.h"
#include "replay_panel.h"
#include "replay_pttl_plot.h"
#include "sim_text.h"

namespace lockscope::ui {

namespace {

// A rich-text block wrapped to a width, drawn at a point; returns its height.
double drawText(QPainter& p, const QString& html, const QPointF& at, double width,
                const QFont& font, const QColor& color) {
    QTextDocument doc;
    doc.setDefaultFont(font);
    doc.setDefaultStyleSheet(QStringLiteral("body { color: %1; }").arg(color.name()));
    doc.setHtml(QStringLiteral("<body>%1</body>").arg(html));
    doc.setTextWidth(width);
    p.save();
    p.translate(at);
    doc.drawContents(&p);
    p.restore();
    return doc.size().height();
}

// A widget drawn as it is, scaled to fit a rectangle (keeping its shape).
void drawWidgetAsIs(QPainter& p, QWidget* widget, const QRectF& into) {
    if (widget->width() <= 0 || widget->height() <= 0 || into.isEmpty()) return;
    const double scale = std::min(into.width() / widget->width(), into.height() / widget->height());
    p.save();
    p.translate(into.topLeft());
    p.scale(scale, scale);
    widget->render(&p, QPoint(), QRegion(), QWidget::DrawWindowBackground | QWidget::DrawChildren);
    p.restore();
}

// A widget drawn into a rectangle: laid out at that size for the drawing (so the lanes span
// the slide and the table shows its rows), then given its own size back.
void drawWidget(QPainter& p, QWidget* widget, const QRectF& into) {
    if (into.isEmpty()) return;
    const QSize own = widget->size();
    widget->resize(into.size().toSize().expandedTo(widget->minimumSizeHint()));
    if (widget->layout()) widget->layout()->activate();
    drawWidgetAsIs(p, widget, into);
    widget->resize(own);
    if (widget->layout()) widget->layout()->activate();
}

// The height of a rich-text block wrapped to a width.
double textHeight(const QString& html, double width, const QFont& font) {
    QTextDocument doc;
    doc.setDefaultFont(font);
    doc.setHtml(QStringLiteral("<body>%1</body>").arg(html));
    doc.setTextWidth(width);
    return doc.size().height();
}

QFont pixelFont(int pixels, bool bold) {
    QFont f;
    f.setPixelSize(pixels);
    f.setBold(bold);
    return f;
}

}  // namespace

void ReplayPanel::prepareExport() {
    pttl_->redraw();
    pttl_->plot()->replot(QCustomPlot::rpImmediateRefresh);
}

QString ReplayPanel::slideNarrationHtml() const {
    QString html;
    if (const sim::Beat* b = replay_->beat()) {
        html = QStringLiteral("<p><b>%1 · %2</b></p>")
                   .arg(virtualTimeText(b->time), qs(b->actor).toHtmlEscaped());
        if (!b->command.empty())
            html += QStringLiteral("<p style='font-family:monospace'>&gt; %1<br>%2</p>")
                        .arg(qs(b->shown).toHtmlEscaped(), qs(b->reply).toHtmlEscaped());
        html += QStringLiteral("<p>%1</p>").arg(narrationText(*b).toHtmlEscaped());
        if (replay_->atEnd())
            html +=
                QStringLiteral("<p><b>%1</b> %2</p>")
                    .arg(tr("Verdict:"), qs(sim::runVerdict(replay_->outcome())).toHtmlEscaped());
    } else {
        html = qs(replay_->scenario().summary).toHtmlEscaped();
    }
    return html;
}

void ReplayPanel::paintSlide(QPainter& p, const QSizeF& size) {
    prepareExport();
    slide_ = {};
    const QPalette& pal = palette();
    const double margin = 24;
    const double width = size.width() - 2 * margin;
    p.fillRect(QRectF(QPointF(0, 0), size), pal.color(QPalette::Base));
    const QColor text = pal.color(QPalette::Text);
    // Type in proportion to the slide (a 900 px slide: a 30 px title, 24 px narration).
    const auto slidePx = [&](double share) {
        return std::max(8, static_cast<int>(std::lround(size.height() * share)));
    };
    double y = margin;
    y += drawText(p, title_->fullText().toHtmlEscaped(), {margin, y}, width,
                  pixelFont(slidePx(0.034), true), text);
    const QString note = forkNote();
    if (!note.isEmpty())
        y += drawText(p, note.toHtmlEscaped(), {margin, y}, width, pixelFont(slidePx(0.022), true),
                      LaneColors::bad(pal));
    // The narration beside the table: the largest type (2.7 % of the slide down to 1.9 %)
    // whose text fits at most 40 % of the slide's height; the timeline takes the rest.
    const QString html = slideNarrationHtml();
    const double narrationWidth = width * 0.55;
    const double most = size.height() * 0.4;
    int px = slidePx(0.027);
    double need = textHeight(html, narrationWidth, pixelFont(px, false));
    while (need > most && px > slidePx(0.019))
        need = textHeight(html, narrationWidth, pixelFont(--px, false));
    const double legendHeight = textHeight(legend_->text(), width, pixelFont(slidePx(0.02), false));
    const double bottom = std::clamp(need, size.height() * 0.22, most);
    QRectF timeline(margin, y + 4, width,
                    size.height() - y - 4 - legendHeight - 8 - bottom - margin - 8);
    // The timeline without its own title (printed above) and legend (set below at the
    // slide's size): both were drawn a second time, tiny, inside it.
    const bool titleShown = title_->isVisible(), legendShown = legend_->isVisible();
    title_->hide();
    legend_->hide();
    drawWidget(p, timeline_, timeline);
    title_->setVisible(titleShown);
    legend_->setVisible(legendShown);
    if (timeline_->layout()) timeline_->layout()->activate();
    drawText(p, legend_->text(), {margin, timeline.bottom() + 4}, width,
             pixelFont(slidePx(0.02), false), text);
    slide_.legendPx = slidePx(0.02);
    const double top = timeline.bottom() + 4 + legendHeight + 8;
    QRectF narration(margin, top, narrationWidth, size.height() - top - margin);
    p.save();
    p.setClipRect(narration);
    drawText(p, html, narration.topLeft(), narration.width(), pixelFont(px, false), text);
    p.restore();
    slide_.narrationPx = px;
    slide_.narrationWhole = need <= narration.height() + 0.5;
    QRectF table(narration.right() + 16, top, size.width() - margin - narration.right() - 16,
                 narration.height());
    drawTable(p, table);
}

void ReplayPanel::drawTable(QPainter& p, const QRectF& into) {
    // Laid out at the size that shows every label and column whole, then scaled into its
    // place: a label cut to "Times two clients held it at on…" says nothing on a slide.
    const QSize own = comparison_->size();
    comparison_->resize(comparison_->neededSize() + QSize(6, 2));
    slide_.tableLabelsWhole = true;
    for (int r = 0; r < comparison_->rowCount(); ++r)
        if (comparison_->shownRowLabel(r) != comparison_->verticalHeaderItem(r)->text())
            slide_.tableLabelsWhole = false;
    drawWidgetAsIs(p, comparison_, into);
    comparison_->resize(own);
}

QString ReplayPanel::forkNote() const {
    QStringList forks;
    for (const sim::Replay::Fork& f : replay_->forks())
        forks << (f.crash ? tr("%1 crashed at %2").arg(qs(f.instance), virtualTimeText(f.at))
                          : tr("%1 frozen %2 at %3")
                                .arg(qs(f.instance), qs(sim::formatDuration(f.duration)),
                                     virtualTimeText(f.at)));
    return forks.isEmpty() ? QString()
                           : tr("Forked, not the story as told: %1").arg(forks.join(tr("; ")));
}

bool ReplayPanel::exportPng(const QString& path, QSize size, double scale) {
    if (size.width() < 320 || size.height() < 240 || size.width() > 8000 || size.height() > 8000 ||
        !(scale >= 0.5 && scale <= 4)) {
        showError(tr("A slide is 320×240 to 8000×8000 at 0.5× to 4×"));
        return false;
    }
    QImage image(QSize(std::lround(size.width() * scale), std::lround(size.height() * scale)),
                 QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    {
        QPainter p(&image);
        p.setRenderHint(QPainter::Antialiasing);
        p.setRenderHint(QPainter::TextAntialiasing);
        paintSlide(p, size);
    }
    if (!image.save(path, "PNG")) {
        showError(tr("Could not write %1").arg(path));
        return false;
    }
    return true;
}

bool ReplayPanel::writePdf(const QString& path, const QSize& size, bool everyBeat) {
    {
        QFile probe(path);
        if (!probe.open(QIODevice::WriteOnly)) {
            showError(tr("Could not write %1: %2").arg(path, probe.errorString()));
            return false;
        }
    }
    QPdfWriter writer(path);
    writer.setTitle(title_->fullText());
    writer.setCreator(QStringLiteral("LockScope"));
    const int dpi = 96;  // one slide-shaped page per slide, not a letter
    writer.setResolution(dpi);
    writer.setPageSize(QPageSize(QSizeF(size.width() * 72.0 / dpi, size.height() * 72.0 / dpi),
                                 QPageSize::Point, QString(), QPageSize::ExactMatch));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    QPainter p;
    if (!p.begin(&writer)) {
        showError(tr("Could not start a PDF at %1").arg(path));
        return false;
    }
    const double scale = double(p.viewport().width()) / size.width();
    p.scale(scale, scale);
    if (!everyBeat) {
        paintSlide(p, size);
        return p.end();
    }
    const int was = replay_->currentBeat();
    const int beats = static_cast<int>(replay_->beats().size());
    for (int beat = 0; beat < beats; ++beat) {
        if (beat > 0) writer.newPage();
        replay_->seek(beat);
        showBeat();
        paintSlide(p, size);
    }
    p.end();
    replay_->seek(was);
    showBeat();
    return true;
}

bool ReplayPanel::exportPdf(const QString& path, QSize size) {
    return writePdf(path, size, false);
}

bool ReplayPanel::exportSlides(const QString& path, QSize size) {
    return writePdf(path, size, true);
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
