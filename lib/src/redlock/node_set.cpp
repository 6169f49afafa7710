#include "lockscope/redlock/node_set.h"

#include "lockscope/redlock/validity.h"
#include "node_link.h"
#include "node_round.h"

namespace lockscope {

RedlockNodeSet::RedlockNodeSet(std::vector<Endpoint> nodes) : endpoints_(std::move(nodes)) {
    if (endpoints_.empty())
        throw InvalidArgumentError(
            "Redlock needs independent Redis primaries, but the node list is empty");
    if (endpoints_.size() % 2 == 0)
        throw InvalidArgumentError(
            "Redlock needs an odd number of nodes, got " + std::to_string(endpoints_.size()) +
            ": with an even number a tie leaves no majority, and N nodes tolerate no more "
            "failures than N−1 (use 3, 5 or 7)");
    if (endpoints_.size() > 63)
        throw InvalidArgumentError("Redlock over " + std::to_string(endpoints_.size()) +
                                   " nodes is not supported (at most 63)");
    for (std::size_t i = 0; i < endpoints_.size(); ++i) {
        const Endpoint& e = endpoints_[i];
        if (!e.isUnix() && (e.host.empty() || e.port <= 0 || e.port > 65535))
            throw InvalidArgumentError("Redlock node " + std::to_string(i + 1) +
                                       " has no valid host and port (" + e.display() + ")");
        for (std::size_t j = 0; j < i; ++j) {
            const Endpoint& f = endpoints_[j];
            bool same = e.isUnix() ? e.unixPath == f.unixPath
                                   : (!f.isUnix() && e.host == f.host && e.port == f.port);
            if (same)
                throw InvalidArgumentError(
                    "Redlock nodes " + std::to_string(j + 1) + " and " + std::to_string(i + 1) +
                    " are the same server (" + e.display() +
                    "): a majority only means something over independent primaries");
        }
    }
    links_.reserve(endpoints_.size());
    for (const auto& e : endpoints_) {
        links_.emplace_back(e);
        names_.push_back(e.display());
    }
}

RedlockNodeSet RedlockNodeSet::fromUrls(const std::vector<std::string>& urls) {
    std::vector<Endpoint> nodes;
    nodes.reserve(urls.size());
    for (const auto& url : urls) nodes.push_back(parseEndpoint(url));
    return RedlockNodeSet(std::move(nodes));
}

RedlockNodeSet::~RedlockNodeSet() = default;
RedlockNodeSet::RedlockNodeSet(RedlockNodeSet&&) noexcept = default;
RedlockNodeSet& RedlockNodeSet::operator=(RedlockNodeSet&&) noexcept = default;

RedlockNodeSet RedlockNodeSet::sibling() const {
    return RedlockNodeSet(endpoints_);
}

int RedlockNodeSet::quorum() const {
    return redlockQuorum(endpoints_.size());
}

void RedlockNodeSet::close() noexcept {
    for (auto& link : links_) link.close();
}

std::vector<NodeReplies> RedlockNodeSet::roundTrip(const std::vector<Command>& commands,
                                                   std::chrono::milliseconds timeout) {
    return run(std::vector<bool>(links_.size(), true), commands, timeout);
}

std::vector<NodeReplies> RedlockNodeSet::run(const std::vector<bool>& selected,
                                             const std::vector<Command>& commands,
                                             std::chrono::milliseconds timeout) {
    if (commands.empty()) throw InvalidArgumentError("a Redlock round needs at least one command");
    for (const auto& command : commands)
        if (command.empty())
            throw InvalidArgumentError("a Redlock round was given an empty command");
    return redlock_detail::NodeRound(links_, selected, commands, timeout).run();
}

std::vector<NodeReplies> RedlockNodeSet::evalOnAll(const Script& script,
                                                   const std::vector<std::string_view>& keys,
                                                   const std::vector<std::string_view>& args,
                                                   std::chrono::milliseconds timeout) {
    std::string numKeys = std::to_string(keys.size());
    std::vector<Command> commands(1);
    Command& command = commands.front();
    command.reserve(3 + keys.size() + args.size());
    command.insert(command.end(), {"EVALSHA", script.sha1(), numKeys});
    command.insert(command.end(), keys.begin(), keys.end());
    command.insert(command.end(), args.begin(), args.end());
    std::vector<NodeReplies> results =
        run(std::vector<bool>(links_.size(), true), commands, timeout);

    std::vector<bool> missing(links_.size(), false);
    bool any = false;
    for (std::size_t i = 0; i < results.size(); ++i) {
        if (results[i].ok() && results[i].replies[0].isError() &&
            results[i].replies[0].text().starts_with("NOSCRIPT"))
            missing[i] = any = true;
    }
    if (!any) return results;
    command[0] = "EVAL";
    command[1] = script.source();
    std::vector<NodeReplies> retried = run(missing, commands, timeout);
    for (std::size_t i = 0; i < results.size(); ++i) {
        if (!missing[i]) continue;
        auto first = results[i].latency;
        results[i] = std::move(retried[i]);
        results[i].latency += first;
    }
    return results;
}

}  // namespace lockscope
