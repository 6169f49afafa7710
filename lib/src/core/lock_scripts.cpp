#include "lockscope/lock_scripts.h"

namespace lockscope::scripts {

const Script& acquire() {
    static const Script s(R"lua(if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[2])
end
return 0)lua");
    return s;
}

const Script& acquireOrRenew() {
    // A missing fence counter next to our own token (someone deleted it) gets a fresh number
    // rather than 0, which would read as "not acquired". The optional holder hash (KEYS[3],
    // fields from ARGV[3]) is written whole each time the lock is ours, with the lock's TTL.
    static const Script s(R"lua(local function holder()
  if KEYS[3] then
    redis.call('DEL', KEYS[3])
    redis.call('HSET', KEYS[3], unpack(ARGV, 3))
    redis.call('PEXPIRE', KEYS[3], ARGV[2])
  end
end
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  local fence = tonumber(redis.call('GET', KEYS[2]))
  if not fence then fence = redis.call('INCR', KEYS[2]) end
  holder()
  return {fence, 2}
end
if current then return {0, 0} end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
holder()
return {redis.call('INCR', KEYS[2]), 1})lua");
    return s;
}

const Script& redlockAcquire() {
    static const Script s(R"lua(if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 2
end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return 0)lua");
    return s;
}

const Script& extend() {
    static const Script s(R"lua(if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0)lua");
    return s;
}

const Script& release() {
    static const Script s(R"lua(if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0)lua");
    return s;
}

const Script& extendWithHolder() {
    static const Script s(R"lua(if redis.call('GET', KEYS[1]) == ARGV[1] then
  if redis.call('HGET', KEYS[2], 'token') == ARGV[1] then
    redis.call('PEXPIRE', KEYS[2], ARGV[2])
  end
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0)lua");
    return s;
}

const Script& releaseWithHolder() {
    static const Script s(R"lua(if redis.call('GET', KEYS[1]) == ARGV[1] then
  if redis.call('HGET', KEYS[2], 'token') == ARGV[1] then redis.call('DEL', KEYS[2]) end
  return redis.call('DEL', KEYS[1])
end
return 0)lua");
    return s;
}

}  // namespace lockscope::scripts
