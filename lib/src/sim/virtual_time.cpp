#include "lockscope/sim/virtual_time.h"

#include <cstdio>

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
    if (d < kSecond) return std::to_string(d) + " ms";
    if (d % kSecond == 0) return std::to_string(d / kSecond) + " s";
    std::string s = formatVirtualTime(d);  // "1.500s"
    s.pop_back();
    while (s.back() == '0') s.pop_back();
    return s + " s";
}

}  // namespace lockscope::sim
