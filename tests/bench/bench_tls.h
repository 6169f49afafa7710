#pragma once
// A private redis-server with a plaintext port and a TLS port onto the same keyspace, so a
// bench can print its TLS figure as a ratio against the plaintext one measured in the same
// run (issue 10's goals: lock cycle <= 1.25x, annotate <= 1.3x, Redlock over TLS).

#include <memory>
#include <string>
#include <vector>

#include "lockscope/endpoint.h"
#include "lockscope/sandbox/local_redis_server.h"
#include "lockscope/sandbox/tls_certificates.h"

namespace lockscope::bench {

// This run's certificates (a CA and a server certificate for localhost and 127.0.0.1),
// written on first use into a temporary directory.
const TlsCertificateSet& benchCertificates();

class DualPortServer {
  public:
    explicit DualPortServer(std::vector<std::string> extraConfig = {});

    LocalRedisServer& server() { return *server_; }
    int port() const { return server_->port(); }  // the plaintext port
    Endpoint plain() const { return server_->endpoint(); }
    // rediss:// on the TLS port, verified against the bench CA (the name 127.0.0.1 is in the
    // server certificate), as a user with --cacert would connect.
    Endpoint tls() const;
    std::string tlsUrl() const { return "rediss://127.0.0.1:" + std::to_string(tlsPort_); }

  private:
    int tlsPort_;
    std::unique_ptr<LocalRedisServer> server_;
};

}  // namespace lockscope::bench
