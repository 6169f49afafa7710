#pragma once
// How one timeline event looks on its lane: a labelled pill ("SET NX", "DEL", "✉ email")
// for the moments a student should read, a small dot for the frequent ones (chunk
// writes), and the tooltip text shown on hover.

#include <QColor>
#include <QPalette>
#include <QString>

#include "lockscope/sim/timeline.h"

namespace lockscope::ui {

struct MarkerStyle {
    QString text;         // empty: a dot
    QColor color;         // the actor's colour, or red for a harmful event
    bool hollow = false;  // a command that did nothing ((nil), (integer) 0)
    bool alarm = false;   // a red ring: a corrupted write, a foreign deletion...
    bool visible = true;  // pause start/end are drawn as bands, not markers
};

MarkerStyle markerStyle(const sim::TimelineEvent& event, const sim::Recording& recording,
                        const QPalette& palette);
// Whether an instance lane named actor shows a crash at or before t.
bool crashedBy(const sim::Recording& recording, const QString& actor, sim::VirtualMs t);
// A DEL or release that removed another live holder's lock: that holder's name, else empty.
QString foreignVictim(const sim::Recording& recording, const sim::TimelineEvent& event);

// "SET NX", "DEL", "acquire" (the guide's scripts by what their Lua does).
QString shortCommand(const sim::TimelineEvent& event);
// OK or a positive integer; false for (nil) and (integer) 0.
bool replySucceeded(const std::string& reply);

QString eventToolTip(const sim::TimelineEvent& event, const sim::Recording& recording);
QString intervalToolTip(const sim::Interval& interval, const QString& laneName);
// "A (fence 2) · 1" as written on an ownership bar.
QString intervalLabel(const sim::Interval& interval);
// The holder an interval's label names ("B (fence 2)" → "B").
QString intervalActor(const sim::Interval& interval);

}  // namespace lockscope::ui
