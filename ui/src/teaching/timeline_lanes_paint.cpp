// TimelineLanes' painting: axis and grid, lane headers with the state at the current beat,
// bands and bars for intervals, markers for events, and the "now" cursor.
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

QColor withAlpha(QColor color, int alpha) {
    color.setAlpha(alpha);
    return color;
}

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

// The bar font, smaller in a short bar down to a size still read from the front rows; none
// when even that is taller than the room.
std::optional<QFont> labelFont(double height) {
    QFont font = LaneFonts::bar();
    const int smallest = LaneFonts::px(10);
    while (QFontMetricsF(font).height() > height && font.pixelSize() > smallest)
        font.setPixelSize(font.pixelSize() - 1);
    if (QFontMetricsF(font).height() > height) return std::nullopt;
    return font;
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
        p.setPen(withAlpha(pal.color(QPalette::Mid), 140));
        p.drawLine(QPointF(0, r.bottom()), QPointF(width(), r.bottom()));
    }
    // The future is not drawn; a tint says "not yet".
    double nowX = replay_->currentBeat() < 0 ? headerWidth_ : mapTimeToX(cursorTime());
    p.fillRect(QRectF(nowX, kAxisHeight, width() - nowX, height() - kAxisHeight),
               withAlpha(pal.color(QPalette::Mid), LaneColors::isDark(pal) ? 40 : 28));
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
        p.setPen(QPen(withAlpha(pal.color(QPalette::Text), 45), 1));
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

void TimelineLanes::paintIntervals(QPainter& p) const {
    using K = sim::IntervalKind;
    const sim::Recording& r = replay_->recording();
    drawnLabels_.clear();
    drawnBandLabels_.clear();
    // Bars, then the warnings on them, then the translucent pause and crash bands over
    // the whole lane, so a frozen holder's bar still shows through.
    for (K kind : {K::JobRun, K::Ownership, K::LeaseLapsed, K::NoTtl, K::Pause, K::Crashed}) {
        for (const sim::Interval& interval : r.intervals) {
            if (interval.kind != kind) continue;
            int lane = laneIndex(interval.lane);
            sim::VirtualMs end = visibleEnd(interval);
            if (lane < 0 || end < 0) continue;
            double x0 = mapTimeToX(interval.from), x1 = std::max(mapTimeToX(end), x0 + 2);
            if (kind == K::Pause || kind == K::Crashed) {
                QRectF lr = laneRect(lane);
                QRectF band(x0, lr.top() + 1, x1 - x0, lr.height() - 2);
                paintBand(p, interval, band);
                paintBandLabel(p, interval, band);
            } else {
                QRectF bar = barArea(lane);
                paintBar(p, interval, QRectF(x0, bar.top(), x1 - x0, bar.height()));
            }
        }
    }
}

void TimelineLanes::paintBand(QPainter& p, const sim::Interval& interval,
                              const QRectF& rect) const {
    const QPalette& pal = palette();
    bool crash = interval.kind == sim::IntervalKind::Crashed;
    QColor color = crash ? LaneColors::crash(pal) : LaneColors::pause(pal);
    p.fillRect(rect, withAlpha(color, 40));
    p.fillRect(rect, QBrush(withAlpha(color, 90), crash ? Qt::DiagCrossPattern : Qt::BDiagPattern));
    p.setPen(QPen(color, 2, Qt::DashLine));
    p.drawLine(rect.topLeft(), rect.bottomLeft());
    if (!sim::intervalOpenAt(interval, point_.step))
        p.drawLine(rect.topRight(), rect.bottomRight());
}

void TimelineLanes::paintBandLabel(QPainter& p, const sim::Interval& interval,
                                   const QRectF& rect) const {
    // In the bar row, at the band's right end if that is clear of the labels bars write at
    // their left ends, else at its left end.
    const QPalette& pal = palette();
    bool crash = interval.kind == sim::IntervalKind::Crashed;
    QColor color = crash ? LaneColors::crash(pal) : LaneColors::pause(pal);
    QString text = crash ? tr("✗ crashed") : tr("frozen: %1").arg(qs(interval.label));
    p.setFont(LaneFonts::bar());
    QFontMetricsF fm(p.font());
    double w = fm.horizontalAdvance(text) + 10;
    if (w + 4 > rect.width()) {
        text = crash ? tr("✗") : tr("frozen");
        w = fm.horizontalAdvance(text) + 10;
        if (w + 4 > rect.width()) return;
    }
    double top = rect.bottom() - fm.height() - 5;
    QRectF right(rect.right() - w - 3, top, w, fm.height() + 2);
    QRectF left(rect.left() + 3, top, w, fm.height() + 2);
    auto clear = [&](const QRectF& candidate) {
        for (const sim::Interval& other : replay_->recording().intervals) {
            if (other.lane != interval.lane || &other == &interval || visibleEnd(other) < 0)
                continue;
            if (other.kind != sim::IntervalKind::LeaseLapsed &&
                other.kind != sim::IntervalKind::Ownership &&
                other.kind != sim::IntervalKind::NoTtl)
                continue;
            double x0 = mapTimeToX(other.from);
            QRectF written(x0, top, std::min(200.0, mapTimeToX(visibleEnd(other)) - x0),
                           candidate.height());
            if (written.intersects(candidate)) return false;
        }
        return true;
    };
    // Never under a pill or a dot either (a "release ×5" pill over "frozen: GC pause"):
    // the other end, the short word, or not at all (the band's tooltip says it).
    auto underAMarker = [this](const QRectF& candidate) { return coveredByMarker(candidate); };
    std::optional<QRectF> chosen;
    for (const QRectF& candidate : {right, left})
        if (!chosen && clear(candidate) && !underAMarker(candidate)) chosen = candidate;
    if (!chosen && !crash && text != tr("frozen")) {
        text = tr("frozen");
        w = fm.horizontalAdvance(text) + 10;
        for (const QRectF& candidate : {QRectF(rect.right() - w - 3, top, w, fm.height() + 2),
                                        QRectF(rect.left() + 3, top, w, fm.height() + 2)})
            if (!chosen && !underAMarker(candidate)) chosen = candidate;
    }
    if (!chosen) {
        if (underAMarker(left)) return;
        chosen = left;  // as before: clear of the markers, maybe over a bar's own label
    }
    const QRectF label = *chosen;
    drawnBandLabels_.push_back({text, label, rect, p.font()});
    p.setPen(QPen(color, 1.5));
    p.setBrush(withAlpha(pal.color(QPalette::Base), 235));
    p.drawRoundedRect(label, 4, 4);
    p.setPen(color);
    p.drawText(label, Qt::AlignCenter, text);
}

void TimelineLanes::paintBar(QPainter& p, const sim::Interval& interval, const QRectF& rect) const {
    using K = sim::IntervalKind;
    const QPalette& pal = palette();
    const sim::Lane* lane = replay_->recording().lane(interval.lane);
    QString owner =
        lane && lane->kind == sim::LaneKind::Instance ? qs(lane->name) : intervalActor(interval);
    QColor color = LaneColors::actor(owner, pal);
    switch (interval.kind) {
        case K::JobRun:
            p.setPen(QPen(color, 1.5));
            p.setBrush(withAlpha(color, 40));
            p.drawRoundedRect(rect, 4, 4);
            return;
        case K::Ownership: {
            bool inset = lane && lane->kind == sim::LaneKind::Instance && rect.height() >= 24;
            QRectF bar = inset ? rect.adjusted(0, 4, 0, -4) : rect;
            p.setPen(Qt::NoPen);
            p.setBrush(color);
            p.drawRoundedRect(bar, 4, 4);
            paintBarLabel(p, interval, bar, LaneColors::textOn(color), color);
            return;
        }
        case K::LeaseLapsed:
        case K::NoTtl: {
            QColor warn =
                interval.kind == K::NoTtl ? LaneColors::noTtl(pal) : LaneColors::lapse(pal);
            p.setPen(Qt::NoPen);
            p.setBrush(QBrush(withAlpha(warn, 150), Qt::BDiagPattern));
            p.drawRect(rect.adjusted(0, 2, 0, -2));
            p.setPen(QPen(warn, 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(rect.adjusted(1, 2, -1, -2));
            // Whole and as tall as the band, or not at all: half a line of text under the
            // next lane's bar reads as noise (the tooltip says it).
            const QRectF space = rect.adjusted(0, 2, 0, -2);
            const std::optional<QFont> font = labelFont(space.height());
            if (!font) return;
            const QFontMetricsF fm(*font);
            QString text = interval.kind == K::NoTtl
                               ? tr("no TTL: never expires")
                               : tr("⚠ %1, still working").arg(qs(interval.label));
            if (fm.horizontalAdvance(text) + 10 > space.width() - 4)
                text = interval.kind == K::NoTtl ? tr("no TTL") : tr("⚠ no lock");
            const double w = fm.horizontalAdvance(text) + 10;
            if (w > space.width() - 4) return;
            // At the band's left end, or its right end when the holder's label is there.
            const double top = space.center().y() - fm.height() / 2;
            QRectF label(space.left() + 4, top, w, fm.height());
            auto overLabel = [&](const QRectF& r) {
                return std::any_of(drawnLabels_.begin(), drawnLabels_.end(),
                                   [&](const DrawnLabel& d) { return d.rect.intersects(r); });
            };
            if (overLabel(label) || coveredByMarker(label)) label.moveLeft(space.right() - 4 - w);
            if (overLabel(label) || coveredByMarker(label))
                return;  // the band's hatching and its tooltip say it
            p.fillRect(label, withAlpha(pal.color(QPalette::Base), 225));
            p.setFont(*font);
            p.setPen(warn);
            p.drawText(label, Qt::AlignCenter, text);
            drawnLabels_.push_back({text, label, space, *font});
            return;
        }
        default:
            return;
    }
}

double TimelineLanes::freeRightOf(const sim::Interval& interval, const QRectF& bar) const {
    using K = sim::IntervalKind;
    const int lane = laneIndex(interval.lane);
    double end = laneRect(lane).right();
    for (const sim::Interval& other : replay_->recording().intervals) {
        if (&other == &interval || other.lane != interval.lane || visibleEnd(other) < 0) continue;
        if (other.kind != K::Ownership && other.kind != K::LeaseLapsed && other.kind != K::NoTtl)
            continue;
        const double x0 = mapTimeToX(other.from);
        if (x0 >= bar.right() - 0.5) end = std::min(end, x0);
    }
    return end;
}

void TimelineLanes::paintBarLabel(QPainter& p, const sim::Interval& interval, const QRectF& bar,
                                  const QColor& onBar, const QColor& beside) const {
    const QString text = intervalLabel(interval);
    const std::optional<QFont> font = labelFont(bar.height());
    if (text.isEmpty() || !font) return;
    const QFontMetricsF fm(*font);
    const double w = fm.horizontalAdvance(text);
    QRectF space = bar;
    QColor color = onBar;
    if (w + 10 > bar.width()) {  // beside the bar, in the lane's free row
        space =
            QRectF(bar.right(), bar.top(), freeRightOf(interval, bar) - bar.right(), bar.height());
        color = beside;
        if (w + 10 > space.width()) return;
    }
    const QRectF rect(space.left() + 6, space.top(), w, space.height());
    // A Redlock client's lane has one bar per node, one over the other: one label says it.
    for (const DrawnLabel& other : drawnLabels_)
        if (other.rect.intersects(rect)) return;
    // A short lane's bar reaches under the marker row: a pill would hide the label there.
    if (coveredByMarker(rect)) return;
    p.setFont(*font);
    p.setPen(color);
    p.drawText(rect, Qt::AlignLeft | Qt::AlignVCenter, text);
    drawnLabels_.push_back({text, rect, space, *font});
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
    for (const Marker* m : order) drawnMarkers_.push_back(m->rect);
    for (const Marker* marker : order) {
        const Marker& m = *marker;
        const sim::TimelineEvent& e = r.events[m.events.front()];
        MarkerStyle style = markerStyle(e, r, pal);
        for (int other : m.events) style.alarm |= markerStyle(r.events[other], r, pal).alarm;
        int lane = laneIndex(e.lane);
        // A stem from a pill to the bar row keeps the exact time readable when the pill was
        // nudged aside or stands for several events.
        if (!m.dot && hasBars(lane)) {
            p.setPen(QPen(withAlpha(style.color, 170), 1.2));
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
