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
    // rather than 0, which would read as "not acquired".
    static const Script s(R"lua(local current = redis.call('GET', KEYS[1])
if current == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  local fence = tonumber(redis.call('GET', KEYS[2]))
  if not fence then fence = redis.call('INCR', KEYS[2]) end
  return {fence, 2}
end
if current then return {0, 0} end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
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

}  // namespace lockscope::scripts
