#pragma once
// A model of one Redis server with exactly the semantics the scenarios use: strings,
// SET NX/EX/PX, SETNX, GET, DEL, INCR, EXPIRE, PEXPIRE, PTTL, the guide's three scripts,
// and expiry in virtual time (as in Redis 7, a key lives through the millisecond its TTL
// reaches 0, PTTL 0, and is gone from the next one).
// A plain value: copying it is how checkpoints snapshot the server.
// Each model server keeps its own clock (the simulation's time plus an offset), so a clock
// jump on one node (redlock-clock-jump) expires its keys early; every time this class
// takes or returns is simulation time.

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "lockscope/sim/key_value_backend.h"

namespace lockscope::sim {

struct ModelEntry {
    std::string value;
    std::optional<VirtualMs> deadline;  // none: the key never expires
};

class ModelRedis final : public KeyValueBackend {
  public:
    CommandReply execute(const RedisCommand& command, VirtualMs now) override;

    // Read without side effects (what the inspector or a lane would show at time now);
    // the deadline is given in simulation time.
    std::optional<ModelEntry> peek(const std::string& key, VirtualMs now) const;
    // Like PTTL: -2 no key, -1 no TTL, else milliseconds left.
    std::int64_t pttl(const std::string& key, VirtualMs now) const;

    // The first time any key is gone (its deadline + 1 ms), so the simulator can show the
    // expiry as a beat.
    std::optional<VirtualMs> nextDeadline() const;
    // Removes every key whose deadline is before now; returns their names.
    std::vector<std::string> expireDue(VirtualMs now);

    // Sets a key to a replicated state (value and absolute deadline in simulation time), or
    // removes it: how a replica applies what its primary did.
    void apply(const std::string& key, const std::optional<ModelEntry>& entry);

    // The script cache: EVALSHA of a script not loaded here answers NOSCRIPT; EVAL loads it.
    // A fresh server, a restart or a promoted replica starts with it empty (replicas get a
    // script's effects, not the script).
    bool hasScript(const std::string& sha1) const { return scripts_.count(sha1) > 0; }
    void loadScript(const std::string& sha1) { scripts_.insert(sha1); }

    // This server's clock runs offset ms ahead of simulation time (negative: behind).
    // Raising it mid-run is a forward clock jump.
    void setClockOffset(VirtualMs offset) { clockOffset_ = offset; }
    VirtualMs clockOffset() const { return clockOffset_; }

  private:
    VirtualMs local(VirtualMs now) const { return now + clockOffset_; }
    ModelEntry* live(const std::string& key, VirtualMs now);
    CommandReply set(const RedisCommand& c, VirtualMs now);

    std::map<std::string, ModelEntry> keys_;  // deadlines on this server's own clock
    VirtualMs clockOffset_ = 0;
    std::set<std::string> scripts_;
};

}  // namespace lockscope::sim
