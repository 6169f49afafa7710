// A lock key longer than the record's 16-bit resource span (64 KiB) still names its
// resource: the first 65535 bytes of the key, never an empty string.
#include <gtest/gtest.h>

#include "inspect_helpers.h"
#include "redis_fixture.h"

using namespace lockscope;
using lockscope::testing::findKey;
using lockscope::testing::RedisTest;
using lockscope::testing::scanAll;

TEST_F(RedisTest, AKeyPast64KiBKeepsItsResourceName) {
    Connection c = connect();
    const std::string key = "lock:" + std::string(70'000, 'r');
    c.command({"SET", key, "token-1", "PX", "60000"});
    auto records = scanAll(c);
    const auto* record = findKey(records, key);
    ASSERT_NE(record, nullptr);
    EXPECT_EQ(record->resource().size(), 0xffffu);
    EXPECT_EQ(record->resource(), std::string_view(key).substr(0, 0xffff));
}
