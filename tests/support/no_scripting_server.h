#pragma once
// A fixture server with an ACL user that may run everything but scripts ("cache", password
// "pw", -@scripting), as on managed caches that refuse EVAL/EVALSHA: the tests of the
// WATCH/GET/MULTI/EXEC paths connect as that user.

#include "redis_fixture.h"

namespace lockscope::testing {

class NoScriptingServerTest : public RedisTest {
  protected:
    LocalRedisServerOptions serverOptions() const override {
        return {.configLines = {"user cache on >pw ~* &* +@all -@scripting"}};
    }
    // The endpoint as the user denied scripting.
    Endpoint cacheUserEndpoint() const {
        Endpoint e = endpoint();
        e.user = "cache";
        e.password = "pw";
        return e;
    }
    Connection asCacheUser(const ConnectionOptions& options = {}) const {
        return Connection::open(cacheUserEndpoint(), options);
    }
};

}  // namespace lockscope::testing
