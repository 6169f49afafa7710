#include "timeline_lanes.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QInputDialog>
#include <QMenu>
#include <QMouseEvent>
#include <QToolTip>
#include <algorithm>

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
    cutoffEvent_ = -1;
    if (replay_) {
        const sim::Recording& r = replay_->recording();
        sim::VirtualMs last = 0;
        for (const auto& e : r.events) last = std::max(last, e.time);
        for (const auto& i : r.intervals) last = std::max(last, i.to);
        for (const auto& b : r.beats) last = std::max(last, b.time);
        // A little room after the last event, so the final markers are not on the edge.
        end_ = last == 0 ? 1000 : last + std::max<sim::VirtualMs>(last / 25, 1);
        int current = replay_->currentBeat();
        if (current >= 0) {
            cutoffEvent_ = r.beats[current].eventIndex;
            for (const auto& e : r.events)
                if (e.beat >= 0 && e.beat <= current)
                    cutoffEvent_ = std::max(cutoffEvent_, e.index);
        }
    }
    layoutMarkers();
    updateGeometry();
    update();
}

sim::VirtualMs TimelineLanes::now() const {
    return replay_ ? replay_->currentTime() : 0;
}

double TimelineLanes::mapTimeToX(sim::VirtualMs t) const {
    double width = std::max(1, this->width() - kHeaderWidth - kRightMargin);
    return kHeaderWidth + width * double(t) / double(std::max<sim::VirtualMs>(end_, 1));
}

sim::VirtualMs TimelineLanes::mapXToTime(double x) const {
    double width = std::max(1, this->width() - kHeaderWidth - kRightMargin);
    double t = (x - kHeaderWidth) / width * double(end_);
    return std::clamp<sim::VirtualMs>(static_cast<sim::VirtualMs>(t), 0, end_);
}

QRectF TimelineLanes::laneRect(int lane) const {
    int count = replay_ ? static_cast<int>(replay_->recording().lanes.size()) : 0;
    double height = count ? std::max(52.0, double(this->height() - kAxisHeight - 4) / count) : 52.0;
    return QRectF(kHeaderWidth, kAxisHeight + lane * height,
                  this->width() - kHeaderWidth - kRightMargin, height);
}

QRectF TimelineLanes::barArea(int lane) const {
    QRectF r = laneRect(lane);
    double top = r.top() + r.height() * 0.52;
    return QRectF(r.left(), top, r.width(), r.bottom() - 5 - top);
}

int TimelineLanes::laneIndex(sim::LaneId id) const {
    if (!replay_) return -1;
    const auto& lanes = replay_->recording().lanes;
    for (std::size_t i = 0; i < lanes.size(); ++i)
        if (lanes[i].id == id) return static_cast<int>(i);
    return -1;
}

bool TimelineLanes::eventVisible(const sim::TimelineEvent& event) const {
    return replay_ && replay_->currentBeat() >= 0 && event.index <= cutoffEvent_;
}

sim::VirtualMs TimelineLanes::visibleEnd(const sim::Interval& interval) const {
    if (!replay_ || replay_->currentBeat() < 0 || interval.from > now()) return -1;
    return std::min(interval.to, now());
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

void TimelineLanes::layoutMarkers() {
    markers_.clear();
    if (!replay_) return;
    QFontMetricsF fm(LaneFonts::marker());
    const double pillHeight = fm.height() + 6;
    // Per lane and row, where the last marker ends: a marker that would overlap the one
    // before it goes to the next row, or is nudged right when every row is taken.
    std::vector<std::vector<double>> rowEnds(replay_->recording().lanes.size());
    for (const sim::TimelineEvent& event : replay_->recording().events) {
        if (!eventVisible(event)) continue;
        MarkerStyle style = markerStyle(event, palette());
        if (!style.visible) continue;
        int lane = laneIndex(event.lane);
        if (lane < 0) continue;
        QRectF area = laneRect(lane);
        double x = mapTimeToX(event.time);
        double w = style.text.isEmpty() ? 14 : fm.horizontalAdvance(style.text) + 14;
        double h = style.text.isEmpty() ? 14 : pillHeight;
        int rows = std::max(1, int((area.height() * 0.5 - 4) / (pillHeight + 2)));
        auto& ends = rowEnds[lane];
        ends.resize(rows, -1e9);
        double left = x - w / 2;
        int row = 0;
        while (row < rows && ends[row] > left) ++row;
        if (row == rows) {
            row = int(std::min_element(ends.begin(), ends.end()) - ends.begin());
            left = ends[row] + 2;
        }
        double top = area.top() + 4 + row * (pillHeight + 2) + (pillHeight - h) / 2;
        ends[row] = left + w + 2;
        markers_.push_back({QRectF(left, top, w, h), event.index, x});
    }
}

QRectF TimelineLanes::markerRect(int eventIndex) const {
    for (const Marker& m : markers_)
        if (m.event == eventIndex) return m.rect;
    return {};
}

const sim::TimelineEvent* TimelineLanes::eventAt(const QPoint& pos) const {
    if (!replay_) return nullptr;
    for (auto it = markers_.rbegin(); it != markers_.rend(); ++it)
        if (it->rect.adjusted(-3, -3, 3, 3).contains(pos))
            return &replay_->recording().events[it->event];
    return nullptr;
}

QString TimelineLanes::toolTipAt(const QPoint& pos) const {
    if (const sim::TimelineEvent* e = eventAt(pos)) return eventToolTip(*e);
    int lane = laneAt(pos);
    if (lane < 0 || pos.x() < kHeaderWidth) return {};
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
    layoutMarkers();
}

void TimelineLanes::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && replay_ && event->position().x() >= kHeaderWidth)
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
        event->pos().x() < kHeaderWidth ? now() : std::min(mapXToTime(event->pos().x()), now());
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
        if (ok) emit pauseRequested(name, at, static_cast<sim::VirtualMs>(seconds * 1000.0 + 0.5));
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
    return {640, kAxisHeight + lanes * 52 + 4};
}

}  // namespace lockscope::ui
