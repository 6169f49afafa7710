// A record's hash fields: one pointer while there are none (most locks are strings), a deep
// copy in a copied record (a view's record never shares them with the table's), and the
// reads of the vector it replaced.

#include <gtest/gtest.h>

#include <vector>

#include "lockscope/inspect/lock_record.h"

using lockscope::inspect::HashField;
using lockscope::inspect::HashFields;
using lockscope::inspect::LockRecord;

TEST(HashFields, TakeAPointerAndNoHeapWhileEmpty) {
    EXPECT_EQ(sizeof(HashFields), sizeof(void*));
    HashFields none;
    EXPECT_TRUE(none.empty());
    EXPECT_EQ(none.size(), 0u);
    EXPECT_EQ(none.begin(), none.end());
    const std::vector<HashField>& asVector = none;
    EXPECT_TRUE(asVector.empty());
}

TEST(HashFields, CopiesAreDeepAndCompareByContent) {
    LockRecord a;
    a.fields.push_back({"4f1c:1", "2"});
    a.fields.emplace_back(HashField{"mode", "write"});
    LockRecord b = a;
    EXPECT_EQ(b.fields, a.fields);
    b.fields[0].value = "3";
    EXPECT_EQ(a.fields[0].value, "2") << "the copy shares nothing";
    EXPECT_FALSE(b.fields == a.fields);
    b.fields = std::vector<HashField>{};
    EXPECT_TRUE(b.fields.empty());
    b.fields.swap(a.fields);
    EXPECT_EQ(b.fields.size(), 2u);
    EXPECT_TRUE(a.fields.empty());
    b.fields.clear();
    EXPECT_EQ(b.fields, a.fields);
}
