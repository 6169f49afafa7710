#include "narration_view.h"

#include <QRegularExpression>
#include <QScrollBar>
#include <QTextDocument>
#include <algorithm>

#include "lane_colors.h"
#include "lane_fonts.h"
#include "lockscope/sim/run_verdict.h"
#include "narration_text.h"
#include "sim_text.h"

namespace lockscope::ui {
namespace {

QString esc(const std::string& text) {
    return qs(text).toHtmlEscaped();
}

// The HTML's pixel sizes scaled by the teaching view's zoom.
QString zoomed(const QString& html) {
    static const QRegularExpression size(QStringLiteral("font-size:(\\d+)px"));
    QString out;
    qsizetype last = 0;
    for (auto it = size.globalMatch(html); it.hasNext();) {
        auto m = it.next();
        out += html.mid(last, m.capturedStart() - last);
        out += QStringLiteral("font-size:%1px").arg(LaneFonts::px(m.captured(1).toInt()));
        last = m.capturedEnd();
    }
    return out + html.mid(last);
}

}  // namespace

NarrationView::NarrationView(QWidget* parent) : QTextBrowser(parent) {
    setOpenLinks(false);
    setFocusPolicy(Qt::NoFocus);  // arrows and Space belong to the replay
    // A child of the scroll area's frame, in the bottom viewport margin: it never scrolls.
    pinned_ = new QLabel(this);
    pinned_->setObjectName(QStringLiteral("narrationPinned"));
    pinned_->setWordWrap(true);
    pinned_->setTextFormat(Qt::RichText);
    pinned_->setAutoFillBackground(true);
    pinned_->setMargin(6);
    pinned_->setBackgroundRole(QPalette::AlternateBase);
    pinned_->hide();
    // The strip is as wide as the text above it: a scroll bar appearing narrows both.
    connect(verticalScrollBar(), &QScrollBar::rangeChanged, this, &NarrationView::layoutPinned,
            Qt::QueuedConnection);
    applyZoom();
    setMinimumHeight(72);
}

void NarrationView::applyZoom() {
    QFont f = font();
    f.setPixelSize(LaneFonts::px(18));
    setFont(f);
    pinned_->setFont(f);
    layoutPinned();
}

void NarrationView::resizeEvent(QResizeEvent* event) {
    QTextBrowser::resizeEvent(event);
    layoutPinned();
}

void NarrationView::layoutPinned() {
    if (pinned_->isHidden()) {
        setViewportMargins(0, 0, 0, 0);
        return;
    }
    // As tall as its wrapped text needs, leaving the beat's text a line at least; under the
    // text only, beside the scroll bar (which spans the margin too).
    const QRect inside = contentsRect();
    const QRect text = viewport()->geometry();
    const int line = QFontMetrics(font()).lineSpacing();
    const int room = std::max(0, inside.height() - line);
    // A long question (seat-hold's exercise) in a 720p box: smaller type, never cut off,
    // down to a size still readable from the front rows.
    QFont f = font();
    const int smallest = LaneFonts::px(12);
    pinned_->setFont(f);
    pinnedNeed_ = pinned_->heightForWidth(text.width());
    while (pinned_->heightForWidth(text.width()) > room && f.pixelSize() > smallest) {
        f.setPixelSize(f.pixelSize() - 1);
        pinned_->setFont(f);
    }
    const int height = std::min(pinned_->heightForWidth(text.width()), room);
    setViewportMargins(0, 0, 0, height);
    pinned_->setGeometry(text.left(), inside.bottom() + 1 - height, text.width(), height);
    pinned_->raise();
}

QString NarrationView::plainText() const {
    if (pinned_->isHidden()) return toPlainText();
    QTextDocument strip;
    strip.setHtml(pinned_->text());
    return toPlainText() + QLatin1Char('\n') + strip.toPlainText();
}

void NarrationView::showReplay(const sim::Replay& replay, bool predict) {
    const QPalette& pal = palette();
    QString codeBg = pal.color(QPalette::AlternateBase).name();
    QString dim = pal.color(QPalette::PlaceholderText).name();
    QString html;
    question_ = answer_ = false;
    const sim::Beat* beat = replay.beat();
    int count = static_cast<int>(replay.beats().size());
    if (!beat) {
        const sim::Scenario& s = replay.scenario();
        html += QStringLiteral(
                    "<p style='font-size:22px'><b>%1</b></p><p>%2</p><p style='color:%3'>%4</p>")
                    .arg(esc(s.title), esc(s.summary), dim,
                         tr("%1 beats. Press → (or Space to play) to start the story.").arg(count));
    } else {
        QColor actor = LaneColors::actor(qs(beat->actor), pal);
        html += QStringLiteral(
                    "<p style='font-size:20px'><b>%1</b> &nbsp;·&nbsp; <b style='color:%2'>%3</b>"
                    " &nbsp;<span style='color:%4'>beat %5 of %6</span></p>")
                    .arg(virtualTimeText(beat->time), actor.name(), esc(beat->actor), dim)
                    .arg(beat->index + 1)
                    .arg(count);
        if (!beat->command.empty()) {
            html += QStringLiteral(
                        "<table width='100%' cellpadding='8' style='background:%1'><tr><td>"
                        "<p style='font-family:monospace; font-size:20px; white-space:pre-wrap; "
                        "margin:0'>&gt; %2<br>%3</p></td></tr></table>")
                        .arg(codeBg, esc(beat->shown.empty() ? beat->command : beat->shown),
                             esc(beat->reply));
        }
        // The raw command as sent (EVALSHA <sha1> …) for whoever asks.
        setToolTip(beat->command.empty() || beat->command == beat->shown
                       ? QString()
                       : tr("Sent as: %1").arg(qs(beat->command)));
        html += QStringLiteral("<p>%1</p>").arg(narrationText(*beat).toHtmlEscaped());
        if (predict && beat->predict) {
            answer_ = true;
            html += QStringLiteral("<p style='color:%1'><b>✔ Answer:</b> %2</p>")
                        .arg(LaneColors::good(pal).name(), esc(beat->predict->answer));
        }
    }
    setHtml(zoomed(html));
    // The pinned strip: how the run came out at its end (from its counts: the summary only
    // sets it up), and the question that stops playback.
    QString strip;
    verdict_ = beat && replay.atEnd();
    if (verdict_)
        strip += QStringLiteral("<p style='margin:0'><b>%1</b> %2</p>")
                     .arg(tr("Verdict:"), esc(sim::runVerdict(replay.outcome())));
    if (predict) {
        if (auto question = replay.pendingQuestion()) {
            question_ = true;
            strip += QStringLiteral(
                         "<p style='margin:0; color:%1'><b>%2</b> %3</p>"
                         "<p style='margin:0; color:%4'>%5</p>")
                         .arg(LaneColors::question(pal).name(), tr("Predict:"),
                              qs(*question).toHtmlEscaped(), dim,
                              tr("Think, then press → to see what happens."));
        }
    }
    pinned_->setText(strip);
    pinned_->setVisible(!strip.isEmpty());
    layoutPinned();
}

int NarrationView::neededHeight() const {
    if (pinned_->isHidden()) return 0;
    const int frame = height() - contentsRect().height();
    return frame + QFontMetrics(font()).lineSpacing() + pinnedNeed_;
}

bool NarrationView::pinnedInView() const {
    if (pinned_->isHidden() || !isVisible()) return false;
    // Inside the box, below the scrolling text, and tall enough for all its wrapped lines.
    const QRect where = pinned_->geometry();
    return contentsRect().contains(where) && where.top() >= viewport()->geometry().bottom() &&
           where.height() >= pinned_->heightForWidth(where.width());
}

bool NarrationView::questionInView() const {
    return question_ && pinnedInView();
}

bool NarrationView::verdictInView() const {
    return verdict_ && pinnedInView();
}

}  // namespace lockscope::ui
