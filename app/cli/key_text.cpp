#include "key_text.h"

#include "cli_command.h"

namespace lockscope::cli {
namespace {

int hexDigit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

std::string fromHex(std::string_view hex, const std::string& what) {
    if (hex.size() % 2 != 0)
        throw UsageError(what + " takes hex digits in pairs (one pair per byte)");
    std::string out;
    out.reserve(hex.size() / 2);
    for (std::size_t i = 0; i < hex.size(); i += 2) {
        int hi = hexDigit(hex[i]), lo = hexDigit(hex[i + 1]);
        if (hi < 0 || lo < 0)
            throw UsageError(what + " takes hex digits only (0-9, a-f), at position " +
                             std::to_string(i + 1));
        out += static_cast<char>(hi * 16 + lo);
    }
    return out;
}

std::string fromEscaped(std::string_view text, const std::string& what) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\\') {
            out += text[i];
            continue;
        }
        if (i + 3 >= text.size() || text[i + 1] != 'x' || hexDigit(text[i + 2]) < 0 ||
            hexDigit(text[i + 3]) < 0)
            throw UsageError(what + ": a backslash must start \\xNN (write a backslash as \\x5c)");
        out += static_cast<char>(hexDigit(text[i + 2]) * 16 + hexDigit(text[i + 3]));
        i += 3;
    }
    return out;
}

}  // namespace lockscope::cli
