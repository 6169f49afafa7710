#include "node_round.h"

#include <poll.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <string>

#include "core/resp_request.h"

namespace lockscope::redlock_detail {
namespace {

std::chrono::microseconds since(NodeRound::Clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::microseconds>(NodeRound::Clock::now() - start);
}

timespec toTimespec(NodeRound::Clock::duration left) {
    auto ns = std::max<std::int64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(left).count(), 0);
    return timespec{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
}

// A node set holds at most 63 nodes, so the poll list lives on the stack.
constexpr std::size_t kMaxNodes = 64;

}  // namespace

NodeRound::NodeRound(std::span<NodeLink> links, const std::vector<bool>& selected,
                     const std::vector<Command>& commands, std::chrono::milliseconds timeout)
    : links_(links),
      selected_(selected),
      commands_(commands),
      timeout_(timeout),
      results_(links.size()),
      pending_(links.size()) {
    std::size_t size = 0;
    for (const auto& command : commands)
        for (std::string_view arg : command) size += arg.size() + 16;  // "$<len>\r\n…\r\n"
    request_.reserve(size + 16 * commands.size());
    for (const auto& command : commands) appendRespRequest(request_, command);
}

std::vector<NodeReplies> NodeRound::run() {
    sentAt_ = Clock::now();
    deadline_ = sentAt_ + timeout_;
    // Queue and write to every node before waiting for any of them.
    for (std::size_t i = 0; i < links_.size(); ++i)
        if (selected_[i]) send(i);
    while (waitOnce()) {
    }
    for (std::size_t i = 0; i < links_.size(); ++i)
        if (selected_[i]) finish(i);
    return std::move(results_);
}

void NodeRound::send(std::size_t i) {
    Pending& p = pending_[i];
    p.reused = links_[i].isOpen();
    p.handshake = 0;
    if (!p.reused) {
        if (auto failure = links_[i].open(p.handshake)) return fail(i, std::move(*failure));
    }
    links_[i].appendEncoded(request_);
    p.expected = p.handshake + commands_.size();
    results_[i].replies.reserve(p.expected);
    p.active = true;
    std::optional<LinkFailure> failure;
    p.writing = !links_[i].flush(failure);
    if (failure) failOrResend(i, std::move(*failure));
}

void NodeRound::fail(std::size_t i, LinkFailure failure) {
    results_[i].errorKind = failure.kind;
    results_[i].error = std::move(failure.message);
    results_[i].latency = since(sentAt_);
    results_[i].replies.clear();
    pending_[i].active = false;
    links_[i].close();
}

void NodeRound::failOrResend(std::size_t i, LinkFailure failure) {
    Pending& p = pending_[i];
    // Nothing of this round came back on a socket that predates it: the server had closed it
    // while idle, so it cannot have run our commands. Sending them again is safe, once.
    bool closedWhileIdle = p.reused && !p.resent && results_[i].replies.empty() &&
                           failure.kind == ErrorKind::ConnectionLost;
    if (!closedWhileIdle) return fail(i, std::move(failure));
    p.resent = true;
    links_[i].close();
    send(i);
}

bool NodeRound::waitOnce() {
    std::array<pollfd, kMaxNodes> fds;
    std::array<std::size_t, kMaxNodes> owners;
    std::size_t count = 0;
    for (std::size_t i = 0; i < links_.size(); ++i) {
        if (!pending_[i].active) continue;
        auto events = static_cast<short>(POLLIN | (pending_[i].writing ? POLLOUT : 0));
        fds[count] = pollfd{links_[i].fd(), events, 0};
        owners[count++] = i;
    }
    if (count == 0) return false;
    auto left = deadline_ - Clock::now();
    if (left <= Clock::duration::zero()) return false;
    timespec wait = toTimespec(left);
    int ready = ::ppoll(fds.data(), count, &wait, nullptr);
    if (ready < 0 && errno != EINTR) {
        for (std::size_t k = 0; k < count; ++k)
            fail(owners[k], {ErrorKind::ConnectionLost,
                             "poll failed while waiting for " + links_[owners[k]].where()});
        return false;
    }
    // Read every node that is ready now, not just the first: one wake-up serves them all.
    for (std::size_t k = 0; ready > 0 && k < count; ++k)
        if (fds[k].revents) serve(owners[k], fds[k].revents);
    return true;
}

void NodeRound::serve(std::size_t i, short revents) {
    Pending& p = pending_[i];
    std::vector<Reply>& replies = results_[i].replies;
    std::optional<LinkFailure> failure;
    if (p.writing && (revents & POLLOUT)) p.writing = !links_[i].flush(failure);
    if (!failure && (revents & (POLLIN | POLLHUP | POLLERR))) {
        Reply reply;
        if (links_[i].readAvailable(failure))
            while (replies.size() < p.expected && links_[i].takeReply(reply, failure))
                replies.push_back(std::move(reply));
    }
    if (failure) return failOrResend(i, std::move(*failure));
    if (replies.size() == p.expected) {
        p.active = false;
        results_[i].latency = since(sentAt_);
    }
}

void NodeRound::finish(std::size_t i) {
    Pending& p = pending_[i];
    if (p.active) {
        // Closing the socket drops the late reply with it, so it cannot be read as the
        // answer to a later command.
        fail(i, {ErrorKind::Timeout, "no reply from " + links_[i].where() + " within " +
                                         std::to_string(timeout_.count()) + " ms"});
        return;
    }
    if (results_[i].errorKind) return;
    checkHandshake(i);
    if (results_[i].errorKind) return;
    auto& replies = results_[i].replies;
    replies.erase(replies.begin(), replies.begin() + p.handshake);
}

// AUTH and SELECT went in front of a fresh socket's commands; a refusal there is the node's
// error, not a reply to the caller's commands.
void NodeRound::checkHandshake(std::size_t i) {
    const auto& replies = results_[i].replies;
    for (int h = 0; h < pending_[i].handshake; ++h) {
        if (!replies[h].isError()) continue;
        std::string text(replies[h].text());  // fail() clears the replies
        const char* what = h == 0 && !links_[i].endpoint().password.empty() ? "AUTH" : "SELECT";
        auto latency = results_[i].latency;
        fail(i, {errorKindOfReply(text),
                 std::string(what) + " on " + links_[i].where() + ": " + text});
        results_[i].latency = latency;
        return;
    }
}

}  // namespace lockscope::redlock_detail
