// What a lock costs the table (issue 37 item 7: the exporter's memory on 1M locks): a re-read
// that changes nothing keeps the record's own heap buffers (a moved-in one from each read
// scattered the heap), the table's key marks a record handed out without a byte of its own,
// and the record's fence and server name take 8 bytes where they took 16 each, meaning the
// same: every int64 is a fence, and a record keeps its server's name after the scan that
// named it is gone.
#include <gtest/gtest.h>

#include <climits>
#include <memory>
#include <optional>
#include <string>

#include "lockscope/inspect/lock_table.h"

using namespace lockscope::inspect;

namespace {

LockRecord lockOf(const std::string& key, const std::string& token) {
    LockRecord r;
    r.key = key;
    r.token = token;
    r.pttlMs = 30'000;
    r.observedAt = r.firstSeen = r.lastChange = SteadyClock::now();
    return r;
}

const std::string kKey = "lock:{a-key-longer-than-fifteen}";
const std::string kToken = "0f8fad5b-d9cb-469f-a165-70867728950e";

}  // namespace

TEST(LockTableMemory, AHolderReadAgainKeepsItsOwnBuffers) {
    LockTable table;
    LockRecord first = lockOf(kKey, kToken);
    first.fields = {{"a", "1"}, {"b", "2"}};
    table.observe(first);
    const LockRecord* kept = table.find(kKey);
    ASSERT_NE(kept, nullptr);
    const char* keyBuffer = kept->key.data();
    const char* tokenBuffer = kept->token.data();
    const HashField* fieldsBuffer = kept->fields.data();
    LockRecord again = first;  // the same holder read again: new buffers of equal text
    ASSERT_NE(again.token.data(), tokenBuffer);
    table.observe(std::move(again));
    ASSERT_EQ(table.find(kKey), kept);
    EXPECT_EQ(kept->key.data(), keyBuffer);
    EXPECT_EQ(kept->token.data(), tokenBuffer);
    EXPECT_EQ(kept->fields.data(), fieldsBuffer);
    EXPECT_EQ(kept->token, kToken);
    EXPECT_EQ(kept->fields, first.fields);
    // Another holder: its token, and the handoff counted.
    table.observe(lockOf(kKey, "another-holder-with-a-long-token-value"));
    EXPECT_EQ(table.find(kKey)->token, "another-holder-with-a-long-token-value");
    EXPECT_EQ(table.find(kKey)->handoffs, 1u);
    EXPECT_EQ(table.find(kKey)->key, kKey);
}

TEST(LockTableMemory, ARecordHandedOutIsNeverChangedAgain) {
    LockTable table;
    table.observe(lockOf(kKey, kToken));
    table.observe(lockOf("lock:other", kToken));
    const SharedLockRecord shown = table.share(kKey);
    ASSERT_NE(shown, nullptr);
    table.setFindings(kKey, 0x4);
    table.observe(lockOf(kKey, "the-next-holder"));
    EXPECT_EQ(shown->findings, 0u);
    EXPECT_EQ(shown->token, kToken);
    EXPECT_EQ(table.find(kKey)->findings, 0x4u);
    EXPECT_EQ(table.find(kKey)->token, "the-next-holder");
    // The key still finds it, in order, after the record under it was replaced.
    std::vector<std::string> keys;
    for (const auto& [key, entry] : table.records()) {
        EXPECT_EQ(key, entry->key);
        keys.emplace_back(key);
    }
    EXPECT_EQ(keys, (std::vector<std::string>{"lock:other", kKey}));
    // A record not handed out is changed in place.
    const LockRecord* other = table.find("lock:other");
    table.setFindings("lock:other", 0x2);
    EXPECT_EQ(table.find("lock:other"), other);
    EXPECT_EQ(other->findings, 0x2u);
    EXPECT_TRUE(table.remove(kKey));
    EXPECT_FALSE(table.remove(kKey));
    EXPECT_EQ(shown->key, kKey);  // the view's record outlives the table's
}

TEST(LockTableMemory, EveryNumberIsAFenceAndNoneIsNotZero) {
    LockRecord r;
    EXPECT_FALSE(r.fence);
    EXPECT_EQ(r.fence, std::nullopt);
    EXPECT_NE(r.fence, OptionalFence(0));
    r.fence = std::optional<std::int64_t>(INT64_MIN);
    ASSERT_TRUE(r.fence.has_value());
    EXPECT_EQ(*r.fence, INT64_MIN);
    EXPECT_NE(r.fence, std::nullopt);
    r.fence = 0;
    EXPECT_TRUE(r.fence);
    EXPECT_EQ(r.fence.value_or(-1), 0);
    r.fence = std::nullopt;
    EXPECT_EQ(r.fence.value_or(-1), -1);
    const std::optional<std::int64_t> read = r.fence;
    EXPECT_EQ(read, std::nullopt);
}

TEST(LockTableMemory, ARecordKeepsItsServersNameAfterTheScanIsGone) {
    LockRecord a, b;
    {
        auto name = std::make_shared<const std::string>("10.0.0.7:6379");
        a.instance = name;
    }
    b.instance = std::make_shared<const std::string>("10.0.0.7:6379");
    EXPECT_EQ(a.instanceName(), "10.0.0.7:6379");
    EXPECT_EQ(a.instance.get(), b.instance.get());  // one string for the server
    LockRecord none;
    EXPECT_FALSE(none.instance);
    EXPECT_EQ(none.instanceName(), "");
    none.instance = std::shared_ptr<const std::string>();
    EXPECT_FALSE(none.instance);
}
