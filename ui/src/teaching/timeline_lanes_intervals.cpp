// TimelineLanes' intervals: a band across a lane for a pause, a crash or a lapsed lease, and
// a bar for a held lock or a key's life, each with its label where it fits.
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
    p.fillRect(rect, LaneColors::translucent(color, 40));
    p.fillRect(rect, QBrush(LaneColors::translucent(color, 90),
                            crash ? Qt::DiagCrossPattern : Qt::BDiagPattern));
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
    p.setBrush(LaneColors::translucent(pal.color(QPalette::Base), 235));
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
            p.setBrush(LaneColors::translucent(color, 40));
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
            p.setBrush(QBrush(LaneColors::translucent(warn, 150), Qt::BDiagPattern));
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
            p.fillRect(label, LaneColors::translucent(pal.color(QPalette::Base), 225));
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

}  // namespace lockscope::ui
