#pragma once
// Putting Redis bytes into JSON: valid UTF-8 goes in as is, anything else as printable()
// escapes (\xNN), and the caller marks the field as escaped. Internal to lockscope_inspect.

#include <string>
#include <string_view>

namespace lockscope::inspect {

bool isValidUtf8(std::string_view bytes);
// bytes when valid UTF-8, else the \xNN-escaped form; escaped tells which.
std::string jsonSafe(std::string_view bytes, bool* escaped = nullptr);

}  // namespace lockscope::inspect
