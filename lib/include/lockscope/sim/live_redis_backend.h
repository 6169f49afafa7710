#pragma once
// The actors' commands sent to a real Redis through lockscope::Connection. TTLs are scaled
// from virtual to real milliseconds on the way out (EX becomes PX so that short scaled
// TTLs stay exact) and PTTL replies scaled back; scripts go as EVALSHA with EVAL fallback.

#include "lockscope/connection.h"
#include "lockscope/sim/key_value_backend.h"

namespace lockscope::sim {

class LiveRedisBackend final : public KeyValueBackend {
  public:
    // realMsPerVirtualSecond: 1000 runs in real time, 50 makes 1 virtual s take 50 ms.
    LiveRedisBackend(Connection& connection, int realMsPerVirtualSecond);
    CommandReply execute(const RedisCommand& command, VirtualMs now) override;

    std::int64_t toRealMs(std::int64_t virtualMs) const;
    std::int64_t toVirtualMs(std::int64_t realMs) const;

  private:
    Connection& connection_;
    int scale_;
};

}  // namespace lockscope::sim
