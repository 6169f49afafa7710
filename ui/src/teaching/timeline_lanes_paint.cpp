// TimelineLanes' painting: the frame of the picture (axis and grid, lane separators), the
// markers for events and the "now" cursor. The intervals' bands and bars are
// timeline_lanes_intervals.cpp.
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>
#include <optional>

#include "event_markers.h"
#include "lane_colors.h"
#include "lane_fonts.h"
#include "sim_text.h"
#include "timeline_lanes.h"

namespace lockscope::ui {
namespace {

sim::VirtualMs niceStep(sim::VirtualMs span, int ticks) {
    double raw = double(span) / std::max(1, ticks);
    double magnitude = std::pow(10.0, std::floor(std::log10(std::max(raw, 1.0))));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * magnitude >= raw)
            return std::max<sim::VirtualMs>(1, static_cast<sim::VirtualMs>(m * magnitude));
    return static_cast<sim::VirtualMs>(10 * magnitude);
}

QString tickText(sim::VirtualMs t, sim::VirtualMs step) {
    if (t == 0) return QStringLiteral("0");
    if (step >= 1000) return QStringLiteral("%1 s").arg(double(t) / 1000.0);
    return QStringLiteral("%1 ms").arg(t);
}

}  // namespace

void TimelineLanes::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette& pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    p.fillRect(QRect(0, 0, headerWidth_ - 6, height()), pal.color(QPalette::Window));
    if (!replay_) return;
    int lanes = static_cast<int>(replay_->recording().lanes.size());
    for (int i = 0; i < lanes; ++i) {
        QRectF r = laneRect(i);
        if (i % 2)
            p.fillRect(QRectF(headerWidth_ - 6, r.top(), width(), r.height()),
                       pal.color(QPalette::AlternateBase));
        p.setPen(LaneColors::translucent(pal.color(QPalette::Mid), 140));
        p.drawLine(QPointF(0, r.bottom()), QPointF(width(), r.bottom()));
    }
    // The future is not drawn; a tint says "not yet".
    double nowX = replay_->currentBeat() < 0 ? headerWidth_ : mapTimeToX(cursorTime());
    p.fillRect(
        QRectF(nowX, kAxisHeight, width() - nowX, height() - kAxisHeight),
        LaneColors::translucent(pal.color(QPalette::Mid), LaneColors::isDark(pal) ? 40 : 28));
    paintAxis(p);
    paintIntervals(p);
    paintCursor(p, false);  // the line under the markers, so none is struck through
    paintMarkers(p);
    paintHeaders(p);
    paintCursor(p, true);
}

void TimelineLanes::paintAxis(QPainter& p) const {
    const QPalette& pal = palette();
    p.setFont(LaneFonts::axis());
    double span = width() - headerWidth_ - kRightMargin;
    sim::VirtualMs step = niceStep(end_, std::max(2, int(span / 110)));
    drawnTicks_.clear();
    // A tick's label under the "now" flag is left out (the flag says the time there).
    drawnFlag_ = cursorFlag();
    const QRectF flag = drawnFlag_.adjusted(-4, 0, 4, 0);
    const QFontMetricsF fm(p.font());
    for (sim::VirtualMs t = 0; t <= end_; t += step) {
        double x = mapTimeToX(t);
        p.setPen(QPen(LaneColors::translucent(pal.color(QPalette::Text), 45), 1));
        p.drawLine(QPointF(x, kAxisHeight), QPointF(x, height()));
        p.setPen(pal.color(QPalette::Text));
        p.drawLine(QPointF(x, kAxisHeight - 6), QPointF(x, kAxisHeight));
        const QString text = tickText(t, step);
        const double w = fm.horizontalAdvance(text);
        const QRectF label(x - w / 2, kAxisHeight - 7 - fm.height(), w, fm.height());
        if (label.intersects(flag)) continue;
        p.drawText(label, Qt::AlignHCenter | Qt::AlignBottom, text);
        drawnTicks_.push_back({text, label, label, p.font()});
    }
    p.setPen(pal.color(QPalette::Text));
    p.drawLine(QPointF(headerWidth_, kAxisHeight), QPointF(width() - kRightMargin, kAxisHeight));
    p.setPen(pal.color(QPalette::PlaceholderText));
    p.drawText(QRectF(10, 2, headerWidth_ - 20, kAxisHeight - 9), Qt::AlignLeft | Qt::AlignBottom,
               tr("virtual time"));
}

void TimelineLanes::paintMarkers(QPainter& p) const {
    const QPalette& pal = palette();
    const sim::Recording& r = replay_->recording();
    int current = replay_->currentBeat();
    int currentEvent = current >= 0 ? r.beats[current].eventIndex : -1;
    p.setFont(LaneFonts::marker());
    // Dots first, pills over them: a pill's words matter more than a dot under it.
    std::vector<const Marker*> order;
    for (const Marker& m : markers_)
        if (m.dot) order.push_back(&m);
    for (const Marker& m : markers_)
        if (!m.dot) order.push_back(&m);
    drawnMarkers_.clear();
    drawnPills_.clear();
    for (const Marker* m : order) {
        drawnMarkers_.push_back(m->rect);
        if (!m->dot) drawnPills_.push_back({m->lane, m->rect, m->text});
    }
    for (const Marker* marker : order) {
        const Marker& m = *marker;
        const sim::TimelineEvent& e = r.events[m.events.front()];
        MarkerStyle style = markerStyle(e, r, pal);
        for (int other : m.events) style.alarm |= markerStyle(r.events[other], r, pal).alarm;
        int lane = laneIndex(e.lane);
        // A stem from a pill to the bar row keeps the exact time readable when the pill was
        // nudged aside or stands for several events.
        if (!m.dot && hasBars(lane)) {
            p.setPen(QPen(LaneColors::translucent(style.color, 170), 1.2));
            p.drawLine(QPointF(m.x, m.rect.bottom()), QPointF(m.x, barArea(lane).top()));
        }
        QColor fill = style.hollow ? pal.color(QPalette::Base) : style.color;
        // A harmful dot (a corrupted chunk) gets a red outline; rings would chain up
        // between dots a few pixels apart.
        p.setPen(m.dot && style.alarm ? QPen(LaneColors::bad(pal), 3) : QPen(style.color, 2));
        p.setBrush(fill);
        if (style.text.isEmpty()) {
            if (e.kind == sim::EventKind::KeyChanged) {
                QPointF c = m.rect.center();
                double h = m.rect.width() / 2 + 1;
                p.drawPolygon(QPolygonF({c + QPointF(0, -h), c + QPointF(h, 0), c + QPointF(0, h),
                                         c + QPointF(-h, 0)}));
            } else if (e.kind == sim::EventKind::ChunkWritten) {
                p.drawRect(m.rect.adjusted(1, 1, -1, -1));
            } else {
                p.drawEllipse(m.rect.adjusted(1, 1, -1, -1));
            }
        } else {
            p.drawRoundedRect(m.rect, m.rect.height() / 2, m.rect.height() / 2);
            p.setPen(style.hollow ? style.color : LaneColors::textOn(fill));
            p.drawText(m.rect, Qt::AlignCenter, m.text);
        }
        if (style.alarm && !m.dot) {
            p.setPen(QPen(LaneColors::bad(pal), 2.5));
            p.setBrush(Qt::NoBrush);
            QRectF ring = m.rect.adjusted(-3, -3, 3, 3);
            p.drawRoundedRect(ring, ring.height() / 2, ring.height() / 2);
        }
        if (std::find(m.events.begin(), m.events.end(), currentEvent) != m.events.end()) {
            p.setPen(QPen(LaneColors::cursor(pal), 3));
            p.setBrush(Qt::NoBrush);
            QRectF halo = m.rect.adjusted(-6, -4, 6, 4);
            p.drawRoundedRect(halo, 6, 6);
        }
    }
}

bool TimelineLanes::coveredByMarker(const QRectF& rect) const {
    return std::any_of(markers_.begin(), markers_.end(), [&](const Marker& m) {
        return m.rect.adjusted(-2, -2, 2, 2).intersects(rect);
    });
}

QString TimelineLanes::cursorText() const {
    return replay_ && replay_->currentBeat() >= 0 ? tr("now %1").arg(virtualTimeText(cursorTime()))
                                                  : tr("start");
}

QRectF TimelineLanes::cursorFlag() const {
    if (!replay_) return {};
    const bool started = replay_->currentBeat() >= 0;
    const double x = started ? mapTimeToX(cursorTime()) : headerWidth_;
    const double w = QFontMetricsF(LaneFonts::cursor()).horizontalAdvance(cursorText()) + 14;
    const double left =
        std::clamp(x - w / 2, double(headerWidth_) - w / 2, double(width()) - w - 2);
    return {left, 3, w, kAxisHeight - 8.0};
}

void TimelineLanes::paintCursor(QPainter& p, bool label) const {
    const QPalette& pal = palette();
    bool started = replay_->currentBeat() >= 0;
    double x = started ? mapTimeToX(cursorTime()) : headerWidth_;
    QColor color = LaneColors::cursor(pal);
    if (!label) {
        p.setPen(QPen(color, 2.5));
        p.drawLine(QPointF(x, kAxisHeight - 4), QPointF(x, height()));
        return;
    }
    p.setFont(LaneFonts::cursor());
    const QString text = cursorText();
    const QRectF box = cursorFlag();
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    p.drawRoundedRect(box, 5, 5);
    p.setPen(LaneColors::textOn(color));
    p.drawText(box, Qt::AlignCenter, text);
}

}  // namespace lockscope::ui
