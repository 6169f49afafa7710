// The one EDN string writer (lockscope/edn_string.h) under the Jepsen history and the torture
// history: quotes, backslashes, newlines, control characters, binary and non-UTF-8 bytes all
// come out as a valid EDN string in valid UTF-8 from which every byte reads back. Before it,
// the stories' history threw on a non-UTF-8 key and the torture history wrote raw control
// bytes.

#include <gtest/gtest.h>

#include <string>

#include "lockscope/edn_string.h"
#include "lockscope/sim/jepsen_history.h"

using namespace lockscope;

namespace {

// Reads an EDN string literal back (the escapes ednString writes; \u00XX below 0x100 as the
// byte, the rest as UTF-8): what a Clojure reader would see, byte for byte.
std::string readBack(const std::string& literal) {
    EXPECT_GE(literal.size(), 2u);
    EXPECT_EQ(literal.front(), '"');
    EXPECT_EQ(literal.back(), '"');
    std::string out;
    for (std::size_t i = 1; i + 1 < literal.size(); ++i) {
        if (literal[i] != '\\') {
            EXPECT_NE(literal[i], '"') << "an unescaped quote at " << i;
            out += literal[i];
            continue;
        }
        const char e = literal[++i];
        if (e == 'n')
            out += '\n';
        else if (e == 't')
            out += '\t';
        else if (e == 'r')
            out += '\r';
        else if (e == '"' || e == '\\')
            out += e;
        else if (e == 'u') {
            out += static_cast<char>(std::stoi(literal.substr(i + 1, 4), nullptr, 16));
            i += 4;
        } else {
            ADD_FAILURE() << "unknown escape \\" << e;
        }
    }
    return out;
}

bool validUtf8(const std::string& s) {
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        const int n = c < 0x80         ? 1
                      : (c >> 5) == 6  ? 2
                      : (c >> 4) == 14 ? 3
                      : (c >> 3) == 30 ? 4
                                       : 0;
        if (n == 0 || i + n > s.size()) return false;
        for (int k = 1; k < n; ++k)
            if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
        i += n;
    }
    return true;
}

}  // namespace

TEST(EdnString, QuotesBackslashesAndNewlinesAreEscaped) {
    EXPECT_EQ(ednString("lock:{report}"), "\"lock:{report}\"");
    EXPECT_EQ(ednString("say \"hi\"\\now\n"), "\"say \\\"hi\\\"\\\\now\\n\"");
    EXPECT_EQ(ednString(""), "\"\"");
    EXPECT_EQ(ednString(std::string("\0\x01\x7f\t\r", 5)), "\"\\u0000\\u0001\\u007F\\t\\r\"");
}

TEST(EdnString, Utf8StaysAndInvalidBytesBecomeEscapes) {
    EXPECT_EQ(ednString("Zähler ✓"), "\"Zähler ✓\"");
    EXPECT_EQ(ednString("\xff\xfe"), "\"\\u00FF\\u00FE\"");
    EXPECT_EQ(ednString("\xc3"), "\"\\u00C3\"");                        // a cut sequence
    EXPECT_EQ(ednString("\xc0\xaf"), "\"\\u00C0\\u00AF\"");             // an overlong '/'
    EXPECT_EQ(ednString("\xed\xa0\x80"), "\"\\u00ED\\u00A0\\u0080\"");  // a surrogate
}

TEST(EdnString, EveryByteValueReadsBackFromValidUtf8) {
    std::string all;
    for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
    const std::string binary = all + "\"\\\n" + all;
    const std::string literal = ednString(binary);
    EXPECT_TRUE(validUtf8(literal));
    EXPECT_EQ(readBack(literal), binary);
    const std::string huge(1 << 20, '"');
    EXPECT_EQ(ednString(huge).size(), 2 * huge.size() + 2);
}

TEST(EdnString, BothHistoriesWriteABinaryKeyAsValidEdn) {
    const std::string key("lock:\xff\"\n\x01", 9);
    std::vector<sim::HistoryOp> ops = {{sim::HistoryType::Invoke, 0, "acquire", 0, 0, key, "a\\b"}};
    const std::string edn = sim::historyToEdn(ops);  // threw on the \xff before
    EXPECT_TRUE(validUtf8(edn));
    EXPECT_NE(edn.find(":key " + ednString(key)), std::string::npos) << edn;
    EXPECT_NE(edn.find(":actor \"a\\\\b\""), std::string::npos) << edn;
}
