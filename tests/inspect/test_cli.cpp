// Runs the built lockscope-cli against a fixture server and checks its output and exit codes.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "inspect_helpers.h"
#include "lockscope/redis_lock.h"
#include "redis_fixture.h"

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::testing::contains;
using lockscope::testing::RedisTest;
using lockscope::testing::TempDir;

namespace {

struct CliRun {
    int code = -1;
    std::string out, err;
};

std::string shellQuote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

class CliTest : public RedisTest {
  protected:
    TempDir dir;
    std::string audit = dir.path("audit.jsonl");

    CliRun cli(const std::vector<std::string>& args, const std::string& env = "") {
        std::string cmd =
            "LOCKSCOPE_AUDIT_LOG=" + shellQuote(audit) + " " + env + " " + LOCKSCOPE_CLI;
        for (const auto& a : args) cmd += " " + shellQuote(a);
        cmd += " 2>" + shellQuote(dir.path("stderr"));
        CliRun run;
        std::FILE* p = popen(cmd.c_str(), "r");
        char buf[4096];
        std::size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) run.out.append(buf, n);
        int status = pclose(p);
        run.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        std::ifstream e(dir.path("stderr"));
        std::stringstream ss;
        ss << e.rdbuf();
        run.err = ss.str();
        return run;
    }
    std::string url() const { return endpoint().display(); }
    std::vector<nlohmann::json> jsonLines(const std::string& out) {
        std::vector<nlohmann::json> lines;
        std::istringstream in(out);
        std::string line;
        while (std::getline(in, line))
            if (!line.empty()) lines.push_back(nlohmann::json::parse(line));
        return lines;
    }
    std::vector<nlohmann::json> auditLines() {
        std::ifstream in(audit);
        std::stringstream ss;
        ss << in.rdbuf();
        return jsonLines(ss.str());
    }
};

}  // namespace

TEST_F(CliTest, ListJsonHasEveryField) {
    auto shared = std::make_shared<Connection>(connect());
    Connection& c = *shared;
    RedisLock lock(shared, "report:daily");
    ASSERT_TRUE(lock.acquire());
    c.command({"SET", "lock:report", "1", "NX", "EX", "10"});
    c.command({"HSET", "lock:redisson", "6a7e3c2e-52a4-4d5c-9a1b-0c8d2e1f3a4b:57", "1"});
    auto run = cli({"list", "-u", url(), "--json"});
    ASSERT_EQ(run.code, 0) << run.err;
    auto lines = jsonLines(run.out);
    ASSERT_EQ(lines.size(), 3u) << run.out;
    std::map<std::string, nlohmann::json> byKey;
    for (const auto& l : lines) {
        for (const char* field : {"instance", "key", "resource", "type", "kind", "token", "pttl_ms",
                                  "fence", "findings"})
            EXPECT_TRUE(l.contains(field)) << field << " missing in " << l.dump();
        EXPECT_EQ(l["instance"], url());
        byKey[l["key"]] = l;
    }
    auto& g = byKey["lock:{report:daily}"];
    EXPECT_EQ(g["resource"], "report:daily");
    EXPECT_EQ(g["type"], "string");
    EXPECT_EQ(g["kind"], "guide");
    EXPECT_EQ(g["token"], lock.token());
    EXPECT_EQ(g["fence"], 1);
    EXPECT_GT(g["pttl_ms"].get<long long>(), 20000);
    EXPECT_EQ(g["findings"], nlohmann::json::array());
    auto& f = byKey["lock:report"];
    EXPECT_EQ(f["kind"], "fixed-value");
    EXPECT_TRUE(f["fence"].is_null());
    EXPECT_EQ(f["findings"], nlohmann::json::array({"fixed-value"}));
    auto& r = byKey["lock:redisson"];
    EXPECT_EQ(r["type"], "hash");
    EXPECT_EQ(r["token"]["6a7e3c2e-52a4-4d5c-9a1b-0c8d2e1f3a4b:57"], "1");
    EXPECT_EQ(r["pttl_ms"], -1);
    EXPECT_EQ(r["findings"], nlohmann::json::array({"no-ttl"}));
    // The same through -h/-p, and the text table.
    auto table = cli({"list", "-h", "127.0.0.1", "-p", std::to_string(server().port())});
    EXPECT_EQ(table.code, 0);
    EXPECT_TRUE(contains(table.out, "lock:{report:daily}")) << table.out;
    EXPECT_TRUE(contains(table.out, "3 locks on 1 instance")) << table.out;
}

TEST_F(CliTest, ReleaseExitCodesAndAudit) {
    Connection c = connect();
    c.command({"SET", "lock:{a}", "tok-a", "PX", "60000"});
    EXPECT_EQ(cli({"release", "lock:{a}", "--token", "other", "-u", url()}).code, 4);
    EXPECT_EQ(c.command({"GET", "lock:{a}"}).text(), "tok-a");
    EXPECT_EQ(cli({"release", "lock:{a}", "--token", "tok-a", "-u", url(), "--read-only"}).code, 5);
    EXPECT_EQ(cli({"release", "lock:{a}", "--token", "tok-a", "-u", url()}).code, 0);
    EXPECT_EQ(cli({"release", "lock:{a}", "--token", "tok-a", "-u", url()}).code, 3);
    c.command({"SETNX", "lock:{orphan}", "crashed"});
    EXPECT_EQ(
        cli({"expire", "lock:{orphan}", "--ttl", "5000", "--token", "crashed", "-u", url()}).code,
        0);
    EXPECT_GT(c.command({"PTTL", "lock:{orphan}"}).integer(), 4000);
    EXPECT_EQ(cli({"delete", "lock:{orphan}", "-u", url()}).code, 2);
    EXPECT_EQ(c.command({"EXISTS", "lock:{orphan}"}).integer(), 1);
    EXPECT_EQ(cli({"delete", "lock:{orphan}", "--force", "-u", url()}).code, 0);
    EXPECT_EQ(c.command({"EXISTS", "lock:{orphan}"}).integer(), 0);
    auto lines = auditLines();
    ASSERT_EQ(lines.size(), 7u);
    std::vector<std::string> results;
    for (const auto& l : lines) results.push_back(l["result"]);
    EXPECT_EQ(results, (std::vector<std::string>{"token-changed", "refused", "done", "not-found",
                                                 "done", "refused", "done"}));
    EXPECT_EQ(lines[4]["action"], "expire");
    EXPECT_EQ(lines[4]["ttl_ms"], 5000);
    EXPECT_EQ(lines[6]["action"], "force-delete");
}

TEST_F(CliTest, BadInputGivesUsageOrConnectCodes) {
    EXPECT_EQ(cli({"list", "-p", "0"}).code, 2);
    EXPECT_EQ(cli({"list", "-p", "65536"}).code, 2);
    EXPECT_EQ(cli({"list", "-p", "abc"}).code, 2);
    EXPECT_EQ(cli({"list", "-u", "http://x"}).code, 2);
    EXPECT_EQ(cli({"list", "-u", ""}).code, 2);
    EXPECT_EQ(cli({"list", "-u", url(), "-h", "x"}).code, 2);
    EXPECT_EQ(cli({"list", "--bogus"}).code, 2);
    EXPECT_EQ(cli({"list", "--max-load", "0%"}).code, 2);
    EXPECT_EQ(cli({"list", "--pattern", ""}).code, 2);
    EXPECT_EQ(cli({"list", "-u"}).code, 2);
    EXPECT_EQ(cli({"release", "-u", url(), "--token", "t"}).code, 2);  // no KEY
    EXPECT_EQ(cli({"release", "k", "-u", url()}).code, 2);             // no token
    EXPECT_EQ(cli({"release", "k", "--token", "t", "-u", url(), "-u", url()}).code, 2);
    EXPECT_EQ(cli({"expire", "k", "--ttl", "-5", "--token", "t", "-u", url()}).code, 2);
    EXPECT_EQ(cli({"release", "k", "--fields", "[1,2]", "-u", url()}).code, 2);
    EXPECT_EQ(cli({"release", "k", "--fields", "{not json", "-u", url()}).code, 2);
    EXPECT_EQ(cli({"release", std::string(100000, 'k'), "--token", "t", "-u", url()}).code,
              3);  // huge key: not found
    auto refused = cli({"list", "-p", std::to_string(findFreePort())});
    EXPECT_EQ(refused.code, 6);
    EXPECT_TRUE(contains(refused.err, "refused")) << refused.err;
    EXPECT_EQ(cli({"list", "-u", url(), "-a", "wrong"}).code, 6);
    EXPECT_EQ(keyCount(), 0);
}

TEST_F(CliTest, SeveralServersAreNamedAndGrouped) {
    LocalRedisServer second;
    Connection a = connect();
    Connection b = Connection::open(second.endpoint());
    a.command({"SET", "lock:{shared}", "same-token", "PX", "60000"});
    b.command({"SET", "lock:{shared}", "same-token", "PX", "60000"});
    b.command({"SET", "lock:{only-b}", "t", "PX", "60000"});
    auto run = cli({"list", "-u", url(), "-u", second.url(), "--json"});
    ASSERT_EQ(run.code, 0) << run.err;
    auto lines = jsonLines(run.out);
    ASSERT_EQ(lines.size(), 3u);
    std::set<std::string> instances;
    for (const auto& l : lines) instances.insert(l["instance"]);
    EXPECT_EQ(instances, (std::set<std::string>{url(), second.url()}));
    auto text = cli({"list", "-u", url(), "-u", second.url()});
    EXPECT_TRUE(contains(text.out, "resource shared is locked on 2 instances by one holder"))
        << text.out;
    // One server down: the other is still listed, and the exit code says what failed.
    second.stop();
    auto partial = cli({"list", "-u", url(), "-u", second.url(), "--json"});
    EXPECT_EQ(partial.code, 6);
    EXPECT_EQ(jsonLines(partial.out).size(), 1u);
}

TEST_F(CliTest, DoctorAndWatchRun) {
    Connection c = connect();
    c.command({"SETNX", "lock:{cache:rebuild}", "0123456789abcdef0123456789abcdef"});
    auto doctor = cli({"doctor", "-u", url()});
    EXPECT_EQ(doctor.code, 0) << doctor.err;
    EXPECT_TRUE(contains(doctor.out, "(no-ttl)")) << doctor.out;
    EXPECT_TRUE(contains(doctor.out, "SETNX")) << doctor.out;
    auto watch = cli({"watch", "-u", url(), "--for", "1", "--interval", "100", "--json"});
    EXPECT_EQ(watch.code, 0) << watch.err;
    auto lines = jsonLines(watch.out);
    ASSERT_GE(lines.size(), 1u);
    EXPECT_EQ(lines[0]["key"], "lock:{cache:rebuild}");
    EXPECT_EQ(lines[0]["findings"], nlohmann::json::array({"no-ttl"}));
    EXPECT_EQ(cli({"watch", "-p", std::to_string(findFreePort()), "--for", "1"}).code, 6);
}

TEST_F(CliTest, DoctorObservesRenewalsPastTheTtl) {
    Connection c = connect();
    c.command({"SET", "lock:{long}", "0123456789abcdef0123456789abcdef", "PX", "300"});
    std::atomic<bool> stop{false};
    std::thread renewer([&] {  // a watchdog renewing a 300 ms lease every 100 ms
        Connection r = Connection::open(endpoint());
        while (!stop) {
            r.command({"PEXPIRE", "lock:{long}", "300"});
            std::this_thread::sleep_for(100ms);
        }
    });
    auto run = cli({"doctor", "-u", url(), "--observe", "2", "--json"});
    stop = true;
    renewer.join();
    ASSERT_EQ(run.code, 0) << run.err;
    auto lines = jsonLines(run.out);
    ASSERT_EQ(lines.size(), 1u) << run.out;
    EXPECT_EQ(lines[0]["findings"], nlohmann::json::array({"renewed-past-ttl"})) << lines[0].dump();
    EXPECT_GE(lines[0]["renewals"].get<int>(), 1);
    EXPECT_EQ(cli({"doctor", "-u", url(), "--observe", "-1"}).code, 2);
}

TEST_F(CliTest, SandboxListingShowsDoctorFindings) {
    // The demo's SETNX-without-EXPIRE orphan is the guide's first mistake: the sandbox's
    // listing must flag it as `list` would.
    CliRun run = cli({"sandbox", "--for", "2"});
    EXPECT_EQ(run.code, 0) << run.err;
    EXPECT_TRUE(contains(run.out, "lock:{cache:rebuild}")) << run.out;
    std::istringstream lines(run.out);
    std::string orphan;
    for (std::string line; std::getline(lines, line);)
        if (contains(line, "lock:{cache:rebuild}")) orphan = line;
    EXPECT_TRUE(contains(orphan, "no-ttl")) << run.out;
}
