#include "lockscope/lock_scripts.h"

namespace lockscope::scripts {

const Script& acquire() {
    static const Script s(R"lua(if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[2])
end
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
