#include "command_policy.h"

#include <algorithm>
#include <array>

namespace lockscope {
namespace {

// ASCII only, without the locale lookup of std::toupper: this runs for every command a
// read-only connection sends (a million PTTLs in one scan of a big keyspace).
constexpr char asciiUpper(char c) {
    return c >= 'a' && c <= 'z' ? static_cast<char>(c - 32) : c;
}

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return asciiUpper(x) == asciiUpper(y);
           });
}

constexpr std::array<std::string_view, 41> kReadCommands = {
    "PING", "ECHO", "AUTH", "SELECT", "HELLO", "QUIT", "SCAN", "TYPE", "PTTL", "TTL", "GET", "MGET",
    "STRLEN", "EXISTS", "HGETALL", "HGET", "HLEN", "HSCAN", "HKEYS", "LLEN", "LRANGE", "ZCARD",
    "ZRANGE", "SCARD", "INFO", "ROLE", "DBSIZE", "TIME", "OBJECT", "EVAL_RO", "EVALSHA_RO",
    "SUBSCRIBE", "PSUBSCRIBE", "UNSUBSCRIBE", "PUNSUBSCRIBE", "SLOWLOG",
    // Cluster connection states: read from a replica, or one command on an importing node.
    "READONLY", "ASKING",
    // The holder-liveness reads (a job's hash, its place in a list, Sidekiq's processes).
    "HMGET", "LPOS", "SMEMBERS"};

// The topology questions a cluster scan asks (CLUSTER SHARDS ... GETKEYSINSLOT).
constexpr std::array<std::string_view, 8> kClusterReads = {
    "SHARDS", "SLOTS", "NODES", "INFO", "MYID", "COUNTKEYSINSLOT", "GETKEYSINSLOT", "KEYSLOT"};

}  // namespace

bool isReadOnlySafe(std::span<const std::string_view> argv) {
    if (argv.empty()) return false;
    std::string_view name = argv[0];
    if (std::any_of(kReadCommands.begin(), kReadCommands.end(),
                    [&](std::string_view r) { return equalsIgnoreCase(r, name); }))
        return true;
    // Subcommands that only read.
    if (argv.size() >= 2) {
        std::string_view sub = argv[1];
        if (equalsIgnoreCase(name, "CONFIG")) return equalsIgnoreCase(sub, "GET");
        if (equalsIgnoreCase(name, "CLIENT"))
            return equalsIgnoreCase(sub, "SETNAME") || equalsIgnoreCase(sub, "ID") ||
                   equalsIgnoreCase(sub, "GETNAME") || equalsIgnoreCase(sub, "LIST");
        if (equalsIgnoreCase(name, "ACL")) return equalsIgnoreCase(sub, "WHOAMI");
        if (equalsIgnoreCase(name, "MEMORY")) return equalsIgnoreCase(sub, "USAGE");
        if (equalsIgnoreCase(name, "CLUSTER"))
            return std::any_of(kClusterReads.begin(), kClusterReads.end(),
                               [&](std::string_view r) { return equalsIgnoreCase(r, sub); });
        if (equalsIgnoreCase(name, "SENTINEL"))
            return equalsIgnoreCase(sub, "GET-MASTER-ADDR-BY-NAME") ||
                   equalsIgnoreCase(sub, "REPLICAS") || equalsIgnoreCase(sub, "MASTERS") ||
                   equalsIgnoreCase(sub, "SENTINELS");
    }
    return false;
}

}  // namespace lockscope
