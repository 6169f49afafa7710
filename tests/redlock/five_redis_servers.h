#pragma once
// The Redlock fixture: five independent redis-servers on free loopback ports (no replication
// between them), started in parallel for each test and stopped afterwards, pass or fail.
// Observer connections read what each node really holds, behind the lock's back.

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/redlock/node_set.h"
#include "lockscope/sandbox/local_redis_server.h"

namespace lockscope::testing {

class FiveRedisServers : public ::testing::Test {
  protected:
    static constexpr int kNodes = 5;

    void SetUp() override;
    void TearDown() override;

    // Override to configure node i (persistence, a password, DEBUG enabled...).
    virtual LocalRedisServerOptions serverOptions(int /*node*/) const { return {}; }

    LocalRedisServer& server(int i) { return *servers_.at(i); }
    std::vector<Endpoint> endpoints() const;
    RedlockNodeSet nodeSet() const { return RedlockNodeSet(endpoints()); }

    // A plain connection to node i that only looks (reconnects after a restart).
    Connection& observer(int i);
    // The value of `key` on every node: nullopt where the key is missing or the node is down.
    std::vector<std::optional<std::string>> valuesOf(const std::string& key);
    // How many running nodes hold `key` with exactly `token`.
    int nodesHolding(const std::string& key, const std::string& token);
    // DBSIZE summed over the running nodes.
    long long totalKeys();

  private:
    std::vector<std::unique_ptr<LocalRedisServer>> servers_;
    std::vector<std::unique_ptr<Connection>> observers_;
};

}  // namespace lockscope::testing
