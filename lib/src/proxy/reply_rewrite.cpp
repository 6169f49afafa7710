// The proxy's reply rewriting: each request forwarded to the server is remembered by its
// command name; each complete reply coming back is paired with the oldest remembered request
// and, when that command is the one chosen, replaced, doubled or followed by an extra reply.
// A reply is held until complete only while a rewrite is set; otherwise it flows as it comes.

#include <algorithm>
#include <cctype>
#include <string_view>
#include <utility>

#include "proxy_link.h"

namespace lockscope {
namespace {

// Enough of a request to read its command name ("*3\r\n$4\r\nPTTL\r\n...").
constexpr std::size_t kRequestHead = 128;

void keepHead(std::string& head, std::string_view bytes) {
    if (head.size() < kRequestHead)
        head.append(bytes.substr(0, std::min(bytes.size(), kRequestHead - head.size())));
}

std::string upper(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

std::string commandName(std::string_view head) {
    const std::size_t count = head.find('\n');
    if (count == std::string_view::npos) return {};
    const std::size_t length = head.find('\n', count + 1);
    if (length == std::string_view::npos) return {};
    const std::size_t end = head.find('\r', length + 1);
    return upper(head.substr(length + 1, end == std::string_view::npos ? end : end - length - 1));
}

}  // namespace

void LoopbackProxy::rewriteReplies(const std::string& command, ReplyRewrite how, std::string bytes,
                                   int times) {
    std::lock_guard lock(matchMutex_);
    rewriteCommand_ = upper(command);
    rewriteHow_ = how;
    rewriteBytes_ = std::move(bytes);
    rewriteTimes_ = times;
}

bool LoopbackProxy::rewriting() const {
    std::lock_guard lock(matchMutex_);
    return !rewriteCommand_.empty();
}

void LoopbackProxy::noteRequests(Link& link, const std::string& bytes) {
    if (link.untracked) return;
    std::vector<std::size_t> ends;
    if (link.requests.feed(bytes.data(), bytes.size(), &ends)) {
        link.untracked = true;  // not RESP requests: nothing to pair replies with
        return;
    }
    std::size_t from = 0;
    for (std::size_t end : ends) {
        keepHead(link.requestHead, std::string_view(bytes).substr(from, end - from));
        link.awaiting.push_back(commandName(link.requestHead));
        link.requestHead.clear();
        from = end;
    }
    keepHead(link.requestHead, std::string_view(bytes).substr(from));
}

std::string LoopbackProxy::changed(const std::string& command, std::string reply) {
    std::lock_guard lock(matchMutex_);
    if (rewriteCommand_.empty() || command != rewriteCommand_) return reply;
    if (rewriteTimes_ < 0) return reply;  // the chosen number of rewrites is done
    if (rewriteTimes_ > 0 && --rewriteTimes_ == 0) rewriteTimes_ = -1;
    ++rewritten_;
    switch (rewriteHow_) {
        case ReplyRewrite::Replace:
            return rewriteBytes_;
        case ReplyRewrite::Twice:
            return reply + reply;
        case ReplyRewrite::Append:
            return reply + rewriteBytes_;
    }
    return reply;
}

std::string LoopbackProxy::rewrite(Link& link, std::string bytes) {
    if (link.untracked) return bytes;
    std::vector<std::size_t> ends;
    if (link.replies.feed(bytes.data(), bytes.size(), &ends)) {
        link.untracked = true;  // the server's bytes are not RESP: pass them on untouched
        return std::exchange(link.held, {}) + bytes;
    }
    std::string out;
    std::size_t from = 0;
    const std::string_view all(bytes);
    for (std::size_t end : ends) {
        const std::string_view part = all.substr(from, end - from);
        from = end;
        std::string name;
        if (!link.awaiting.empty()) {
            name = std::move(link.awaiting.front());
            link.awaiting.pop_front();
        }
        if (link.passThrough) {
            out.append(part);
            link.passThrough = false;
            continue;
        }
        link.held.append(part);
        out += changed(name, std::exchange(link.held, {}));
    }
    const std::string_view rest = all.substr(from);
    if (rest.empty()) return out;
    if (link.passThrough || (link.held.empty() && !rewriting())) {
        out.append(rest);
        link.passThrough = true;
    } else {
        link.held.append(rest);
    }
    return out;
}

}  // namespace lockscope
