// TimelineLanes' markers: where each event's pill or dot goes on its lane, and which
// events share a pill ("extend ×8").
#include <algorithm>
#include <map>
#include <utility>

#include "event_markers.h"
#include "lane_fonts.h"
#include "timeline_lanes.h"

namespace lockscope::ui {

void TimelineLanes::layoutMarkers() {
    markers_.clear();
    if (!replay_) return;
    const sim::Recording& recording = replay_->recording();
    QFontMetricsF fm(LaneFonts::marker());
    const double pillHeight = fm.height() + 6;
    const double dotSize = 14;
    // Per lane: the last pill placed, and where each pill row ends. A pill that would
    // overlap the one before it with the same label joins it ("extend ×8"); another label
    // goes to a free row, or is nudged right when every row is taken.
    std::vector<int> lastPill(recording.lanes.size(), -1);
    std::vector<std::vector<double>> rowEnds(recording.lanes.size());
    for (const sim::TimelineEvent& event : recording.events) {
        if (!eventVisible(event)) continue;
        MarkerStyle style = markerStyle(event, recording, palette());
        if (!style.visible) continue;
        int lane = laneIndex(event.lane);
        if (lane < 0) continue;
        QRectF area = laneRect(lane);
        double x = mapTimeToX(event.time);
        if (style.text.isEmpty()) {
            // Dots sit at their exact time: in the marker row on lanes with bars, in the
            // middle of the bar row on resource lanes (chunks under the "open" pill).
            double cy =
                hasBars(lane) ? area.top() + 4 + pillHeight / 2 : barArea(lane).center().y();
            Marker m;
            m.rect = QRectF(x - dotSize / 2, cy - dotSize / 2, dotSize, dotSize);
            m.events = {event.index};
            m.x = x;
            m.dot = true;
            markers_.push_back(m);
            continue;
        }
        double w = fm.horizontalAdvance(style.text) + 16;
        // Pills may use the right margin, never the headers.
        const double rightEdge = width() - 2;
        double left = std::clamp(x - w / 2, area.left() + 1, rightEdge - w);
        int previous = lastPill[lane];
        if (previous >= 0 && markers_[previous].base == style.text &&
            left < markers_[previous].rect.right() + kPillGap) {
            Marker& m = markers_[previous];
            m.events.push_back(event.index);
            m.text = QStringLiteral("%1 ×%2").arg(m.base).arg(m.events.size());
            double width = fm.horizontalAdvance(m.text) + 16;
            m.rect.setLeft(std::min(m.rect.left(), rightEdge - width));
            m.rect.setWidth(width);
            auto& groupEnds = rowEnds[lane];
            if (m.row < static_cast<int>(groupEnds.size()))
                groupEnds[m.row] = std::max(groupEnds[m.row], m.rect.right() + kPillGap);
            continue;
        }
        int rows = std::max(1, int((area.height() * 0.5 - 4) / (pillHeight + 2)));
        auto& ends = rowEnds[lane];
        ends.resize(rows, -1e9);
        int row = 0;
        while (row < rows && ends[row] > left) ++row;
        if (row == rows) {
            row = int(std::min_element(ends.begin(), ends.end()) - ends.begin());
            left = std::min(ends[row], rightEdge - w);
            // At the right edge there is no room to nudge into: push the pills before it
            // left instead, so none hides another.
            double limit = left - kPillGap;
            for (auto it = markers_.rbegin(); it != markers_.rend(); ++it) {
                Marker& earlier = *it;
                if (earlier.dot || earlier.lane != lane || earlier.row != row) continue;
                if (earlier.rect.right() <= limit) break;
                earlier.rect.moveRight(std::max(limit, area.left() + 1 + earlier.rect.width()));
                limit = earlier.rect.left() - kPillGap;
            }
        }
        Marker m;
        m.rect = QRectF(left, area.top() + 4 + row * (pillHeight + 2), w, pillHeight);
        m.events = {event.index};
        m.x = x;
        m.base = m.text = style.text;
        m.row = row;
        m.lane = lane;
        ends[row] = m.rect.right() + kPillGap;
        lastPill[lane] = static_cast<int>(markers_.size());
        markers_.push_back(m);
    }
    separatePills();
}

void TimelineLanes::separatePills() {
    // Placing pills one by one leaves overlaps the placement cannot see: a group that grew
    // ("release ×2") near the right edge, or an earlier pill pushed left into the one before
    // it. Per lane and row, in order of time: each pill starts a gap after the one before,
    // then, from the right edge back, each ends a gap before the next.
    const double rightEdge = width() - 2;
    std::map<std::pair<int, int>, std::vector<Marker*>> rows;
    for (Marker& m : markers_)
        if (!m.dot) rows[{m.lane, m.row}].push_back(&m);
    for (auto& [where, pills] : rows) {
        std::stable_sort(pills.begin(), pills.end(),
                         [](const Marker* a, const Marker* b) { return a->x < b->x; });
        const double leftEdge = laneRect(where.first).left() + 1;
        double least = leftEdge;
        for (Marker* m : pills) {
            m->rect.moveLeft(std::max(m->rect.left(), least));
            least = m->rect.right() + kPillGap;
        }
        double most = rightEdge;
        for (auto it = pills.rbegin(); it != pills.rend(); ++it) {
            Marker* m = *it;
            if (m->rect.right() <= most) break;
            m->rect.moveRight(most);
            most = m->rect.left() - kPillGap;
        }
        // A row with more pills than room: from the left again, so none hides another
        // (the last ones reach past the edge; their tooltips still tell them).
        if (pills.front()->rect.left() < leftEdge) {
            least = leftEdge;
            for (Marker* m : pills) {
                m->rect.moveLeft(least);
                least = m->rect.right() + kPillGap;
            }
        }
    }
}

QRectF TimelineLanes::markerRect(int eventIndex) const {
    for (const Marker& m : markers_)
        if (std::find(m.events.begin(), m.events.end(), eventIndex) != m.events.end())
            return m.rect;
    return {};
}

QString TimelineLanes::markerText(int eventIndex) const {
    for (const Marker& m : markers_)
        if (std::find(m.events.begin(), m.events.end(), eventIndex) != m.events.end())
            return m.text;
    return {};
}

}  // namespace lockscope::ui
