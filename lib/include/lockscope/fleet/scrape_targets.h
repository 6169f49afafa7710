#pragma once
// Which servers a multi-target exporter may be asked to watch, and with what credentials.
// `/scrape?target=redis://host:port` (Prometheus's multi-target convention) names a server;
// unlike exporters that dial whatever a scraper names, LockScope dials only targets that an
// allow-list given at start admits, and takes credentials only from a file the operator
// wrote, never from the query string.

#include <string>
#include <string_view>
#include <vector>

#include "lockscope/endpoint.h"

namespace lockscope::fleet {

// A target as a scrape names it, in one spelling: "redis://host:port/db" or
// "rediss://host:port/db" (db 0 is left out). Two spellings of one server (a default port, a
// trailing slash, upper-case scheme or host) are one target: one watch, one set of series.
struct ScrapeTarget {
    Endpoint endpoint;      // host, port, db, TLS on for rediss; no user, no password
    std::string canonical;  // the spelling above
};

inline constexpr std::size_t kMaxTargetLength = 512;

// The `target` parameter's value, already percent-decoded. Throws InvalidArgumentError: empty,
// longer than kMaxTargetLength, not a redis:// or rediss:// URL (unix sockets and Sentinel URLs
// are not scrape targets), or carrying a user or password (credentials come from the
// credentials file only).
ScrapeTarget parseScrapeTarget(std::string_view text);

// Glob patterns (fnmatch: *, ?, [..]) over the canonical spelling, e.g.
// "redis://10.1.*:6379", "rediss://*.cache.internal:*". A pattern with no scheme matches
// either. Empty: nothing is allowed.
class TargetAllowList {
  public:
    // Throws InvalidArgumentError for an empty or over-long pattern, or one with user info.
    void allow(std::string_view pattern);
    // A targets file: one pattern per line, '#' comments and blank lines skipped. Throws
    // InvalidArgumentError naming the file and line.
    void allowFromFile(const std::string& path);
    bool allows(const ScrapeTarget& target) const;
    bool empty() const { return patterns_.empty(); }
    const std::vector<std::string>& patterns() const { return patterns_; }

  private:
    std::vector<std::string> patterns_;
};

// The credentials file, JSON: {"<pattern>": {"user": "...", "password": "...", "tls":
// {"ca_file", "ca_dir", "cert_file", "key_file", "server_name", "insecure"}}, ...}. The first
// exact match wins, then the first matching pattern in file order. The file must not be
// readable by group or others (like ssh's keys).
class TargetCredentials {
  public:
    // Throws InvalidArgumentError: unreadable, readable by others, not JSON, a bad entry;
    // the message never contains a password.
    static TargetCredentials fromFile(const std::string& path);
    // Lays the matching entry's user, password and TLS options over the target's endpoint.
    // Returns whether an entry matched.
    bool applyTo(ScrapeTarget& target) const;
    std::size_t size() const { return entries_.size(); }

  private:
    struct Entry {
        std::string pattern;
        std::string user, password;
        TlsOptions tls;
    };
    std::vector<Entry> entries_;
};

}  // namespace lockscope::fleet
