#pragma once
// Where the actors' Redis commands go: the model (ModelRedis, pure virtual time) or a real
// server (LiveRedisBackend). The actor code is the same for both.

#include "lockscope/sim/redis_command.h"
#include "lockscope/sim/virtual_time.h"

namespace lockscope::sim {

class KeyValueBackend {
  public:
    virtual ~KeyValueBackend() = default;
    // Runs one command (a script runs as one atomic unit) at virtual time now.
    virtual CommandReply execute(const RedisCommand& command, VirtualMs now) = 0;
};

}  // namespace lockscope::sim
