// Issue 17 and the command line of issue 12: what an adversary tried on lockscope-cli, each
// reproduction kept as a test (they failed before the fixes).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <pwd.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "cli_runner.h"
#include "inspect_helpers.h"
#include "lockscope/errors.h"
#include "lockscope/proxy/loopback_proxy.h"
#include "sanitizer_time.h"

extern char** environ;

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::testing::CliRun;
using lockscope::testing::CliTest;
using lockscope::testing::contains;
using lockscope::testing::scaled;

namespace {

std::string port(const LocalRedisServer& s) {
    return std::to_string(s.port());
}

}  // namespace

TEST_F(CliTest, ConnectionOptionsGoBeforeOrAfterTheCommand) {
    Connection c = connect();
    c.command({"SET", "lock:{a}", "tok", "PX", "60000"});
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"-h", "127.0.0.1", "-p", port(server()), "list"},
             {"-p", port(server()), "list", "-h", "127.0.0.1"},
             {"list", "-h", "127.0.0.1", "-p", port(server())},
             {"--host", "127.0.0.1", "--port=" + port(server()), "list"},
             {"-u", url(), "list", "--json"}}) {
        auto run = cli(args);
        EXPECT_EQ(run.code, 0) << args[0] << " " << args[1] << ": " << run.err;
        EXPECT_TRUE(contains(run.out, "lock:{a}")) << run.out;
    }
    // The value after the command wins over the one before it.
    EXPECT_EQ(cli({"-p", "1", "list", "-p", port(server())}).code, 0);
}

TEST_F(CliTest, HelpAndVersionWorkAnywhereAndUsageErrorsNeverExitZero) {
    auto top = cli({"--help"});
    EXPECT_EQ(top.code, 0);
    EXPECT_TRUE(contains(top.out, "usage: lockscope-cli")) << top.out;
    // One synopsis per command; a command's options are under it, not between commands.
    EXPECT_TRUE(contains(top.out, "  list [--group] [--sort]\n")) << top.out;
    EXPECT_FALSE(contains(top.out, "--token-hex")) << top.out;
    auto list = cli({"list", "--help"});
    EXPECT_EQ(list.code, 0);
    EXPECT_TRUE(contains(list.out, "--group")) << list.out;
    EXPECT_TRUE(contains(list.out, "--pattern")) << list.out;
    EXPECT_EQ(cli({"-p", "6379", "list", "--help"}).code, 0);
    for (const auto& args :
         std::vector<std::vector<std::string>>{{"--version"}, {"list", "--version"}}) {
        auto v = cli(args);
        EXPECT_EQ(v.code, 0);
        EXPECT_TRUE(contains(v.out, "lockscope-cli ")) << v.out;
    }
    for (const auto& args : std::vector<std::vector<std::string>>{
             {},
             {"-h"},
             {"-h", "127.0.0.1", "-p", port(server())},  // no command
             {"bogus"},
             {"list", "extra"},
             {"list", "--", "extra"},
             {"-p", "6379", "replay", "--list"},  // replay takes no connection options
             {"release", "k", "--token"}}) {
        auto run = cli(args);
        EXPECT_EQ(run.code, 2) << (args.empty() ? "(none)" : args[0]) << " " << run.out;
        EXPECT_FALSE(run.err.empty());
    }
    EXPECT_EQ(keyCount(), 0);
}

TEST_F(CliTest, KeysThatStartWithADashOrHoldAnyByteCanBeNamed) {
    Connection c = connect();
    c.command({"SET", "-lock", "t1", "PX", "60000"});
    EXPECT_EQ(cli({"release", "-lock", "--token", "t1", "-u", url()}).code, 2);
    EXPECT_EQ(cli({"release", "--token", "t1", "-u", url(), "--", "-lock"}).code, 0);
    EXPECT_EQ(c.command({"EXISTS", "-lock"}).integer(), 0);

    const std::string binaryKey("lock:\x00\n\xff\\", 9), binaryToken("t\x00\x01", 3);
    auto set = [&] { c.command({"SET", binaryKey, binaryToken, "PX", "60000"}); };
    set();
    // Copied from the table, as it prints them, the key and token round-trip.
    auto table = cli({"list", "-u", url(), "--pattern", "lock:*"});
    EXPECT_TRUE(contains(table.out, "lock:\\x00\\x0a\\xff\\x5c")) << table.out;
    EXPECT_EQ(cli({"release", "--escaped", "lock:\\x00\\x0a\\xff\\x5c", "--token", "t\\x00\\x01",
                   "-u", url()})
                  .code,
              0);
    EXPECT_EQ(c.command({"EXISTS", binaryKey}).integer(), 0);
    set();
    EXPECT_EQ(
        cli({"release", "--key-hex", "6c6f636b3a000aff5c", "--token-hex", "740001", "-u", url()})
            .code,
        0);
    EXPECT_EQ(c.command({"EXISTS", binaryKey}).integer(), 0);
    // Bad escapes and hex are usage errors that send nothing.
    set();
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"release", "--escaped", "lock:\\q", "--token", "t"},
             {"release", "--escaped", "lock:\\x0", "--token", "t"},
             {"release", "--key-hex", "6c6", "--token", "t"},
             {"release", "--key-hex", "zz", "--token", "t"},
             {"release", "--key-hex", "", "--token", "t"},
             {"release", "k", "--key-hex", "6c", "--token", "t"},
             {"release", "k", "--token", "t", "--token-hex", "74"}}) {
        auto a = args;
        a.insert(a.end(), {"-u", url()});
        EXPECT_EQ(cli(a).code, 2) << args[1] << " " << args[2];
    }
    EXPECT_EQ(c.command({"EXISTS", binaryKey}).integer(), 1);
}

TEST_F(CliTest, MaxLoadTakesOnePercentageForm) {
    for (const char* bad : {"0.0001%", "1e-300", "1.5", "1", "0.5%", "101%", "%", "20 %", "-5%",
                            "nan%", "inf%", "1e2%", ""})
        EXPECT_EQ(cli({"list", "-u", url(), "--max-load", bad}).code, 2) << bad;
    EXPECT_EQ(cli({"list", "-u", url(), "--max-load", "20%"}).code, 0);
    EXPECT_EQ(cli({"list", "-u", url(), "--max-load", "100%"}).code, 0);
    EXPECT_EQ(cli({"list", "-u", url(), "--max-load", "1.5%"}).code, 0);
}

TEST_F(CliTest, ExpireLeavesALockThatGotATtlAlone) {
    Connection c = connect();
    c.command({"SET", "lock:{job}", "holder", "PX", "60000"});  // the holder renewed it
    auto run = cli({"expire", "lock:{job}", "--ttl", "500", "--token", "holder", "-u", url()});
    EXPECT_EQ(run.code, 4) << run.err;
    EXPECT_TRUE(contains(run.err, "no longer an orphan")) << run.err;
    // Left alone: the 60 s minus what a CLI run takes (over 1 s under ThreadSanitizer, hence
    // scaled), nowhere near the 500 ms asked for.
    const long leftAlone = 60'000 - scaled(1'000ms).count();
    EXPECT_GT(c.command({"PTTL", "lock:{job}"}).integer(), leftAlone);
    // Seen with a TTL: only lengthened, never shortened.
    EXPECT_EQ(cli({"expire", "lock:{job}", "--ttl", "500", "--token", "holder", "--lengthen", "-u",
                   url()})
                  .code,
              4);
    EXPECT_GT(c.command({"PTTL", "lock:{job}"}).integer(), leftAlone);
    EXPECT_EQ(cli({"expire", "lock:{job}", "--ttl", "120000", "--token", "holder", "--lengthen",
                   "-u", url()})
                  .code,
              0);
    EXPECT_GT(c.command({"PTTL", "lock:{job}"}).integer(), 119000);
    auto results = auditResults();
    ASSERT_EQ(results.size(), 3u);
    EXPECT_EQ(results[0]["result"], "ttl-changed");
    EXPECT_EQ(results[1]["result"], "ttl-changed");
    EXPECT_EQ(results[2]["result"], "done");
}

TEST_F(CliTest, NothingIsSentWhenTheIntentCannotBeAudited) {
    Connection c = connect();
    c.command({"SET", "lock:{a}", "tok", "PX", "60000"});
    auto run = cli({"release", "lock:{a}", "--token", "tok", "-u", url()},
                   "LOCKSCOPE_AUDIT_LOG=/dev/full");
    EXPECT_EQ(run.code, 1);
    EXPECT_TRUE(contains(run.err, "nothing was sent")) << run.err;
    EXPECT_EQ(c.command({"GET", "lock:{a}"}).text(), "tok");
    EXPECT_EQ(
        cli({"delete", "lock:{a}", "--force", "-u", url()}, "LOCKSCOPE_AUDIT_LOG=/dev/full").code,
        1);
    EXPECT_EQ(c.command({"GET", "lock:{a}"}).text(), "tok");
}

TEST_F(CliTest, AReleaseReplyThatIsNotANumberIsAnUnknownOutcome) {
    Connection c = connect();
    c.command({"SET", "lock:{a}", "tok", "PX", "60000"});
    for (const char* reply : {"+OK\r\n", "$-1\r\n", "*2\r\n:1\r\n:1\r\n", "$1\r\n1\r\n"}) {
        LoopbackProxy proxy(server().port());
        proxy.answerMatching("EVAL", reply);
        auto run =
            cli({"release", "lock:{a}", "--token", "tok", "-p", std::to_string(proxy.port())});
        EXPECT_EQ(run.code, 7) << reply << run.err;
        EXPECT_TRUE(contains(run.err, "outcome unknown")) << run.err;
        EXPECT_FALSE(contains(run.err, "changed hands")) << run.err;
        EXPECT_GE(proxy.intercepted(), 1);
    }
    auto results = auditResults();
    ASSERT_EQ(results.size(), 4u);
    for (const auto& r : results) EXPECT_EQ(r["result"], "unknown");
    EXPECT_EQ(c.command({"GET", "lock:{a}"}).text(), "tok");
}

TEST_F(CliTest, AReplicaRefusingTheWriteExitsFive) {
    LocalRedisServer replica;
    Connection r = Connection::open(replica.endpoint());
    Connection c = connect();
    c.command({"SET", "lock:{a}", "tok", "PX", "60000"});
    r.command({"REPLICAOF", "127.0.0.1", port(server())});
    for (int i = 0; i < 100 && r.command({"EXISTS", "lock:{a}"}).integer() == 0; ++i)
        std::this_thread::sleep_for(50ms);
    ASSERT_EQ(r.command({"EXISTS", "lock:{a}"}).integer(), 1);
    auto run = cli({"release", "lock:{a}", "--token", "tok", "-u", replica.url()});
    EXPECT_EQ(run.code, 5) << run.err;
    EXPECT_TRUE(contains(run.err, "read-only replica")) << run.err;
    EXPECT_EQ(cli({"delete", "lock:{a}", "--force", "-u", replica.url()}).code, 5);
    EXPECT_EQ(c.command({"GET", "lock:{a}"}).text(), "tok");
}

TEST_F(CliTest, TheAuditUserIsTheOsAccountAndUserIsOnlyLabelled) {
    Connection c = connect();
    c.command({"SET", "lock:{a}", "tok", "PX", "60000"});
    const std::string account = getpwuid(getuid())->pw_name;
    cli({"release", "lock:{a}", "--token", "other", "-u", url()}, "USER=mallory");
    cli({"release", "lock:{a}", "--token", "other", "-u", url()}, "USER=");
    auto lines = auditResults();
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0]["user"], account);
    EXPECT_EQ(lines[0]["env_user"], "mallory");
    EXPECT_EQ(lines[1]["user"], account);
    EXPECT_FALSE(lines[1].contains("env_user"));
}

namespace {

class CliPasswordTest : public CliTest {
  protected:
    LocalRedisServerOptions serverOptions() const override {
        return {.configLines = {"requirepass Xy9#q/ab@z", "user viewer on nopass ~* &* +@all"}};
    }
    std::string passwordUrl() const {
        return "redis://:Xy9%23q%2Fab%40z@127.0.0.1:" + std::to_string(endpoint().port);
    }
};

}  // namespace

TEST_F(CliPasswordTest, PasswordsLeaveTheProcessListAndAreNeverEchoed) {
    Endpoint e = endpoint();
    e.password = "Xy9#q/ab@z";
    Connection c = Connection::open(e);
    c.command({"SET", "lock:{a}", "tok", "PX", "60000"});
    std::vector<std::string> args{LOCKSCOPE_CLI, "watch", "-a", "Xy9#q/ab@z", "-u",
                                  passwordUrl(), "--for", "3",  "--json"};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_addopen(&files, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&files, 2, dir.path("watch.err").c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    pid_t pid = 0;
    ASSERT_EQ(posix_spawn(&pid, LOCKSCOPE_CLI, &files, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&files);
    std::this_thread::sleep_for(1500ms);  // parsed and watching
    std::ifstream cmdline("/proc/" + std::to_string(pid) + "/cmdline");
    std::string seen((std::istreambuf_iterator<char>(cmdline)), std::istreambuf_iterator<char>());
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(contains(seen, "watch")) << seen;
    EXPECT_FALSE(contains(seen, "Xy9")) << seen;
    EXPECT_FALSE(contains(seen, "%23q")) << seen;
    EXPECT_EQ(WEXITSTATUS(status), 0);
    std::ifstream err(dir.path("watch.err"));
    std::string warning((std::istreambuf_iterator<char>(err)), std::istreambuf_iterator<char>());
    EXPECT_TRUE(contains(warning, "Warning: a password on the command line")) << warning;

    // A password with an unencoded '/' and '@': no part of it in any message.
    auto bad = cli({"list", "-u", "redis://:Xy9#q/ab@z@127.0.0.1:1"});
    EXPECT_EQ(bad.code, 6) << bad.err;
    for (const char* part : {"Xy9", "ab@", "#q", "/ab"})
        EXPECT_FALSE(contains(bad.err + bad.out, part)) << bad.err;
    auto wrong = cli({"list", "-u", "redis://:Wr0ng/pw@z@" + url().substr(8)});
    EXPECT_EQ(wrong.code, 6);
    EXPECT_FALSE(contains(wrong.err, "Wr0ng")) << wrong.err;
    EXPECT_FALSE(contains(wrong.err, "pw@z")) << wrong.err;
}

TEST_F(CliPasswordTest, AUserWithoutAPasswordIsHonoured) {
    auto run = cli({"list", "-u", "redis://viewer@127.0.0.1:" + std::to_string(endpoint().port)});
    EXPECT_EQ(run.code, 0) << run.err;
    auto noauth = cli({"list", "-u", url()});
    EXPECT_EQ(noauth.code, 6);
}

TEST_F(CliPasswordTest, DoctorClaimsNoHealthWhenNothingWasRead) {
    auto run = cli({"doctor", "-u", url()});  // no password: NOAUTH
    EXPECT_EQ(run.code, 6);
    EXPECT_FALSE(contains(run.out, "no findings")) << run.out;
    EXPECT_TRUE(contains(run.err, "NOAUTH") || contains(run.err, "auth")) << run.err;
}

namespace {

// Runs a script that keeps the server busy (every other client gets BUSY) until killed.
class BusyServer {
  public:
    explicit BusyServer(const Endpoint& e) : endpoint_(e) {
        Connection admin = Connection::open(e);
        admin.command({"CONFIG", "SET", "busy-reply-threshold", "50"});
        script_ = std::thread([this] {
            Connection c = Connection::open(endpoint_, {.commandTimeout = 60s});
            try {
                c.command({"EVAL", "while true do end", "0"});
            } catch (const Error&) {  // killed
            }
        });
        std::this_thread::sleep_for(300ms);  // past the threshold: the server answers BUSY
    }
    void kill() {
        if (!script_.joinable()) return;
        for (int i = 0; i < 100; ++i) {
            try {
                Connection::open(endpoint_).command({"SCRIPT", "KILL"});
                break;
            } catch (const Error&) {
                std::this_thread::sleep_for(20ms);
            }
        }
        script_.join();
    }
    ~BusyServer() { kill(); }

  private:
    Endpoint endpoint_;
    std::thread script_;
};

}  // namespace

TEST_F(CliTest, WatchWaitsOutBusyAndFailsWhenEveryPollFailed) {
    Connection c = connect();
    c.command({"SET", "lock:{a}", "tok", "PX", "60000"});
    {
        BusyServer busy(endpoint());
        auto run = cli({"watch", "-u", url(), "--for", "2", "--interval", "100", "--json"});
        EXPECT_EQ(run.code, 6) << run.err;
        EXPECT_TRUE(contains(run.err, "every poll failed")) << run.err;
        EXPECT_TRUE(contains(run.err, "BUSY")) << run.err;
    }
    // The first poll must meet the busy server: under ThreadSanitizer the CLI takes over a
    // second to start, so the script is killed later there (and the watch lasts longer).
    BusyServer busy(endpoint());
    std::thread killer([&] {
        std::this_thread::sleep_for(scaled(1s));
        busy.kill();
    });
    const std::string watchFor = std::to_string(scaled(3s).count());
    auto run = cli({"watch", "-u", url(), "--for", watchFor, "--interval", "100", "--json"});
    killer.join();
    EXPECT_EQ(run.code, 0) << run.err;
    auto lines = jsonLines(run.out);
    ASSERT_FALSE(lines.empty()) << run.out;
    EXPECT_EQ(lines[0]["event"], "disconnected");
    EXPECT_TRUE(contains(lines[0]["error"], "BUSY")) << lines[0].dump();
    bool added = false;
    for (const auto& l : lines) added = added || (l["event"] == "added" && l["key"] == "lock:{a}");
    EXPECT_TRUE(added) << run.out;
}

TEST_F(CliTest, WatchJsonPrintsOneLinePerChange) {
    Connection c = connect();
    c.command({"SET", "lock:{gone}", "t1", "PX", "60000"});
    // Scaled: the AddressSanitizer CLI takes 0.6 s to start, so a DEL at 400 ms came
    // before its first scan and the deleted lock was never seen.
    c.command({"SET", "lock:{short}", "t2", "PX", std::to_string(scaled(700ms).count())});
    c.command({"SET", "lock:{renewed}", "t3", "PX", "5000"});
    std::thread changes([&] {
        Connection w = Connection::open(endpoint());
        std::this_thread::sleep_for(scaled(400ms));
        w.command({"DEL", "lock:{gone}"});
        w.command({"PEXPIRE", "lock:{renewed}", "60000"});
    });
    const std::string watchFor = std::to_string(scaled(2s).count());
    auto run = cli({"watch", "-u", url(), "--for", watchFor, "--interval", "100", "--json"});
    changes.join();
    ASSERT_EQ(run.code, 0) << run.err;
    std::map<std::string, std::vector<nlohmann::json>> byKey;
    for (const auto& l : jsonLines(run.out)) byKey[l["key"]].push_back(l);
    ASSERT_EQ(byKey["lock:{gone}"].size(), 2u) << run.out;
    EXPECT_EQ(byKey["lock:{gone}"][0]["event"], "added");
    EXPECT_EQ(byKey["lock:{gone}"][1]["event"], "removed");
    EXPECT_EQ(byKey["lock:{gone}"][1]["reason"], "deleted");
    ASSERT_EQ(byKey["lock:{short}"].size(), 2u) << run.out;
    EXPECT_EQ(byKey["lock:{short}"][1]["reason"], "expired");
    ASSERT_EQ(byKey["lock:{renewed}"].size(), 2u) << run.out;  // no line for the countdown
    EXPECT_EQ(byKey["lock:{renewed}"][1]["event"], "changed");
    EXPECT_GT(byKey["lock:{renewed}"][1]["changed"]["pttl_ms"].get<long long>(), 50000);
    EXPECT_FALSE(byKey["lock:{renewed}"][1]["changed"].contains("token"));
}
