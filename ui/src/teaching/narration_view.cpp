#include "narration_view.h"

#include "lane_colors.h"
#include "sim_text.h"

namespace lockscope::ui {
namespace {

QString esc(const std::string& text) {
    return qs(text).toHtmlEscaped();
}

}  // namespace

NarrationView::NarrationView(QWidget* parent) : QTextBrowser(parent) {
    setOpenLinks(false);
    setFocusPolicy(Qt::NoFocus);  // arrows and Space belong to the replay
    QFont f = font();
    f.setPixelSize(18);
    setFont(f);
    setMinimumHeight(90);
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
                        .arg(codeBg, esc(beat->command), esc(beat->reply));
        }
        html += QStringLiteral("<p>%1</p>").arg(esc(beat->narration));
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
                        "<hr><p style='font-size:20px; color:%1'><b>Predict:</b> %2</p>"
                        "<p style='color:%3'>%4</p>")
                        .arg(LaneColors::question(pal).name(), qs(*question).toHtmlEscaped(), dim,
                             tr("Think, then press → to see what happens."));
        }
    }
    setHtml(html);
}

}  // namespace lockscope::ui
