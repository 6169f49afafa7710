#pragma once
// TLS certificates made once per test run (a CA, a server certificate for localhost and
// 127.0.0.1, a client certificate, and the bad ones), and a fixture whose redis-server
// speaks TLS only on its port.

#include "lockscope/sandbox/tls_certificates.h"
#include "redis_fixture.h"

namespace lockscope::testing {

// The certificate set of this test run, written on first use into a temporary directory.
const TlsCertificateSet& testCertificates();

// The server TLS options for a certificate and key of the test set.
LocalRedisTls serverTls(const std::string& cert, const std::string& key,
                        bool requireClientCert = false);

class TlsRedisTest : public RedisTest {
  protected:
    LocalRedisServerOptions serverOptions() const override {
        const auto& c = testCertificates();
        return {.tls = serverTls(c.serverCert, c.serverKey)};
    }
};

}  // namespace lockscope::testing
