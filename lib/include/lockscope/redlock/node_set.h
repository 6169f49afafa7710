#pragma once
// The N independent Redis primaries of a Redlock, one socket each, and the one primitive
// Redlock needs from them: send the same commands to every node before reading any reply,
// then wait on all sockets at once until each node answered or the timeout passed. A slow or
// stopped node therefore costs at most one timeout per round, never one per node.
//
// Thread rules: a node set belongs to one thread at a time (like Connection). Another thread
// uses sibling(), which has its own sockets.

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lockscope/endpoint.h"
#include "lockscope/errors.h"
#include "lockscope/reply.h"
#include "lockscope/script.h"

namespace lockscope {

namespace redlock_detail {
class NodeLink;
struct NodeSetAccess;  // the library's rounds and tools (lib/src/redlock/node_set_access.h)
}  // namespace redlock_detail

// One node's answer to a round: its replies in order, or why it has none. (The rounds
// themselves are the library's: Redlock and its watchdog run them.)
struct NodeReplies {
    std::vector<Reply> replies;  // one per command when ok(); error replies stay in place
    std::optional<ErrorKind> errorKind;
    std::string error;  // names the node and what failed, e.g. "AUTH on redis://…: WRONGPASS …"
    std::chrono::microseconds latency{0};
    bool ok() const { return !errorKind; }
};

class RedlockNodeSet {
  public:
    using Command = std::vector<std::string_view>;

    // Throws InvalidArgumentError for an empty list, an even number of nodes (a 2–2 split
    // leaves no majority and buys nothing over N−1), more than 63 nodes, or the same server
    // listed twice (a majority must be of independent primaries). Connects lazily: nodes that
    // are down now are reported per round, which is the point of Redlock.
    explicit RedlockNodeSet(std::vector<Endpoint> nodes);
    // Parses each URL with parseEndpoint() (InvalidArgumentError names the bad one).
    static RedlockNodeSet fromUrls(const std::vector<std::string>& urls);
    ~RedlockNodeSet();
    RedlockNodeSet(RedlockNodeSet&&) noexcept;
    RedlockNodeSet& operator=(RedlockNodeSet&&) noexcept;

    // The same endpoints with new sockets, for another thread (a watchdog, a worker).
    RedlockNodeSet sibling() const;

    std::size_t size() const { return endpoints_.size(); }
    int quorum() const;
    const std::vector<Endpoint>& endpoints() const { return endpoints_; }
    const std::string& nodeName(std::size_t i) const { return names_[i]; }  // no password

    // Closes every socket; the next round reconnects.
    void close() noexcept;

  private:
    friend struct redlock_detail::NodeSetAccess;

    // Sends `commands` to every node (reconnecting, with AUTH and SELECT pipelined in front,
    // where a socket is closed; a socket the server closed while idle is replaced and sent
    // the commands again within the round), then waits on all of them until the timeout. A
    // node that does not answer in time has its socket closed, so a late reply can never be
    // taken for the next round's. Never throws for a node's failure.
    std::vector<NodeReplies> roundTrip(const std::vector<Command>& commands,
                                       std::chrono::milliseconds timeout);

    // EVALSHA on every node at once; the nodes that answer NOSCRIPT (after SCRIPT FLUSH or a
    // restart) get EVAL in a second parallel round.
    std::vector<NodeReplies> evalOnAll(const Script& script,
                                       const std::vector<std::string_view>& keys,
                                       const std::vector<std::string_view>& args,
                                       std::chrono::milliseconds timeout);

    std::vector<NodeReplies> run(const std::vector<bool>& selected,
                                 const std::vector<Command>& commands,
                                 std::chrono::milliseconds timeout);

    std::vector<Endpoint> endpoints_;
    std::vector<std::string> names_;
    std::vector<redlock_detail::NodeLink> links_;
};

}  // namespace lockscope
