#include "replica_links.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <string>
#include <thread>

#include "lockscope/errors.h"

namespace lockscope::sim {

namespace {

using Clock = std::chrono::steady_clock;

// The oldest write the model still has in flight from `from` to `to`.
std::optional<std::uint64_t> oldestInFlight(const World& world, int from, int to) {
    std::optional<std::uint64_t> oldest;
    for (const auto& w : world.inFlight)
        if (w.from == from && w.to == to && (!oldest || w.seq < *oldest)) oldest = w.seq;
    return oldest;
}

// "field:value" from an INFO reply, or "" when absent.
std::string_view infoField(std::string_view info, std::string_view field) {
    const std::string key = "\n" + std::string(field) + ":";
    auto at = info.find(key);
    if (at == std::string_view::npos) return {};
    info.remove_prefix(at + key.size());
    return info.substr(0, info.find_first_of("\r\n"));
}

}  // namespace

ReplicaLinks::ReplicaLinks(std::vector<Connection*> admin, std::vector<int> ports)
    : admin_(std::move(admin)), ports_(std::move(ports)) {}

void ReplicaLinks::connect(int from, int to) {
    Link link;
    link.from = from;
    link.to = to;
    link.gate = std::make_unique<ReplicationGate>(ports_.at(from));
    const std::string port = std::to_string(link.gate->port());
    admin_.at(to)->command({"REPLICAOF", "127.0.0.1", port});
    waitForLinkUp(to);
    takeBaseline(link);
    links_.push_back(std::move(link));
}

void ReplicaLinks::waitForLinkUp(int replica) {
    const auto deadline = Clock::now() + std::chrono::seconds(10);
    while (Clock::now() < deadline) {
        Reply info = admin_.at(replica)->command({"INFO", "replication"});
        if (infoField(info.text(), "master_link_status") == "up") return;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    throw ProcessError("replica on port " + std::to_string(ports_.at(replica)) +
                       " did not finish its sync within 10 s");
}

std::int64_t ReplicaLinks::offsetOf(int node) {
    Reply info = admin_.at(node)->command({"INFO", "replication"});
    std::string_view text = infoField(info.text(), "master_repl_offset");
    std::int64_t offset = -1;
    std::from_chars(text.data(), text.data() + text.size(), offset);
    return offset;
}

// When the replica has applied everything its primary produced, every byte the gate has
// forwarded is the stream up to the primary's offset: that pair maps offsets to positions.
void ReplicaLinks::takeBaseline(Link& link) {
    const auto deadline = Clock::now() + std::chrono::seconds(5);
    while (Clock::now() < deadline) {
        const std::int64_t primary = offsetOf(link.from);
        const std::uint64_t forwarded = link.gate->forwardedBytes();
        if (offsetOf(link.to) == primary && offsetOf(link.from) == primary &&
            link.gate->forwardedBytes() == forwarded) {
            link.baseOffset = primary;
            link.basePosition = forwarded;
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    throw ProcessError("replica on port " + std::to_string(ports_.at(link.to)) +
                       " did not catch up with its primary within 5 s");
}

std::uint64_t ReplicaLinks::position(const Link& link, std::int64_t primaryOffset) const {
    return link.basePosition + static_cast<std::uint64_t>(primaryOffset - link.baseOffset);
}

void ReplicaLinks::markWrite(int node, std::uint64_t seqBefore) {
    std::optional<std::int64_t> offset;  // one INFO for all the node's replicas
    for (auto& link : links_) {
        if (link.from != node) continue;
        if (!offset) offset = offsetOf(node);
        const std::uint64_t at = position(link, *offset);
        link.gate->holdFrom(at);
        link.marks.push_back({seqBefore, at});
    }
}

void ReplicaLinks::follow(const World& world) {
    for (auto& link : links_) {
        const std::optional<std::uint64_t> oldest = oldestInFlight(world, link.from, link.to);
        const bool delivered = link.oldest && link.oldest != oldest;
        link.oldest = oldest;
        if (!oldest) {
            link.marks.clear();
            link.gate->open();
            if (delivered) deliver(link, position(link, offsetOf(link.from)));
            continue;
        }
        // Everything written before the oldest write still in flight has been delivered.
        while (link.marks.size() > 1 && link.marks[1].seqBefore < *oldest) link.marks.pop_front();
        if (link.marks.empty() || link.marks.front().seqBefore >= *oldest) continue;
        link.gate->releaseTo(link.marks.front().position);
        if (delivered) deliver(link, link.marks.front().position);
    }
}

void ReplicaLinks::deliver(Link& link, std::uint64_t position) {
    // Once the bytes are on the replica's socket, a PING behind them returns only after
    // the replica has read them: the write is applied before the next step (a failover
    // right after a delivery must find it on the replica).
    link.gate->waitForwarded(position);
    admin_.at(link.to)->command({"PING"});
}

void ReplicaLinks::failover(const World& world, int oldPrimary) {
    // The old primary's links end with what they held; it stays up for its clients.
    std::erase_if(links_, [&](const Link& l) { return l.from == oldPrimary; });
    admin_.at(world.primary)->command({"REPLICAOF", "NO", "ONE"});
    for (const auto& link : world.replication) {
        auto exists = std::any_of(links_.begin(), links_.end(), [&](const Link& l) {
            return l.from == link.from && l.to == link.to;
        });
        if (!exists) connect(link.from, link.to);
    }
}

}  // namespace lockscope::sim
