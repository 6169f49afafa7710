#include "deployment.h"

#include <thread>

#include "lockscope/connection.h"
#include "lockscope/errors.h"
#include "lockscope/script.h"

namespace lockscope::torture {
namespace {

using namespace std::chrono_literals;

// Every key's TTL shrinks by ARGV[1] ms; what has less left is deleted, as expiry would.
// KEYS is fine here: a private server holding a lock and a fence counter.
const Script kClockJump(R"(
local jumped = 0
for _, key in ipairs(redis.call('KEYS', '*')) do
  local left = redis.call('PTTL', key)
  if left > 0 then
    if left <= tonumber(ARGV[1]) then redis.call('DEL', key) else
      redis.call('PEXPIRE', key, left - tonumber(ARGV[1])) end
    jumped = jumped + 1
  end
end
return jumped)");

}  // namespace

Deployment::Deployment(int nodes, int workers, bool replicas) {
    for (int i = 0; i < nodes; ++i) {
        Node node;
        node.primary = std::make_unique<LocalRedisServer>();
        if (replicas) {
            node.replicationLink = std::make_unique<LoopbackProxy>(node.primary->port());
            LocalRedisServerOptions options;
            options.configLines = {"replicaof 127.0.0.1 " +
                                   std::to_string(node.replicationLink->port())};
            node.replica = std::make_unique<LocalRedisServer>(options);
        }
        nodes_.push_back(std::move(node));
    }
    for (int w = 0; w < workers; ++w) {
        proxies_.emplace_back();
        for (auto& node : nodes_)
            proxies_.back().push_back(std::make_unique<LoopbackProxy>(node.primary->port()));
    }
}

Deployment::~Deployment() {
    proxies_.clear();  // close the workers' links before the servers go
    for (auto& node : nodes_) {
        if (node.replica) node.replica->stop();
        node.replicationLink.reset();
        node.primary->stop();
    }
}

std::vector<int> Deployment::workerPorts(int worker) const {
    std::vector<int> ports;
    for (auto& proxy : proxies_.at(worker)) ports.push_back(proxy->port());
    return ports;
}

std::vector<pid_t> Deployment::serverPids() const {
    std::vector<pid_t> pids;
    for (auto& node : nodes_) {
        pids.push_back(node.primary->pid());
        if (node.replica) pids.push_back(node.replica->pid());
    }
    return pids;
}

void Deployment::command(LocalRedisServer& server, std::initializer_list<std::string_view> argv) {
    Connection c = Connection::open(server.endpoint(), {500ms, 2000ms, false});
    c.command(argv);
}

void Deployment::stopPrimary(int node) {
    nodes_.at(node).primary->stop();
}

void Deployment::startPrimary(int node) {
    Node& n = nodes_.at(node);
    n.primary->start();
    // A server that began as the replica starts from its config as a replica again.
    if (n.replica) command(*n.primary, {"REPLICAOF", "NO", "ONE"});
}

void Deployment::holdReplication(int node) {
    if (auto& link = nodes_.at(node).replicationLink) link->setHold(true);
}

void Deployment::promoteReplica(int node) {
    Node& n = nodes_.at(node);
    if (!n.replica)
        throw InvalidArgumentError("torture: node " + std::to_string(node) +
                                   " has no replica to promote");
    command(*n.replica, {"REPLICAOF", "NO", "ONE"});
    // Clients are sent to the new primary, as a Sentinel-aware client or a VIP would be.
    for (auto& worker : proxies_) {
        worker.at(node)->setUpstream(n.replica->port());
        worker.at(node)->dropAll();
    }
    std::swap(n.primary, n.replica);
    n.replicationLink->setUpstream(n.primary->port());
    n.replicationLink->dropAll();
    n.replicationLink->setHold(false);
    if (n.replica->running())
        command(*n.replica, {"REPLICAOF", "127.0.0.1", std::to_string(n.replicationLink->port())});
}

void Deployment::jumpClock(int node, std::chrono::milliseconds by) {
    Connection c = Connection::open(nodes_.at(node).primary->endpoint(), {500ms, 2000ms, false});
    std::string jump = std::to_string(by.count());
    c.eval(kClockJump, {}, {jump});
}

void Deployment::stallServer(int node, std::chrono::milliseconds length) {
    command(*nodes_.at(node).primary, {"CLIENT", "PAUSE", std::to_string(length.count()), "ALL"});
}

void Deployment::delayWorker(int worker, std::chrono::milliseconds delay) {
    for (auto& proxy : proxies_.at(worker)) proxy->setDelay(delay);
}

void Deployment::partitionWorker(int worker, bool partitioned) {
    for (auto& proxy : proxies_.at(worker)) proxy->setPartitioned(partitioned);
}

}  // namespace lockscope::torture
