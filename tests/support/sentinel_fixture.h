#pragma once
// A real Sentinel deployment for tests: a primary, a replica and three Sentinels
// (redis-server in Sentinel mode, started through a link named redis-sentinel, as Debian's
// redis-sentinel package does) on free loopback ports, watching the service "mymaster" with a
// short down-after-milliseconds so SENTINEL FAILOVER completes in a few seconds. With a
// sentinelPassword the Sentinels require it (requirepass, and sentinel-pass among them), and
// url() carries it as ?sentinel-password=.

#include <memory>
#include <string>
#include <vector>

#include "lockscope/sandbox/local_redis_server.h"
#include "lockscope/sentinel.h"
#include "redis_fixture.h"

namespace lockscope::testing {

class SentinelGroup {
  public:
    explicit SentinelGroup(std::string service = "mymaster", std::string sentinelPassword = {});
    ~SentinelGroup();

    LocalRedisServer& server(std::size_t i) { return *servers_.at(i); }  // 0: first primary
    LocalRedisServer& sentinel(std::size_t i) { return *sentinels_.at(i); }
    std::size_t sentinelCount() const { return sentinels_.size(); }
    // redis-sentinel://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3#mymaster (with
    // ?sentinel-password=, percent-encoded, before the '#' when the Sentinels have one)
    std::string url() const;
    const std::string& sentinelPassword() const { return sentinelPassword_; }
    SentinelTarget target() const;
    // The data server that is the primary now (ROLE), or -1.
    int primaryIndex();
    // SENTINEL FAILOVER, then waits until the other server is primary and the Sentinels say so.
    void failover();

  private:
    Endpoint sentinelEndpoint(std::size_t i) const;  // with the Sentinels' password

    std::string service_;
    std::string sentinelPassword_;
    TempDir links_;
    std::vector<std::unique_ptr<LocalRedisServer>> servers_;
    std::vector<std::unique_ptr<LocalRedisServer>> sentinels_;
};

}  // namespace lockscope::testing
