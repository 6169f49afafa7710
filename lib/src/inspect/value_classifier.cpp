#include "lockscope/inspect/value_classifier.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "formats/library_shapes.h"

namespace lockscope::inspect {
namespace {

constexpr std::array<std::string_view, 3> kRedissonPrefixes = {
    "redisson_lock_queue:", "redisson_lock_timeout:", "redisson_lock_token:"};

// Values people use when they do not think about ownership.
constexpr std::array<std::string_view, 6> kFixedValues = {"1",    "true", "locked",
                                                          "lock", "yes",  "x"};

bool isLowerHexChar(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}
bool isHexChar(char c) {
    return isLowerHexChar(c) || (c >= 'A' && c <= 'F');
}

// The first non-empty {...} per the Redis Cluster hash tag rule.
std::optional<std::pair<std::size_t, std::size_t>> hashTag(std::string_view key) {
    auto open = key.find('{');
    if (open == std::string_view::npos) return std::nullopt;
    auto close = key.find('}', open + 1);
    if (close == std::string_view::npos || close == open + 1) return std::nullopt;
    return std::make_pair(open + 1, close - open - 1);
}

}  // namespace

std::pair<std::size_t, std::size_t> resourceSpan(std::string_view key, const KeyLayout& layout) {
    if (auto tag = hashTag(key)) return *tag;
    if (auto span = formats::libraryResourceSpan(key)) return *span;
    for (auto prefix : kRedissonPrefixes)
        if (key.starts_with(prefix)) return {prefix.size(), key.size() - prefix.size()};
    if (!layout.lockPrefix.empty() && key.starts_with(layout.lockPrefix) &&
        key.size() > layout.lockPrefix.size())
        return {layout.lockPrefix.size(), key.size() - layout.lockPrefix.size()};
    return {0, key.size()};
}

std::optional<std::string> fenceKeyFor(std::string_view key, const KeyLayout& layout) {
    if (layout.lockPrefix.empty() || !key.starts_with(layout.lockPrefix)) return std::nullopt;
    return layout.fencePrefix + std::string(key.substr(layout.lockPrefix.size()));
}

bool isHex(std::string_view s, std::size_t length) {
    return s.size() == length && std::all_of(s.begin(), s.end(), isLowerHexChar);
}

bool isUuid1Hex(std::string_view s) {
    // uuid1().hex: time_low(8) time_mid(4) time_hi_and_version(4) clock_seq(4) node(12).
    return isHex(s, 32) && s[12] == '1' &&
           (s[16] == '8' || s[16] == '9' || s[16] == 'a' || s[16] == 'b');
}

bool isDashedUuid(std::string_view s) {
    if (s.size() != 36) return false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? s[i] != '-' : !isHexChar(s[i])) return false;
    }
    return true;
}

bool isBase64Of16Bytes(std::string_view s) {
    if (s.size() != 24 || !s.ends_with("==")) return false;
    auto body = s.substr(0, 22);
    bool ok = std::all_of(body.begin(), body.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/' || c == '-' ||
               c == '_';
    });
    // 16 bytes leave 4 spare bits in the last character: it is one of AQgw (or URL-safe same).
    return ok && std::string_view("AQgw").find(body.back()) != std::string_view::npos;
}

bool isAlnum(std::string_view s, std::size_t length) {
    return s.size() == length && std::all_of(s.begin(), s.end(), [](char c) {
               return std::isalnum(static_cast<unsigned char>(c)) != 0;
           });
}

bool isRedissonHolderField(std::string_view field) {
    auto colon = field.rfind(':');
    if (colon == std::string_view::npos || colon + 1 >= field.size()) return false;
    auto thread = field.substr(colon + 1);
    return isDashedUuid(field.substr(0, colon)) &&
           std::all_of(thread.begin(), thread.end(), [](char c) { return c >= '0' && c <= '9'; });
}

LockKind classifyString(std::string_view key, std::string_view value, bool hasFence,
                        const KeyLayout& layout) {
    if (key.starts_with("redisson_lock_token:")) return LockKind::RedissonFenceToken;
    if (auto kind = formats::stringKindByShape(key, value)) return *kind;
    if (std::find(kFixedValues.begin(), kFixedValues.end(), value) != kFixedValues.end())
        return LockKind::FixedValue;
    bool guideKey = !layout.lockPrefix.empty() && key.starts_with(layout.lockPrefix) &&
                    hashTag(key).has_value();
    if (guideKey && hasFence) return LockKind::Guide;
    if (isUuid1Hex(value)) return LockKind::RedisPy;
    if (isHex(value, 32)) return guideKey ? LockKind::Guide : LockKind::NodeRedlock;
    if (isBase64Of16Bytes(value)) return LockKind::Redsync;
    if (isAlnum(value, 20)) return LockKind::RedisPlusPlus;
    if (isDashedUuid(value)) return guideKey ? LockKind::Guide : LockKind::Uuid;
    return LockKind::Unknown;
}

LockKind classifyHash(std::string_view key, const std::vector<HashField>& fields) {
    if (auto kind = formats::hashKindByShape(key, fields)) return *kind;
    if (fields.empty()) return LockKind::Unknown;
    bool redisson = std::all_of(fields.begin(), fields.end(), [](const HashField& f) {
        return isRedissonHolderField(f.field) && !f.value.empty() &&
               std::all_of(f.value.begin(), f.value.end(),
                           [](char c) { return c >= '0' && c <= '9'; });
    });
    return redisson ? LockKind::RedissonLock : LockKind::Unknown;
}

LockKind classifyOther(std::string_view key, ValueType type) {
    if (auto kind = formats::otherKindByShape(key, type)) return *kind;
    if (type == ValueType::List && key.starts_with("redisson_lock_queue:"))
        return LockKind::RedissonFairQueue;
    if (type == ValueType::ZSet && key.starts_with("redisson_lock_timeout:"))
        return LockKind::RedissonFairTimeout;
    return LockKind::NotALock;
}

ValueType valueTypeFromName(std::string_view t) {
    if (t == "string") return ValueType::String;
    if (t == "hash") return ValueType::Hash;
    if (t == "list") return ValueType::List;
    if (t == "zset") return ValueType::ZSet;
    if (t == "set") return ValueType::Set;
    if (t == "stream") return ValueType::Stream;
    return ValueType::Other;
}

}  // namespace lockscope::inspect
