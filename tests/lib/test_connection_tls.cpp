// TLS like redis-cli, against Debian's redis-server started with --tls-port and
// certificates made for this test run: verification of the chain and the name, mutual TLS,
// --insecure, and each failure as a clear message naming the endpoint.

#include "lockscope/errors.h"
#include "lockscope/redis_lock.h"
#include "sanitizer_time.h"
#include "tls_fixture.h"

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::testing::RedisTest;
using lockscope::testing::serverTls;
using lockscope::testing::testCertificates;
using lockscope::testing::TlsRedisTest;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// The message of the error `open` throws, checked to be of type E.
template <typename E, typename F>
std::string messageOf(F open) {
    try {
        open();
    } catch (const E& e) {
        return e.what();
    } catch (const std::exception& e) {
        ADD_FAILURE() << "unexpected error type: " << e.what();
        return {};
    }
    ADD_FAILURE() << "no error";
    return {};
}

Endpoint byName(Endpoint e) {
    e.host = "localhost";
    return e;
}

}  // namespace

TEST_F(TlsRedisTest, ConnectsByNameAndByAddressAndReportsTheSession) {
    for (const Endpoint& e : {endpoint(), byName(endpoint())}) {
        Connection c = Connection::open(e);
        EXPECT_EQ(c.command({"PING"}).text(), "PONG");
        auto session = c.tlsSession();
        ASSERT_TRUE(session);
        EXPECT_TRUE(session->protocol == "TLSv1.3" || session->protocol == "TLSv1.2");
        EXPECT_FALSE(session->cipher.empty());
        EXPECT_TRUE(contains(session->subject, "localhost")) << session->subject;
        EXPECT_TRUE(contains(session->issuer, "LockScope Test CA")) << session->issuer;
        EXPECT_FALSE(session->notAfter.empty());
        EXPECT_TRUE(session->verified);
    }
}

TEST_F(TlsRedisTest, ParsesRedissUrlsAndLocksOverTls) {
    Endpoint e = parseEndpoint("rediss://localhost:" + std::to_string(server().port()));
    e.tls.caFile = testCertificates().caCert;
    RedisLock lock(Connection::open(e), "report");
    auto fence = lock.acquire();
    ASSERT_TRUE(fence);
    EXPECT_TRUE(lock.release());
}

TEST_F(TlsRedisTest, UnknownCaNamesTheIssuer) {
    Endpoint e = endpoint();
    e.tls.caFile.clear();  // the system store does not know the test CA
    std::string m = messageOf<TlsError>([&] { Connection::open(e); });
    EXPECT_TRUE(contains(m, e.display())) << m;
    EXPECT_TRUE(contains(m, "unknown CA")) << m;
    EXPECT_TRUE(contains(m, "LockScope Test CA")) << m;
}

TEST_F(TlsRedisTest, InsecureSkipsVerificationAndSaysSo) {
    Endpoint e = endpoint();
    e.tls.caFile.clear();
    e.tls.insecure = true;
    // The default timeouts, scaled: under ThreadSanitizer on a loaded machine the PING took
    // longer than 2000 ms (IoError "no reply within 2000 ms").
    ConnectionOptions slow;
    slow.connectTimeout = lockscope::testing::scaled(slow.connectTimeout);
    slow.commandTimeout = lockscope::testing::scaled(slow.commandTimeout);
    Connection c = Connection::open(e, slow);
    EXPECT_EQ(c.command({"PING"}).text(), "PONG");
    EXPECT_FALSE(c.tlsSession()->verified);
}

TEST_F(TlsRedisTest, ACaFileThatDoesNotExistIsNamed) {
    Endpoint e = endpoint();
    e.tls.caFile = "/nonexistent/ca.crt";
    std::string m = messageOf<InvalidArgumentError>([&] { Connection::open(e); });
    EXPECT_TRUE(contains(m, "/nonexistent/ca.crt")) << m;
}

TEST_F(TlsRedisTest, AKeyThatDoesNotMatchTheCertificateIsNamed) {
    Endpoint e = endpoint();
    e.tls.certFile = testCertificates().clientCert;
    e.tls.keyFile = testCertificates().serverKey;
    std::string m = messageOf<InvalidArgumentError>([&] { Connection::open(e); });
    EXPECT_TRUE(contains(m, "does not match the certificate")) << m;
    EXPECT_TRUE(contains(m, "server.key")) << m;
}

TEST_F(TlsRedisTest, APlaintextClientOnTheTlsPortIsToldToUseRediss) {
    Endpoint e = endpoint();
    e.tls = {};
    std::string m = messageOf<IoError>([&] {
        Connection c = Connection::open(e, {.commandTimeout = 1000ms});
        c.command({"PING"});
    });
    EXPECT_TRUE(contains(m, "TLS port")) << m;
    EXPECT_TRUE(contains(m, "rediss://")) << m;
}

TEST_F(RedisTest, ATlsClientOnAPlaintextPortIsToldSo) {
    Endpoint e = endpoint();
    e.tls.enabled = true;
    e.tls.caFile = testCertificates().caCert;
    std::string m = messageOf<IoError>([&] { Connection::open(e, {.connectTimeout = 1000ms}); });
    EXPECT_TRUE(contains(m, "plaintext port")) << m;
    EXPECT_TRUE(contains(m, "redis://")) << m;
}

class TlsServerWith : public RedisTest {
  protected:
    LocalRedisTls tls_;
    LocalRedisServerOptions serverOptions() const override { return {.tls = tls_}; }
};

class OtherHostServer : public TlsServerWith {
  protected:
    void SetUp() override {
        tls_ = serverTls(testCertificates().otherHostCert, testCertificates().otherHostKey);
        TlsServerWith::SetUp();
    }
};

TEST_F(OtherHostServer, ANameMismatchListsTheNamesInTheCertificate) {
    Endpoint e = byName(endpoint());
    std::string m = messageOf<TlsError>([&] { Connection::open(e); });
    EXPECT_TRUE(contains(m, "expected \"localhost\"")) << m;
    EXPECT_TRUE(contains(m, "db.example.com")) << m;
    // --sni names the host the certificate is for: checked against that name, it passes.
    e.tls.serverName = "db.example.com";
    EXPECT_EQ(Connection::open(e).command({"PING"}).text(), "PONG");
}

class ExpiredServer : public TlsServerWith {
  protected:
    void SetUp() override {
        tls_ = serverTls(testCertificates().expiredCert, testCertificates().expiredKey);
        TlsServerWith::SetUp();
    }
};

TEST_F(ExpiredServer, AnExpiredCertificateSaysWhen) {
    std::string m = messageOf<TlsError>([&] { Connection::open(endpoint()); });
    EXPECT_TRUE(contains(m, "expired on")) << m;
    EXPECT_TRUE(contains(m, "GMT")) << m;
}

class MutualTlsServer : public TlsServerWith {
  protected:
    void SetUp() override {
        tls_ = serverTls(testCertificates().serverCert, testCertificates().serverKey, true);
        TlsServerWith::SetUp();
    }
};

TEST_F(MutualTlsServer, WithoutAClientCertificateTheErrorSaysOneIsRequired) {
    std::string m = messageOf<TlsError>([&] { Connection::open(endpoint()); });
    EXPECT_TRUE(contains(m, endpoint().display())) << m;
    EXPECT_TRUE(contains(m, "client certificate")) << m;
}

TEST_F(MutualTlsServer, WithTheClientCertificateItConnects) {
    Endpoint e = endpoint();
    e.tls.certFile = testCertificates().clientCert;
    e.tls.keyFile = testCertificates().clientKey;
    Connection c = Connection::open(e);
    c.command({"SET", "k", "v"});
    EXPECT_EQ(c.command({"GET", "k"}).text(), "v");
}

TEST_F(MutualTlsServer, AClientCertificateFromAnotherCaIsRefused) {
    Endpoint e = endpoint();
    e.tls.certFile = testCertificates().foreignClientCert;
    e.tls.keyFile = testCertificates().foreignClientKey;
    std::string m = messageOf<TlsError>([&] { Connection::open(e); });
    EXPECT_TRUE(contains(m, "refused our client certificate")) << m;
}
