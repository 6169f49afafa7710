#pragma once
// Redis Cluster's key -> slot mapping (CRC16/XMODEM of the hash tag or key, mod 16384):
// a script may only touch keys of one slot, so a lock and its fence counter must share it.

#include <cstdint>
#include <string_view>

namespace lockscope::inspect {

std::uint16_t crc16(std::string_view bytes);
std::uint16_t keyHashSlot(std::string_view key);

}  // namespace lockscope::inspect
