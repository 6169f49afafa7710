#pragma once
// Showing arbitrary (possibly binary, possibly huge) Redis strings in one readable line.

#include <cstddef>
#include <string>
#include <string_view>

namespace lockscope {

// Non-printable bytes as \xNN, cut to at most maxChars visible characters with "…".
std::string printable(std::string_view bytes, std::size_t maxChars);

// printable() in double quotes, with the full byte size appended when it was cut.
std::string quoted(std::string_view bytes, std::size_t maxChars);

}  // namespace lockscope
