// The proxy's misbehaviour: what it does to a client's request (answer it itself, lose its
// reply, stream endless bytes) and to the server's reply (drip it, send it twice, delay it).

#include "proxy_link.h"

namespace lockscope {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

void LoopbackProxy::answerMatching(std::string needle, std::string reply) {
    std::lock_guard lock(matchMutex_);
    needle_ = std::move(needle);
    canned_ = std::move(reply);
}

bool LoopbackProxy::takeFault(ProxyFault fault) {
    ProxyFault expected = fault;
    return fault_.compare_exchange_strong(expected, ProxyFault::None);
}

namespace {

// Every SCAN request in a chunk of requests starts over at cursor 0: the server answers with
// a cursor the client has already had, again and again.
void restartScans(std::string& requests) {
    const std::string scan = "$4\r\nSCAN\r\n$";
    for (std::size_t at = requests.find(scan); at != std::string::npos;
         at = requests.find(scan, at + 1)) {
        const std::size_t bulk = at + scan.size() - 1;  // the cursor's "$<n>\r\n<cursor>\r\n"
        const std::size_t header = requests.find("\r\n", bulk);
        if (header == std::string::npos) break;
        const std::size_t length = std::stoul(requests.substr(bulk + 1, header - bulk - 1));
        requests.replace(bulk, header + 2 + length + 2 - bulk, "$1\r\n0\r\n");
    }
}

}  // namespace

bool LoopbackProxy::fromClient(Link& link, std::string& bytes) {
    if (link.streamsEndlessly()) return false;  // the client is busy drowning
    if (takeFault(ProxyFault::HugeBulk)) {
        link.endless = "$999999999999\r\n";
        return false;
    }
    if (takeFault(ProxyFault::HugeNestedBulk)) {
        link.endless = "*1\r\n$500000000\r\n";
        return false;
    }
    if (takeFault(ProxyFault::NotResp)) {
        link.toClient.push_back({Clock::now(), "HTTP/1.1 400 Bad Request\r\n\r\n"});
        return false;
    }
    {
        std::lock_guard lock(matchMutex_);
        if (!needle_.empty() && bytes.find(needle_) != std::string::npos) {
            ++intercepted_;
            link.toClient.push_back({Clock::now(), canned_});
            return false;
        }
    }
    if (fault_.load() == ProxyFault::EndlessCursor) restartScans(bytes);
    // The request reaches the server and runs; its reply never comes back.
    if (takeFault(ProxyFault::LoseNextReply)) link.loseReply = true;
    noteRequests(link, bytes);
    return true;
}

void LoopbackProxy::fromServer(Link& link, std::string bytes) {
    bytes = rewrite(link, std::move(bytes));
    if (bytes.empty()) return;  // a reply not complete yet, held to be rewritten whole
    auto now = Clock::now();
    if (fault_.load() == ProxyFault::DripReplies) {
        milliseconds drip(dripMs_.load());
        auto due = link.toClient.empty() ? now : link.toClient.back().due + drip;
        for (char byte : bytes) {
            link.toClient.push_back({due, std::string(1, byte)});
            due += drip;
        }
        return;
    }
    auto due = now + milliseconds(delayMs_.load());
    if (takeFault(ProxyFault::ReplyTwice)) link.toClient.push_back({due, bytes});
    link.toClient.push_back({due, std::move(bytes)});
}

}  // namespace lockscope
