#include "json_text.h"

#include <cstdint>

#include "lockscope/text_format.h"

namespace lockscope::inspect {

bool isValidUtf8(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size()) {
        auto c = static_cast<unsigned char>(s[i]);
        std::size_t extra = c < 0x80           ? 0
                            : (c >> 5) == 0x6  ? 1
                            : (c >> 4) == 0xe  ? 2
                            : (c >> 3) == 0x1e ? 3
                                               : 4;
        if (extra == 4 || s.size() - i <= extra) return false;
        std::uint32_t cp = extra == 0 ? c : c & (0x3fu >> extra);
        for (std::size_t k = 1; k <= extra; ++k) {
            auto d = static_cast<unsigned char>(s[i + k]);
            if ((d & 0xc0) != 0x80) return false;
            cp = (cp << 6) | (d & 0x3f);
        }
        if ((extra == 1 && cp < 0x80) || (extra == 2 && cp < 0x800) ||
            (extra == 3 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
            return false;
        i += extra + 1;
    }
    return true;
}

std::string jsonSafe(std::string_view bytes, bool* escaped) {
    bool ok = isValidUtf8(bytes);
    if (escaped) *escaped = !ok;
    return ok ? std::string(bytes) : printable(bytes, bytes.size());
}

}  // namespace lockscope::inspect
