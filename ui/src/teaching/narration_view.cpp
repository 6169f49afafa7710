#include "narration_view.h"

#include <QRegularExpression>
#include <QScrollBar>
#include <QTextDocument>
#include <algorithm>
#include <cmath>
#include <vector>

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

constexpr int kBodyPx = 18;  // the body's type at zoom 1; the HTML's sizes are for it

// The HTML's pixel sizes scaled to a body of `bodyPx` (the zoomed, maybe fitted, size).
QString scaled(const QString& html, int bodyPx) {
    static const QRegularExpression size(QStringLiteral("font-size:(\\d+)px"));
    QString out;
    qsizetype last = 0;
    for (auto it = size.globalMatch(html); it.hasNext();) {
        auto m = it.next();
        out += html.mid(last, m.capturedStart() - last);
        out +=
            QStringLiteral("font-size:%1px")
                .arg(std::max(
                    6, static_cast<int>(std::lround(m.captured(1).toDouble() * bodyPx / kBodyPx))));
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
    measure_ = new QLabel(this);
    measure_->setWordWrap(true);
    measure_->setTextFormat(Qt::RichText);
    measure_->setMargin(pinned_->margin());
    measure_->hide();
    // The strip is as wide as the text above it: a scroll bar appearing narrows both.
    connect(verticalScrollBar(), &QScrollBar::rangeChanged, this, &NarrationView::layoutPinned,
            Qt::QueuedConnection);
    applyZoom();
    setMinimumHeight(72);
}

void NarrationView::applyZoom() {
    bodyPx_ = LaneFonts::px(kBodyPx);
    render();
}

void NarrationView::setPresenting(bool on) {
    fitting_ = on;
    bodyPx_ = LaneFonts::px(kBodyPx);
}

void NarrationView::resizeEvent(QResizeEvent* event) {
    QTextBrowser::resizeEvent(event);
    // The viewport's resizes come here too (its margin for the strip): only the box's own
    // new size re-renders, with the story's type again, smaller only if this beat needs it.
    if (fitting_ && size() != renderedAt_)
        render();
    else
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

NarrationView::Composed NarrationView::compose(const sim::Replay& replay, int index,
                                               bool predict) const {
    const QPalette& pal = palette();
    const QString codeBg = pal.color(QPalette::AlternateBase).name();
    const QString dim = pal.color(QPalette::PlaceholderText).name();
    const auto& beats = replay.beats();
    const int count = static_cast<int>(beats.size());
    const sim::Beat* beat = index >= 0 && index < count ? &beats[index] : nullptr;
    Composed out;
    if (!beat) {
        // The title is over the lanes already: the story's set-up and how to start.
        const sim::Scenario& s = replay.scenario();
        out.text =
            QStringLiteral("<p>%1</p><p style='color:%2'>%3</p>")
                .arg(esc(s.summary), dim,
                     tr("%1 beats. Press → (or Space to play) to start the story.").arg(count));
    } else {
        // In front of a room the transport and the "now" flag say when and which beat.
        QColor actor = LaneColors::actor(qs(beat->actor), pal);
        if (!fitting_)
            out.text +=
                QStringLiteral(
                    "<p style='font-size:20px'><b>%1</b> &nbsp;·&nbsp; <b style='color:%2'>%3"
                    "</b> &nbsp;<span style='color:%4'>beat %5 of %6</span></p>")
                    .arg(virtualTimeText(beat->time), actor.name(), esc(beat->actor), dim)
                    .arg(beat->index + 1)
                    .arg(count);
        if (!beat->command.empty()) {
            // In presenter mode the command names who sent it (no line above says it).
            const QString who = fitting_ ? QStringLiteral("<b style='color:%1'>%2</b> ")
                                               .arg(actor.name(), esc(beat->actor))
                                         : QString();
            out.text +=
                QStringLiteral(
                    "<table width='100%' cellpadding='8' style='background:%1'><tr><td>"
                    "<p style='font-family:monospace; font-size:20px; "
                    "white-space:pre-wrap; margin:0'>%2&gt; %3<br>%4</p></td></tr></table>")
                    .arg(codeBg, who, esc(beat->shown.empty() ? beat->command : beat->shown),
                         esc(beat->reply));
        }
        out.text += QStringLiteral("<p>%1</p>").arg(narrationText(*beat).toHtmlEscaped());
        if (predict && beat->predict) {
            out.answer = true;
            out.text += QStringLiteral("<p style='color:%1'><b>✔ Answer:</b> %2</p>")
                            .arg(LaneColors::good(pal).name(), esc(beat->predict->answer));
        }
    }
    // The pinned strip: how the run came out at its end (from its counts: the summary only
    // sets it up), and the question that stops playback.
    out.verdict = beat && index + 1 >= count;
    if (out.verdict)
        out.strip += QStringLiteral("<p style='margin:0'><b>%1</b> %2</p>")
                         .arg(tr("Verdict:"), esc(sim::runVerdict(replay.outcome())));
    const int next = index + 1;
    if (predict && next < count && beats[next].predict) {
        out.question = true;
        out.strip += QStringLiteral(
                         "<p style='margin:0; color:%1'><b>%2</b> %3</p>"
                         "<p style='margin:0; color:%4'>%5</p>")
                         .arg(LaneColors::question(pal).name(), tr("Predict:"),
                              esc(beats[next].predict->question), dim,
                              tr("Think, then press → to see what happens."));
    }
    return out;
}

void NarrationView::showReplay(const sim::Replay& replay, bool predict) {
    composed_ = compose(replay, replay.currentBeat(), predict);
    question_ = composed_.question;
    answer_ = composed_.answer;
    verdict_ = composed_.verdict;
    // The raw command as sent (EVALSHA <sha1> …) for whoever asks.
    const sim::Beat* beat = replay.beat();
    setToolTip(!beat || beat->command.empty() || beat->command == beat->shown
                   ? QString()
                   : tr("Sent as: %1").arg(qs(beat->command)));
    render();
}

void NarrationView::render() {
    renderedAt_ = size();
    QFont f = font();
    f.setPixelSize(bodyPx_);
    setFont(f);
    pinned_->setFont(f);
    setHtml(scaled(composed_.text, bodyPx_));
    pinned_->setText(composed_.strip);
    pinned_->setVisible(!composed_.strip.isEmpty());
    layoutPinned();
    if (fitting_) shrinkToFit();
}

int NarrationView::heightFor(const Composed& beat, int bodyPx, int width) const {
    // Remembered: the panel asks for the whole story at every beat and resize.
    const QString key = QStringLiteral("%1|%2|%3|%4|%5")
                            .arg(bodyPx)
                            .arg(width)
                            .arg(height() - contentsRect().height())
                            .arg(beat.text, beat.strip);
    if (const auto known = measured_.constFind(key); known != measured_.constEnd()) return *known;
    if (measured_.size() > 20000) measured_.clear();
    QFont f = font();
    f.setPixelSize(bodyPx);
    QTextDocument doc;
    doc.setDefaultFont(f);
    doc.setDocumentMargin(document()->documentMargin());
    doc.setHtml(scaled(beat.text, bodyPx));
    doc.setTextWidth(width);
    int strip = 0;
    if (!beat.strip.isEmpty()) {
        measure_->setFont(f);
        measure_->setText(beat.strip);
        strip = measure_->heightForWidth(width);
    }
    const int frame = height() - contentsRect().height();
    const int need = frame + static_cast<int>(std::ceil(doc.size().height())) + strip;
    measured_.insert(key, need);
    return need;
}

int NarrationView::fitStory(const sim::Replay& replay, bool predict, int width, int room) {
    std::vector<Composed> beats;
    for (int b = -1; b < static_cast<int>(replay.beats().size()); ++b)
        beats.push_back(compose(replay, b, predict));
    auto storyHeight = [&](int px) {
        int most = 0;
        for (const Composed& beat : beats) most = std::max(most, heightFor(beat, px, width));
        return most;
    };
    // The largest type that shows every beat whole in the room, read from the back rows
    // at 18 px and from the middle at 13 px.
    const int smallest = LaneFonts::px(13);
    int px = LaneFonts::px(kBodyPx);
    int need = storyHeight(px);
    while (need > room && px > smallest) need = storyHeight(--px);
    bodyPx_ = px;
    render();
    return std::min(need, room);
}

void NarrationView::shrinkToFit() {
    // The story's type did not fit this beat in the room the panel had: smaller type for
    // this beat alone, down to what the front rows still read, rather than a scroll bar.
    const int width = contentsRect().width();
    const int smallest = LaneFonts::px(10);
    int px = bodyPx_;
    while (px > smallest && heightFor(composed_, px, width) > height()) --px;
    if (px == bodyPx_) return;
    QFont f = font();
    f.setPixelSize(px);
    setFont(f);
    pinned_->setFont(f);
    setHtml(scaled(composed_.text, px));
    layoutPinned();
}

bool NarrationView::textWhole() const {
    return verticalScrollBar()->maximum() == 0 &&
           document()->size().height() <= viewport()->height() + 0.5;
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
