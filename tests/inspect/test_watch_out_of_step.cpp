// Issue 37 item 6: a reply the server sent twice (or one no request asked for) put the watch's
// stream out of step, and `watch` ended with "PTTL …: WRONGTYPE" (exit 1 after 0.5 s), naming
// the wrong cause. The read is a failed read instead: the connection is dropped, the watch
// reconnects and goes on, and no lock is ever shown with a value it does not hold.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>

#include "cli_runner.h"
#include "lockscope/proxy/loopback_proxy.h"

using namespace lockscope;
using namespace lockscope::testing;

namespace {

class WatchOutOfStep : public CliTest {
  protected:
    void SetUp() override {
        CliTest::SetUp();
        for (int i = 1; i <= 6; ++i) {
            const std::string n = "r" + std::to_string(i);
            observer().command({"SET", "lock:{" + n + "}", "tok-" + n, "PX", "540000"});
            observer().command({"SET", "fence:{" + n + "}", std::to_string(i)});
        }
    }

    static std::size_t addedLocks(const std::string& out) {
        std::istringstream in(out);
        std::string line;
        std::size_t n = 0;
        while (std::getline(in, line))
            n += nlohmann::json::parse(line, nullptr, false).value("event", "") == "added";
        return n;
    }

    // Every watch line that names a lock shows its real holder and fence.
    static std::string wrongLine(const std::string& out) {
        std::istringstream in(out);
        std::string line;
        while (std::getline(in, line)) {
            auto j = nlohmann::json::parse(line, nullptr, false);
            if (j.is_discarded()) return "not JSON: " + line;
            if (j.value("event", "") != "added") continue;
            const std::string key = j.value("key", "");
            const std::string n = key.substr(6, key.size() - 7);  // lock:{rN}
            if (j.value("token", "") != "tok-" + n) return line;
            if (j.value("fence", -1) != std::stoi(n.substr(1))) return line;
        }
        return "";
    }
};

TEST_F(WatchOutOfStep, ADuplicatedOrExtraReplyResetsTheConnectionAndTheWatchGoesOn) {
    const std::pair<ReplyRewrite, std::string> faults[] = {
        {ReplyRewrite::Twice, ""},
        {ReplyRewrite::Append, ":1\r\n"},
        // The reply out of step is an error: the next command seems refused (WRONGTYPE).
        {ReplyRewrite::Append,
         "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"},
    };
    for (const auto& [how, bytes] : faults) {
        LoopbackProxy proxy(server().port());
        // One PTTL reply comes twice (or with an extra reply after it).
        proxy.rewriteReplies("PTTL", how, bytes, 1);
        CliRun run = cli({"watch", "--json", "--for", "4", "--interval", "200", "-p",
                          std::to_string(proxy.port())},
                         "timeout 20");
        EXPECT_EQ(run.code, 0) << run.err << run.out;
        EXPECT_EQ(wrongLine(run.out), "") << run.out;
        EXPECT_EQ(run.err.find("WRONGTYPE"), std::string::npos) << run.err;
        EXPECT_EQ(proxy.rewritten(), 1);
        // Every lock shown, once the watch read again on a fresh connection.
        EXPECT_EQ(addedLocks(run.out), 6u) << run.out;
    }
}

}  // namespace
