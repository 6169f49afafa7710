#include "lane_colors.h"

#include <array>

namespace lockscope::ui {

bool LaneColors::isDark(const QPalette& palette) {
    return palette.color(QPalette::Base).lightness() < 128;
}

QColor LaneColors::actor(const QString& name, const QPalette& palette) {
    static const std::array<QColor, 8> light = {QColor(0x15, 0x65, 0xc0), QColor(0xd8, 0x4a, 0x00),
                                                QColor(0x7b, 0x1f, 0xa2), QColor(0x00, 0x79, 0x6b),
                                                QColor(0xad, 0x14, 0x57), QColor(0x55, 0x8b, 0x2f),
                                                QColor(0x5d, 0x40, 0x37), QColor(0x00, 0x83, 0x8f)};
    static const std::array<QColor, 8> dark = {QColor(0x64, 0xb5, 0xf6), QColor(0xff, 0xa7, 0x26),
                                               QColor(0xce, 0x93, 0xd8), QColor(0x4d, 0xb6, 0xac),
                                               QColor(0xf4, 0x8f, 0xb1), QColor(0xae, 0xd5, 0x81),
                                               QColor(0xbc, 0xaa, 0xa4), QColor(0x4d, 0xd0, 0xe1)};
    const auto& set = isDark(palette) ? dark : light;
    int index = -1;
    if (name.size() == 1 && name[0].isLetter())
        index = name[0].toUpper().unicode() - 'A';
    else if (!name.isEmpty() && name.back().isDigit())
        index = name.back().digitValue() - 1;  // client1 → A's hue
    if (index >= 0 && index < static_cast<int>(set.size())) return set[index];
    return isDark(palette) ? QColor(0xb0, 0xbe, 0xc5) : QColor(0x54, 0x6e, 0x7a);
}

QColor LaneColors::lapse(const QPalette& palette) {
    return isDark(palette) ? QColor(0xff, 0x6b, 0x6b) : QColor(0xd3, 0x2f, 0x2f);
}

QColor LaneColors::pause(const QPalette& palette) {
    return isDark(palette) ? QColor(0x9e, 0x9e, 0x9e) : QColor(0x61, 0x61, 0x61);
}

QColor LaneColors::crash(const QPalette& palette) {
    return isDark(palette) ? QColor(0xef, 0x9a, 0x9a) : QColor(0x7f, 0x00, 0x00);
}

QColor LaneColors::noTtl(const QPalette& palette) {
    return isDark(palette) ? QColor(0xff, 0xcc, 0x40) : QColor(0xe6, 0x51, 0x00);
}

QColor LaneColors::good(const QPalette& palette) {
    return isDark(palette) ? QColor(0x81, 0xc7, 0x84) : QColor(0x2e, 0x7d, 0x32);
}

QColor LaneColors::bad(const QPalette& palette) {
    return isDark(palette) ? QColor(0xff, 0x6b, 0x6b) : QColor(0xc6, 0x28, 0x28);
}

QColor LaneColors::cursor(const QPalette& palette) {
    return isDark(palette) ? QColor(0xff, 0xee, 0x58) : QColor(0x00, 0x00, 0x00);
}

QColor LaneColors::question(const QPalette& palette) {
    return isDark(palette) ? QColor(0xff, 0xcc, 0x40) : QColor(0x9a, 0x40, 0x00);
}

QColor LaneColors::textOn(const QColor& fill) {
    // Relative luminance (sRGB approximation) decides.
    double l = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF();
    return l > 0.55 ? QColor(Qt::black) : QColor(Qt::white);
}

}  // namespace lockscope::ui
