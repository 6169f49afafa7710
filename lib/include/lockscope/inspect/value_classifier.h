#pragma once
// Tells which client wrote a lock from its key and value shape (DESIGN.md lists the
// formats), and where its resource name and fence counter are. Pure functions: no I/O.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lockscope/inspect/lock_record.h"

namespace lockscope::inspect {

struct KeyLayout {
    std::string lockPrefix = "lock:";    // the guide's lock:{name}
    std::string fencePrefix = "fence:";  // ... and its counter fence:{name}
};

// The resource inside the key: the first non-empty {hash tag}, else the key without a
// known prefix ("lock:", the Redisson fair-lock and token prefixes), else the whole key.
// Returned as (offset, length) into key.
std::pair<std::size_t, std::size_t> resourceSpan(std::string_view key,
                                                 const KeyLayout& layout = {});

// fence:<rest> for lock:<rest>; nullopt for keys without the lock prefix.
std::optional<std::string> fenceKeyFor(std::string_view key, const KeyLayout& layout = {});

// A string lock value. hasFence: a fence counter sits beside the key.
LockKind classifyString(std::string_view key, std::string_view value, bool hasFence,
                        const KeyLayout& layout = {});
LockKind classifyHash(std::string_view key, const std::vector<HashField>& fields);
// Lists, sets, zsets, streams: Redisson's fair-lock keys, or no lock at all.
LockKind classifyOther(std::string_view key, ValueType type);

ValueType valueTypeFromName(std::string_view typeReply);  // "string", "hash", ...

// Format predicates, exposed for tests and tooltips.
bool isHex(std::string_view s, std::size_t length);
bool isUuid1Hex(std::string_view s);  // 32 lowercase hex, version nibble 1, RFC 4122 variant
bool isDashedUuid(std::string_view s);
bool isBase64Of16Bytes(std::string_view s);
bool isAlnum(std::string_view s, std::size_t length);
bool isRedissonHolderField(std::string_view field);  // "<uuid>:<threadId>"

}  // namespace lockscope::inspect
