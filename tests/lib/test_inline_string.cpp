// InlineString keeps short text in place and longer text on the heap, and must read, copy,
// move and compare exactly like the std::string it replaces in a lock record, at the
// boundary between the two, with NULs and binary bytes inside, and when assigned its own text.

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <utility>

#include "lockscope/inline_string.h"

using lockscope::InlineString;
using Small = InlineString<32>;

namespace {
std::string binary(std::size_t n) {
    std::string s;
    for (std::size_t i = 0; i < n; ++i) s.push_back(static_cast<char>(i * 37 % 256));
    return s;
}
}  // namespace

TEST(InlineString, TakesNoMoreRoomThanItsBytes) {
    EXPECT_EQ(sizeof(InlineString<32>), 32u);
    EXPECT_EQ(sizeof(InlineString<48>), 48u);
    EXPECT_EQ(Small::kInlineCapacity, 27u);
}

TEST(InlineString, ReadsBackEveryLengthAroundTheInlineCapacity) {
    for (std::size_t n : {0u, 1u, 16u, 26u, 27u, 28u, 29u, 100u, 70000u}) {
        const std::string text = binary(n);
        const Small s(text);
        EXPECT_EQ(s.size(), n);
        EXPECT_EQ(s.view(), text) << n;
        EXPECT_EQ(std::string(s.c_str(), s.size()), text);
        EXPECT_EQ(s.c_str()[n], '\0') << "terminated like std::string at " << n;
        EXPECT_EQ(s.empty(), n == 0);
    }
}

TEST(InlineString, CopiesMovesAndSwapsAcrossInlineAndHeapText) {
    const std::string shortText = "lock:{job123456}", longText(200, 'x');
    Small a(shortText), b(longText);
    Small c(a), d(b);
    EXPECT_EQ(c, shortText);
    EXPECT_EQ(d, longText);
    EXPECT_NE(d.data(), b.data()) << "a copy has a heap block of its own";
    a.swap(b);
    EXPECT_EQ(a, longText);
    EXPECT_EQ(b, shortText);
    Small moved(std::move(a));
    EXPECT_EQ(moved, longText);
    EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): left empty, as documented
    b = std::move(moved);
    EXPECT_EQ(b, longText);
    b = shortText;
    EXPECT_EQ(b, shortText);
}

TEST(InlineString, AssigningItsOwnTextKeepsIt) {
    Small s(std::string(100, 'y'));
    s = s.view().substr(10);  // a view of its own heap block
    EXPECT_EQ(s, std::string(90, 'y'));
    s = s.view().substr(80);  // now short: back in place
    EXPECT_EQ(s, std::string(10, 'y'));
    const Small& same = s;
    s = same;  // self-assignment
    EXPECT_EQ(s, std::string(10, 'y'));
    s.assign(s.view().substr(2, 3));
    EXPECT_EQ(s, "yyy");
}

TEST(InlineString, ComparesOrdersAndSearchesAsStdString) {
    const Small a("lock:{a}"), b("lock:{b}"), longer(std::string(40, 'z'));
    EXPECT_LT(a, b);
    EXPECT_GT(longer, b);
    EXPECT_EQ(a, std::string("lock:{a}"));
    EXPECT_EQ(a, "lock:{a}");
    EXPECT_TRUE(a.starts_with("lock:"));
    EXPECT_TRUE(a.ends_with('}'));
    EXPECT_EQ(a.find('{'), 5u);
    EXPECT_EQ(a.substr(5, 3), "{a}");
    EXPECT_EQ("key " + a + "!", "key lock:{a}!");
    std::map<std::string, int> byName{{"lock:{a}", 1}};
    EXPECT_EQ(byName.at(a), 1);
    std::ostringstream out;
    out << longer;
    EXPECT_EQ(out.str(), std::string(40, 'z'));
    EXPECT_EQ(std::hash<Small>{}(a), std::hash<std::string_view>{}("lock:{a}"));
}
