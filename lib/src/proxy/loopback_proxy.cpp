#include "lockscope/proxy/loopback_proxy.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <memory>
#include <string_view>
#include <vector>

#include "lockscope/errors.h"
#include "proxy_link.h"

namespace lockscope {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

int connectTo(int port) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        close(fd);
        return -1;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

// Writes all bytes (the peers are on loopback and read promptly; a stopped peer's socket
// buffer holds far more than a lock client's replies). false: the peer is gone.
bool sendAll(int fd, const std::string& bytes) {
    std::size_t sent = 0;
    while (sent < bytes.size()) {
        ssize_t n = send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) return false;
        sent += static_cast<std::size_t>(n);
    }
    return true;
}

const std::string& filler() {
    static const std::string bytes(std::size_t{64} * 1024, 'x');
    return bytes;
}

}  // namespace

LoopbackProxy::LoopbackProxy(int upstreamPort)
    : LoopbackProxy([upstreamPort] {
          Endpoint e;
          e.port = upstreamPort;
          return e;
      }()) {}

LoopbackProxy::LoopbackProxy(Endpoint upstream)
    : upstream_(std::move(upstream)), upstreamPort_(upstream_.port) {
    listenFd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (listenFd_ < 0 || bind(listenFd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        listen(listenFd_, 64) != 0 ||
        getsockname(listenFd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0 ||
        pipe2(wakePipe_, O_CLOEXEC) != 0) {
        if (listenFd_ >= 0) close(listenFd_);
        throw ProcessError("proxy: cannot open a socket on 127.0.0.1");
    }
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] { run(); });
}

LoopbackProxy::~LoopbackProxy() {
    stop_ = true;
    wake();
    thread_.join();
    cutDone_.notify_all();  // a dropAll() racing the destructor stops waiting
    close(listenFd_);
    close(wakePipe_[0]);
    close(wakePipe_[1]);
}

Endpoint LoopbackProxy::endpoint() const {
    Endpoint e = upstream_;
    e.host = "127.0.0.1";
    e.port = port_;
    e.unixPath.clear();
    return e;
}

void LoopbackProxy::wake() {
    char byte = 1;
    [[maybe_unused]] ssize_t n = write(wakePipe_[1], &byte, 1);
}

void LoopbackProxy::setUpstream(int port) {
    upstreamPort_ = port;
}
void LoopbackProxy::setDelay(milliseconds d) {
    delayMs_ = d.count();
    wake();
}
void LoopbackProxy::setHold(bool hold) {
    hold_ = hold;
    wake();
}
void LoopbackProxy::setPartitioned(bool partitioned) {
    partitioned_ = partitioned;
    if (partitioned) cutEveryLink();
}
void LoopbackProxy::dropAll() {
    cutEveryLink();
}

// Synchronous, so a caller that cut the links (a partition, a failover) knows no request it
// sends afterwards can still travel over an old link.
void LoopbackProxy::cutEveryLink() {
    std::unique_lock lock(cutMutex_);
    std::uint64_t mine = ++cutsRequested_;
    wake();
    cutDone_.wait_for(lock, std::chrono::seconds(10),
                      [&] { return cutsDone_ >= mine || stop_.load(); });
}

bool LoopbackProxy::takeCutRequest() {
    std::lock_guard lock(cutMutex_);
    return cutsDone_ < cutsRequested_;
}

void LoopbackProxy::cutDone() {
    {
        std::lock_guard lock(cutMutex_);
        cutsDone_ = cutsRequested_;
    }
    cutDone_.notify_all();
}

void LoopbackProxy::run() {
    std::vector<std::unique_ptr<Link>> links;
    char buffer[16384];
    while (!stop_) {
        if (takeCutRequest()) {
            links.clear();
            cutDone();
        }
        // Release what is due; compute how long poll may sleep until the next release.
        auto now = Clock::now();
        int timeoutMs = 200;
        std::vector<bool> dead(links.size(), false);
        for (std::size_t i = 0; i < links.size(); ++i) {
            Link& link = *links[i];
            while (!hold_ && !link.toClient.empty() && link.toClient.front().due <= now) {
                if (!sendAll(link.client, link.toClient.front().bytes)) {
                    dead[i] = true;
                    break;
                }
                link.toClient.pop_front();
            }
            if (!hold_ && !link.toClient.empty()) {
                auto wait =
                    std::chrono::duration_cast<milliseconds>(link.toClient.front().due - now)
                        .count() +
                    1;
                timeoutMs = std::min<int>(timeoutMs, static_cast<int>(wait));
            }
        }
        std::vector<pollfd> fds{{listenFd_, POLLIN, 0}, {wakePipe_[0], POLLIN, 0}};
        for (auto& link : links) {
            short clientEvents = POLLIN | (link->streamsEndlessly() ? POLLOUT : 0);
            fds.push_back({link->client, clientEvents, 0});
            fds.push_back(
                {link->server, static_cast<short>(link->streamsEndlessly() ? 0 : POLLIN), 0});
        }
        if (poll(fds.data(), fds.size(), timeoutMs) < 0) continue;
        if (fds[1].revents) {
            [[maybe_unused]] ssize_t n = read(wakePipe_[0], buffer, sizeof buffer);
        }
        for (std::size_t i = 0; i < links.size(); ++i) {
            Link& link = *links[i];
            short clientEvents = fds[2 + 2 * i].revents;
            if (!dead[i] && (clientEvents & (POLLIN | POLLHUP | POLLERR))) {
                ssize_t n = recv(link.client, buffer, sizeof buffer, 0);
                if (n <= 0)
                    dead[i] = true;
                else if (std::string bytes(buffer, static_cast<std::size_t>(n));
                         fromClient(link, bytes))
                    dead[i] = !sendAll(link.server, bytes);
            }
            if (!dead[i] && link.streamsEndlessly() && (clientEvents & POLLOUT)) {
                // Endless bytes without blocking the other links: what the socket takes now.
                bool header = link.endlessSent < link.endless.size();
                std::string_view out = header
                                           ? std::string_view(link.endless).substr(link.endlessSent)
                                           : std::string_view(filler());
                ssize_t n = send(link.client, out.data(), out.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
                if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) dead[i] = true;
                if (n > 0 && header) link.endlessSent += static_cast<std::size_t>(n);
            }
            if (!dead[i] && fds[3 + 2 * i].revents) {  // server → client: may be held back
                ssize_t n = recv(link.server, buffer, sizeof buffer, 0);
                if (n <= 0 || link.loseReply)
                    dead[i] = true;  // a lost reply: the client sees the link cut
                else
                    fromServer(link, std::string(buffer, n));
            }
        }
        for (std::size_t i = links.size(); i-- > 0;)
            if (dead[i]) links.erase(links.begin() + static_cast<long>(i));
        if (fds[0].revents & POLLIN) {
            int client = accept4(listenFd_, nullptr, nullptr, SOCK_CLOEXEC);
            if (client < 0) continue;
            ++accepted_;
            int server = partitioned_ ? -1 : connectTo(upstreamPort_);
            if (server < 0) {
                close(client);  // partitioned or the server is down: the client sees a reset
                continue;
            }
            int one = 1;
            setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            auto link = std::make_unique<Link>();
            link->client = client;
            link->server = server;
            links.push_back(std::move(link));
        }
    }
}

}  // namespace lockscope
