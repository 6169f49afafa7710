#include "lockscope/sim/redis_command.h"

#include "lockscope/lock_scripts.h"
#include "lockscope/script.h"
#include "lockscope/sim/virtual_time.h"

namespace lockscope::sim {

namespace {

// EVAL's first argument, the Lua source, shortened to its first line for the transcript.
std::string evalHead(const Script& script) {
    std::string first = script.source().substr(0, script.source().find('\n'));
    if (first.size() > 48) first = first.substr(0, 48);
    return "EVAL \"" + first + "…\"";
}

// A token as a class reads it: its first four characters are enough to tell two apart.
std::string shortToken(const std::string& token) {
    return token.size() > 8 ? token.substr(0, 4) + "…" : token;
}

}  // namespace

std::string RedisCommand::guideText() const {
    switch (op) {
        case RedisOp::AcquireScript:
            return "acquire(" + key + ", token " + shortToken(value) + ", " + formatDuration(ttl) +
                   ")";
        case RedisOp::ExtendScript:
            return "extend(" + key + ", token " + shortToken(value) + ", " + formatDuration(ttl) +
                   ")";
        case RedisOp::ReleaseScript:
            return "release(" + key + ", token " + shortToken(value) + ")";
        case RedisOp::Set:
        case RedisOp::SetNx: {
            RedisCommand shorter = *this;
            shorter.value = shortToken(value);
            return shorter.text();
        }
        default:
            return text();
    }
}

const char* RedisCommand::lockOp() const {
    switch (op) {
        case RedisOp::Set:
            return nx ? "acquire" : "";
        case RedisOp::SetNx:
        case RedisOp::AcquireScript:
            return "acquire";
        case RedisOp::Del:
        case RedisOp::ReleaseScript:
            return "release";
        case RedisOp::Expire:
        case RedisOp::PExpire:
        case RedisOp::ExtendScript:
            return "extend";
        default:
            return "";
    }
}

std::string RedisCommand::text() const {
    const std::string eval =
        script() ? (sendSource ? evalHead(*script()) : "EVALSHA " + script()->sha1()) : "";
    switch (op) {
        case RedisOp::Set: {
            std::string s = "SET " + key + " " + value;
            if (nx) s += " NX";
            if (ttlUnit == TtlUnit::Seconds) s += " EX " + std::to_string(ttl);
            if (ttlUnit == TtlUnit::Millis) s += " PX " + std::to_string(ttl);
            return s;
        }
        case RedisOp::SetNx:
            return "SETNX " + key + " " + value;
        case RedisOp::Get:
            return "GET " + key;
        case RedisOp::Del:
            return "DEL " + key;
        case RedisOp::Incr:
            return "INCR " + key;
        case RedisOp::Expire:
            return "EXPIRE " + key + " " + std::to_string(ttl);
        case RedisOp::PExpire:
            return "PEXPIRE " + key + " " + std::to_string(ttl);
        case RedisOp::Pttl:
            return "PTTL " + key;
        case RedisOp::AcquireScript:
            return eval + " 2 " + key + " " + fenceKey + " " + value + " " + std::to_string(ttl);
        case RedisOp::ExtendScript:
            return eval + " 1 " + key + " " + value + " " + std::to_string(ttl);
        case RedisOp::ReleaseScript:
            return eval + " 1 " + key + " " + value;
        case RedisOp::Wait:
            return "WAIT " + std::to_string(numReplicas) + " " + std::to_string(ttl);
    }
    return {};
}

const Script* RedisCommand::script() const {
    switch (op) {
        case RedisOp::AcquireScript:
            return &scripts::acquire();
        case RedisOp::ExtendScript:
            return &scripts::extend();
        case RedisOp::ReleaseScript:
            return &scripts::release();
        default:
            return nullptr;
    }
}

std::int64_t RedisCommand::ttlMs() const {
    switch (op) {
        case RedisOp::Set:
            if (ttlUnit == TtlUnit::Seconds) return ttl * 1000;
            if (ttlUnit == TtlUnit::Millis) return ttl;
            return -1;
        case RedisOp::Expire:
            return ttl * 1000;
        case RedisOp::PExpire:
        case RedisOp::AcquireScript:
        case RedisOp::ExtendScript:
            return ttl;
        default:
            return -1;
    }
}

RedisCommand RedisCommand::set(std::string key, std::string value, bool nx, TtlUnit unit,
                               std::int64_t ttl) {
    RedisCommand c;
    c.op = RedisOp::Set;
    c.key = std::move(key);
    c.value = std::move(value);
    c.nx = nx;
    c.ttlUnit = unit;
    c.ttl = ttl;
    return c;
}

RedisCommand RedisCommand::setNx(std::string key, std::string value) {
    RedisCommand c;
    c.op = RedisOp::SetNx;
    c.key = std::move(key);
    c.value = std::move(value);
    return c;
}

namespace {
RedisCommand keyOnly(RedisOp op, std::string key) {
    RedisCommand c;
    c.op = op;
    c.key = std::move(key);
    return c;
}
}  // namespace

RedisCommand RedisCommand::get(std::string key) {
    return keyOnly(RedisOp::Get, std::move(key));
}
RedisCommand RedisCommand::del(std::string key) {
    return keyOnly(RedisOp::Del, std::move(key));
}
RedisCommand RedisCommand::incr(std::string key) {
    return keyOnly(RedisOp::Incr, std::move(key));
}
RedisCommand RedisCommand::pttl(std::string key) {
    return keyOnly(RedisOp::Pttl, std::move(key));
}

RedisCommand RedisCommand::expire(std::string key, std::int64_t seconds) {
    RedisCommand c = keyOnly(RedisOp::Expire, std::move(key));
    c.ttlUnit = TtlUnit::Seconds;
    c.ttl = seconds;
    return c;
}

RedisCommand RedisCommand::pexpire(std::string key, std::int64_t ms) {
    RedisCommand c = keyOnly(RedisOp::PExpire, std::move(key));
    c.ttlUnit = TtlUnit::Millis;
    c.ttl = ms;
    return c;
}

RedisCommand RedisCommand::acquire(std::string key, std::string fenceKey, std::string token,
                                   std::int64_t ttlMs) {
    RedisCommand c = keyOnly(RedisOp::AcquireScript, std::move(key));
    c.fenceKey = std::move(fenceKey);
    c.value = std::move(token);
    c.ttlUnit = TtlUnit::Millis;
    c.ttl = ttlMs;
    return c;
}

RedisCommand RedisCommand::extend(std::string key, std::string token, std::int64_t ttlMs) {
    RedisCommand c = keyOnly(RedisOp::ExtendScript, std::move(key));
    c.value = std::move(token);
    c.ttlUnit = TtlUnit::Millis;
    c.ttl = ttlMs;
    return c;
}

RedisCommand RedisCommand::release(std::string key, std::string token) {
    RedisCommand c = keyOnly(RedisOp::ReleaseScript, std::move(key));
    c.value = std::move(token);
    return c;
}

RedisCommand RedisCommand::wait(int numReplicas, std::int64_t timeoutMs) {
    RedisCommand c;
    c.op = RedisOp::Wait;
    c.numReplicas = numReplicas;
    c.ttl = timeoutMs;  // ttlUnit stays None: WAIT sets no TTL
    return c;
}

std::string CommandReply::summary() const {
    switch (kind) {
        case Kind::Ok:
            return "OK";
        case Kind::Nil:
            return "(nil)";
        case Kind::Integer:
            return "(integer) " + std::to_string(integer);
        case Kind::Bulk:
            return "\"" + bulk + "\"";
        case Kind::Error:
            return "(error) " + bulk;
    }
    return {};
}

}  // namespace lockscope::sim
