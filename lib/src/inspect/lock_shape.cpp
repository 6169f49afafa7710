#include "lockscope/inspect/lock_shape.h"

#include <algorithm>
#include <cctype>

namespace lockscope::inspect {

bool nameSaysLock(std::string_view key) {
    constexpr std::string_view kLock = "lock";
    auto it = std::search(key.begin(), key.end(), kLock.begin(), kLock.end(), [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) == b;
    });
    return it != key.end();
}

bool looksLikeToken(std::string_view value) {
    if (value.empty() || value.size() > 256) return false;
    // The characters of ids, hex, base64, UUIDs and host:time tokens; not the braces, quotes
    // and commas of a cached JSON document or the spaces of text.
    constexpr std::string_view kTokenPunctuation = "-_.:=+/@$#~";
    return std::all_of(value.begin(), value.end(), [&](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) ||
               kTokenPunctuation.find(c) != std::string_view::npos;
    });
}

bool isLockShaped(const LockRecord& r) {
    switch (r.kind) {
        case LockKind::NotALock:
            return false;
        case LockKind::FixedValue:
            return r.hasTtl() || nameSaysLock(r.key);
        case LockKind::Unknown:
            if (nameSaysLock(r.key)) return true;
            return r.type == ValueType::String && r.hasTtl() && looksLikeToken(r.token);
        default:
            return true;  // a format the classifier recognised
    }
}

}  // namespace lockscope::inspect
