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

namespace {

// What a lane's header says under its name, and in which colour.
struct HeaderStatus {
    QString text;
    QColor color;
};

QString tr(const char* text) {
    return TimelineLanes::tr(text);
}

HeaderStatus instanceStatus(const sim::Lane& lane, const sim::LaneState& state, long keyLanes,
                            const QPalette& pal) {
    // One function of the recording says what every lane shows (lane_state.h).
    switch (state.instance) {
        case sim::InstanceState::Crashed:
            return {tr("crashed"), LaneColors::crash(pal)};
        case sim::InstanceState::Frozen:
            return {tr("frozen"), LaneColors::pause(pal)};
        case sim::InstanceState::WorksWithoutLock:
            return {tr("⚠ works, no lock"), LaneColors::lapse(pal)};
        case sim::InstanceState::HoldsLock:
            return {keyLanes > 1
                        ? tr("holds the lock on %1 of %2").arg(state.nodesHeld.size()).arg(keyLanes)
                        : tr("holds the lock"),
                    pal.color(QPalette::Text)};
        case sim::InstanceState::Running:
            return {tr("running the job"), pal.color(QPalette::Text)};
        case sim::InstanceState::Idle:
            break;
    }
    return {lane.subtitle.empty() ? tr("idle") : qs(lane.subtitle), pal.color(QPalette::Text)};
}

HeaderStatus keyStatus(const sim::LaneState& key, bool started, const QPalette& pal) {
    const QColor text = pal.color(QPalette::Text);
    if (!started || !key.keyExists) return {tr("(no key)"), text};
    if (key.pttl == -1) return {tr("%1 · no TTL!").arg(qs(key.holder)), LaneColors::noTtl(pal)};
    const QString holder = key.holder.empty() ? tr("set") : qs(key.holder);
    const QString left = qs(sim::formatDuration(key.pttl));
    return {key.fence ? tr("%1 · fence %2 · %3").arg(holder).arg(key.fence).arg(left)
                      : tr("%1 · %2 left").arg(holder, left),
            text};
}

HeaderStatus resourceStatus(const sim::Lane& lane, const sim::OutcomeSummary& so,
                            const QPalette& pal) {
    const QColor text = pal.color(QPalette::Text);
    switch (lane.kind) {
        case sim::LaneKind::FinanceOutbox:
            return {tr("emails so far: %1").arg(so.emailsSent), text};
        case sim::LaneKind::OutputFile:
            return {tr("corrupted writes: %1").arg(so.corruptedWrites),
                    so.corruptedWrites ? LaneColors::bad(pal) : text};
        case sim::LaneKind::FencedStore:
            if (so.staleWritesAccepted)
                return {tr("stale writes accepted: %1").arg(so.staleWritesAccepted),
                        LaneColors::bad(pal)};
            return {tr("stale writes rejected: %1").arg(so.staleWritesRejected),
                    so.staleWritesRejected ? LaneColors::good(pal) : text};
        default:
            return {qs(lane.subtitle), text};
    }
}

// A lane's name and subtitle as the header shows them. Several servers: "A lock:{report:daily}"
// would be elided to "A lock:{r…rt:daily}"; the node's name is the lane's name and the key
// goes under it.
std::pair<QString, QString> headerNames(const sim::Lane& lane, long keyLanes) {
    QString name = qs(lane.name), subtitle = qs(lane.subtitle);
    if (lane.kind == sim::LaneKind::RedisKey && keyLanes > 1 && name.contains(u' ')) {
        subtitle = name.section(u' ', 1) + QStringLiteral(" · ") + subtitle;
        name = name.section(u' ', 0, 0);
    }
    return {name, subtitle};
}

// A short lane (eight of them on a 720p projector): the name and the state on one line, so
// neither runs into the next lane.
void drawOneLine(QPainter& p, const QRectF& box, const QFont& nameFont, const QString& nameText,
                 const HeaderStatus& status) {
    QFont oneLine = nameFont;
    oneLine.setPixelSize(std::max(10, static_cast<int>(box.height() * 0.55)));
    p.setFont(oneLine);
    QFontMetricsF m(oneLine);
    QString name = m.elidedText(nameText, Qt::ElideMiddle, box.width() * 0.45);
    double nameWidth = m.horizontalAdvance(name) + 8;
    p.drawText(QRectF(box.left(), box.top(), nameWidth, box.height()),
               Qt::AlignLeft | Qt::AlignVCenter, name);
    QFont small = LaneFonts::subtitle();
    p.setFont(small);
    p.setPen(status.color);
    p.drawText(
        QRectF(box.left() + nameWidth, box.top(), box.width() - nameWidth, box.height()),
        Qt::AlignLeft | Qt::AlignVCenter,
        QFontMetricsF(small).elidedText(status.text, Qt::ElideRight, box.width() - nameWidth));
}

// The name, the subtitle when it fits, and the state, stacked and centred in the lane.
void drawStacked(QPainter& p, const QRectF& box, const QFont& nameFont,
                 const std::pair<QString, QString>& names, bool subtitleFits,
                 const HeaderStatus& status, const QColor& subtitleColor) {
    QFont small = LaneFonts::subtitle();
    QFontMetricsF nameMetrics(nameFont), smallMetrics(small);
    double block = nameMetrics.height() + smallMetrics.height() * (subtitleFits ? 2 : 1);
    double y = box.top() + (box.height() - block) / 2;
    p.setFont(nameFont);
    p.drawText(QRectF(box.left(), y, box.width(), nameMetrics.height()),
               Qt::AlignLeft | Qt::AlignVCenter,
               nameMetrics.elidedText(names.first, Qt::ElideMiddle, box.width()));
    y += nameMetrics.height();
    p.setFont(small);
    if (subtitleFits) {
        p.setPen(subtitleColor);
        p.drawText(QRectF(box.left(), y, box.width(), smallMetrics.height()),
                   Qt::AlignLeft | Qt::AlignVCenter,
                   smallMetrics.elidedText(names.second, Qt::ElideRight, box.width()));
        y += smallMetrics.height();
    }
    p.setPen(status.color);
    p.drawText(QRectF(box.left(), y, box.width(), smallMetrics.height()),
               Qt::AlignLeft | Qt::AlignVCenter,
               smallMetrics.elidedText(status.text, Qt::ElideRight, box.width()));
}

}  // namespace

void TimelineLanes::paintHeaders(QPainter& p) const {
    const QPalette& pal = palette();
    const sim::Recording& r = replay_->recording();
    const bool started = replay_->currentBeat() >= 0;
    const long keyLanes = std::count_if(r.lanes.begin(), r.lanes.end(), [](const sim::Lane& l) {
        return l.kind == sim::LaneKind::RedisKey;
    });
    for (std::size_t i = 0; i < r.lanes.size(); ++i) {
        const sim::Lane& lane = r.lanes[i];
        const bool hasState = i < states_.size();
        HeaderStatus status{QString(), pal.color(QPalette::Text)};
        if (lane.kind == sim::LaneKind::Instance && hasState)
            status = instanceStatus(lane, states_[i], keyLanes, pal);
        else if (lane.kind == sim::LaneKind::RedisKey && hasState)
            status = keyStatus(states_[i], started, pal);
        else if (lane.kind != sim::LaneKind::Instance && lane.kind != sim::LaneKind::RedisKey)
            status = resourceStatus(lane, replay_->outcomeSoFar(), pal);
        paintHeader(p, int(i), lane, keyLanes, status.text, status.color);
    }
}

void TimelineLanes::paintHeader(QPainter& p, int index, const sim::Lane& lane, long keyLanes,
                                const QString& status, const QColor& statusColor) const {
    QRectF box = laneRect(index);
    box.setLeft(12);
    box.setRight(kHeaderWidth - 14);
    const auto names = headerNames(lane, keyLanes);
    const bool instance = lane.kind == sim::LaneKind::Instance;
    // Instance names are single letters: big. Resource names are long: smaller.
    const QFont nameFont = instance ? LaneFonts::laneName() : LaneFonts::resourceName();
    QFontMetricsF nameMetrics(nameFont), smallMetrics(LaneFonts::subtitle());
    const bool subtitleFits =
        box.height() >= nameMetrics.height() + 2 * smallMetrics.height() + 8 && !instance &&
        !names.second.isEmpty();
    const double block = nameMetrics.height() + smallMetrics.height() * (subtitleFits ? 2 : 1);
    const QPalette& pal = palette();
    p.setPen(instance ? LaneColors::actor(qs(lane.name), pal) : pal.color(QPalette::Text));
    const HeaderStatus state{status, statusColor};
    if (block > box.height() - 2)
        drawOneLine(p, box, nameFont, names.first, state);
    else
        drawStacked(p, box, nameFont, names, subtitleFits, state,
                    pal.color(QPalette::PlaceholderText));
}

}  // namespace lockscope::ui
