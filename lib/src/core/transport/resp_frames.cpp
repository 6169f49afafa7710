#include "resp_frames.h"

#include <algorithm>
#include <charconv>
#include <cstring>

namespace lockscope::transport {
namespace {

// A header line longer than this is no RESP header (the longest is "*" and 20 digits).
constexpr std::size_t kMaxHeaderLine = 64;

bool isLineType(char t) {
    return t == '+' || t == '-' || t == ':' || t == '_' || t == '#' || t == ',' || t == '(';
}
bool isBulkType(char t) {
    return t == '$' || t == '!' || t == '=';
}
bool isAggregateType(char t) {
    return t == '*' || t == '~' || t == '>' || t == '%';
}

}  // namespace

void RespFrames::reset() {
    line_.clear();
    bulkLeft_ = 0;
    open_.clear();
    failed_.reset();
}

// One element ended: it fills a slot of the innermost open aggregate, which may end in turn.
void RespFrames::completeElement(std::size_t& completed) {
    while (!open_.empty()) {
        if (--open_.back() > 0) return;
        open_.pop_back();
    }
    ++completed;
}

// Judges a whole header line (its type byte first).
std::optional<std::string> RespFrames::takeLine(std::size_t& completed) {
    const char type = line_.empty() ? '\0' : line_[0];
    if (isLineType(type)) {
        line_.clear();
        completeElement(completed);
        return std::nullopt;
    }
    if (!isBulkType(type) && !isAggregateType(type))
        return "a reply starts with the byte " + std::to_string(static_cast<unsigned char>(type));
    std::int64_t length = 0;
    const char* first = line_.data() + 1;
    const char* last = line_.data() + line_.size();
    auto [end, ec] = std::from_chars(first, last, length);
    if (ec != std::errc() || end != last || length < -1)
        return "a malformed length \"" + line_.substr(1, 24) + "\"";
    const RespHeader header{type, length, open_.size()};
    line_.clear();
    if (check_)
        if (auto refused = check_(header)) return refused;
    if (length <= 0) {  // nil or empty: nothing follows
        if (isBulkType(type) && length == 0) {
            bulkLeft_ = 2;  // the empty payload's CR LF
            return std::nullopt;
        }
        completeElement(completed);
        return std::nullopt;
    }
    if (isBulkType(type)) {
        bulkLeft_ = length + 2;
        return std::nullopt;
    }
    open_.push_back(type == '%' ? length * 2 : length);
    return std::nullopt;
}

std::optional<std::string> RespFrames::feed(const char* data, std::size_t size,
                                            std::vector<std::size_t>* ends) {
    if (failed_) return failed_;
    std::size_t at = 0;
    while (at < size) {
        std::size_t completed = 0;
        if (bulkLeft_ > 0) {
            const auto skip = static_cast<std::size_t>(
                std::min<std::int64_t>(bulkLeft_, static_cast<std::int64_t>(size - at)));
            at += skip;
            bulkLeft_ -= static_cast<std::int64_t>(skip);
            if (bulkLeft_ == 0) completeElement(completed);
        } else {
            const void* found = std::memchr(data + at, '\n', size - at);
            const std::size_t stop =
                found ? static_cast<std::size_t>(static_cast<const char*>(found) - data) : size;
            // A status or error line is skipped, not kept: only its type byte matters here.
            const bool skipping = !line_.empty() && isLineType(line_[0]);
            if (!skipping) {
                const std::size_t keep = line_.empty() && at < stop && isLineType(data[at])
                                             ? 1
                                             : std::min(stop - at, kMaxHeaderLine + 2);
                line_.append(data + at, keep);
            }
            at = found ? stop + 1 : size;
            if (line_.size() > kMaxHeaderLine + 1)
                failed_ = "a header line longer than " + std::to_string(kMaxHeaderLine) + " bytes";
            if (!failed_ && found) {
                if (!line_.empty() && line_.back() == '\r') line_.pop_back();
                failed_ = takeLine(completed);
            }
            if (failed_) return failed_;
        }
        if (ends)
            for (std::size_t i = 0; i < completed; ++i) ends->push_back(at);
    }
    return std::nullopt;
}

}  // namespace lockscope::transport
