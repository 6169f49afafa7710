#include "timeline_lanes.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QInputDialog>
#include <QMenu>
#include <QMouseEvent>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "event_markers.h"
#include "lane_fonts.h"
#include "sim_text.h"

namespace lockscope::ui {

TimelineLanes::TimelineLanes(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void TimelineLanes::setReplay(const sim::Replay* replay) {
    replay_ = replay;
    refresh();
}

void TimelineLanes::refresh() {
    end_ = 1000;
    nextNarrated_ = 0;
    point_ = {};
    states_.clear();
    storyStates_.clear();
    if (replay_) {
        point_ = sim::storyPointOfBeat(replay_->recording(), replay_->currentBeat());
        states_ = sim::laneStatesAt(replay_->recording(), point_);
        storyStates_ = storyStates();
        const sim::Recording& r = replay_->recording();
        sim::VirtualMs last = 0;
        for (const auto& e : r.events) last = std::max(last, e.time);
        for (const auto& i : r.intervals) last = std::max(last, i.to);
        for (const auto& b : r.beats) last = std::max(last, b.time);
        // A little room after the last event, so the final markers are not on the edge.
        end_ = last == 0 ? 1000 : last + std::max<sim::VirtualMs>(last * 9 / 100, 1);
        int current = replay_->currentBeat();
        // Unnarrated events (the key changing under a DEL, chunk writes) belong to the
        // story so far when they come before the next narrated one and are not later
        // than now.
        nextNarrated_ = static_cast<int>(r.events.size());
        for (const auto& e : r.events)
            if (e.beat > current) nextNarrated_ = std::min(nextNarrated_, e.index);
    }
    fitHeaderWidth();
    layoutMarkers();
    updateGeometry();
    update();
}

sim::VirtualMs TimelineLanes::now() const {
    return replay_ ? replay_->currentTime() : 0;
}

void TimelineLanes::setCursorTime(std::optional<sim::VirtualMs> t) {
    if (cursor_ == t) return;
    cursor_ = t;
    update();
}

sim::VirtualMs TimelineLanes::cursorTime() const {
    return cursor_ ? std::max(*cursor_, now()) : now();
}

double TimelineLanes::mapTimeToX(sim::VirtualMs t) const {
    double width = std::max(1, this->width() - headerWidth_ - kRightMargin);
    return headerWidth_ + width * double(t) / double(std::max<sim::VirtualMs>(end_, 1));
}

sim::VirtualMs TimelineLanes::mapXToTime(double x) const {
    double width = std::max(1, this->width() - headerWidth_ - kRightMargin);
    double t = (x - headerWidth_) / width * double(end_);
    return std::clamp<sim::VirtualMs>(static_cast<sim::VirtualMs>(t), 0, end_);
}

QRectF TimelineLanes::barRow(int lane) const {
    return replay_ && lane >= 0 && hasBars(lane) ? barArea(lane) : QRectF();
}

QRectF TimelineLanes::laneRect(int lane) const {
    int count = replay_ ? static_cast<int>(replay_->recording().lanes.size()) : 0;
    double height =
        count ? std::max(double(minLaneHeight()), double(this->height() - kAxisHeight - 4) / count)
              : double(minLaneHeight());
    return {double(headerWidth_), kAxisHeight + lane * height,
            double(this->width() - headerWidth_ - kRightMargin), height};
}

QRectF TimelineLanes::barArea(int lane) const {
    QRectF r = laneRect(lane);
    // Below the marker row where the lane has the room; on a short lane (eight lanes on a
    // 720p projector) the bar keeps the height of its smallest label and reaches up under
    // the marker row (its pills are drawn over it): a Redlock node's ownership as a
    // labelled bar, never a 2-px hairline.
    double markerRow = QFontMetricsF(LaneFonts::marker()).height() + 6;
    const double least =
        std::min(QFontMetricsF(LaneFonts::sized(10, true)).height() + 2, r.height() * 0.6);
    double top = std::max(r.top() + r.height() * 0.52, r.top() + 4 + markerRow + 2);
    top = std::min(top, r.bottom() - 5 - least);
    return {r.left(), top, r.width(), r.bottom() - 5 - top};
}

int TimelineLanes::laneIndex(sim::LaneId id) const {
    if (!replay_) return -1;
    const auto& lanes = replay_->recording().lanes;
    for (std::size_t i = 0; i < lanes.size(); ++i)
        if (lanes[i].id == id) return static_cast<int>(i);
    return -1;
}

bool TimelineLanes::eventVisible(const sim::TimelineEvent& event) const {
    if (!replay_ || replay_->currentBeat() < 0) return false;
    if (event.beat >= 0) return event.beat <= replay_->currentBeat();
    return event.index < nextNarrated_ && event.time <= now();
}

sim::VirtualMs TimelineLanes::visibleEnd(const sim::Interval& interval) const {
    if (!replay_) return -1;
    return sim::intervalVisibleEnd(interval, point_);
}

int TimelineLanes::laneAt(const QPoint& pos) const {
    if (!replay_ || pos.y() < kAxisHeight) return -1;
    int count = static_cast<int>(replay_->recording().lanes.size());
    for (int i = 0; i < count; ++i) {
        QRectF r = laneRect(i);
        if (pos.y() >= r.top() && pos.y() < r.bottom()) return i;
    }
    return -1;
}

bool TimelineLanes::hasBars(int lane) const {
    auto kind = replay_->recording().lanes[lane].kind;
    return kind == sim::LaneKind::Instance || kind == sim::LaneKind::RedisKey;
}

const sim::TimelineEvent* TimelineLanes::eventAt(const QPoint& pos) const {
    if (!replay_) return nullptr;
    for (auto it = markers_.rbegin(); it != markers_.rend(); ++it)
        if (it->rect.adjusted(-3, -3, 3, 3).contains(pos))
            return &replay_->recording().events[it->events.back()];
    return nullptr;
}

QString TimelineLanes::toolTipAt(const QPoint& pos) const {
    for (auto it = markers_.rbegin(); it != markers_.rend(); ++it) {
        const Marker& m = *it;
        if (!m.rect.adjusted(-3, -3, 3, 3).contains(pos)) continue;
        const auto& events = replay_->recording().events;
        const sim::TimelineEvent& last = events[m.events.back()];
        QString tip = eventToolTip(last, replay_->recording());
        if (m.events.size() > 1)
            tip = tr("<b>%1 ×%2</b>, %3 → %4; the last one:<br>")
                      .arg(m.base)
                      .arg(m.events.size())
                      .arg(virtualTimeText(events[m.events.front()].time),
                           virtualTimeText(last.time)) +
                  tip;
        return tip;
    }
    int lane = laneAt(pos);
    if (lane >= 0 && pos.x() < headerWidth_) return headerToolTip(lane);
    if (lane < 0) return {};
    const sim::Recording& r = replay_->recording();
    const sim::Lane& info = r.lanes[lane];
    sim::VirtualMs t = mapXToTime(pos.x());
    // The narrowest interval under the pointer is the most specific one.
    const sim::Interval* best = nullptr;
    for (const sim::Interval& interval : r.intervals) {
        if (interval.lane != info.id) continue;
        sim::VirtualMs end = visibleEnd(interval);
        if (end < 0 || t < interval.from || t > end) continue;
        if (!best || interval.to - interval.from < best->to - best->from) best = &interval;
    }
    return best ? intervalToolTip(*best, qs(info.name)) : QString();
}

bool TimelineLanes::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        QString text = toolTipAt(help->pos());
        if (text.isEmpty()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), text, this);
        }
        return true;
    }
    return QWidget::event(event);
}

void TimelineLanes::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitHeaderWidth();  // a lane's height picks its name's font
    layoutMarkers();
}

void TimelineLanes::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && replay_ && event->position().x() >= headerWidth_)
        emit timeClicked(mapXToTime(event->position().x()));
    QWidget::mousePressEvent(event);
}

void TimelineLanes::contextMenuEvent(QContextMenuEvent* event) {
    int lane = laneAt(event->pos());
    if (lane < 0) return;
    const sim::Lane& info = replay_->recording().lanes[lane];
    if (info.kind != sim::LaneKind::Instance) return;
    // "Here" is where the click was, but never later than the story so far.
    sim::VirtualMs at =
        event->pos().x() < headerWidth_ ? now() : std::min(mapXToTime(event->pos().x()), now());
    QString name = qs(info.name);
    QMenu menu(this);
    QAction* pause =
        menu.addAction(QIcon(QStringLiteral(":/icons/pause.svg")),
                       tr("Pause this instance here (%1 at %2)…").arg(name, virtualTimeText(at)));
    QAction* crash =
        menu.addAction(QIcon(QStringLiteral(":/icons/cancel.svg")),
                       tr("Crash this instance here (%1 at %2)").arg(name, virtualTimeText(at)));
    QAction* chosen = menu.exec(event->globalPos());
    if (chosen == pause) {
        bool ok = false;
        double seconds = QInputDialog::getDouble(
            this, tr("Pause %1").arg(name),
            tr("How long is %1 frozen (GC pause, suspended VM)? Seconds:").arg(name), 30.0, 0.001,
            3600.0, 3, &ok);
        if (ok) emit pauseRequested(name, at, std::llround(seconds * 1000.0));
    } else if (chosen == crash) {
        emit crashRequested(name, at);
    }
}

QSize TimelineLanes::sizeHint() const {
    int lanes = replay_ ? static_cast<int>(replay_->recording().lanes.size()) : 5;
    return {1200, kAxisHeight + lanes * 74 + 4};
}

QSize TimelineLanes::minimumSizeHint() const {
    int lanes = replay_ ? static_cast<int>(replay_->recording().lanes.size()) : 5;
    return {640, kAxisHeight + lanes * minLaneHeight() + 4};
}

}  // namespace lockscope::ui
