// Bad import files: refused whole with a reason when the file itself is wrong, entry by entry
// when only some entries are, never a crash, and never a secret in a message.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "lockscope/errors.h"
#include "lockscope/fleet/connection_import.h"

using namespace lockscope;
using namespace lockscope::fleet;

namespace {

std::string refusal(const std::string& contents) {
    try {
        importConnections(contents);
    } catch (const InvalidArgumentError& e) {
        return e.what();
    }
    return "(accepted)";
}

const ImportEntry& onlyEntry(const ImportReport& report) {
    EXPECT_EQ(report.entries.size(), 1U);
    return report.entries.front();
}

std::string notes(const ImportEntry& entry) {
    std::string all;
    for (const auto& n : entry.notes) all += n + "\n";
    return all;
}

}  // namespace

TEST(ImportHostile, WholeFileRefusalsSayWhy) {
    EXPECT_NE(refusal("").find("empty"), std::string::npos);
    EXPECT_NE(refusal(" \n\t\n").find("empty"), std::string::npos);
    EXPECT_NE(refusal(std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16)).find("binary"),
              std::string::npos);
    EXPECT_NE(refusal(std::string(kMaxImportBytes + 1, ' ')).find("at most"), std::string::npos);
    EXPECT_NE(refusal(R"([{"host": "a",)").find("not valid JSON"), std::string::npos);
    EXPECT_NE(refusal(R"({"servers": []})").find("without a list of connections"),
              std::string::npos);
    EXPECT_NE(refusal("[]").find("no connections"), std::string::npos);
    EXPECT_NE(refusal("QUJDRA==").find("base64, but not of a JSON"), std::string::npos);
    EXPECT_NE(refusal("my redis servers are\ncache and queue\n").find("neither JSON"),
              std::string::npos);
}

TEST(ImportHostile, RandomBytesAreRefusedNotCrashedOn) {
    std::mt19937 random(7);  // NOLINT(cert-msc32-c,cert-msc51-cpp): repeatable junk on purpose
    for (int round = 0; round < 200; ++round) {
        std::string junk(static_cast<std::size_t>(random() % 4096), '\0');
        for (auto& c : junk) c = static_cast<char>(random());
        EXPECT_NO_THROW({
            try {
                importConnections(junk);
            } catch (const InvalidArgumentError&) {
            }
        }) << "round "
           << round;
    }
}

TEST(ImportHostile, DeeplyNestedJsonIsReadWithoutOverflowingTheStack) {
    // 200,000 levels: a recursive reader would overflow the stack here. A list of lists is
    // one entry that is not a connection.
    auto report = importConnections(std::string(200'000, '[') + std::string(200'000, ']'));
    EXPECT_EQ(onlyEntry(report).status, EntryStatus::Failed);
    EXPECT_NE(notes(onlyEntry(report)).find("not an object"), std::string::npos);
}

TEST(ImportHostile, BadEntriesFailAloneWithTheirReason) {
    auto report = importConnections(R"([
      {"host": "ok", "port": 6379},
      {"host": "a\u0000b", "port": 6379},
      {"host": "c", "port": 70000},
      {"host": "d", "port": "sixty"},
      {"host": "e", "port": {"nested": true}},
      {"host": "f", "db": -1},
      {"port": 6379},
      {"host": "g h"},
      42,
      "redis://in-a-json-string",
      {"host": "s", "connectionType": "SENTINEL"},
      {"host": {"evil": 1}}
    ])");
    ASSERT_EQ(report.entries.size(), 12U);
    EXPECT_EQ(report.entries[0].status, EntryStatus::Imported);
    for (std::size_t i = 1; i < report.entries.size(); ++i) {
        EXPECT_EQ(report.entries[i].status, EntryStatus::Failed)
            << i << ": " << notes(report.entries[i]);
        EXPECT_FALSE(report.entries[i].notes.empty())
            << "entry " << i << " failed without a reason";
        EXPECT_EQ(report.entries[i].position, i + 1);
    }
    EXPECT_NE(notes(report.entries[1]).find("control characters"), std::string::npos);
    EXPECT_NE(notes(report.entries[2]).find("from 1 to 65535"), std::string::npos);
    EXPECT_NE(notes(report.entries[6]).find("host is missing"), std::string::npos);
    EXPECT_NE(notes(report.entries[8]).find("not an object"), std::string::npos);
    EXPECT_NE(notes(report.entries[10]).find("Sentinel service name is missing"),
              std::string::npos);
}

TEST(ImportHostile, UnknownFieldsAreNamedAndHugeTextIsLeftOut) {
    std::string hugeName(100'000, 'n');
    auto report = importConnections(R"([{"host": "a", "port": 1, "flavour": "x", "colour": 3,
                                          "name": ")" +
                                    hugeName + R"("}])");
    const auto& entry = onlyEntry(report);
    EXPECT_EQ(entry.status, EntryStatus::ImportedWithNotes);
    EXPECT_NE(notes(entry).find("flavour"), std::string::npos);
    EXPECT_NE(notes(entry).find("name is longer than 200"), std::string::npos);
    EXPECT_EQ(entry.connection->name, "a:1") << "the huge name is not used";
}

TEST(ImportHostile, NoMessageEverEchoesAPassword) {
    const std::string secret = "hunter2-do-not-print";
    auto report = importConnections("redis://u:" + secret + "@bad host:1\nredis://u:" + secret +
                                    "@h:99999\n");
    for (const auto& entry : report.entries) {
        EXPECT_EQ(entry.status, EntryStatus::Failed);
        EXPECT_EQ(notes(entry).find(secret), std::string::npos) << notes(entry);
    }
    auto json =
        importConnections(R"([{"host": "h", "port": "x", "password": ")" + secret + R"("}])");
    EXPECT_EQ(notes(onlyEntry(json)).find(secret), std::string::npos);
}
