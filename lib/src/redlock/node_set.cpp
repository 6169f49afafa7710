#include "lockscope/redlock/node_set.h"

#include <poll.h>

#include <algorithm>
#include <cerrno>

#include "lockscope/redlock/validity.h"
#include "node_link.h"

namespace lockscope {
namespace {

using Clock = std::chrono::steady_clock;
using redlock_detail::LinkFailure;
using redlock_detail::NodeLink;

std::chrono::microseconds since(Clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start);
}

timespec toTimespec(Clock::duration left) {
    auto ns = std::max<std::int64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(left).count(), 0);
    return timespec{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
}

// Where one node stands within a round.
struct Pending {
    bool active = false;   // selected and not yet finished
    bool writing = false;  // part of the request is still in our buffer
    int handshake = 0;     // AUTH/SELECT replies that precede the caller's
    std::size_t expected = 0;
    std::vector<Reply> replies;
};

}  // namespace

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

// An idle socket has nothing to read. If it is readable, the server closed it (a restart, a
// CLIENT KILL, a timeout): close it now so this round reconnects instead of losing the node.
void RedlockNodeSet::closeDeadIdleLinks(const std::vector<bool>& selected) {
    std::vector<pollfd> fds;
    std::vector<std::size_t> owners;
    for (std::size_t i = 0; i < links_.size(); ++i) {
        if (!selected[i] || !links_[i].isOpen()) continue;
        fds.push_back(pollfd{links_[i].fd(), POLLIN, 0});
        owners.push_back(i);
    }
    if (fds.empty()) return;
    if (::poll(fds.data(), fds.size(), 0) <= 0) return;
    for (std::size_t k = 0; k < fds.size(); ++k)
        if (fds[k].revents) links_[owners[k]].close();
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
    const std::size_t n = links_.size();
    std::vector<NodeReplies> results(n);
    std::vector<Pending> pending(n);
    closeDeadIdleLinks(selected);

    const auto sentAt = Clock::now();
    const auto deadline = sentAt + timeout;
    auto fail = [&](std::size_t i, LinkFailure failure) {
        results[i].errorKind = failure.kind;
        results[i].error = std::move(failure.message);
        results[i].latency = since(sentAt);
        pending[i].active = false;
        links_[i].close();
    };

    // Queue and write to every node before waiting for any of them.
    for (std::size_t i = 0; i < n; ++i) {
        if (!selected[i]) continue;
        Pending& p = pending[i];
        if (!links_[i].isOpen()) {
            if (auto failure = links_[i].open(p.handshake)) {
                fail(i, std::move(*failure));
                continue;
            }
        }
        for (const auto& command : commands) links_[i].append(command);
        p.expected = p.handshake + commands.size();
        p.replies.reserve(p.expected);
        p.active = true;
        std::optional<LinkFailure> failure;
        p.writing = !links_[i].flush(failure);
        if (failure) fail(i, std::move(*failure));
    }

    std::vector<pollfd> fds;
    std::vector<std::size_t> owners;
    while (true) {
        fds.clear();
        owners.clear();
        for (std::size_t i = 0; i < n; ++i) {
            if (!pending[i].active) continue;
            fds.push_back(pollfd{links_[i].fd(),
                                 static_cast<short>(POLLIN | (pending[i].writing ? POLLOUT : 0)),
                                 0});
            owners.push_back(i);
        }
        if (fds.empty()) break;
        auto left = deadline - Clock::now();
        if (left <= Clock::duration::zero()) break;
        timespec wait = toTimespec(left);
        int ready = ::ppoll(fds.data(), fds.size(), &wait, nullptr);
        if (ready < 0 && errno != EINTR) {
            for (std::size_t i : owners)
                fail(i, {ErrorKind::ConnectionLost,
                         "poll failed while waiting for " + links_[i].where()});
            break;
        }
        for (std::size_t k = 0; ready > 0 && k < fds.size(); ++k) {
            if (!fds[k].revents) continue;
            std::size_t i = owners[k];
            Pending& p = pending[i];
            std::optional<LinkFailure> failure;
            if (p.writing && (fds[k].revents & POLLOUT)) p.writing = !links_[i].flush(failure);
            if (!failure && (fds[k].revents & (POLLIN | POLLHUP | POLLERR))) {
                Reply reply;
                if (links_[i].readAvailable(failure))
                    while (p.replies.size() < p.expected && links_[i].takeReply(reply, failure))
                        p.replies.push_back(std::move(reply));
            }
            if (failure)
                fail(i, std::move(*failure));
            else if (p.replies.size() == p.expected) {
                p.active = false;
                results[i].latency = since(sentAt);
            }
        }
    }

    for (std::size_t i = 0; i < n; ++i) {
        Pending& p = pending[i];
        if (p.active) {
            // Closing the socket drops the late reply with it, so it cannot be read as the
            // answer to a later command.
            fail(i, {ErrorKind::Timeout, "no reply from " + links_[i].where() + " within " +
                                             std::to_string(timeout.count()) + " ms"});
            continue;
        }
        if (!selected[i] || results[i].errorKind) continue;
        for (int h = 0; h < p.handshake; ++h) {
            if (!p.replies[h].isError()) continue;
            std::string_view text = p.replies[h].text();
            const char* what = h == 0 && !endpoints_[i].password.empty() ? "AUTH" : "SELECT";
            auto latency = results[i].latency;
            fail(i, {redlock_detail::errorKindOfReply(text),
                     std::string(what) + " on " + links_[i].where() + ": " + std::string(text)});
            results[i].latency = latency;
            break;
        }
        if (results[i].errorKind) continue;
        results[i].replies.reserve(commands.size());
        for (std::size_t r = p.handshake; r < p.replies.size(); ++r)
            results[i].replies.push_back(std::move(p.replies[r]));
    }
    return results;
}

std::vector<NodeReplies> RedlockNodeSet::evalOnAll(const Script& script,
                                                   const std::vector<std::string_view>& keys,
                                                   const std::vector<std::string_view>& args,
                                                   std::chrono::milliseconds timeout) {
    std::string numKeys = std::to_string(keys.size());
    Command command{"EVALSHA", script.sha1(), numKeys};
    command.insert(command.end(), keys.begin(), keys.end());
    command.insert(command.end(), args.begin(), args.end());
    std::vector<NodeReplies> results =
        run(std::vector<bool>(links_.size(), true), {command}, timeout);

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
    std::vector<NodeReplies> retried = run(missing, {command}, timeout);
    for (std::size_t i = 0; i < results.size(); ++i) {
        if (!missing[i]) continue;
        auto first = results[i].latency;
        results[i] = std::move(retried[i]);
        results[i].latency += first;
    }
    return results;
}

}  // namespace lockscope
