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
    return std::all_of(value.begin(), value.end(), [](char c) {
        auto u = static_cast<unsigned char>(c);
        return u > 0x20 && u < 0x7f;
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
