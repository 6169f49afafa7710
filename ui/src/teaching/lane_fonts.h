#pragma once
// Projector-sized fonts for the lanes, in pixels so a slide looks the same on every
// screen: lane names a student can read from the back row.

#include <QFont>

namespace lockscope::ui {

struct LaneFonts {
    static QFont sized(int pixels, bool bold) {
        QFont font;
        font.setPixelSize(pixels);
        font.setBold(bold);
        return font;
    }
    static QFont laneName() { return sized(24, true); }
    static QFont resourceName() { return sized(17, true); }
    static QFont subtitle() { return sized(13, false); }
    static QFont marker() { return sized(14, true); }
    static QFont bar() { return sized(14, true); }
    static QFont axis() { return sized(14, false); }
    static QFont cursor() { return sized(14, true); }
};

}  // namespace lockscope::ui
