#include "lockscope/text_format.h"

#include <cstdio>

namespace lockscope {

std::string printable(std::string_view bytes, std::size_t maxChars) {
    std::string out;
    std::size_t shown = 0;
    for (unsigned char c : bytes) {
        if (shown >= maxChars) {
            out += "…";
            break;
        }
        if (c >= 0x20 && c < 0x7f && c != '\\') {
            out += static_cast<char>(c);
        } else {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        }
        ++shown;
    }
    return out;
}

std::string quoted(std::string_view bytes, std::size_t maxChars) {
    std::string out = "\"" + printable(bytes, maxChars) + "\"";
    if (bytes.size() > maxChars) out += " (" + std::to_string(bytes.size()) + " B)";
    return out;
}

}  // namespace lockscope
