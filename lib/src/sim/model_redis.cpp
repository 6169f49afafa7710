#include "lockscope/sim/model_redis.h"

#include <charconv>

#include "lockscope/script.h"

namespace lockscope::sim {

namespace {

// Redis 7 keeps a key until its clock passes the deadline (keyIsExpired: now > when): at the
// deadline itself GET still returns it and PTTL answers 0.
bool pastDeadline(VirtualMs now, VirtualMs deadline) {
    return now > deadline;
}

}  // namespace

ModelEntry* ModelRedis::live(const std::string& key, VirtualMs simNow) {
    const VirtualMs now = local(simNow);
    auto it = keys_.find(key);
    if (it == keys_.end()) return nullptr;
    if (it->second.deadline && pastDeadline(now, *it->second.deadline)) {  // lazily expired
        keys_.erase(it);
        return nullptr;
    }
    return &it->second;
}

std::optional<ModelEntry> ModelRedis::peek(const std::string& key, VirtualMs simNow) const {
    const VirtualMs now = local(simNow);
    auto it = keys_.find(key);
    if (it == keys_.end() || (it->second.deadline && pastDeadline(now, *it->second.deadline)))
        return {};
    ModelEntry entry = it->second;
    if (entry.deadline) *entry.deadline -= clockOffset_;
    return entry;
}

std::int64_t ModelRedis::pttl(const std::string& key, VirtualMs now) const {
    auto entry = peek(key, now);
    if (!entry) return -2;
    if (!entry->deadline) return -1;
    return *entry->deadline - now;
}

std::optional<VirtualMs> ModelRedis::nextDeadline() const {
    std::optional<VirtualMs> earliest;
    for (const auto& [key, entry] : keys_)
        if (entry.deadline && (!earliest || *entry.deadline < *earliest)) earliest = entry.deadline;
    // The first millisecond the key is gone, in simulation time.
    if (earliest) *earliest = *earliest + 1 - clockOffset_;
    return earliest;
}

std::vector<std::string> ModelRedis::expireDue(VirtualMs now) {
    std::vector<std::string> gone;
    for (auto it = keys_.begin(); it != keys_.end();) {
        if (it->second.deadline && pastDeadline(local(now), *it->second.deadline)) {
            gone.push_back(it->first);
            it = keys_.erase(it);
        } else {
            ++it;
        }
    }
    return gone;
}

void ModelRedis::apply(const std::string& key, const std::optional<ModelEntry>& entry) {
    if (!entry) {
        keys_.erase(key);
        return;
    }
    ModelEntry local = *entry;
    if (local.deadline) *local.deadline += clockOffset_;
    keys_[key] = local;
}

CommandReply ModelRedis::set(const RedisCommand& c, VirtualMs now) {
    if (c.nx && live(c.key, now)) return CommandReply::nil();
    ModelEntry entry{c.value, {}};
    if (std::int64_t ttl = c.ttlMs(); ttl >= 0) entry.deadline = local(now) + ttl;
    keys_[c.key] = entry;  // a plain SET also clears an old TTL, as Redis does
    return CommandReply::ok();
}

CommandReply ModelRedis::execute(const RedisCommand& c, VirtualMs now) {
    if (const Script* script = c.script()) {
        if (c.sendSource)
            loadScript(script->sha1());
        else if (!hasScript(script->sha1()))
            return CommandReply::noScript();
    }
    switch (c.op) {
        case RedisOp::Set:
            return set(c, now);
        case RedisOp::SetNx:
            if (live(c.key, now)) return CommandReply::number(0);
            keys_[c.key] = ModelEntry{c.value, {}};
            return CommandReply::number(1);
        case RedisOp::Get: {
            ModelEntry* e = live(c.key, now);
            return e ? CommandReply::text(e->value) : CommandReply::nil();
        }
        case RedisOp::Del: {
            if (!live(c.key, now)) return CommandReply::number(0);
            keys_.erase(c.key);
            return CommandReply::number(1);
        }
        case RedisOp::Incr: {
            ModelEntry* e = live(c.key, now);
            std::int64_t n = 0;
            if (e) std::from_chars(e->value.data(), e->value.data() + e->value.size(), n);
            ++n;
            if (e) {
                e->value = std::to_string(n);  // INCR keeps the key's TTL
            } else {
                keys_[c.key] = ModelEntry{std::to_string(n), {}};
            }
            return CommandReply::number(n);
        }
        case RedisOp::Expire:
        case RedisOp::PExpire: {
            ModelEntry* e = live(c.key, now);
            if (!e) return CommandReply::number(0);
            e->deadline = local(now) + c.ttlMs();
            return CommandReply::number(1);
        }
        case RedisOp::Pttl:
            return CommandReply::number(pttl(c.key, now));
        case RedisOp::AcquireScript: {
            // if SET NX PX succeeds then return INCR fence, else 0 — one atomic unit.
            RedisCommand setNx = RedisCommand::set(c.key, c.value, true, TtlUnit::Millis, c.ttl);
            if (set(setNx, now).isNil()) return CommandReply::number(0);
            return execute(RedisCommand::incr(c.fenceKey), now);
        }
        case RedisOp::ExtendScript: {
            ModelEntry* e = live(c.key, now);
            if (!e || e->value != c.value) return CommandReply::number(0);
            e->deadline = local(now) + c.ttl;
            return CommandReply::number(1);
        }
        case RedisOp::ReleaseScript: {
            ModelEntry* e = live(c.key, now);
            if (!e || e->value != c.value) return CommandReply::number(0);
            keys_.erase(c.key);
            return CommandReply::number(1);
        }
        case RedisOp::Wait:
            // One server alone knows no replicas: Redis answers 0 at once. The replication
            // model's WAIT (wait_for_replicas.h) is answered by the simulator instead.
            return CommandReply::number(0);
    }
    return CommandReply::nil();
}

}  // namespace lockscope::sim
