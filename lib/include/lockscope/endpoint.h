#pragma once
// Where a Redis server is and how to log in: parsed from redis://, rediss:// and unix:// URLs.

#include <string>
#include <string_view>

namespace lockscope {

// TLS like redis-cli: --tls, --cacert, --cacertdir, --cert, --key, --sni, --insecure.
// Profiles keep these paths, never the contents of a key or its passphrase.
struct TlsOptions {
    bool enabled = false;
    std::string caFile{};    // PEM bundle to trust; empty (and no caDir): the system store
    std::string caDir{};     // a hashed certificate directory (c_rehash) to trust
    std::string certFile{};  // client certificate for mutual TLS
    std::string keyFile{};   // its private key
    // The passphrase of an encrypted key (the window keeps it in the keychain). Never on a
    // terminal: an encrypted key without it is refused with a clear error.
    std::string keyPassphrase{};
    std::string serverName{};  // SNI and the name checked; empty: the endpoint's host
    bool insecure = false;     // skip verification of the chain and the name (loudly marked)
    bool operator==(const TlsOptions&) const = default;
};

struct Endpoint {
    std::string host = "127.0.0.1";
    int port = 6379;
    std::string unixPath{};  // non-empty: connect through this Unix socket instead of TCP
    std::string user{};      // ACL user; empty means the default user
    std::string password{};  // empty means no AUTH
    int db = 0;
    TlsOptions tls{};

    bool isUnix() const { return !unixPath.empty(); }
    // A URL that identifies the server without its password, for messages and records.
    std::string display() const;
    bool operator==(const Endpoint&) const = default;
};

// Parses redis://[user[:password]@]host[:port][/db], rediss://... (TLS on, verified
// against the system store unless the caller sets tls.caFile/caDir) and unix:///path[?db=N].
// Percent-escapes in user and password are decoded. Throws InvalidArgumentError naming
// the bad part of the URL.
Endpoint parseEndpoint(std::string_view url);

// Lays options given apart from the URL (CLI flags, a profile's TLS section) over an
// endpoint's: set paths and names replace, switches turn on.
void mergeTlsOptions(TlsOptions& into, const TlsOptions& given);

}  // namespace lockscope
