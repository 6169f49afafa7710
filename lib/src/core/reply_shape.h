#pragma once
// What a reply to a command must look like, in one place: PTTL answers an integer, GET a
// string or nil, MGET an array of exactly one string-or-nil per key, SCAN a [cursor, keys]
// pair... A reply of another shape (a nil for PTTL, three values for MGET of two keys, an
// integer among SCAN's keys) is not an answer to that command: the connection reports it
// as a MalformedReplyError and drops the socket, so no such reply is ever read as data and
// the replies after it cannot be taken for the answers of other commands. Error replies fit
// every command (the caller judges them). Commands not listed here (EVAL, writes) are not
// checked. Internal to lockscope_core.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "lockscope/reply.h"

namespace lockscope {

struct ReplyShape {
    enum class Kind : std::uint8_t {
        Any,        // not checked
        Integer,    // PTTL, TTL, HLEN, EXISTS, DBSIZE...
        TextOrNil,  // GET
        Text,       // INFO, ECHO
        Status,     // TYPE
        Values,     // MGET: `count` strings or nils
        ScanPage,   // SCAN, SSCAN: [digits, [strings]]
        PairsPage,  // HSCAN, ZSCAN: [digits, [strings, an even count]]
        Pairs,      // HGETALL: [strings, an even count]
    };
    Kind kind = Kind::Any;
    std::uint32_t count = 0;     // Values: the number of keys asked for
    const char* name = nullptr;  // the command ("PTTL"), for messages; null when Any
};

ReplyShape replyShapeOf(std::span<const std::string_view> argv);

// nullopt when the reply fits; else what came instead, for the error message
// ("(nil) where an integer was expected").
std::optional<std::string> misfit(const ReplyShape& shape, const Reply& reply);

}  // namespace lockscope
