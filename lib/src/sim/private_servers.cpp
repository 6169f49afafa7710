#include "private_servers.h"

namespace lockscope::sim {

namespace {

LocalRedisServerOptions serverOptions() {
    LocalRedisServerOptions options;
    // A replica that syncs from scratch gets its data at once, not after the default 5 s
    // wait for more replicas to join the same transfer.
    // A primary stopped at the end must not wait for a replica the gate still holds back
    // (Redis 7 waits up to 10 s for lagging replicas on shutdown).
    options.configLines = {"repl-diskless-sync-delay 0", "shutdown-timeout 0"};
    return options;
}

bool changesData(RedisOp op) {
    return op != RedisOp::Get && op != RedisOp::Pttl && op != RedisOp::Wait;
}

}  // namespace

// One server with the actors' connection and an operator's connection beside it (the
// harness's REPLICAOF, INFO and TTL changes never share the actors' connection, whose
// last write is what a WAIT counts).
class PrivateServers::Node final : public KeyValueBackend {
  public:
    Node(const World& world, int index, int scale)
        : world_(world),
          index_(index),
          actors_(Connection::open(server_.endpoint())),
          admin_(Connection::open(server_.endpoint())),
          backend_(actors_, scale) {}

    CommandReply execute(const RedisCommand& command, VirtualMs now) override {
        // Before the write reaches the primary, its replicas start holding the stream.
        if (links_ && changesData(command.op)) links_->markWrite(index_, world_.seq);
        return backend_.execute(command, now);
    }

    void attach(ReplicaLinks* links) { links_ = links; }
    LocalRedisServer& server() { return server_; }
    Connection& admin() { return admin_; }
    const LiveRedisBackend& backend() const { return backend_; }

  private:
    const World& world_;
    int index_;
    LocalRedisServer server_{serverOptions()};
    Connection actors_;
    Connection admin_;
    LiveRedisBackend backend_;
    ReplicaLinks* links_ = nullptr;
};

PrivateServers::PrivateServers(const World& world, int realMsPerVirtualSecond)
    : world_(world), scale_(realMsPerVirtualSecond) {
    std::vector<Connection*> admin;
    std::vector<int> ports;
    for (std::size_t n = 0; n < world.nodes.size(); ++n) {
        nodes_.push_back(std::make_unique<Node>(world, static_cast<int>(n), scale_));
        admin.push_back(&nodes_.back()->admin());
        ports.push_back(nodes_.back()->server().port());
    }
    links_ = std::make_unique<ReplicaLinks>(admin, ports);
    for (auto& node : nodes_) node->attach(links_.get());
    for (const auto& link : world.replication) links_->connect(link.from, link.to);
}

// The gates go before the servers they relay to.
PrivateServers::~PrivateServers() {
    links_.reset();
}

std::vector<KeyValueBackend*> PrivateServers::backends() {
    std::vector<KeyValueBackend*> all;
    for (auto& node : nodes_) all.push_back(node.get());
    return all;
}

std::vector<std::string> PrivateServers::describe() const {
    std::vector<std::string> lines;
    for (std::size_t n = 0; n < nodes_.size(); ++n) {
        std::string role = "independent primary";
        for (const auto& link : world_.replication)
            if (link.to == static_cast<int>(n))
                role = "replica of " + world_.node(link.from).name + ", REPLICAOF";
        if (role.starts_with("independent") && !world_.replication.empty()) role = "primary";
        lines.push_back(world_.node(static_cast<int>(n)).name + " " + nodes_[n]->server().url() +
                        " (" + role + ")");
    }
    return lines;
}

void PrivateServers::failedOver(const World& world, int oldPrimary) {
    links_->failover(world, oldPrimary);
}

void PrivateServers::clockJumped(const World& /*world*/, const ClockJumpFault& jump) {
    // A process's clock cannot be stepped from outside. What the step does to the keys on
    // that node is known: each deadline comes jump ms closer (or passes). Do exactly that.
    Node& node = *nodes_.at(static_cast<std::size_t>(jump.node));
    const std::int64_t jumpReal = node.backend().toRealMs(jump.jump);
    std::string cursor = "0";
    do {
        Reply page = node.admin().command({"SCAN", cursor, "COUNT", "100"});
        cursor = std::string(page[0].text());
        for (std::size_t i = 0; i < page[1].size(); ++i) {
            const std::string key(page[1][i].text());
            const std::int64_t left = node.admin().command({"PTTL", key}).integer();
            if (left < 0) continue;  // no TTL: the clock does not matter to it
            if (left <= jumpReal)
                node.admin().command({"DEL", key});
            else
                node.admin().command({"PEXPIRE", key, std::to_string(left - jumpReal)});
        }
    } while (cursor != "0");
}

void PrivateServers::stepDone(const World& world) {
    links_->follow(world);
}

}  // namespace lockscope::sim
