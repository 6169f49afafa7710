#pragma once
// A real redis-server with the library's fault proxy in front of it: a test sends its client
// through proxy() (where it injects the faults) and checks what the server really holds with
// observer(), which goes straight to the server.

#include <memory>

#include "lockscope/proxy/loopback_proxy.h"
#include "redis_fixture.h"

namespace lockscope::testing {

class ProxiedRedisTest : public RedisTest {
  protected:
    void SetUp() override {
        RedisTest::SetUp();
        proxy_ = std::make_unique<LoopbackProxy>(endpoint());
    }
    void TearDown() override {
        proxy_.reset();
        RedisTest::TearDown();
    }
    LoopbackProxy& proxy() { return *proxy_; }
    Connection viaProxy(const ConnectionOptions& options = {}) {
        return Connection::open(proxy_->endpoint(), options);
    }

  private:
    std::unique_ptr<LoopbackProxy> proxy_;
};

}  // namespace lockscope::testing
