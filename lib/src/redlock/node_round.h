#pragma once
// One parallel round over the node links: queue the commands on every selected node and write
// them all out before reading anything, then wait on all sockets at once and read whichever
// node is ready, until each one answered or the timeout passed.
//
// A socket the server closed while it sat idle (a restart, CLIENT KILL, the server's idle
// timeout) shows up as end-of-file right after our write. Such a node gets one fresh socket
// and the same commands again within the round, instead of a poll() before every round to
// look for dead sockets: that check cost a system call per round on the fast path for an
// event that happens once per restart.

#include <chrono>
#include <span>
#include <string>
#include <vector>

#include "lockscope/redlock/node_set.h"
#include "node_link.h"

namespace lockscope::redlock_detail {

class NodeRound {
  public:
    using Command = RedlockNodeSet::Command;
    using Clock = std::chrono::steady_clock;

    // `selected` has one entry per link; unselected nodes are neither sent nor reported.
    NodeRound(std::span<NodeLink> links, const std::vector<bool>& selected,
              const std::vector<Command>& commands, std::chrono::milliseconds timeout);

    // Runs the round. Never throws for a node's failure: each NodeReplies says what happened.
    std::vector<NodeReplies> run();

  private:
    // Where one node stands within the round.
    struct Pending {
        bool active = false;       // sent and not yet finished
        bool writing = false;      // part of the request is still in our buffer
        bool reused = false;       // the socket was open before this round
        bool resent = false;       // already given a fresh socket once this round
        int handshake = 0;         // AUTH/SELECT replies that precede the caller's
        std::size_t expected = 0;  // replies to read, handshake included
    };

    void send(std::size_t i);
    void fail(std::size_t i, LinkFailure failure);
    void failOrResend(std::size_t i, LinkFailure failure);
    bool waitOnce();  // false: nothing left to wait for, or the deadline passed
    void serve(std::size_t i, short revents);
    void finish(std::size_t i);
    void checkHandshake(std::size_t i);

    std::span<NodeLink> links_;
    const std::vector<bool>& selected_;
    const std::vector<Command>& commands_;
    std::chrono::milliseconds timeout_;
    std::string request_;  // the commands in the Redis protocol, encoded once for every node
    Clock::time_point sentAt_{};
    Clock::time_point deadline_{};
    std::vector<NodeReplies> results_;
    std::vector<Pending> pending_;
};

}  // namespace lockscope::redlock_detail
