// lockscope-cli over TLS, with redis-cli's flags: the "done when" run
// (`list -u rediss://… --cacert ca.crt` on a TLS-only server) and each refusal a user meets.
#include <gtest/gtest.h>

#include "cli_runner.h"
#include "lockscope/connection.h"
#include "lockscope/sandbox/local_redis_server.h"
#include "lockscope/sandbox/tls_certificates.h"

namespace lockscope::testing {
namespace {

class CliTlsTest : public CliTest {
  protected:
    TlsCertificateSet certs = writeTlsCertificates(dir.path(""));
    LocalRedisServer tlsServer{[this] {
        LocalRedisServerOptions o;
        o.tls = LocalRedisTls{certs.serverCert, certs.serverKey, certs.caCert};
        return o;
    }()};
    std::string tlsUrl() const {
        return "rediss://127.0.0.1:" + std::to_string(tlsServer.endpoint().port);
    }
    void holdALock() {
        auto c = Connection::open(tlsServer.endpoint());
        c.command({"SET", "lock:{tls:job}", "0123456789abcdef0123456789abcdef", "PX", "60000"});
    }
};

TEST_F(CliTlsTest, ListsTheLocksOfATlsOnlyServerWithTheCaGiven) {
    holdALock();
    auto run = cli({"list", "-u", tlsUrl(), "--cacert", certs.caCert, "--json"});
    ASSERT_EQ(run.code, 0) << run.err;
    auto lines = jsonLines(run.out);
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0]["key"], "lock:{tls:job}");
    // The flags may also come before the command, and --cacert alone implies TLS.
    auto before = cli({"--cacert", certs.caCert, "-p", std::to_string(tlsServer.endpoint().port),
                       "list", "--json"});
    EXPECT_EQ(before.code, 0) << before.err;
    EXPECT_EQ(jsonLines(before.out).size(), 1u);
}

TEST_F(CliTlsTest, EachTlsRefusalSaysWhatToDo) {
    holdALock();
    auto unknownCa = cli({"list", "-u", tlsUrl()});
    EXPECT_EQ(unknownCa.code, 6);
    EXPECT_NE(unknownCa.err.find("unknown CA"), std::string::npos) << unknownCa.err;
    EXPECT_NE(unknownCa.err.find("LockScope Test CA"), std::string::npos) << unknownCa.err;
    EXPECT_TRUE(unknownCa.out.empty());

    std::string plain = "redis://127.0.0.1:" + std::to_string(tlsServer.endpoint().port);
    auto plaintext = cli({"list", "-u", plain});
    EXPECT_EQ(plaintext.code, 6);
    EXPECT_NE(plaintext.err.find("try rediss://"), std::string::npos) << plaintext.err;

    auto insecure = cli({"list", "-u", tlsUrl(), "--insecure", "--json"});
    EXPECT_EQ(insecure.code, 0) << insecure.err;
    EXPECT_NE(insecure.err.find("NOT verified"), std::string::npos) << insecure.err;
    EXPECT_EQ(jsonLines(insecure.out).size(), 1u);

    auto onUnix = cli({"list", "-u", "unix:///tmp/nothing.sock", "--tls"});
    EXPECT_EQ(onUnix.code, 2);
}

}  // namespace
}  // namespace lockscope::testing
