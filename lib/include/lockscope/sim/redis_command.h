#pragma once
// The Redis commands the scenarios send, as values: what to do (for the model and the live
// backend) and the exact text shown in the transcript. TTLs are in virtual time; the live
// backend scales them on the way out.

#include <cstdint>
#include <string>
#include <string_view>

namespace lockscope {
class Script;
}

namespace lockscope::sim {

enum class RedisOp {
    Set,            // SET key value [NX] [EX s | PX ms]
    SetNx,          // SETNX key value
    Get,            // GET key
    Del,            // DEL key
    Incr,           // INCR key
    Expire,         // EXPIRE key seconds
    PExpire,        // PEXPIRE key ms
    Pttl,           // PTTL key
    AcquireScript,  // the guide's acquire: SET NX PX + INCR fence, atomically
    ExtendScript,   // the guide's extend: PEXPIRE only while GET == token
    ReleaseScript,  // the guide's release: DEL only while GET == token
    Wait,  // WAIT numreplicas timeout: blocks until replicas acknowledge (wait_for_replicas.h)
};

enum class TtlUnit { None, Seconds, Millis };

struct RedisCommand {
    RedisOp op = RedisOp::Get;
    int node = 0;  // which server of World::nodes receives it
    std::string key;
    std::string fenceKey;  // AcquireScript only
    std::string value;     // SET/SETNX value, or the token of a script
    bool nx = false;
    TtlUnit ttlUnit = TtlUnit::None;
    std::int64_t ttl = 0;  // in ttlUnit (Expire: seconds, PExpire and scripts: ms)
    int numReplicas = 0;   // Wait only; its timeout (ms) is in ttl with ttlUnit None
    // Scripts only: sent as EVAL with the Lua source (the fallback after NOSCRIPT, which
    // also caches the script), rather than EVALSHA with its SHA1.
    bool sendSource = false;

    // The argv as a client would send it, joined by spaces: "SET lock:report 1 NX EX 10",
    // "EVALSHA <sha1> 2 lock:{report:daily} fence:{report:daily} <token> 30000".
    std::string text() const;
    // As the guide writes it, for a class: a script by its name with its keys and arguments
    // ("acquire(lock:{report:daily}, token b09c…, 30 s)"); other commands as text() with a
    // long value shortened.
    std::string guideText() const;
    // What it does to a lock: "acquire" (SET NX, SETNX, the acquire script), "release" (DEL,
    // the release script), "extend" (EXPIRE, PEXPIRE, the extend script), else "".
    const char* lockOp() const;
    // The Lua source for script commands (shown as a tooltip), nullptr otherwise.
    const Script* script() const;
    // TTL in virtual milliseconds, or -1 when the command sets none.
    std::int64_t ttlMs() const;

    static RedisCommand set(std::string key, std::string value, bool nx, TtlUnit unit,
                            std::int64_t ttl);
    static RedisCommand setNx(std::string key, std::string value);
    static RedisCommand get(std::string key);
    static RedisCommand del(std::string key);
    static RedisCommand incr(std::string key);
    static RedisCommand expire(std::string key, std::int64_t seconds);
    static RedisCommand pexpire(std::string key, std::int64_t ms);
    static RedisCommand pttl(std::string key);
    static RedisCommand acquire(std::string key, std::string fenceKey, std::string token,
                                std::int64_t ttlMs);
    static RedisCommand extend(std::string key, std::string token, std::int64_t ttlMs);
    static RedisCommand release(std::string key, std::string token);
    static RedisCommand wait(int numReplicas, std::int64_t timeoutMs);
};

// A reply reduced to what the scenarios need; equal replies print the same summary.
struct CommandReply {
    enum class Kind { Ok, Nil, Integer, Bulk, Error };
    Kind kind = Kind::Nil;
    std::int64_t integer = 0;
    std::string bulk;

    static CommandReply ok() { return {Kind::Ok, 0, {}}; }
    static CommandReply nil() { return {Kind::Nil, 0, {}}; }
    static CommandReply number(std::int64_t n) { return {Kind::Integer, n, {}}; }
    static CommandReply text(std::string s) { return {Kind::Bulk, 0, std::move(s)}; }
    static CommandReply error(std::string s) { return {Kind::Error, 0, std::move(s)}; }
    // What Redis answers EVALSHA for a script it has not cached.
    static CommandReply noScript() {
        return error("NOSCRIPT No matching script. Please use EVAL.");
    }
    bool isNoScript() const { return kind == Kind::Error && bulk.starts_with("NOSCRIPT"); }

    bool isOk() const { return kind == Kind::Ok; }
    bool isNil() const { return kind == Kind::Nil; }
    // redis-cli style: OK, (nil), (integer) 3, "abc", (error) NOSCRIPT ....
    std::string summary() const;
    bool operator==(const CommandReply&) const = default;
};

}  // namespace lockscope::sim
