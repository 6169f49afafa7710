#include "instance_scan.h"

#include <algorithm>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include "lockscope/inspect/cluster/cluster_scan.h"
#include "lockscope/inspect/doctor.h"
#include "lockscope/inspect/lock_watch.h"
#include "lockscope/inspect/scanner.h"
#include "scan_targets.h"

namespace lockscope::cli {

int exitCodeFor(const Error& e) {
    switch (e.kind()) {
        case ErrorKind::ConnectionRefused:
        case ErrorKind::Timeout:
        case ErrorKind::ConnectionLost:
        case ErrorKind::Protocol:
        case ErrorKind::Authentication:
            return kCannotConnect;
        case ErrorKind::PermissionDenied:
        case ErrorKind::ReadOnly:
            return kPermissionDenied;
        case ErrorKind::InvalidArgument:
            return kUsage;
        case ErrorKind::OutcomeUnknown:
            return kOutcomeUnknown;
        default:
            return kError;
    }
}

namespace {

// How the flags shape the doctor's judgement, the same for every way a scan is read.
inspect::DoctorOptions doctorOptionsFor(const InspectorFlags& flags,
                                        std::shared_ptr<const inspect::ClusterTopology> cluster) {
    inspect::DoctorOptions options;
    options.layout = flags.scan.layout;
    options.cluster = std::move(cluster);
    options.replicaOnPurpose = flags.scanReplicas;  // a replica read as asked is no mistake
    return options;
}

void judge(const InspectorFlags& flags, InstanceScan& s,
           std::shared_ptr<const inspect::ClusterTopology> cluster = nullptr) {
    inspect::Doctor(doctorOptionsFor(flags, std::move(cluster))).annotate(s.records, s.facts);
    std::sort(s.records.begin(), s.records.end(),
              [](const auto& a, const auto& b) { return a.key < b.key; });
}

// A cluster: one InstanceScan per node scanned (in parallel), each with the locks of its
// slots; a node that could not be read carries its error and its slot ranges.
void scanWholeCluster(const InspectorFlags& flags, inspect::ClusterRouter& router,
                      std::vector<InstanceScan>& scans) {
    auto result = inspect::scanCluster(router, {flags.scan, flags.scanReplicas});
    const std::size_t first = scans.size();
    for (auto& node : result.nodes) {
        InstanceScan s;
        s.endpoint = router.endpointOf(node.node);
        s.notes = node.notes;
        if (node.replicaLagBytes >= 0)
            s.notes.push_back("replica of the shard with slots " + node.slotRanges + ", " +
                              std::to_string(node.replicaLagBytes) +
                              " bytes behind its primary (replication offsets)");
        if (node.error) {
            s.error = *node.error;
            s.errorExit = exitCodeFor(Error(node.errorKind, *node.error));
        } else {
            try {
                s.facts = inspect::probeServer(router.connectionTo(s.endpoint));
                s.notes.insert(s.notes.end(), s.facts.notes.begin(), s.facts.notes.end());
            } catch (const Error& e) {
                s.notes.push_back(std::string("could not read the server's facts: ") + e.what());
            }
        }
        scans.push_back(std::move(s));
    }
    // Each record goes to the node whose shard serves its slot now: a node's part as a whole
    // when all of it is still that node's (the usual case), else record by record.
    auto nodeServing = [&](const inspect::LockRecord& r) {
        const inspect::ClusterNode* owner = router.topology().ownerOfSlot(r.slot);
        std::size_t to = first;
        for (std::size_t i = 0; i < result.nodes.size(); ++i) {
            const auto& n = result.nodes[i].node;
            if (owner && (n.id == owner->id || n.primaryId == owner->id)) to = first + i;
        }
        return to;
    };
    for (std::size_t p = 0; p < result.parts.size(); ++p) {
        auto& part = result.parts[p];
        const std::size_t own = first + p;
        if (p < result.nodes.size() && scans[own].records.empty() &&
            std::all_of(part.begin(), part.end(),
                        [&](const auto& r) { return nodeServing(r) == own; })) {
            scans[own].records = std::move(part);
            continue;
        }
        for (auto& r : part)
            if (auto to = nodeServing(r); to < scans.size())
                scans[to].records.push_back(std::move(r));
    }
    for (const auto& event : result.events) scans[first].notes.push_back("cluster: " + event);
    auto topology = std::make_shared<const inspect::ClusterTopology>(router.topology());
    for (std::size_t i = first; i < scans.size(); ++i) judge(flags, scans[i], topology);
}

}  // namespace

std::vector<InstanceScan> scanInstances(const InspectorFlags& flags, std::stop_token stop) {
    std::vector<InstanceScan> scans;
    ConnectionOptions options = connectionOptions(flags, true);
    options.stop = stop;
    for (const auto& endpoint : flags.endpoints) {
        InstanceScan s;
        std::vector<std::string> targetNotes;
        s.endpoint = endpointToScan(flags, endpoint, targetNotes);
        if (stop.stop_requested()) {
            s.cancelled = true;
            scans.push_back(std::move(s));
            continue;
        }
        try {
            inspect::ClusterRouter router(s.endpoint, options, flags.clusterAddressing);
            if (router.isCluster()) {
                scanWholeCluster(flags, router, scans);
                continue;
            }
            Connection& c = router.connectionTo(s.endpoint);
            s.notes = targetNotes;
            s.notes.insert(s.notes.end(), router.notes().begin(), router.notes().end());
            inspect::Scanner scanner(c, flags.scan);
            inspect::ScanSummary summary;
            s.records = scanner.collect(&summary, stop);
            s.cancelled = summary.cancelled;
            s.notes.insert(s.notes.end(), summary.notes.begin(), summary.notes.end());
            if (!s.cancelled) {
                s.facts = inspect::probeServer(c);
                s.notes.insert(s.notes.end(), s.facts.notes.begin(), s.facts.notes.end());
            }
            judge(flags, s);
        } catch (const Error& e) {
            if (stop.stop_requested()) {
                s.cancelled = true;  // the stop broke a wait: not the server's fault
            } else {
                s.error = e.what();
                s.errorExit = exitCodeFor(e);
                // Locks read before the failure were never judged: printed, they would claim
                // no findings.
                s.records.clear();
            }
        }
        scans.push_back(std::move(s));
    }
    return scans;
}

namespace {

// A cluster in streamInstances(): scanCluster reads every primary at once and follows slots
// that move, which needs the whole result, so its records reach the sink node by node once
// the cluster is read (memory is the cluster's locks, not a batch). The nodes' notes and
// the first node error go to the one InstanceScan of the seed's URL.
void streamWholeCluster(const InspectorFlags& flags, inspect::ClusterRouter& router,
                        InstanceScan& s, const RecordSink& sink) {
    std::vector<InstanceScan> nodes;
    scanWholeCluster(flags, router, nodes);
    for (auto& node : nodes) {
        for (const auto& note : node.notes)
            s.notes.push_back(node.endpoint.display() + ": " + note);
        if (node.error && !s.error) {
            s.error = node.endpoint.display() + ": " + *node.error;
            s.errorExit = node.errorExit;
        }
        if (!node.records.empty()) sink(node.records);
    }
    if (!nodes.empty()) s.facts = nodes.front().facts;
    s.servers = nodes.size();
}

// One server of streamInstances(): probe, then scan, annotating each batch before the sink.
void streamOne(const InspectorFlags& flags, InstanceScan& s, const RecordSink& sink,
               std::stop_token stop) {
    std::vector<std::string> targetNotes;
    s.endpoint = endpointToScan(flags, s.endpoint, targetNotes);
    try {
        ConnectionOptions options = connectionOptions(flags, true);
        options.stop = stop;
        inspect::ClusterRouter router(s.endpoint, options, flags.clusterAddressing);
        if (router.isCluster()) {
            streamWholeCluster(flags, router, s, sink);
            return;
        }
        Connection& c = router.connectionTo(s.endpoint);
        s.facts = inspect::probeServer(c);
        const inspect::Doctor doctor(doctorOptionsFor(flags, nullptr));
        inspect::Scanner scanner(c, flags.scan);
        inspect::ScanSummary summary = scanner.run(
            [&](inspect::ScanBatch& batch) {
                if (batch.records.empty()) return;
                doctor.annotate(batch.records, s.facts);
                sink(batch.records);
            },
            stop);
        s.cancelled = summary.cancelled;
        s.notes = targetNotes;
        s.notes.insert(s.notes.end(), summary.notes.begin(), summary.notes.end());
        s.notes.insert(s.notes.end(), s.facts.notes.begin(), s.facts.notes.end());
    } catch (const CancelledError&) {
        s.cancelled = true;
    } catch (const Error& e) {
        if (stop.stop_requested()) {
            s.cancelled = true;  // the stop broke a wait: not the server's fault
            return;
        }
        s.error = e.what();
        s.errorExit = exitCodeFor(e);
    }
}

}  // namespace

std::vector<InstanceScan> streamInstances(const InspectorFlags& flags, const RecordSink& sink,
                                          std::stop_token stop) {
    std::vector<InstanceScan> scans(flags.endpoints.size());
    for (std::size_t i = 0; i < scans.size(); ++i) scans[i].endpoint = flags.endpoints[i];
    if (scans.size() == 1) {
        streamOne(flags, scans[0], sink, stop);
        return scans;
    }
    std::vector<std::jthread> threads;
    threads.reserve(scans.size());
    for (auto& s : scans)
        threads.emplace_back([&flags, &s, &sink, stop] { streamOne(flags, s, sink, stop); });
    threads.clear();  // joins
    return scans;
}

std::vector<InstanceScan> observeInstances(const InspectorFlags& flags,
                                           std::chrono::milliseconds observe,
                                           std::chrono::milliseconds interval,
                                           std::stop_token stop) {
    struct Watched {
        InstanceScan scan;
        std::unique_ptr<Connection> connection;
        std::unique_ptr<inspect::LockWatch> watch;
    };
    inspect::WatchOptions options;
    options.scan = flags.scan;
    options.pollInterval = interval;
    options.rescanInterval = observe + interval;  // one scan, then cheap re-reads
    options.doctor = doctorOptionsFor(flags, nullptr);
    options.followKeyspaceEvents = false;
    ConnectionOptions connection = connectionOptions(flags, true);
    connection.stop = stop;
    std::vector<Watched> watched;
    for (const auto& target : primariesToWatch(flags)) {  // a cluster: each of its primaries
        const Endpoint& endpoint = target.endpoint;
        Watched w;
        w.scan.endpoint = endpoint;
        try {
            w.connection = std::make_unique<Connection>(Connection::open(endpoint, connection));
            w.watch = std::make_unique<inspect::LockWatch>(*w.connection, options);
        } catch (const Error& e) {
            if (stop.stop_requested()) {
                w.scan.cancelled = true;
            } else {
                w.scan.error = e.what();
                w.scan.errorExit = exitCodeFor(e);
            }
        }
        watched.push_back(std::move(w));
    }
    auto deadline = inspect::SteadyClock::now() + observe;
    std::mutex m;
    std::condition_variable_any wake;  // a stop request ends the wait between steps
    do {
        auto next = inspect::SteadyClock::now() + interval;
        for (auto& w : watched) {
            if (!w.watch || stop.stop_requested()) continue;
            auto u = w.watch->step(stop);
            if (!u.connected && !stop.stop_requested())
                w.scan.notes.push_back("lost the connection for a moment: " + u.error);
        }
        std::unique_lock lock(m);
        wake.wait_until(lock, stop, std::min(next, deadline), [] { return false; });
    } while (inspect::SteadyClock::now() < deadline && !stop.stop_requested());
    std::vector<InstanceScan> scans;
    for (auto& w : watched) {
        w.scan.cancelled = w.scan.cancelled || stop.stop_requested();
        if (w.watch) {
            for (const auto& [key, r] : w.watch->table().records()) w.scan.records.push_back(*r);
            w.scan.facts = w.watch->server();
            w.scan.notes.insert(w.scan.notes.end(), w.watch->notes().begin(),
                                w.watch->notes().end());
            w.scan.notes.insert(w.scan.notes.end(), w.scan.facts.notes.begin(),
                                w.scan.facts.notes.end());
            inspect::Doctor(options.doctor).annotate(w.scan.records, w.scan.facts);
        }
        scans.push_back(std::move(w.scan));
    }
    return scans;
}

int exitCodeOf(const std::vector<InstanceScan>& scans) {
    int code = kOk;
    for (const auto& s : scans)
        if (s.error && code == kOk) code = s.errorExit;
    return code;
}

}  // namespace lockscope::cli
