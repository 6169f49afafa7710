#include "lockscope/sim/virtual_time.h"

#include <cstdio>

#include "lockscope/duration_text.h"

namespace lockscope::sim {

std::string formatVirtualTime(VirtualMs t) {
    char buffer[32];
    const char* sign = t < 0 ? "-" : "";
    VirtualMs a = t < 0 ? -t : t;
    std::snprintf(buffer, sizeof buffer, "%s%lld.%03llds", sign, static_cast<long long>(a / 1000),
                  static_cast<long long>(a % 1000));
    return buffer;
}

std::string formatDuration(VirtualMs d) {
    return lockscope::formatDuration(d, DurationPrecision::Exact);
}

}  // namespace lockscope::sim
