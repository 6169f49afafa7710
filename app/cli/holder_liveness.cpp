#include "holder_liveness.h"

#include "lockscope/errors.h"
#include "lockscope/inspect/cluster/cluster_router.h"
#include "lockscope/inspect/doctor.h"
#include "lockscope/inspect/liveness/holder_verdict.h"
#include "scan_targets.h"

namespace lockscope::cli {

struct HolderLiveness::Server {
    std::mutex mutex;
    std::unique_ptr<Connection> connection;
    std::unique_ptr<inspect::LivenessReader> reader;
    std::string error;  // why it could not be judged
};

namespace {

// The endpoint a record's instance name stands for: a server on the command line (or the
// replica or node it was scanned through), with the command line's credentials and TLS.
std::optional<Endpoint> endpointOf(const InspectorFlags& flags, const std::string& instance) {
    for (const auto& e : flags.endpoints) {
        if (e.display() == instance) return e;
        std::vector<std::string> notes;
        if (Endpoint scanned = endpointToScan(flags, e, notes); scanned.display() == instance)
            return scanned;
    }
    // A cluster node: the first URL's settings with the node's address.
    auto scheme = instance.find("://");
    if (scheme == std::string::npos || flags.endpoints.empty()) return std::nullopt;
    std::string address = instance.substr(scheme + 3);
    address = address.substr(0, address.find('/'));
    auto colon = address.rfind(':');
    if (colon == std::string::npos) return std::nullopt;
    Endpoint node = flags.endpoints.front();
    node.host = address.substr(0, colon);
    if (node.host.starts_with('[') && node.host.ends_with(']'))
        node.host = node.host.substr(1, node.host.size() - 2);
    try {
        node.port = std::stoi(address.substr(colon + 1));
    } catch (const std::exception&) {
        return std::nullopt;
    }
    if (node.display() != instance) return std::nullopt;
    return node;
}

std::shared_ptr<const inspect::HolderVerdict> unjudged(const std::string& why) {
    inspect::HolderVerdict v;
    inspect::Evidence e;
    e.seenAt = inspect::WallClock::now();
    e.text = why;
    v.evidence.push_back(e);
    return std::make_shared<const inspect::HolderVerdict>(std::move(v));
}

}  // namespace

HolderLiveness::HolderLiveness(InspectorFlags flags, inspect::LivenessOptions options,
                               std::stop_token stop)
    : flags_(std::move(flags)), options_(std::move(options)), stop_(std::move(stop)) {}

HolderLiveness::~HolderLiveness() = default;

HolderLiveness::Server& HolderLiveness::serverFor(const std::string& instance, bool clusterNode) {
    std::lock_guard lock(mutex_);
    auto& slot = servers_[instance];
    if (slot) return *slot;
    slot = std::make_unique<Server>();
    auto endpoint = endpointOf(flags_, instance);
    if (!endpoint) {
        slot->error = "not judged: LockScope could not tell which server " + instance + " is";
        return *slot;
    }
    try {
        const ConnectionOptions options = connectionOptions(flags_, true);
        slot->connection = std::make_unique<Connection>(Connection::open(*endpoint, options));
        auto liveness = options_;
        if (clusterNode) liveness.keysElsewhere = keysElsewhere(*endpoint, options);
        slot->reader = std::make_unique<inspect::LivenessReader>(*slot->connection, liveness);
    } catch (const Error& e) {
        slot->error = std::string("not judged: could not connect to read its holder's liveness (") +
                      e.what() + ")";
    }
    return *slot;
}

std::shared_ptr<inspect::KeyReads> HolderLiveness::keysElsewhere(
    const Endpoint& node, const ConnectionOptions& options) const {
    // Sidekiq's keys (processes, queues, sets) sit in other slots: read from their owners, as
    // a ServerWatch on a cluster does, through a router of this node's own (the scanning
    // threads never share one). Without the topology they stay unread (unknown evidence).
    try {
        auto router =
            std::make_shared<inspect::ClusterRouter>(node, options, flags_.clusterAddressing);
        if (!router->isCluster()) return nullptr;
        return inspect::keyReadsThrough(std::move(router));
    } catch (const Error&) {
        return nullptr;
    }
}

void HolderLiveness::judge(std::vector<inspect::LockRecord>& batch) {
    if (stop_.stop_requested()) return;
    std::map<std::string, std::vector<inspect::LockRecord*>> byServer;
    for (auto& r : batch) byServer[r.instanceName()].push_back(&r);
    for (auto& [instance, records] : byServer) {
        // slot is read only from a cluster's nodes.
        Server& server = serverFor(instance, records.front()->slot >= 0);
        std::lock_guard lock(server.mutex);
        if (!server.reader) {
            auto why = unjudged(server.error);
            for (auto* r : records) r->liveness = why;
            continue;
        }
        std::vector<inspect::LockRecord> part;
        part.reserve(records.size());
        for (auto* r : records) part.push_back(std::move(*r));
        try {
            server.reader->assess(part);
        } catch (const Error& e) {
            // Ctrl+C (or a lost connection) while reading: those locks stay unknown.
            auto why = unjudged(std::string("not judged: ") + e.what());
            for (auto& r : part) r.liveness = why;
        }
        for (std::size_t i = 0; i < records.size(); ++i) {
            *records[i] = std::move(part[i]);
            if (isOrphan(*records[i])) records[i]->findings |= bit(inspect::RuleId::Orphaned);
        }
    }
}

bool isOrphan(const inspect::LockRecord& r) {
    return r.liveness && r.liveness->verdict == inspect::Verdict::Gone;
}

}  // namespace lockscope::cli
