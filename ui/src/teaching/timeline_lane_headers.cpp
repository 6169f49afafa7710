// TimelineLanes' headers: each lane's name and what it is doing at the current beat
// (the instance frozen, crashed or working without its lock; the key's holder, fence and
// PTTL; emails and corrupted writes so far).
#include <QPainter>
#include <algorithm>

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
    const auto keyLanes = std::count_if(r.lanes.begin(), r.lanes.end(), [](const sim::Lane& l) {
        return l.kind == sim::LaneKind::RedisKey;
    });
    for (std::size_t i = 0; i < r.lanes.size(); ++i) {
        const sim::Lane& lane = r.lanes[i];
        QRectF box = laneRect(int(i));
        box.setLeft(12);
        box.setRight(kHeaderWidth - 14);
        QString status;
        QColor statusColor = pal.color(QPalette::Text);
        switch (lane.kind) {
            case sim::LaneKind::Instance:
                if (i >= states_.size()) break;
                // One function of the recording says what every lane shows (lane_state.h).
                switch (states_[i].instance) {
                    case sim::InstanceState::Crashed:
                        status = tr("crashed"), statusColor = LaneColors::crash(pal);
                        break;
                    case sim::InstanceState::Frozen:
                        status = tr("frozen"), statusColor = LaneColors::pause(pal);
                        break;
                    case sim::InstanceState::WorksWithoutLock:
                        status = tr("⚠ works, no lock"), statusColor = LaneColors::lapse(pal);
                        break;
                    case sim::InstanceState::HoldsLock:
                        status = keyLanes > 1 ? tr("holds the lock on %1 of %2")
                                                    .arg(states_[i].nodesHeld.size())
                                                    .arg(keyLanes)
                                              : tr("holds the lock");
                        break;
                    case sim::InstanceState::Running:
                        status = tr("running the job");
                        break;
                    case sim::InstanceState::Idle:
                        status = lane.subtitle.empty() ? tr("idle") : qs(lane.subtitle);
                        break;
                }
                break;
            case sim::LaneKind::RedisKey: {
                if (i >= states_.size()) break;
                const sim::LaneState& key = states_[i];
                if (!started || !key.keyExists) {
                    status = tr("(no key)");
                } else if (key.pttl == -1) {
                    status = tr("%1 · no TTL!").arg(qs(key.holder));
                    statusColor = LaneColors::noTtl(pal);
                } else {
                    QString holder = key.holder.empty() ? tr("set") : qs(key.holder);
                    status =
                        key.fence
                            ? tr("%1 · fence %2 · %3")
                                  .arg(holder)
                                  .arg(key.fence)
                                  .arg(qs(sim::formatDuration(key.pttl)))
                            : tr("%1 · %2 left").arg(holder, qs(sim::formatDuration(key.pttl)));
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
        // Several servers: "A lock:{report:daily}" would be elided to "A lock:{r…rt:daily}";
        // the node's name is the lane's name and the key goes under it.
        QString nameText = qs(lane.name), subtitleText = qs(lane.subtitle);
        if (lane.kind == sim::LaneKind::RedisKey && keyLanes > 1 && nameText.contains(u' ')) {
            subtitleText = nameText.section(u' ', 1) + QStringLiteral(" · ") + subtitleText;
            nameText = nameText.section(u' ', 0, 0);
        }
        // Instance names are single letters: big. Resource names are long: smaller.
        QFont nameFont = lane.kind == sim::LaneKind::Instance ? LaneFonts::laneName()
                                                              : LaneFonts::resourceName();
        QFont small = LaneFonts::subtitle();
        QFontMetricsF nameMetrics(nameFont), smallMetrics(small);
        bool subtitleFits = box.height() >= nameMetrics.height() + 2 * smallMetrics.height() + 8 &&
                            lane.kind != sim::LaneKind::Instance && !subtitleText.isEmpty();
        double block = nameMetrics.height() + smallMetrics.height() * (subtitleFits ? 2 : 1);
        p.setPen(lane.kind == sim::LaneKind::Instance ? LaneColors::actor(qs(lane.name), pal)
                                                      : pal.color(QPalette::Text));
        if (block > box.height() - 2) {
            // A short lane (eight of them on a 720p projector): the name and the state on one
            // line, so neither runs into the next lane.
            QFont oneLine = nameFont;
            oneLine.setPixelSize(std::max(10, static_cast<int>(box.height() * 0.55)));
            p.setFont(oneLine);
            QFontMetricsF m(oneLine);
            QString name = m.elidedText(nameText, Qt::ElideMiddle, box.width() * 0.45);
            double nameWidth = m.horizontalAdvance(name) + 8;
            p.drawText(QRectF(box.left(), box.top(), nameWidth, box.height()),
                       Qt::AlignLeft | Qt::AlignVCenter, name);
            p.setFont(small);
            p.setPen(statusColor);
            p.drawText(
                QRectF(box.left() + nameWidth, box.top(), box.width() - nameWidth, box.height()),
                Qt::AlignLeft | Qt::AlignVCenter,
                smallMetrics.elidedText(status, Qt::ElideRight, box.width() - nameWidth));
            continue;
        }
        double y = box.top() + (box.height() - block) / 2;
        p.setFont(nameFont);
        QString name = nameMetrics.elidedText(nameText, Qt::ElideMiddle, box.width());
        p.drawText(QRectF(box.left(), y, box.width(), nameMetrics.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, name);
        y += nameMetrics.height();
        p.setFont(small);
        if (subtitleFits) {
            p.setPen(pal.color(QPalette::PlaceholderText));
            p.drawText(QRectF(box.left(), y, box.width(), smallMetrics.height()),
                       Qt::AlignLeft | Qt::AlignVCenter,
                       smallMetrics.elidedText(subtitleText, Qt::ElideRight, box.width()));
            y += smallMetrics.height();
        }
        p.setPen(statusColor);
        p.drawText(QRectF(box.left(), y, box.width(), smallMetrics.height()),
                   Qt::AlignLeft | Qt::AlignVCenter,
                   smallMetrics.elidedText(status, Qt::ElideRight, box.width()));
    }
}

}  // namespace lockscope::ui
