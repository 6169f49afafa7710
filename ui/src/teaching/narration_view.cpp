#include "narration_view.h"

#include <QRegularExpression>
#include <QScrollBar>
#include <QTimer>

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
    applyZoom();
    setMinimumHeight(72);
}

void NarrationView::applyZoom() {
    QFont f = font();
    f.setPixelSize(LaneFonts::px(18));
    setFont(f);
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
        // The story's end: how this run came out, from its counts (the summary only sets it up).
        if (replay.atEnd())
            html += QStringLiteral("<p><b>%1</b> %2</p>")
                        .arg(tr("Verdict:"), esc(sim::runVerdict(replay.outcome())));
        if (predict && beat->predict) {
            answer_ = true;
            html += QStringLiteral("<p style='color:%1'><b>✔ Answer:</b> %2</p>")
                        .arg(LaneColors::good(pal).name(), esc(beat->predict->answer));
        }
    }
    if (predict) {
        if (auto question = replay.pendingQuestion()) {
            question_ = true;
            html += QStringLiteral(
                        "<hr><a name='predict'></a>"
                        "<p style='font-size:20px; color:%1'><b>Predict:</b> %2</p>"
                        "<p style='color:%3'>%4</p>")
                        .arg(LaneColors::question(pal).name(), qs(*question).toHtmlEscaped(), dim,
                             tr("Think, then press → to see what happens."));
        }
    }
    setHtml(zoomed(html));
    // A question stops playback: it must be in view, not below the fold of a short box.
    if (question_) {
        QTimer::singleShot(0, this, [this] {
            if (!question_) return;
            if (verticalScrollBar()->maximum() > 0) scrollToAnchor(QStringLiteral("predict"));
        });
    }
}

bool NarrationView::questionInView() const {
    if (!question_) return false;
    const QString text = toPlainText();
    const qsizetype at = text.indexOf(QStringLiteral("Predict:"));
    if (at < 0) return false;
    QTextCursor cursor(document());
    cursor.setPosition(static_cast<int>(at));
    const QRect where = cursorRect(cursor);
    return viewport()->rect().contains(where);
}

}  // namespace lockscope::ui
