#pragma once
// Finding a Sentinel-managed primary: the Lettuce-style URL
//   redis-sentinel://[user[:pw]@]host[:port][,host2[:port2]]...[/db][?params]#service
// (the user and password are the data nodes'; the Sentinels' own credentials come as
// ?sentinel-user=..&sentinel-password=.. or from --sentinel-user/--sentinel-password), and
// discovery: each Sentinel in turn is asked SENTINEL get-master-addr-by-name, and the answer
// is confirmed with ROLE on the primary. A failover is followed by asking again.

#include <string>
#include <string_view>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/endpoint.h"
#include "lockscope/errors.h"

namespace lockscope {

struct SentinelAddress {
    std::string host;
    int port = 26379;
    bool operator==(const SentinelAddress&) const = default;
};

struct SentinelTarget {
    std::vector<SentinelAddress> sentinels;
    std::string service;                         // the monitored primary's name, e.g. "mymaster"
    std::string sentinelUser, sentinelPassword;  // for the Sentinels (may differ from data)
    Endpoint data;  // the data nodes' user, password, db and TLS; host and port from discovery

    std::string display() const;  // redis-sentinel://h:p,h2:p2#service, no passwords
};

bool isSentinelUrl(std::string_view url);

// Throws InvalidArgumentError naming the bad part.
SentinelTarget parseSentinelUrl(std::string_view url);

// "host:port" or "host" (port 26379), as --sentinel takes it. Throws InvalidArgumentError.
SentinelAddress parseSentinelAddress(std::string_view text);

// Every Sentinel that answered said it monitors no service of that name: a wrong name, which
// asking again will not fix (a window stops retrying; the CLI's exit code stays that of a
// ReplyError).
class UnknownServiceError : public ReplyError {
  public:
    using ReplyError::ReplyError;
};

// The primary's endpoint with the data credentials. Throws ConnectionRefusedError when no
// Sentinel answers, UnknownServiceError when every one that answered knows no such service,
// AuthenticationError when every one that answered refused the credentials (the Sentinels' or,
// at the ROLE check, the data nodes'), ReplyError otherwise (e.g. every answer failed the ROLE
// check), all naming what was asked.
Endpoint discoverPrimary(const SentinelTarget& target, const ConnectionOptions& options = {});

// A connection to one Sentinel with the Sentinels' credentials and the data nodes' TLS.
Connection openSentinel(const SentinelTarget& target, const SentinelAddress& address,
                        const ConnectionOptions& options = {});

// The replicas the first answering Sentinel lists as online (SENTINEL replicas: not down,
// not disconnected, link to the primary up), with the data credentials; empty when it lists
// none. Throws like discoverPrimary when no Sentinel answers or knows the service.
std::vector<Endpoint> discoverReplicas(const SentinelTarget& target,
                                       const ConnectionOptions& options = {});

}  // namespace lockscope
