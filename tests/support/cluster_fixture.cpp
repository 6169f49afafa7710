#include "cluster_fixture.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "lockscope/errors.h"
#include "lockscope/inspect/hash_slot.h"
#include "tls_fixture.h"

namespace lockscope::testing {
namespace {

using namespace std::chrono_literals;

constexpr int kSlots = 16384;

bool contains(std::string_view text, std::string_view part) {
    return text.find(part) != std::string_view::npos;
}

// The value of "field:value" in an INFO-style reply.
std::string infoField(std::string_view info, std::string_view field) {
    std::string needle = std::string(field) + ":";
    auto at = info.find(needle);
    if (at == std::string_view::npos) return {};
    auto end = info.find('\r', at);
    return std::string(info.substr(at + needle.size(), end - at - needle.size()));
}

template <class Ready>
void waitFor(std::chrono::milliseconds timeout, const std::string& what, Ready ready) {
    auto until = std::chrono::steady_clock::now() + timeout;
    while (!ready()) {
        if (std::chrono::steady_clock::now() > until)
            throw std::runtime_error("cluster fixture: timed out waiting for " + what);
        std::this_thread::sleep_for(20ms);
    }
}

}  // namespace

RedisCluster::RedisCluster(ClusterFixtureOptions options) : options_(std::move(options)) {
    const int primaries = options_.primaries;
    const int total = options_.replicas ? 2 * primaries : primaries;
    nodes_.resize(total);
    for (int i = 0; i < total; ++i) {
        const int serving = primaries - options_.emptyPrimaries;
        if (i < serving) {
            nodes_[i].firstSlot = kSlots * i / serving;
            nodes_[i].lastSlot = kSlots * (i + 1) / serving - 1;
        } else if (i < primaries) {
            nodes_[i].firstSlot = 0, nodes_[i].lastSlot = -1;  // no slots
        } else {
            nodes_[i].primaryIndex = i - primaries;
        }
        startNode(i);
    }
    assignSlotsAndMeet();
    if (options_.replicas) attachReplicas();
    waitUntilHealthy();
}

RedisCluster::~RedisCluster() = default;

void RedisCluster::startNode(std::size_t index) {
    // The bus port is chosen too (port + 10000 may be past 65535 or taken): a free pair is
    // retried a few times, as LocalRedisServer does for one port.
    for (int attempt = 0;; ++attempt) {
        LocalRedisServerOptions o;
        o.port = findFreePort();
        int bus = findFreePort();
        if (bus == o.port) continue;
        o.configLines = {"cluster-enabled yes",
                         "cluster-config-file nodes.conf",
                         "cluster-node-timeout " + std::to_string(options_.nodeTimeout.count()),
                         "cluster-port " + std::to_string(bus),
                         "cluster-require-full-coverage no",  // the others serve while one is down
                         "cluster-allow-replica-migration no",
                         "repl-diskless-sync-delay 0"};
        if (!options_.unreachableHostPrefix.empty()) {
            o.configLines.emplace_back("cluster-announce-hostname " +
                                       options_.unreachableHostPrefix + std::to_string(index) +
                                       ".invalid");
            o.configLines.emplace_back("cluster-preferred-endpoint-type hostname");
        }
        if (options_.tls && options_.certifiedNames) {
            o.configLines.emplace_back(std::string("cluster-announce-hostname ") +
                                       (index == 0 ? "localhost" : kCertifiedNodeName));
            o.configLines.emplace_back("cluster-preferred-endpoint-type hostname");
        }
        if (options_.tls) {
            const auto& c = testCertificates();
            const bool other = options_.certifiedNames && index != 0;
            o.tls = other ? serverTls(c.otherHostCert, c.otherHostKey)
                          : serverTls(c.serverCert, c.serverKey);
            o.configLines.emplace_back("tls-cluster yes");
            o.configLines.emplace_back("tls-replication yes");
        }
        try {
            nodes_[index].server = std::make_unique<LocalRedisServer>(o);
            nodes_[index].busPort = bus;
            break;
        } catch (const ProcessError&) {
            if (attempt >= 4) throw;
        }
    }
    nodes_[index].id = std::string(connect(index).command({"CLUSTER", "MYID"}).text());
}

Endpoint RedisCluster::endpoint(std::size_t i) const {
    Endpoint e = nodes_.at(i).server->endpoint();
    if (options_.certifiedNames && i != 0) e.tls.serverName = kCertifiedNodeName;
    return e;
}

Connection RedisCluster::connect(std::size_t i) const {
    return Connection::open(endpoint(i));
}

void RedisCluster::assignSlotsAndMeet() {
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        const auto& n = nodes_[i];
        if (n.primaryIndex >= 0 || n.lastSlot < n.firstSlot) continue;
        connect(i).command(
            {"CLUSTER", "ADDSLOTSRANGE", std::to_string(n.firstSlot), std::to_string(n.lastSlot)});
    }
    Connection first = connect(0);
    for (std::size_t i = 1; i < nodes_.size(); ++i)
        first.command({"CLUSTER", "MEET", "127.0.0.1", std::to_string(nodes_[i].server->port()),
                       std::to_string(nodes_[i].busPort)});
}

void RedisCluster::attachReplicas() {
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        const auto& n = nodes_[i];
        if (n.primaryIndex < 0) continue;
        const std::string& primaryId = nodes_[n.primaryIndex].id;
        Connection c = connect(i);
        waitFor(10s, "replica " + std::to_string(i) + " to learn its primary", [&] {
            return contains(c.command({"CLUSTER", "NODES"}).text(), primaryId);
        });
        c.command({"CLUSTER", "REPLICATE", primaryId});
    }
}

std::size_t RedisCluster::runningReplicas() const {
    return std::size_t(std::count_if(nodes_.begin(), nodes_.end(), [](const ClusterNodeProcess& n) {
        return n.primaryIndex >= 0 && n.server->running();
    }));
}

std::size_t RedisCluster::replicaLines(const std::string& clusterNodes) {
    // CLUSTER NODES: "<id> <ip:port@bus> <flags> <primary id> ..."; flags say "slave".
    std::size_t replicas = 0;
    std::istringstream lines(clusterNodes);
    for (std::string line; std::getline(lines, line);) {
        std::istringstream fields(line);
        std::string id, address, flags;
        if (fields >> id >> address >> flags && flags.find("slave") != std::string::npos &&
            flags.find("fail") == std::string::npos)
            ++replicas;
    }
    return replicas;
}

void RedisCluster::waitUntilHealthy(std::chrono::milliseconds timeout) {
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        if (!nodes_[i].server->running()) continue;
        Connection c = connect(i);
        // cluster_state:ok comes before gossip has told a node every other node's slots
        // (full coverage is not required here): wait until it has heard of all 16384.
        waitFor(timeout, "node " + std::to_string(i) + " to report cluster_state:ok", [&] {
            std::string info(c.command({"CLUSTER", "INFO"}).text());
            return infoField(info, "cluster_state") == "ok" &&
                   infoField(info, "cluster_known_nodes") == std::to_string(nodes_.size()) &&
                   infoField(info, "cluster_slots_assigned") == std::to_string(kSlots);
        });
        // Nor has it heard yet which nodes replicate which (a replica's CLUSTER NODES listed a
        // primary with no replica in a loaded clean-clone run): wait for every replica line.
        if (options_.replicas)
            waitFor(timeout, "node " + std::to_string(i) + " to list every replica", [&] {
                return replicaLines(std::string(c.command({"CLUSTER", "NODES"}).text())) ==
                       runningReplicas();
            });
        if (nodes_[i].primaryIndex >= 0 && options_.replicas) {
            waitFor(timeout, "replica " + std::to_string(i) + " to sync", [&] {
                std::string info(c.command({"INFO", "replication"}).text());
                return infoField(info, "role") == "slave" &&
                       infoField(info, "master_link_status") == "up";
            });
        }
    }
}

std::size_t RedisCluster::primaryFor(std::string_view key) const {
    return primaryOfSlot(inspect::keyHashSlot(key));
}

std::size_t RedisCluster::primaryOfSlot(int slot) const {
    for (std::size_t i = 0; i < nodes_.size(); ++i)
        if (nodes_[i].primaryIndex < 0 && slot >= nodes_[i].firstSlot && slot <= nodes_[i].lastSlot)
            return i;
    throw std::logic_error("cluster fixture: no primary for the slot");
}

void RedisCluster::beginSlotMove(int slot, std::size_t from, std::size_t to) {
    std::string s = std::to_string(slot);
    connect(to).command({"CLUSTER", "SETSLOT", s, "IMPORTING", nodes_[from].id});
    connect(from).command({"CLUSTER", "SETSLOT", s, "MIGRATING", nodes_[to].id});
}

void RedisCluster::migrateKeys(int slot, std::size_t from, std::size_t to, int count) {
    Connection source = connect(from);
    const std::string host = "127.0.0.1", port = std::to_string(nodes_[to].server->port());
    int moved = 0;
    while (count < 0 || moved < count) {
        int batch = count < 0 ? 100 : std::min(100, count - moved);
        Reply keys = source.command(
            {"CLUSTER", "GETKEYSINSLOT", std::to_string(slot), std::to_string(batch)});
        if (keys.size() == 0) break;
        std::vector<std::string> argv{"MIGRATE", host, port, "", "0", "5000", "KEYS"};
        for (std::size_t k = 0; k < keys.size(); ++k) argv.emplace_back(keys[k].text());
        std::vector<std::string_view> view(argv.begin(), argv.end());
        source.command(Connection::Argv(view));
        moved += static_cast<int>(keys.size());
    }
}

void RedisCluster::finishSlotMove(int slot, std::size_t to) {
    std::string s = std::to_string(slot);
    // The new owner first, then every other primary (the order redis-cli --cluster uses).
    connect(to).command({"CLUSTER", "SETSLOT", s, "NODE", nodes_[to].id});
    for (std::size_t i = 0; i < nodes_.size(); ++i)
        if (i != to && nodes_[i].primaryIndex < 0 && nodes_[i].server->running())
            connect(i).command({"CLUSTER", "SETSLOT", s, "NODE", nodes_[to].id});
}

void RedisCluster::moveSlot(int slot, std::size_t to) {
    std::size_t from = primaryOfSlot(slot);
    beginSlotMove(slot, from, to);
    migrateKeys(slot, from, to);
    finishSlotMove(slot, to);
}

}  // namespace lockscope::testing
