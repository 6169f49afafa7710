#pragma once
// Small conversions between the simulator's std::string values and Qt text, shared by the
// teaching panel's views.

#include <QString>
#include <string>
#include <string_view>

#include "lockscope/sim/virtual_time.h"

namespace lockscope::ui {

inline QString qs(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

// "36.000s", as the CLI transcript prints it.
inline QString virtualTimeText(sim::VirtualMs t) {
    return qs(sim::formatVirtualTime(t));
}

}  // namespace lockscope::ui
