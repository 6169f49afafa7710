// A run interrupted with Ctrl+C stops every process it started; the history it records
// reads back the same from JSON, and its EDN form is what Jepsen tools read.

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <thread>

#include "lockscope/errors.h"
#include "lockscope/torture/history.h"
#include "torture_run_support.h"

extern char** environ;

namespace lockscope::torture {
namespace {

using namespace std::chrono_literals;
using testing::processGone;
using testing::startedPids;
using testing::tempPidFile;

TEST(TortureInterrupt, CtrlCStopsEveryWorkerAndServer) {
    std::string pidFile = tempPidFile();
    std::vector<std::string> args{TORTURE_WORKER, "run", "guide", "pause", "60000", pidFile};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    pid_t driver = -1;
    ASSERT_EQ(posix_spawn(&driver, argv[0], &actions, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&actions);

    // Wait until it started its server and three workers, then let it run into a pause.
    auto until = std::chrono::steady_clock::now() + 30s;
    while (startedPids(pidFile).size() < 4 && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(50ms);
    auto pids = startedPids(pidFile);
    ASSERT_EQ(pids.size(), 4u);
    std::this_thread::sleep_for(1500ms);
    for (pid_t pid : pids) EXPECT_FALSE(processGone(pid)) << "pid " << pid << " died early";

    kill(driver, SIGINT);
    int status = 0;
    auto started = std::chrono::steady_clock::now();
    ASSERT_EQ(waitpid(driver, &status, 0), driver);
    EXPECT_LT(std::chrono::steady_clock::now() - started, 15s);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 130);  // interrupted, cleanly
    for (pid_t pid : pids) EXPECT_TRUE(processGone(pid)) << "pid " << pid << " left running";
    std::filesystem::remove(pidFile);
}

History sampleHistory() {
    Op acquire;
    acquire.type = OpType::Ok;
    acquire.f = "acquire";
    acquire.process = 2;
    acquire.timeNs = 1500;
    acquire.token = "ab\"c\n";
    acquire.fence = 41;
    acquire.round = 3;
    Op write;
    write.type = OpType::Ok;
    write.f = "write";
    write.process = kResource;
    write.seq = 9;
    write.writer = 2;
    write.round = 3;
    write.fence = 41;
    write.accepted = false;
    write.phase = "begin";
    write.timeNs = 1600;
    Op pause;
    pause.type = OpType::Info;
    pause.f = "pause";
    pause.process = kNemesis;
    pause.phase = "start";
    pause.detail = "worker 2 stopped (SIGSTOP)";
    pause.timeNs = 1700;
    return {acquire, write, pause};
}

TEST(TortureHistory, JsonRoundTripsEveryField) {
    History h = sampleHistory();
    EXPECT_EQ(historyFromJson(toJson(h)), h);
    std::string lines;
    for (const Op& op : h) lines += toJsonLine(op) + "\n";
    EXPECT_EQ(historyFromJson(lines), h);
}

TEST(TortureHistory, EdnHasJepsenKeywords) {
    std::string edn = toEdn(sampleHistory());
    EXPECT_NE(edn.find("{:type :ok, :f :acquire, :process 2, :time 1500, :value {:token "
                       "\"ab\\\"c\\n\", :fence 41, :round 3}}"),
              std::string::npos)
        << edn;
    EXPECT_NE(edn.find(":process :nemesis"), std::string::npos);
    EXPECT_NE(edn.find(":accepted false"), std::string::npos);
}

TEST(TortureHistory, BadInputIsRefusedWithAReason) {
    for (const char* bad :
         {"", "not json", R"({"type":"ok"})", "[1,2]",
          R"({"type":"maybe","f":"a","process":0,"time":1})",
          R"({"type":"ok","f":"a","process":"zeus","time":1})",
          R"({"type":"ok","f":"a","process":-4,"time":1})",
          R"({"type":"ok","f":"a","process":0,"time":"soon"})", "\x01\x02\xff binary"}) {
        if (std::string(bad).empty()) {
            EXPECT_TRUE(historyFromJson(bad).empty());
            continue;
        }
        EXPECT_THROW(historyFromJson(bad), InvalidArgumentError) << bad;
    }
    std::string huge(1 << 20, '[');
    EXPECT_THROW(historyFromJson(huge), InvalidArgumentError);
}

TEST(TortureOptions, FaultsAndDurationsAreParsedStrictly) {
    EXPECT_EQ(parseFaults("pause,restart").size(), 2u);
    EXPECT_TRUE(parseFaults("").empty());
    EXPECT_THROW(parseFaults("pause,pause"), InvalidArgumentError);
    EXPECT_THROW(parseFaults("meteor"), InvalidArgumentError);
    EXPECT_THROW(parseFaults("pause,"), InvalidArgumentError);
    EXPECT_EQ(parseDuration("20s"), 20s);
    EXPECT_EQ(parseDuration("1500ms"), 1500ms);
    EXPECT_EQ(parseDuration("2m"), 120s);
    for (const char* bad : {"", "s", "-3s", "0s", "10h", "1e9s", "99999999999999999999"})
        EXPECT_THROW(parseDuration(bad), InvalidArgumentError) << bad;
}

TEST(TortureOptions, BadRunOptionsChangeNothing) {
    TortureOptions o = testing::shortRun("guide", "");
    o.client = "mystery";
    EXPECT_THROW(runTorture(o), InvalidArgumentError);
    o = testing::shortRun("guide", "");
    o.clients = 0;
    EXPECT_THROW(runTorture(o), InvalidArgumentError);
    o = testing::shortRun("redlock", "");
    o.nodes = 4;
    EXPECT_THROW(runTorture(o), InvalidArgumentError);
}

}  // namespace
}  // namespace lockscope::torture
