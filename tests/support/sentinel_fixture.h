#pragma once
// A real Sentinel deployment for tests: a primary, a replica and three Sentinels
// (redis-server in Sentinel mode, started through a link named redis-sentinel, as Debian's
// redis-sentinel package does) on free loopback ports, watching the service "mymaster" with a
// short down-after-milliseconds so SENTINEL FAILOVER completes in a few seconds.

#include <memory>
#include <string>
#include <vector>

#include "lockscope/sandbox/local_redis_server.h"
#include "lockscope/sentinel.h"
#include "redis_fixture.h"

namespace lockscope::testing {

class SentinelGroup {
  public:
    explicit SentinelGroup(std::string service = "mymaster");
    ~SentinelGroup();

    LocalRedisServer& server(std::size_t i) { return *servers_.at(i); }  // 0: first primary
    LocalRedisServer& sentinel(std::size_t i) { return *sentinels_.at(i); }
    std::size_t sentinelCount() const { return sentinels_.size(); }
    // redis-sentinel://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3#mymaster
    std::string url() const;
    SentinelTarget target() const;
    // The data server that is the primary now (ROLE), or -1.
    int primaryIndex();
    // SENTINEL FAILOVER, then waits until the other server is primary and the Sentinels say so.
    void failover();

  private:
    std::string service_;
    TempDir links_;
    std::vector<std::unique_ptr<LocalRedisServer>> servers_;
    std::vector<std::unique_ptr<LocalRedisServer>> sentinels_;
};

}  // namespace lockscope::testing
