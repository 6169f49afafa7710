// Mutual TLS with an encrypted client key: the passphrase comes from TlsOptions (the window
// keeps it in the keychain), never from a terminal prompt. Without it, or with a wrong one,
// the key is refused with a message naming the file; with it the connection works.

#include <openssl/evp.h>
#include <openssl/pem.h>

#include <cstdio>

#include "lockscope/errors.h"
#include "tls_fixture.h"

using namespace lockscope;
using lockscope::testing::RedisTest;
using lockscope::testing::serverTls;
using lockscope::testing::TempDir;
using lockscope::testing::testCertificates;

namespace {

// The test set's client key, written again encrypted with AES-256 under `passphrase`.
std::string encryptedClientKey(const std::string& path, const std::string& passphrase) {
    FILE* in = std::fopen(testCertificates().clientKey.c_str(), "r");
    EVP_PKEY* key = in ? PEM_read_PrivateKey(in, nullptr, nullptr, nullptr) : nullptr;
    if (in) std::fclose(in);
    FILE* out = std::fopen(path.c_str(), "w");
    bool ok = key && out &&
              PEM_write_PrivateKey(out, key, EVP_aes_256_cbc(),
                                   reinterpret_cast<const unsigned char*>(passphrase.data()),
                                   static_cast<int>(passphrase.size()), nullptr, nullptr) == 1;
    if (out) std::fclose(out);
    EVP_PKEY_free(key);
    if (!ok) throw std::runtime_error("cannot write the encrypted key");
    return path;
}

class EncryptedKeyServer : public RedisTest {
  protected:
    LocalRedisServerOptions serverOptions() const override {
        return {.tls =
                    serverTls(testCertificates().serverCert, testCertificates().serverKey, true)};
    }
    Endpoint withKey(const std::string& passphrase) {
        Endpoint e = endpoint();
        e.tls.certFile = testCertificates().clientCert;
        e.tls.keyFile = key_;
        e.tls.keyPassphrase = passphrase;
        return e;
    }
    TempDir dir_;
    std::string key_ = encryptedClientKey(dir_.path("client-encrypted.key"), "s3cret pass");
};

std::string refusal(const Endpoint& e) {
    try {
        Connection::open(e);
    } catch (const InvalidArgumentError& error) {
        return error.what();
    }
    ADD_FAILURE() << "the encrypted key was accepted";
    return {};
}

}  // namespace

TEST_F(EncryptedKeyServer, WithoutThePassphraseTheKeyIsRefusedNotPromptedFor) {
    std::string m = refusal(withKey(""));
    EXPECT_NE(m.find(key_), std::string::npos) << m;
    EXPECT_NE(m.find("encrypted and no passphrase was given"), std::string::npos) << m;
}

TEST_F(EncryptedKeyServer, AWrongPassphraseIsSaidSoEvenAfterTheRightOne) {
    Connection::open(withKey("s3cret pass"));  // its context is cached
    std::string m = refusal(withKey("guess"));
    EXPECT_NE(m.find("passphrase does not decrypt the key"), std::string::npos) << m;
}

TEST_F(EncryptedKeyServer, WithThePassphraseItConnects) {
    Connection c = Connection::open(withKey("s3cret pass"));
    EXPECT_EQ(c.command({"PING"}).text(), "PONG");
    // The passphrase is no part of what identifies the endpoint.
    EXPECT_EQ(c.endpoint().display().find("s3cret"), std::string::npos);
}
