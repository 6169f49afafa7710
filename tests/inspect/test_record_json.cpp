// A lock record as one JSON line: bytes that are not printable text are escaped (\xNN) and
// every escaped part says so, a Redisson hash's field names and values like keys and tokens.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "lockscope/inspect/lock_record.h"
#include "lockscope/inspect/record_json.h"

namespace lockscope::inspect {
namespace {

LockRecord hashLock(std::string field, std::string value) {
    LockRecord r;
    r.key = "lock:{invoice}";
    r.type = ValueType::Hash;
    r.fields.push_back({std::move(field), std::move(value)});
    return r;
}

TEST(RecordJson, EscapedHashFieldNamesAreMarkedAsKeysAre) {
    auto escaped = nlohmann::json::parse(
        toJsonLine(hashLock(std::string("c0ffee:\0\xff", 9), "1"), SteadyClock::now()));
    EXPECT_TRUE(escaped["token"].contains("c0ffee:\\x00\\xff")) << escaped.dump();
    EXPECT_EQ(escaped["token_escaped"], true);
    EXPECT_FALSE(escaped.contains("key_escaped"));

    auto binaryValue = nlohmann::json::parse(
        toJsonLine(hashLock("c0ffee:1", std::string("\xc3\x28", 2)), SteadyClock::now()));
    EXPECT_EQ(binaryValue["token"]["c0ffee:1"], "\\xc3(");  // invalid UTF-8
    EXPECT_EQ(binaryValue["token_escaped"], true);

    auto plain = nlohmann::json::parse(toJsonLine(hashLock("c0ffee:1", "1"), SteadyClock::now()));
    EXPECT_EQ(plain["token"]["c0ffee:1"], "1");
    EXPECT_FALSE(plain.contains("token_escaped"));
}

}  // namespace
}  // namespace lockscope::inspect
