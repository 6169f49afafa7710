#pragma once
// Reads of keys that need not live on the lock's node. Sidekiq keeps `processes`, each
// process's hash and work, `queues`, the queue lists and `schedule`/`retry`/`dead` under
// fixed names: on a Redis Cluster they sit in other slots, usually on other primaries, and the
// lock's node answers them with MOVED. The liveness reads go through a KeyReads: on one
// server its connection; on a cluster the router, each command sent to its key's slot owner
// (one pipeline per owner). A read that could not be made is marked unread, so a judge says
// `unknown` (partial evidence) instead of taking an absence for a fact.
// Internal to lockscope_inspect.

#include <memory>
#include <string>
#include <vector>

#include "lockscope/connection.h"

namespace lockscope::inspect {

class ClusterRouter;

struct KeyReplies {
    std::vector<Reply> replies;    // per command, in order (nil where unread)
    std::vector<bool> unread;      // per command: not sent, or its node could not be reached
    std::vector<std::string> why;  // one line per node or slot that could not be read

    bool complete() const;
    // The first failure: an unread command's reason, or an error reply's text; empty if none.
    std::string firstProblem() const;
};

class KeyReads {
  public:
    virtual ~KeyReads() = default;
    // Each command names its key second (argv[1]), as SMEMBERS, HGETALL, LRANGE... do.
    virtual KeyReplies read(const std::vector<std::vector<std::string>>& commands) = 0;
};

// One server (or a node whose keys all hash to it): the commands in one pipeline.
class ConnectionKeyReads final : public KeyReads {
  public:
    explicit ConnectionKeyReads(Connection& connection) : connection_(connection) {}
    KeyReplies read(const std::vector<std::vector<std::string>>& commands) override;

  private:
    Connection& connection_;
};

// A cluster: each command to the primary that serves its key's slot (the router's topology),
// one pipeline per primary. Used on the router's thread only (the watch engine's).
class RoutedKeyReads final : public KeyReads {
  public:
    explicit RoutedKeyReads(std::shared_ptr<ClusterRouter> router) : router_(std::move(router)) {}
    KeyReplies read(const std::vector<std::vector<std::string>>& commands) override;

  private:
    std::shared_ptr<ClusterRouter> router_;
};

}  // namespace lockscope::inspect
