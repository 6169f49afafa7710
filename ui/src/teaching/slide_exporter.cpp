#include "slide_exporter.h"

#include <qcustomplot.h>
#include <QFile>
#include <QImage>
#include <QLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QTextDocument>
#include <algorithm>
#include <cmath>

#include "elided_label.h"
#include "lane_colors.h"
#include "lockscope/sim/replay.h"
#include "lockscope/sim/run_verdict.h"
#include "narration_text.h"
#include "outcome_comparison.h"
#include "replay_pttl_plot.h"
#include "sim_text.h"
#include "slide_table.h"

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
// the slide), then given its own size back. laidOut sees it at the drawn size.
void drawWidget(QPainter& p, QWidget* widget, const QRectF& into,
                const std::function<void()>& laidOut) {
    if (into.isEmpty()) return;
    const QSize own = widget->size();
    widget->resize(into.size().toSize().expandedTo(widget->minimumSizeHint()));
    if (widget->layout()) widget->layout()->activate();
    laidOut();
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

SlideExporter::SlideExporter(Parts parts, std::function<sim::Replay&()> replay,
                             std::function<void()> showBeat)
    : parts_(parts), replay_(std::move(replay)), showBeat_(std::move(showBeat)) {}

bool SlideExporter::fail(const QString& message) {
    error_ = message;
    return false;
}

QString SlideExporter::narrationHtml() const {
    const sim::Replay& replay = replay_();
    QString html;
    if (const sim::Beat* b = replay.beat()) {
        html = QStringLiteral("<p><b>%1 · %2</b></p>")
                   .arg(virtualTimeText(b->time), qs(b->actor).toHtmlEscaped());
        if (!b->command.empty())
            html += QStringLiteral("<p style='font-family:monospace'>&gt; %1<br>%2</p>")
                        .arg(qs(b->shown).toHtmlEscaped(), qs(b->reply).toHtmlEscaped());
        html += QStringLiteral("<p>%1</p>").arg(narrationText(*b).toHtmlEscaped());
        if (replay.atEnd())
            html += QStringLiteral("<p><b>%1</b> %2</p>")
                        .arg(tr("Verdict:"), qs(sim::runVerdict(replay.outcome())).toHtmlEscaped());
    } else {
        html = qs(replay.scenario().summary).toHtmlEscaped();
    }
    return html;
}

void SlideExporter::paint(QPainter& p, const QSizeF& size) {
    parts_.pttl->redraw();
    parts_.pttl->plot()->replot(QCustomPlot::rpImmediateRefresh);
    slide_ = {};
    const QPalette& pal = parts_.panel->palette();
    const double margin = 24;
    const double width = size.width() - 2 * margin;
    p.fillRect(QRectF(QPointF(0, 0), size), pal.color(QPalette::Base));
    const QColor text = pal.color(QPalette::Text);
    // Type in proportion to the slide (a 900 px slide: a 30 px title, 24 px narration).
    const auto slidePx = [&](double share) {
        return std::max(8, static_cast<int>(std::lround(size.height() * share)));
    };
    double y = margin;
    y += drawText(p, parts_.title->fullText().toHtmlEscaped(), {margin, y}, width,
                  pixelFont(slidePx(0.034), true), text);
    const QString note = forkNote(replay_());
    if (!note.isEmpty())
        y += drawText(p, note.toHtmlEscaped(), {margin, y}, width, pixelFont(slidePx(0.022), true),
                      LaneColors::bad(pal));
    // The narration beside the table: the largest type (2.7 % of the slide down to 1.9 %)
    // whose text fits at most 40 % of the slide's height; the timeline takes the rest.
    const QString html = narrationHtml();
    const double narrationWidth = width * 0.5;  // half: the table has three columns
    const double most = size.height() * 0.4;
    int px = slidePx(0.027);
    double need = textHeight(html, narrationWidth, pixelFont(px, false));
    while (need > most && px > slidePx(0.019))
        need = textHeight(html, narrationWidth, pixelFont(--px, false));
    const int legendPx = slidePx(0.024);
    const double legendHeight =
        textHeight(parts_.legend->text(), width, pixelFont(legendPx, false));
    // The table beside it at the narration's scale of type (3 % of the slide down to 2.2 %),
    // wrapping its labels; the band under the timeline is as tall as the taller of the two.
    SlideTable table(*parts_.comparison);
    const double tableMost = size.height() * 0.46;  // seven rows, some wrapped
    table.fit(width - narrationWidth - 16, tableMost, slidePx(0.03), slidePx(0.022));
    const double bottom =
        std::clamp(std::max(need, table.height()), size.height() * 0.22, tableMost);
    QRectF timeline(margin, y + 4, width,
                    size.height() - y - 4 - legendHeight - 8 - bottom - margin - 8);
    // The timeline without its own title (printed above) and legend (set below at the
    // slide's size): both were drawn a second time, tiny, inside it.
    const bool titleShown = parts_.title->isVisible(), legendShown = parts_.legend->isVisible();
    parts_.title->hide();
    parts_.legend->hide();
    // The PTTL plot only where it has room to be read (a sixth of the slide): under nine
    // lanes it was squeezed to a strip with its axis labels drawn over each other.
    const bool plotShown = !parts_.pttl->isHidden();
    parts_.pttl->hide();
    const double lanesNeed = parts_.timeline->minimumSizeHint().height();
    parts_.pttl->setVisible(plotShown && timeline.height() - lanesNeed >= size.height() / 6);
    slide_.plotShown = !parts_.pttl->isHidden();
    // Measured as laid out, not guessed: the lanes take three parts of four of the room
    // left over, so a broken-report plot came out 90 px tall with its ticks on each other.
    drawWidget(p, parts_.timeline, timeline, [&] {
        if (slide_.plotShown && parts_.pttl->height() < size.height() / 6) {
            parts_.pttl->hide();
            parts_.timeline->layout()->activate();
            slide_.plotShown = false;
        }
        slide_.plotPx = slide_.plotShown ? parts_.pttl->height() : 0;
    });
    parts_.pttl->setVisible(plotShown);
    parts_.title->setVisible(titleShown);
    parts_.legend->setVisible(legendShown);
    if (parts_.timeline->layout()) parts_.timeline->layout()->activate();
    drawText(p, parts_.legend->text(), {margin, timeline.bottom() + 4}, width,
             pixelFont(legendPx, false), text);
    slide_.legendPx = legendPx;
    const double top = timeline.bottom() + 4 + legendHeight + 8;
    QRectF narration(margin, top, narrationWidth, size.height() - top - margin);
    p.save();
    p.setClipRect(narration);
    drawText(p, html, narration.topLeft(), narration.width(), pixelFont(px, false), text);
    p.restore();
    slide_.narrationPx = px;
    slide_.narrationWhole = need <= narration.height() + 0.5;
    const QRectF tableBox(narration.right() + 16, top,
                          size.width() - margin - narration.right() - 16, narration.height());
    table.draw(p, tableBox, text, pal.color(QPalette::Mid));
    slide_.tablePx = table.pixels();
    slide_.tableLabelsWhole = table.labelsWhole() && table.height() <= tableBox.height() + 0.5;
    slide_.contentBottom = top + std::max(std::min(need, narration.height()),
                                          std::min(table.height(), tableBox.height()));
}

QString SlideExporter::forkNote(const sim::Replay& replay) {
    QStringList forks;
    for (const sim::Replay::Fork& f : replay.forks())
        forks << (f.crash ? tr("%1 crashed at %2").arg(qs(f.instance), virtualTimeText(f.at))
                          : tr("%1 frozen %2 at %3")
                                .arg(qs(f.instance), qs(sim::formatDuration(f.duration)),
                                     virtualTimeText(f.at)));
    return forks.isEmpty() ? QString()
                           : tr("Forked, not the story as told: %1").arg(forks.join(tr("; ")));
}

bool SlideExporter::png(const QString& path, QSize size, double scale) {
    if (size.width() < 320 || size.height() < 240 || size.width() > 8000 || size.height() > 8000 ||
        !(scale >= 0.5 && scale <= 4))
        return fail(tr("A slide is 320×240 to 8000×8000 at 0.5× to 4×"));
    QImage image(QSize(std::lround(size.width() * scale), std::lround(size.height() * scale)),
                 QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    {
        QPainter p(&image);
        p.setRenderHint(QPainter::Antialiasing);
        p.setRenderHint(QPainter::TextAntialiasing);
        paint(p, size);
    }
    if (!image.save(path, "PNG")) return fail(tr("Could not write %1").arg(path));
    return true;
}

bool SlideExporter::pdf(const QString& path, QSize size, bool everyBeat) {
    {
        QFile probe(path);
        if (!probe.open(QIODevice::WriteOnly))
            return fail(tr("Could not write %1: %2").arg(path, probe.errorString()));
    }
    QPdfWriter writer(path);
    writer.setTitle(parts_.title->fullText());
    writer.setCreator(QStringLiteral("LockScope"));
    const int dpi = 96;  // one slide-shaped page per slide, not a letter
    writer.setResolution(dpi);
    writer.setPageSize(QPageSize(QSizeF(size.width() * 72.0 / dpi, size.height() * 72.0 / dpi),
                                 QPageSize::Point, QString(), QPageSize::ExactMatch));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    QPainter p;
    if (!p.begin(&writer)) return fail(tr("Could not start a PDF at %1").arg(path));
    const double scale = double(p.viewport().width()) / size.width();
    p.scale(scale, scale);
    if (!everyBeat) {
        paint(p, size);
        return p.end();
    }
    sim::Replay& replay = replay_();
    const int was = replay.currentBeat();
    const int beats = static_cast<int>(replay.beats().size());
    for (int beat = 0; beat < beats; ++beat) {
        if (beat > 0) writer.newPage();
        replay.seek(beat);
        showBeat_();
        paint(p, size);
    }
    p.end();
    replay.seek(was);
    showBeat_();
    return true;
}

}  // namespace lockscope::ui
