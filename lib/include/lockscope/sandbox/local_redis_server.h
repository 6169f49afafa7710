#pragma once
// A private redis-server process on a free loopback port in its own temporary directory:
// the embedded sandbox of the app and the fixture of every test. Stopped (and its
// directory removed) by the destructor; it also dies with its parent process.

#include <sys/types.h>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "lockscope/endpoint.h"

namespace lockscope {

// A server that speaks TLS only on its port, like a managed service with the plaintext
// port closed (see tls_certificates.h for files to use).
struct LocalRedisTls {
    std::string certFile, keyFile;
    std::string caFile;              // clients verify against it; it also checks client certs
    bool requireClientCert = false;  // mutual TLS (tls-auth-clients yes)
};

struct LocalRedisServerOptions {
    std::string executable = "redis-server";  // looked up on PATH
    bool persistence = false;                 // append-only file, fsync always: survives restart()
    std::vector<std::string> configLines;     // extra redis.conf lines, e.g. "requirepass s3cret"
    int port = 0;                             // 0: pick a free port
    std::chrono::milliseconds startTimeout{5000};
    std::optional<LocalRedisTls> tls;  // set: the port is TLS only
};

class LocalRedisServer {
  public:
    explicit LocalRedisServer(LocalRedisServerOptions options = {});
    ~LocalRedisServer();
    LocalRedisServer(const LocalRedisServer&) = delete;
    LocalRedisServer& operator=(const LocalRedisServer&) = delete;

    int port() const { return port_; }
    const std::string& directory() const { return directory_; }
    std::string unixSocket() const { return directory_ + "/redis.sock"; }
    // redis://127.0.0.1:port, default user, no password; rediss:// verified against the
    // CA file when the server speaks TLS.
    Endpoint endpoint() const;
    std::string url() const { return endpoint().display(); }
    pid_t pid() const { return pid_; }
    bool running() const { return pid_ > 0; }

    void start();    // on the same port and directory (after stop())
    void stop();     // SIGTERM, then SIGKILL after 5 s
    void restart();  // stop + start on the same port
    void pause();    // SIGSTOP: the server stops answering but keeps its sockets
    void resume();   // SIGCONT

  private:
    void writeConfig() const;
    void spawn();
    void waitUntilAnswering();
    std::string logTail() const;

    LocalRedisServerOptions options_;
    std::string directory_;
    int port_ = 0;
    pid_t pid_ = -1;
};

// A TCP port on 127.0.0.1 that nothing listened on a moment ago.
int findFreePort();

}  // namespace lockscope
