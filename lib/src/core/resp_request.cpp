#include "resp_request.h"

#include <charconv>

namespace lockscope {

namespace {

void appendHeader(std::string& out, char prefix, std::size_t n) {
    char digits[24];
    auto [end, ec] = std::to_chars(digits, digits + sizeof digits, n);
    (void)ec;  // 24 characters hold any size_t
    out += prefix;
    out.append(digits, end);
    out += "\r\n";
}

}  // namespace

void appendRespRequest(std::string& out, std::span<const std::string_view> argv) {
    appendHeader(out, '*', argv.size());
    for (std::string_view arg : argv) {
        appendHeader(out, '$', arg.size());
        out.append(arg);
        out += "\r\n";
    }
}

}  // namespace lockscope
