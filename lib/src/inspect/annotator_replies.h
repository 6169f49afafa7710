#pragma once
// Reading one reply of the annotation pipeline: shared by its main and follow-up stages.
// Internal to lockscope_inspect.

#include <charconv>
#include <cstdint>
#include <optional>

#include "lockscope/reply.h"

namespace lockscope::inspect {

// The ACL refused this read: the annotator learns it once and reads another way.
inline bool isNoPerm(const Reply& r) {
    return r.isError() && r.text().starts_with("NOPERM");
}

// A fencing counter's value, or nothing when the key is missing or not a whole number.
inline std::optional<std::int64_t> parseFence(ReplyView v) {
    if (!v.isString()) return std::nullopt;
    auto t = v.text();
    std::int64_t n = 0;
    auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), n);
    if (t.empty() || ec != std::errc() || end != t.data() + t.size()) return std::nullopt;
    return n;
}

}  // namespace lockscope::inspect
