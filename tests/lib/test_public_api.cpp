// What the installed headers let a library user touch (issue 20, item 15): replies are read
// through Reply/ReplyView only — no hiredis type in any public header, no way to wrap a raw
// parser pointer — so the parser can change without breaking a user's build.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <type_traits>

#include "lockscope/reply.h"

using namespace lockscope;

static_assert(!std::is_constructible_v<Reply, detail::ReplyNode*>,
              "a user must not wrap a parser pointer into a Reply");
static_assert(!std::is_constructible_v<ReplyView, const detail::ReplyNode*>,
              "a user must not point a ReplyView at a parser pointer");
static_assert(std::is_nothrow_move_constructible_v<Reply>);
static_assert(!std::is_copy_constructible_v<Reply>);

TEST(PublicApi, NoPublicHeaderNamesAHiredisType) {
    namespace fs = std::filesystem;
    fs::path include = fs::path(LOCKSCOPE_SOURCE_DIR) / "lib" / "include";
    int headers = 0;
    for (const auto& entry : fs::recursive_directory_iterator(include)) {
        if (entry.path().extension() != ".h") continue;
        ++headers;
        std::ifstream file(entry.path());
        std::stringstream text;
        text << file.rdbuf();
        for (const char* name : {"redisReply", "redisContext", "redisReader", "<hiredis/"})
            EXPECT_EQ(text.str().find(name), std::string::npos)
                << entry.path() << " names " << name;
    }
    EXPECT_GT(headers, 10);
}

TEST(PublicApi, ADefaultReplyAndViewReadAsNil) {
    Reply reply;
    EXPECT_TRUE(reply.isNil());
    EXPECT_EQ(reply.text(), "");
    EXPECT_EQ(reply.integer(), 0);
    EXPECT_EQ(reply.size(), 0u);
    EXPECT_TRUE(reply[3].isNil()) << "an element past the end reads as nil";
    EXPECT_EQ(ReplyView().summary(), "(nil)");
    Reply moved = std::move(reply);
    EXPECT_TRUE(moved.isNil());
}
