#include "lockscope/sim/live_redis_backend.h"

#include <algorithm>

#include "lockscope/errors.h"
#include "lockscope/lock_scripts.h"
#include "lockscope/script.h"

namespace lockscope::sim {

namespace {

CommandReply fromReply(const Reply& r) {
    switch (r.type()) {
        case ReplyType::Nil:
            return CommandReply::nil();
        case ReplyType::Integer:
            return CommandReply::number(r.integer());
        case ReplyType::Status:
            return CommandReply::ok();
        case ReplyType::String:
            return CommandReply::text(std::string(r.text()));
        default:
            return CommandReply::nil();
    }
}

// EVALSHA (or EVAL with the source) as sent, so a NOSCRIPT comes back as the reply it is.
CommandReply runScript(Connection& connection, const Script& script, bool sendSource,
                       std::vector<std::string_view> keys, std::vector<std::string_view> args) {
    const std::string count = std::to_string(keys.size());
    std::vector<std::string_view> argv{sendSource ? "EVAL" : "EVALSHA",
                                       sendSource ? script.source() : script.sha1(), count};
    argv.insert(argv.end(), keys.begin(), keys.end());
    argv.insert(argv.end(), args.begin(), args.end());
    try {
        return fromReply(connection.command(Connection::Argv(argv)));
    } catch (const ReplyError& e) {
        // By the reply's code: an unknown EVALSHA echoes its arguments, a key among them.
        if (e.code() != ServerErrorCode::NoScript) throw;
        return CommandReply::noScript();
    }
}

}  // namespace

LiveRedisBackend::LiveRedisBackend(Connection& connection, int realMsPerVirtualSecond)
    : connection_(connection), scale_(realMsPerVirtualSecond) {}

std::int64_t LiveRedisBackend::toRealMs(std::int64_t virtualMs) const {
    return std::max<std::int64_t>(1, (virtualMs * scale_ + 500) / 1000);
}

std::int64_t LiveRedisBackend::toVirtualMs(std::int64_t realMs) const {
    return realMs < 0 ? realMs : (realMs * 1000 + scale_ / 2) / scale_;
}

CommandReply LiveRedisBackend::execute(const RedisCommand& c, VirtualMs /*now*/) {
    const std::string ttl = std::to_string(toRealMs(c.ttlMs()));
    switch (c.op) {
        case RedisOp::Set: {
            std::vector<std::string_view> argv{"SET", c.key, c.value};
            if (c.nx) argv.emplace_back("NX");
            if (c.ttlUnit != TtlUnit::None) {  // EX becomes PX: a scaled TTL is sub-second
                argv.emplace_back("PX");
                argv.push_back(ttl);
            }
            return fromReply(connection_.command(Connection::Argv(argv)));
        }
        case RedisOp::SetNx:
            return fromReply(connection_.command({"SETNX", c.key, c.value}));
        case RedisOp::Get:
            return fromReply(connection_.command({"GET", c.key}));
        case RedisOp::Del:
            return fromReply(connection_.command({"DEL", c.key}));
        case RedisOp::Incr:
            return fromReply(connection_.command({"INCR", c.key}));
        case RedisOp::Expire:
        case RedisOp::PExpire:
            return fromReply(connection_.command({"PEXPIRE", c.key, ttl}));
        case RedisOp::Pttl: {
            CommandReply r = fromReply(connection_.command({"PTTL", c.key}));
            r.integer = toVirtualMs(r.integer);
            return r;
        }
        case RedisOp::AcquireScript:
            return runScript(connection_, scripts::acquire(), c.sendSource, {c.key, c.fenceKey},
                             {c.value, ttl});
        case RedisOp::ExtendScript:
            return runScript(connection_, scripts::extend(), c.sendSource, {c.key}, {c.value, ttl});
        case RedisOp::ReleaseScript:
            return runScript(connection_, scripts::release(), c.sendSource, {c.key}, {c.value});
        case RedisOp::Wait: {
            const std::string replicas = std::to_string(c.numReplicas);
            const std::string timeout = std::to_string(toRealMs(c.ttl));
            return fromReply(connection_.command({"WAIT", replicas, timeout}));
        }
    }
    return CommandReply::nil();
}

}  // namespace lockscope::sim
