#include "reply_shape.h"

#include <algorithm>
#include <cctype>

namespace lockscope {
namespace {

using Kind = ReplyShape::Kind;

bool sameName(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::toupper(static_cast<unsigned char>(x)) == y;
           });
}

struct Entry {
    std::string_view name;
    Kind kind;
};

// The reads of the inspector, the watch and the lock library. Writes and scripts answer in
// too many ways to be worth a rule here.
constexpr Entry kShapes[] = {
    {"PTTL", Kind::Integer},    {"TTL", Kind::Integer},     {"HLEN", Kind::Integer},
    {"EXISTS", Kind::Integer},  {"DBSIZE", Kind::Integer},  {"STRLEN", Kind::Integer},
    {"LLEN", Kind::Integer},    {"SCARD", Kind::Integer},   {"ZCARD", Kind::Integer},
    {"GET", Kind::TextOrNil},   {"INFO", Kind::Text},       {"TYPE", Kind::Status},
    {"MGET", Kind::Values},     {"SCAN", Kind::ScanPage},   {"SSCAN", Kind::ScanPage},
    {"HSCAN", Kind::PairsPage}, {"ZSCAN", Kind::PairsPage}, {"HGETALL", Kind::Pairs},
};

std::string describe(ReplyView v) {
    return v.summary(24);
}

bool isCursor(ReplyView v) {
    auto t = v.text();
    return v.isString() && !t.empty() && t.size() <= 20 &&
           std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// An array of strings (no nils, no integers, no nesting), an even count when `pairs`.
std::optional<std::string> misfitStrings(ReplyView v, bool pairs, std::string_view what) {
    if (!v.isArray()) return describe(v) + " where " + std::string(what) + " was expected";
    if (pairs && v.size() % 2 != 0)
        return "an odd number (" + std::to_string(v.size()) + ") of fields and values";
    for (std::size_t i = 0; i < v.size(); ++i)
        if (!v[i].isString())
            return describe(v[i]) + " as element " + std::to_string(i + 1) + " of " +
                   std::string(what);
    return std::nullopt;
}

std::optional<std::string> misfitPage(ReplyView v, bool pairs) {
    if (!v.isArray() || v.size() != 2 || !isCursor(v[0]))
        return describe(v) + " where a page [cursor, elements] was expected";
    return misfitStrings(v[1], pairs, "the page's elements");
}

std::optional<std::string> misfitValues(ReplyView v, std::uint32_t count) {
    if (!v.isArray()) return describe(v) + " where an array of values was expected";
    if (v.size() != count)
        return std::to_string(v.size()) + " values for " + std::to_string(count) + " keys";
    for (std::size_t i = 0; i < v.size(); ++i)
        if (!v[i].isString() && !v[i].isNil())
            return describe(v[i]) + " as value " + std::to_string(i + 1) +
                   " (a string or nil was expected)";
    return std::nullopt;
}

}  // namespace

ReplyShape replyShapeOf(std::span<const std::string_view> argv) {
    if (argv.empty()) return {};
    for (const Entry& e : kShapes)
        if (sameName(argv[0], e.name))
            return {e.kind,
                    e.kind == Kind::Values ? static_cast<std::uint32_t>(argv.size() - 1) : 0u,
                    e.name.data()};
    return {};
}

std::optional<std::string> misfit(const ReplyShape& shape, const Reply& reply) {
    const ReplyView v = reply.view();
    if (shape.kind == Kind::Any || v.isError()) return std::nullopt;
    switch (shape.kind) {
        case Kind::Integer:
            if (v.isInteger()) return std::nullopt;
            return describe(v) + " where an integer was expected";
        case Kind::TextOrNil:
            if (v.isString() || v.isNil()) return std::nullopt;
            return describe(v) + " where a string or nil was expected";
        case Kind::Text:
            if (v.isString()) return std::nullopt;
            return describe(v) + " where a string was expected";
        case Kind::Status:
            if (v.isStatus()) return std::nullopt;
            return describe(v) + " where a status was expected";
        case Kind::Values:
            return misfitValues(v, shape.count);
        case Kind::ScanPage:
            return misfitPage(v, false);
        case Kind::PairsPage:
            return misfitPage(v, true);
        case Kind::Pairs:
            return misfitStrings(v, true, "fields and values");
        case Kind::Any:
            break;
    }
    return std::nullopt;
}

}  // namespace lockscope
