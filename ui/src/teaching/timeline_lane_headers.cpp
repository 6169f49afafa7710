// TimelineLanes' headers: each lane's name and what it is doing at the current beat
// (the instance frozen, crashed or working without its lock; the key's holder, fence and
// PTTL; emails and corrupted writes so far).
#include <QPainter>

#include "lane_colors.h"
#include "lane_fonts.h"
#include "sim_text.h"
#include "timeline_lanes.h"

namespace lockscope::ui {

void TimelineLanes::paintHeaders(QPainter& p) const {
    const QPalette& pal = palette();
    const sim::Recording& r = replay_->recording();
    const bool started = replay_->currentBeat() >= 0;
    const sim::OutcomeSummary& so = replay_->outcomeSoFar();
    for (std::size_t i = 0; i < r.lanes.size(); ++i) {
        const sim::Lane& lane = r.lanes[i];
        QRectF box = laneRect(int(i));
        box.setLeft(12);
        box.setRight(kHeaderWidth - 14);
        QString status;
        QColor statusColor = pal.color(QPalette::Text);
        switch (lane.kind) {
            case sim::LaneKind::Instance: {
                // The most telling interval covering now names the instance's state.
                int rank = 0;
                for (const sim::Interval& in : r.intervals) {
                    if (in.lane != lane.id || !started || in.from > now() || in.to < now())
                        continue;
                    if (in.to == now() && !in.ongoing && in.to != in.from) continue;
                    int k = 0;
                    QString text;
                    QColor color = statusColor;
                    switch (in.kind) {
                        case sim::IntervalKind::Crashed:
                            k = 6, text = tr("crashed"), color = LaneColors::crash(pal);
                            break;
                        case sim::IntervalKind::Pause:
                            k = 5, text = tr("frozen"), color = LaneColors::pause(pal);
                            break;
                        case sim::IntervalKind::LeaseLapsed:
                            k = 4, text = tr("⚠ works, no lock"), color = LaneColors::lapse(pal);
                            break;
                        case sim::IntervalKind::Ownership:
                            k = 3, text = tr("holds the lock");
                            break;
                        case sim::IntervalKind::JobRun:
                            k = 2, text = tr("running the job");
                            break;
                        default:
                            break;
                    }
                    if (k > rank) rank = k, status = text, statusColor = color;
                }
                if (status.isEmpty())
                    status = lane.subtitle.empty() ? tr("idle") : qs(lane.subtitle);
                break;
            }
            case sim::LaneKind::RedisKey: {
                sim::KeyView key = replay_->keyView();
                if (!started || !key.exists) {
                    status = tr("(no key)");
                } else if (key.pttl == -1) {
                    status = tr("%1 · no TTL!").arg(qs(key.holder));
                    statusColor = LaneColors::noTtl(pal);
                } else {
                    status = key.fence
                                 ? tr("%1 · fence %2 · %3")
                                       .arg(qs(key.holder))
                                       .arg(key.fence)
                                       .arg(qs(sim::formatDuration(key.pttl)))
                                 : tr("%1 · %2 left")
                                       .arg(qs(key.holder), qs(sim::formatDuration(key.pttl)));
                }
                break;
            }
            case sim::LaneKind::FinanceOutbox:
                status = tr("emails so far: %1").arg(so.emailsSent);
                break;
            case sim::LaneKind::OutputFile:
                status = tr("corrupted writes: %1").arg(so.corruptedWrites);
                if (so.corruptedWrites) statusColor = LaneColors::bad(pal);
                break;
            case sim::LaneKind::FencedStore:
                status = tr("stale writes rejected: %1").arg(so.staleWritesRejected);
                if (so.staleWritesRejected) statusColor = LaneColors::good(pal);
                if (so.staleWritesAccepted) {
                    status = tr("stale writes accepted: %1").arg(so.staleWritesAccepted);
                    statusColor = LaneColors::bad(pal);
                }
                break;
            default:
                status = qs(lane.subtitle);
                break;
        }
        // Instance names are single letters: big. Resource names are long: smaller.
        QFont nameFont = lane.kind == sim::LaneKind::Instance ? LaneFonts::laneName()
                                                              : LaneFonts::resourceName();
        QFont small = LaneFonts::subtitle();
        QFontMetricsF nameMetrics(nameFont), smallMetrics(small);
        bool subtitleFits = box.height() >= nameMetrics.height() + 2 * smallMetrics.height() + 8 &&
                            lane.kind != sim::LaneKind::Instance && !lane.subtitle.empty();
        double block = nameMetrics.height() + smallMetrics.height() * (subtitleFits ? 2 : 1);
        double y = box.top() + (box.height() - block) / 2;
        p.setFont(nameFont);
        p.setPen(lane.kind == sim::LaneKind::Instance ? LaneColors::actor(qs(lane.name), pal)
                                                      : pal.color(QPalette::Text));
        QString name = nameMetrics.elidedText(qs(lane.name), Qt::ElideMiddle, box.width());
        p.drawText(QRectF(box.left(), y, box.width(), nameMetrics.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, name);
        y += nameMetrics.height();
        p.setFont(small);
        if (subtitleFits) {
            p.setPen(pal.color(QPalette::PlaceholderText));
            p.drawText(QRectF(box.left(), y, box.width(), smallMetrics.height()),
                       Qt::AlignLeft | Qt::AlignVCenter,
                       smallMetrics.elidedText(qs(lane.subtitle), Qt::ElideRight, box.width()));
            y += smallMetrics.height();
        }
        p.setPen(statusColor);
        p.drawText(QRectF(box.left(), y, box.width(), smallMetrics.height()),
                   Qt::AlignLeft | Qt::AlignVCenter,
                   smallMetrics.elidedText(status, Qt::ElideRight, box.width()));
    }
}

}  // namespace lockscope::ui
