#pragma once
// GoogleTest fixtures over real redis-server processes. Each test gets its own server(s)
// on free loopback ports in temporary directories; they stop when the test ends, pass or
// fail. Tests never touch a server they did not start.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/sandbox/local_redis_server.h"

namespace lockscope::testing {

class RedisTest : public ::testing::Test {
  protected:
    void SetUp() override;
    void TearDown() override;

    // Override to configure the server (persistence, ACL users, a password...).
    virtual LocalRedisServerOptions serverOptions() const { return {}; }

    LocalRedisServer& server() { return *server_; }
    Endpoint endpoint() const { return server_->endpoint(); }
    Connection connect(const ConnectionOptions& options = {}) const {
        return Connection::open(endpoint(), options);
    }
    // A second client that only looks: used to check what the server really holds.
    Connection& observer();

    // DBSIZE of the test server, through the observer connection.
    long long keyCount();

  private:
    std::unique_ptr<LocalRedisServer> server_;
    std::unique_ptr<Connection> observer_;
};

// A file path inside a fresh temporary directory that is removed at destruction.
class TempDir {
  public:
    TempDir();
    ~TempDir();
    std::string path(const std::string& name) const { return dir_ + "/" + name; }

  private:
    std::string dir_;
};

}  // namespace lockscope::testing
