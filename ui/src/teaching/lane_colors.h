#pragma once
// The teaching panel's colours: one strong hue per actor (A, B, C...), and the bands for
// pauses, lapsed leases, crashes and keys without a TTL. Each has a light-palette and a
// dark-palette variant so a projector shows the same contrast either way.

#include <QColor>
#include <QPalette>
#include <QString>

namespace lockscope::ui {

struct LaneColors {
    static bool isDark(const QPalette& palette);
    // "A" → blue, "B" → orange... by the letter, "client1" → blue by the digit; others
    // (guide, redis, operator) → grey.
    static QColor actor(const QString& name, const QPalette& palette);
    static QColor lapse(const QPalette& palette);     // red: working without the lock
    static QColor pause(const QPalette& palette);     // grey: frozen
    static QColor crash(const QPalette& palette);     // dark red
    static QColor noTtl(const QPalette& palette);     // amber: a key that never expires
    static QColor good(const QPalette& palette);      // green
    static QColor bad(const QPalette& palette);       // red
    static QColor cursor(const QPalette& palette);    // the "now" line
    static QColor question(const QPalette& palette);  // a predict prompt: dark amber
    // The colour with this alpha (0..255): a band's fill, a grid line.
    static QColor translucent(QColor color, int alpha) {
        color.setAlpha(alpha);
        return color;
    }
    // Black or white, whichever reads better on this fill.
    static QColor textOn(const QColor& fill);
};

}  // namespace lockscope::ui
