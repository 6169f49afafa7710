#pragma once
// Where a Redis server is and how to log in: parsed from redis:// and unix:// URLs.

#include <string>
#include <string_view>

namespace lockscope {

struct Endpoint {
    std::string host = "127.0.0.1";
    int port = 6379;
    std::string unixPath;  // non-empty: connect through this Unix socket instead of TCP
    std::string user;      // ACL user; empty means the default user
    std::string password;  // empty means no AUTH
    int db = 0;

    bool isUnix() const { return !unixPath.empty(); }
    // A URL that identifies the server without its password, for messages and records.
    std::string display() const;
    bool operator==(const Endpoint&) const = default;
};

// Parses redis://[user[:password]@]host[:port][/db] and unix:///path[?db=N].
// Percent-escapes in user and password are decoded. Throws InvalidArgumentError naming
// the bad part of the URL; rediss:// is refused because this hiredis build has no TLS.
Endpoint parseEndpoint(std::string_view url);

}  // namespace lockscope
