#include <arpa/inet.h>
#include <malloc.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stdexcept>
#include <thread>

#include "lockscope/errors.h"
#include "lockscope/lock_scripts.h"
#include "lockscope/redis_lock.h"
#include "redis_fixture.h"

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::testing::RedisTest;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// A hostile peer on a loopback port: accepts one client and answers with fixed bytes.
class HostilePeer {
  public:
    explicit HostilePeer(std::string answer) : answer_(std::move(answer)) {
        fd_ = socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof addr;
        if (bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || listen(fd_, 4) != 0)
            throw std::runtime_error("cannot listen on a loopback port");
        getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
        port_ = ntohs(addr.sin_port);
        thread_ = std::thread([this] {
            int client = accept(fd_, nullptr, nullptr);
            if (client < 0) return;
            char buf[256];
            (void)!read(client, buf, sizeof buf);  // wait for the command
            (void)!write(client, answer_.data(), answer_.size());
            shutdown(client, SHUT_RDWR);
            close(client);
        });
    }
    ~HostilePeer() {
        shutdown(fd_, SHUT_RDWR);
        close(fd_);
        thread_.join();
    }
    Endpoint endpoint() const {
        Endpoint e;
        e.port = port_;
        return e;
    }

  private:
    std::string answer_;
    int fd_ = -1, port_ = 0;
    std::thread thread_;
};

}  // namespace

TEST(ConnectionErrors, RefusedPortNamesTheEndpoint) {
    Endpoint e;
    e.port = findFreePort();
    try {
        Connection::open(e);
        FAIL() << "connected to a closed port";
    } catch (const ConnectionRefusedError& err) {
        EXPECT_EQ(err.kind(), ErrorKind::ConnectionRefused);
        EXPECT_TRUE(contains(err.what(), "127.0.0.1:" + std::to_string(e.port))) << err.what();
        EXPECT_TRUE(contains(err.what(), "refused")) << err.what();
    }
}

TEST(ConnectionErrors, GarbageFromThePeerIsAProtocolError) {
    HostilePeer peer("HTTP/1.1 400 Bad Request\r\n\r\n");
    Connection c = Connection::open(peer.endpoint());
    EXPECT_THROW(c.command({"PING"}), ProtocolError);
}

TEST(ConnectionErrors, HugeBulkLengthFromThePeerIsAnError) {
    HostilePeer peer("$99999999999999999999\r\nabc");
    Connection c = Connection::open(peer.endpoint());
    EXPECT_THROW(c.command({"GET", "k"}), IoError);
}

TEST(ConnectionErrors, PeerThatClosesIsConnectionLost) {
    HostilePeer peer("");
    Connection c = Connection::open(peer.endpoint(), {.commandTimeout = 300ms});
    // The first send finds the socket closed; the one reconnect-and-retry then gets no answer.
    EXPECT_THROW(c.command({"PING"}), IoError);
}

TEST(ConnectionErrors, BinaryGarbageFromThePeer) {
    HostilePeer peer(std::string("\x00\xff\x01*-1\r\n", 8));
    Connection c = Connection::open(peer.endpoint());
    EXPECT_THROW(c.command({"PING"}), IoError);
}

class PasswordServer : public RedisTest {
  protected:
    LocalRedisServerOptions serverOptions() const override {
        return {.configLines = {"requirepass right-one"}};
    }
};

TEST_F(PasswordServer, WrongPasswordIsAnAuthenticationErrorThatHidesThePassword) {
    Endpoint e = endpoint();
    e.password = "wrong-one";
    try {
        Connection::open(e);
        FAIL() << "logged in with a wrong password";
    } catch (const AuthenticationError& err) {
        EXPECT_TRUE(contains(err.what(), "AUTH on " + e.display())) << err.what();
        EXPECT_FALSE(contains(err.what(), "wrong-one")) << err.what();
    }
    e.password = "right-one";
    EXPECT_EQ(Connection::open(e).command({"PING"}).text(), "PONG");
}

TEST_F(PasswordServer, MissingPasswordIsAnAuthenticationError) {
    Connection c = Connection::open(endpoint());  // connecting works; commands need AUTH
    EXPECT_THROW(c.command({"GET", "x"}), AuthenticationError);
}

class AclServer : public RedisTest {
  protected:
    LocalRedisServerOptions serverOptions() const override {
        return {.configLines = {
                    "user noscripts on >pw ~* &* +@all -evalsha -eval",
                    "user reader on >pw ~* &* -@all +scan +type +pttl +get +hgetall +ping"}};
    }
};

TEST_F(AclServer, UserDeniedEvalshaGetsAPermissionErrorAndNothingChanges) {
    Endpoint e = endpoint();
    e.user = "noscripts";
    e.password = "pw";
    RedisLock lock(Connection::open(e), "report:daily");
    try {
        (void)lock.acquire();
        FAIL() << "acquired without EVALSHA";
    } catch (const PermissionError& err) {
        EXPECT_EQ(err.kind(), ErrorKind::PermissionDenied);
        EXPECT_TRUE(contains(err.what(), "EVALSHA")) << err.what();
        EXPECT_TRUE(contains(err.what(), "NOPERM")) << err.what();
    }
    EXPECT_EQ(keyCount(), 0);
}

TEST_F(AclServer, ReaderUserCanReadButNotWrite) {
    Endpoint e = endpoint();
    e.user = "reader";
    e.password = "pw";
    Connection c = Connection::open(e);  // connecting needs neither INFO nor CONFIG
    EXPECT_EQ(c.command({"PING"}).text(), "PONG");
    EXPECT_TRUE(c.command({"GET", "lock:x"}).isNil());
    EXPECT_THROW(c.command({"SET", "lock:x", "1"}), PermissionError);
    EXPECT_EQ(keyCount(), 0);
}

TEST_F(RedisTest, PausedServerTimesOutWithATypedErrorAndTheConnectionRecovers) {
    Connection c = connect({.commandTimeout = 200ms});
    server().pause();
    auto start = std::chrono::steady_clock::now();
    try {
        c.command({"GET", "k"});
        FAIL() << "a paused server answered";
    } catch (const TimeoutError& err) {
        EXPECT_TRUE(contains(err.what(), "GET on " + endpoint().display())) << err.what();
        EXPECT_TRUE(contains(err.what(), "200 ms")) << err.what();
    }
    EXPECT_LT(std::chrono::steady_clock::now() - start, 1s);
    server().resume();
    EXPECT_EQ(c.command({"PING"}).text(), "PONG");  // reconnected after the timeout
}

TEST_F(RedisTest, ArgumentsAreBinarySafe) {
    Connection c = connect();
    std::string key("lock:\0bin\xff", 10), value("\0\x01\x02 tok\r\n", 9);
    c.command({"SET", key, value});
    EXPECT_EQ(c.command({"GET", key}).text(), value);
    std::string huge(1 << 20, 'x');
    c.command({"SET", "big", huge});
    EXPECT_EQ(c.command({"STRLEN", "big"}).integer(), 1 << 20);
}

TEST_F(RedisTest, PipelineReturnsRepliesInOrderWithErrorsInPlace) {
    Connection c = connect();
    auto replies = c.pipeline({{"SET", "a", "1"}, {"INCR", "a"}, {"HGET", "a", "f"}, {"GET", "a"}});
    ASSERT_EQ(replies.size(), 4u);
    EXPECT_EQ(replies[0].text(), "OK");
    EXPECT_EQ(replies[1].integer(), 2);
    EXPECT_TRUE(replies[2].isError());  // WRONGTYPE, returned rather than thrown
    EXPECT_EQ(replies[3].text(), "2");
}

TEST_F(RedisTest, ReadOnlyConnectionSendsNoWrite) {
    Connection c = connect({.readOnly = true});
    int sent = 0;
    c.setObserver([&](const CommandEvent&) { ++sent; });
    EXPECT_THROW(c.command({"SET", "lock:x", "1"}), ReadOnlyError);
    EXPECT_THROW(c.command({"del", "lock:x"}), ReadOnlyError);
    EXPECT_THROW(c.eval(scripts::release(), {"lock:x"}, {"t"}), ReadOnlyError);
    EXPECT_THROW(c.pipeline({{"GET", "a"}, {"FLUSHALL"}}), ReadOnlyError);
    EXPECT_EQ(sent, 0);
    EXPECT_TRUE(c.command({"GET", "lock:x"}).isNil());
    EXPECT_EQ(sent, 1);
    EXPECT_EQ(keyCount(), 0);
}

TEST_F(RedisTest, ScriptsFallBackToEvalAfterScriptFlush) {
    Connection c = connect();
    std::vector<std::string> sent;
    c.setObserver(
        [&](const CommandEvent& e) { sent.push_back(e.command.substr(0, e.command.find(' '))); });
    c.command({"SET", "lock:{a}", "tok"});
    EXPECT_EQ(c.eval(scripts::release(), {"lock:{a}"}, {"tok"}).integer(), 1);
    // First call: EVALSHA missed (NOSCRIPT), EVAL loaded it. Second call: EVALSHA hits.
    c.command({"SET", "lock:{a}", "tok"});
    EXPECT_EQ(c.eval(scripts::release(), {"lock:{a}"}, {"tok"}).integer(), 1);
    EXPECT_EQ(sent, (std::vector<std::string>{"SET", "EVALSHA", "EVAL", "SET", "EVALSHA"}));
    EXPECT_EQ(c.command({"SCRIPT", "EXISTS", scripts::release().sha1()})[0].integer(), 1);
}

TEST(Script, Sha1MatchesRedis) {
    // Known SHA-1 test vectors.
    EXPECT_EQ(sha1Hex(""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
    EXPECT_EQ(sha1Hex("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
    EXPECT_EQ(sha1Hex(std::string(1000000, 'a')), "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}

TEST_F(RedisTest, ScriptShaIsTheOneRedisComputes) {
    Connection c = connect();
    for (const Script* s : {&scripts::acquire(), &scripts::extend(), &scripts::release()})
        EXPECT_EQ(c.command({"SCRIPT", "LOAD", s->source()}).text(), s->sha1());
}

TEST_F(RedisTest, SurvivesAServerRestart) {
    Connection c = connect();
    EXPECT_EQ(c.command({"PING"}).text(), "PONG");
    server().restart();
    EXPECT_EQ(c.command({"PING"}).text(), "PONG");
}

TEST_F(RedisTest, UnixSocketEndpoint) {
    Connection c = Connection::open(parseEndpoint("unix://" + server().unixSocket() + "?db=2"));
    c.command({"SET", "k", "v"});
    EXPECT_EQ(keyCount(), 0);  // the key is in db 2, the observer looks at db 0
    EXPECT_EQ(c.command({"DBSIZE"}).integer(), 1);
}

// Before: a moved-from Connection dereferenced its null state and crashed (issue 33, item 6).
TEST_F(RedisTest, AMovedFromConnectionThrowsAClearError) {
    Connection first = connect();
    Connection second = std::move(first);
    // NOLINTBEGIN(bugprone-use-after-move): using the moved-from object is the point
    try {
        first.command({"PING"});
        ADD_FAILURE() << "no error";
    } catch (const InvalidArgumentError& e) {
        EXPECT_NE(std::string(e.what()).find("moved from"), std::string::npos) << e.what();
    }
    EXPECT_THROW(first.eval(scripts::release(), {"k"}, {"t"}), InvalidArgumentError);
    EXPECT_THROW(first.pipeline({{"PING"}}), InvalidArgumentError);
    EXPECT_THROW(first.send({"PING"}), InvalidArgumentError);
    EXPECT_THROW((void)first.endpoint(), InvalidArgumentError);
    EXPECT_THROW((void)first.openSibling(), InvalidArgumentError);
    EXPECT_THROW(first.setCommandTimeout(10ms), InvalidArgumentError);
    // NOLINTEND(bugprone-use-after-move)
    EXPECT_EQ(second.command({"PING"}).text(), "PONG");
    first = std::move(second);  // assignment revives it
    EXPECT_EQ(first.command({"PING"}).text(), "PONG");
}

// A connection that sent one large pipeline does not keep its buffer: an exporter's fifty
// targets each kept the 2 MB of their last poll of 20,000 locks between polls (issue 36).
TEST_F(RedisTest, ALargePipelineLeavesNoLargeBufferBehind) {
    auto heapInUse = [] {
        const struct mallinfo2 info = mallinfo2();
        return static_cast<long>(info.uordblks + info.hblkhd);
    };
    Connection c = connect();
    const std::string value(64, 'v');
    std::vector<std::vector<std::string>> sets;
    for (int i = 0; i < 20000; ++i) sets.push_back({"SET", "big:" + std::to_string(i), value});
    c.pipeline({{"PING"}});  // the connection's own small buffers
    const long before = heapInUse();
    ASSERT_EQ(c.pipeline(sets).size(), sets.size());  // about 1.7 MB of requests
    const long grown = heapInUse() - before;
    // What may stay: the reader's kept buffer (the replies' 100 KB); not the requests' 2 MB.
    EXPECT_LT(grown, 512 * 1024) << grown << " bytes";
}
