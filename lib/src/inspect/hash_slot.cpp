#include "lockscope/inspect/hash_slot.h"

namespace lockscope::inspect {

std::uint16_t crc16(std::string_view bytes) {
    std::uint16_t crc = 0;
    for (unsigned char b : bytes) {
        crc ^= static_cast<std::uint16_t>(b) << 8;
        for (int i = 0; i < 8; ++i)
            crc = static_cast<std::uint16_t>((crc & 0x8000) ? (crc << 1) ^ 0x1021 : crc << 1);
    }
    return crc;
}

std::uint16_t keyHashSlot(std::string_view key) {
    auto open = key.find('{');
    if (open != std::string_view::npos) {
        auto close = key.find('}', open + 1);
        if (close != std::string_view::npos && close != open + 1)
            key = key.substr(open + 1, close - open - 1);
    }
    return static_cast<std::uint16_t>(crc16(key) & 16383);
}

}  // namespace lockscope::inspect
