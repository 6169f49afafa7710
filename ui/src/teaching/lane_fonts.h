#pragma once
// Projector-sized fonts for the lanes, in pixels so a slide looks the same on every
// screen: lane names a student can read from the back row.

#include <QFont>
#include <algorithm>
#include <cmath>

namespace lockscope::ui {

struct LaneFonts {
    // The teaching view's zoom (Ctrl+= / Ctrl+- / Ctrl+0): every size below is scaled by it.
    static double& zoom() {
        static double factor = 1.0;
        return factor;
    }
    static int px(int pixels) {
        return std::max(6, static_cast<int>(std::lround(pixels * zoom())));
    }
    static QFont sized(int pixels, bool bold) {
        QFont font;
        font.setPixelSize(px(pixels));
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
