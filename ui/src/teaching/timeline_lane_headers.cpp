// TimelineLanes' headers: each lane's name and what it is doing at the current beat
// (the instance frozen, crashed or working without its lock; the key's holder, fence and
// PTTL; emails and corrupted writes so far).
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "lane_colors.h"
#include "lane_fonts.h"
#include "sim_text.h"
#include "timeline_lanes.h"

namespace lockscope::ui {

namespace {

using HeaderStatus = TimelineLanes::HeaderStatus;

QString tr(const char* text) {
    return TimelineLanes::tr(text);
}

// Whether some instance lane holds a key no key lane draws (seat-hold's buyers of A2 and
// A3): then "holds the lock" would point at the key lanes' key, so holders name their key.
bool holdsKeysNoLaneDraws(const sim::Recording& r) {
    auto drawn = [&](const std::string& key) {
        return std::any_of(r.lanes.begin(), r.lanes.end(), [&](const sim::Lane& l) {
            return l.kind == sim::LaneKind::RedisKey && l.key == key;
        });
    };
    return std::any_of(r.intervals.begin(), r.intervals.end(), [&](const sim::Interval& i) {
        const sim::Lane* lane = r.lane(i.lane);
        return i.kind == sim::IntervalKind::Ownership && lane &&
               lane->kind == sim::LaneKind::Instance && !drawn(i.key);
    });
}

HeaderStatus instanceStatus(const sim::Recording& r, const sim::Lane& lane,
                            const sim::LaneState& state, long keyLanes, const QPalette& pal) {
    // One function of the recording says what every lane shows (lane_state.h).
    if (state.instance == sim::InstanceState::HoldsLock && !state.keysHeld.empty() &&
        holdsKeysNoLaneDraws(r))
        return {tr("holds %1").arg(qs(state.keysHeld.front())), pal.color(QPalette::Text)};
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

// A fenced-store lane that is a bookings table (seat-hold): the run confirmed or refused
// bookings in it. Its fences are never checked, so "stale writes rejected" would be false.
bool isBookingsTable(const sim::Lane& lane, const sim::OutcomeSummary& end) {
    return lane.kind == sim::LaneKind::FencedStore &&
           end.bookingsConfirmed + end.bookingsRefused > 0;
}

// What the bookings table shows so far: rows taken, seats sold twice (harm) or second
// confirmations refused by its rule (the fix working).
HeaderStatus bookingsStatus(const sim::OutcomeSummary& so, const QPalette& pal) {
    if (so.seatsSoldTwice)
        return {tr("booked %1 · %2 sold twice").arg(so.bookingsConfirmed).arg(so.seatsSoldTwice),
                LaneColors::bad(pal)};
    if (so.bookingsRefused)
        return {tr("booked %1 · refused %2").arg(so.bookingsConfirmed).arg(so.bookingsRefused),
                LaneColors::good(pal)};
    return {tr("bookings: %1").arg(so.bookingsConfirmed), pal.color(QPalette::Text)};
}

// `end`: the whole run's counts, which say what kind of store a fenced-store lane is.
HeaderStatus resourceStatus(const sim::Lane& lane, const sim::OutcomeSummary& so,
                            const sim::OutcomeSummary& end, const QPalette& pal) {
    const QColor text = pal.color(QPalette::Text);
    if (isBookingsTable(lane, end)) return bookingsStatus(so, pal);
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

// How a header is laid out at a lane height: instance names (single letters) big, resource
// names (long) smaller; a short lane (eight of them on a 720p projector) puts the name and
// the state on one line, its font sized to the lane.
struct HeaderLayout {
    QFont nameFont;
    bool oneLine = false;
    bool subtitleFits = false;
};

HeaderLayout headerLayout(const sim::Lane& lane, const std::pair<QString, QString>& names,
                          double laneHeight) {
    const bool instance = lane.kind == sim::LaneKind::Instance;
    HeaderLayout layout;
    layout.nameFont = instance ? LaneFonts::laneName() : LaneFonts::resourceName();
    QFontMetricsF nameMetrics(layout.nameFont), smallMetrics(LaneFonts::subtitle());
    layout.subtitleFits = laneHeight >= nameMetrics.height() + 2 * smallMetrics.height() + 8 &&
                          !instance && !names.second.isEmpty();
    const double block =
        nameMetrics.height() + smallMetrics.height() * (layout.subtitleFits ? 2 : 1);
    layout.oneLine = block > laneHeight - 2;
    if (layout.oneLine)
        layout.nameFont.setPixelSize(std::max(10, static_cast<int>(laneHeight * 0.55)));
    return layout;
}

// Beside a name on one line, room for a short state ("holds the lock", "A · 9.8 s left");
// a longer one is elided and read in the header's tooltip.
double statusRoom() {
    return QFontMetricsF(LaneFonts::subtitle())
        .horizontalAdvance(QStringLiteral("running the job"));
}

// The header's insets: the name starts 12 px in, the time area 14 px after the header.
constexpr int kHeaderInsets = 12 + 14;

struct Drawn {
    QString text;
    QRectF rect;
    QRectF stateRect;  // the box the state was given
    QFont stateFont;
};

// The name and the state on one line, so neither runs into the next lane. The name is whole
// whenever the header column is as wide as neededHeaderWidth() asked for.
Drawn drawOneLine(QPainter& p, const QRectF& box, const QFont& nameFont, const QString& nameText,
                  const HeaderStatus& status) {
    p.setFont(nameFont);
    QFontMetricsF m(nameFont);
    const double room = std::max(box.width() * 0.45, box.width() - statusRoom() - 8);
    const QString name = m.horizontalAdvance(nameText) <= room
                             ? nameText
                             : m.elidedText(nameText, Qt::ElideMiddle, room);
    double nameWidth = m.horizontalAdvance(name) + 8;
    const QRectF nameRect(box.left(), box.top(), nameWidth, box.height());
    p.drawText(nameRect, Qt::AlignLeft | Qt::AlignVCenter, name);
    QFont small = LaneFonts::subtitle();
    p.setFont(small);
    p.setPen(status.color);
    const QRectF stateRect(box.left() + nameWidth, box.top(), box.width() - nameWidth,
                           box.height());
    p.drawText(stateRect, Qt::AlignLeft | Qt::AlignVCenter,
               QFontMetricsF(small).elidedText(status.text, Qt::ElideRight, stateRect.width()));
    return {name, nameRect, stateRect, small};
}

// The name, the subtitle when it fits, and the state, stacked and centred in the lane.
Drawn drawStacked(QPainter& p, const QRectF& box, const QFont& nameFont,
                  const std::pair<QString, QString>& names, bool subtitleFits,
                  const HeaderStatus& status, const QColor& subtitleColor) {
    QFont small = LaneFonts::subtitle();
    QFontMetricsF nameMetrics(nameFont), smallMetrics(small);
    double block = nameMetrics.height() + smallMetrics.height() * (subtitleFits ? 2 : 1);
    double y = box.top() + (box.height() - block) / 2;
    p.setFont(nameFont);
    const QString name = nameMetrics.elidedText(names.first, Qt::ElideMiddle, box.width());
    const QRectF nameRect(box.left(), y, box.width(), nameMetrics.height());
    p.drawText(nameRect, Qt::AlignLeft | Qt::AlignVCenter, name);
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
    const QRectF stateRect(box.left(), y, box.width(), smallMetrics.height());
    p.drawText(stateRect, Qt::AlignLeft | Qt::AlignVCenter,
               smallMetrics.elidedText(status.text, Qt::ElideRight, box.width()));
    return {name, nameRect, stateRect, small};
}

long countKeyLanes(const sim::Recording& r) {
    return std::count_if(r.lanes.begin(), r.lanes.end(),
                         [](const sim::Lane& l) { return l.kind == sim::LaneKind::RedisKey; });
}

}  // namespace

std::vector<QStringList> TimelineLanes::storyStates() const {
    const sim::Recording& r = replay_->recording();
    const long keyLanes = countKeyLanes(r);
    const QPalette& pal = palette();
    std::vector<QStringList> texts(r.lanes.size());
    auto add = [&](std::size_t lane, const QString& text) {
        if (!texts[lane].contains(text)) texts[lane] << text;
    };
    // The instances and keys at every beat, from the one function of the recording.
    for (int beat = -1; beat < static_cast<int>(r.beats.size()); ++beat) {
        const std::vector<sim::LaneState> states = sim::laneStatesAtBeat(r, beat);
        for (std::size_t i = 0; i < r.lanes.size() && i < states.size(); ++i) {
            if (r.lanes[i].kind == sim::LaneKind::Instance)
                add(i, instanceStatus(r, r.lanes[i], states[i], keyLanes, pal).text);
            else if (r.lanes[i].kind == sim::LaneKind::RedisKey)
                add(i, keyStatus(states[i], beat >= 0, pal).text);
        }
    }
    // The resources count up: the end's counts are the widest, in either wording the fenced
    // store uses (rejected until a stale write is accepted).
    sim::OutcomeSummary end = replay_->outcome(), noneAccepted = end;
    noneAccepted.staleWritesAccepted = 0;
    for (std::size_t i = 0; i < r.lanes.size(); ++i) {
        if (r.lanes[i].kind == sim::LaneKind::Instance ||
            r.lanes[i].kind == sim::LaneKind::RedisKey)
            continue;
        add(i, resourceStatus(r.lanes[i], end, end, pal).text);
        add(i, resourceStatus(r.lanes[i], noneAccepted, end, pal).text);
    }
    return texts;
}

int TimelineLanes::neededHeaderWidth() const {
    if (!replay_) return kMinHeaderWidth;
    const sim::Recording& r = replay_->recording();
    const long keyLanes = countKeyLanes(r);
    const double laneHeight = r.lanes.empty() ? minLaneHeight() : laneRect(0).height();
    const QFontMetricsF small(LaneFonts::subtitle());
    double widest = 0;
    for (std::size_t i = 0; i < r.lanes.size(); ++i) {
        const auto names = headerNames(r.lanes[i], keyLanes);
        const HeaderLayout layout = headerLayout(r.lanes[i], names, laneHeight);
        // Room for the widest state the lane shows in this story, beside the name on one
        // line or under it: the column is sized once a story, so it does not jump a beat.
        double state = 0;
        if (i < storyStates_.size())
            for (const QString& text : storyStates_[i])
                state = std::max(state, small.horizontalAdvance(text));
        const double name = QFontMetricsF(layout.nameFont).horizontalAdvance(names.first);
        const double need =
            layout.oneLine ? name + 8 + std::max(statusRoom(), state) : std::max(name, state);
        widest = std::max(widest, need);
    }
    // Never more than two fifths of the view: the time area is the story. Past that (a
    // narrow window, a big zoom) a name is elided and its tooltip has it whole.
    const int most = std::max(kMinHeaderWidth, width() * 2 / 5);
    return std::clamp(static_cast<int>(std::ceil(widest)) + kHeaderInsets + 2, kMinHeaderWidth,
                      most);
}

void TimelineLanes::fitHeaderWidth() {
    const int needed = neededHeaderWidth();
    if (needed == headerWidth_) return;
    headerWidth_ = needed;
    emit headerWidthChanged();
}

QString TimelineLanes::headerName(int lane) const {
    return lane >= 0 && lane < static_cast<int>(drawnNames_.size()) ? drawnNames_[lane].text
                                                                    : QString();
}

QRectF TimelineLanes::headerNameRect(int lane) const {
    return lane >= 0 && lane < static_cast<int>(drawnNames_.size()) ? drawnNames_[lane].rect
                                                                    : QRectF();
}

TimelineLanes::DrawnState TimelineLanes::headerState(int lane) const {
    return lane >= 0 && lane < static_cast<int>(drawnStates_.size()) ? drawnStates_[lane]
                                                                     : DrawnState{};
}

HeaderStatus TimelineLanes::headerStatus(int lane) const {
    const QPalette& pal = palette();
    const sim::Recording& r = replay_->recording();
    const sim::Lane& info = r.lanes[lane];
    const bool hasState = lane < static_cast<int>(states_.size());
    if (info.kind == sim::LaneKind::Instance)
        return hasState ? instanceStatus(r, info, states_[lane], countKeyLanes(r), pal)
                        : HeaderStatus{QString(), pal.color(QPalette::Text)};
    if (info.kind == sim::LaneKind::RedisKey)
        return hasState ? keyStatus(states_[lane], replay_->currentBeat() >= 0, pal)
                        : HeaderStatus{QString(), pal.color(QPalette::Text)};
    return resourceStatus(info, replay_->outcomeSoFar(), replay_->outcome(), pal);
}

void TimelineLanes::paintHeaders(QPainter& p) const {
    const sim::Recording& r = replay_->recording();
    drawnNames_.assign(r.lanes.size(), {});
    drawnStates_.assign(r.lanes.size(), {});
    for (std::size_t i = 0; i < r.lanes.size(); ++i) paintHeader(p, static_cast<int>(i));
}

void TimelineLanes::paintHeader(QPainter& p, int index) const {
    const sim::Lane& lane = replay_->recording().lanes[index];
    QRectF box = laneRect(index);
    box.setLeft(12);
    box.setRight(headerWidth_ - 14);
    const auto names = headerNames(lane, countKeyLanes(replay_->recording()));
    const HeaderLayout layout = headerLayout(lane, names, box.height());
    const QPalette& pal = palette();
    const bool instance = lane.kind == sim::LaneKind::Instance;
    p.setPen(instance ? LaneColors::actor(qs(lane.name), pal) : pal.color(QPalette::Text));
    const HeaderStatus state = headerStatus(index);
    const Drawn drawn = layout.oneLine
                            ? drawOneLine(p, box, layout.nameFont, names.first, state)
                            : drawStacked(p, box, layout.nameFont, names, layout.subtitleFits,
                                          state, pal.color(QPalette::PlaceholderText));
    drawnNames_[index] = {drawn.text, drawn.rect};
    drawnStates_[index] = {state.text, drawn.stateRect, drawn.stateFont};
}

QString TimelineLanes::headerToolTip(int lane) const {
    if (!replay_ || lane < 0 || lane >= static_cast<int>(replay_->recording().lanes.size()))
        return {};
    const sim::Lane& info = replay_->recording().lanes[lane];
    QString tip = QStringLiteral("<b>%1</b>").arg(qs(info.name).toHtmlEscaped());
    if (!info.subtitle.empty()) tip += QStringLiteral(" — ") + qs(info.subtitle).toHtmlEscaped();
    const QString state = headerStatus(lane).text;
    if (!state.isEmpty()) tip += QStringLiteral("<br>") + state.toHtmlEscaped();
    return tip;
}

}  // namespace lockscope::ui
