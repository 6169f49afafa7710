#include "tcp_proxy.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "lockscope/errors.h"

namespace lockscope::torture {
namespace {

using Clock = std::chrono::steady_clock;

// Bytes from the server, released to the client at `due`.
struct Chunk {
    Clock::time_point due;
    std::string bytes;
};

struct Link {
    int client = -1, server = -1;
    std::deque<Chunk> toClient;
    ~Link() {
        if (client >= 0) close(client);
        if (server >= 0) close(server);
    }
};

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

}  // namespace

TcpProxy::TcpProxy(int upstreamPort) : upstreamPort_(upstreamPort) {
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
        throw ProcessError("torture: cannot open a proxy socket on 127.0.0.1");
    }
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] { run(); });
}

TcpProxy::~TcpProxy() {
    stop_ = true;
    wake();
    thread_.join();
    close(listenFd_);
    close(wakePipe_[0]);
    close(wakePipe_[1]);
}

void TcpProxy::wake() {
    char byte = 1;
    [[maybe_unused]] ssize_t n = write(wakePipe_[1], &byte, 1);
}

void TcpProxy::setUpstream(int port) {
    upstreamPort_ = port;
}
void TcpProxy::setDelay(std::chrono::milliseconds d) {
    delayMs_ = d.count();
    wake();
}
void TcpProxy::setHold(bool hold) {
    hold_ = hold;
    wake();
}
void TcpProxy::setPartitioned(bool partitioned) {
    partitioned_ = partitioned;
    if (partitioned) dropRequested_ = true;
    wake();
}
void TcpProxy::dropAll() {
    dropRequested_ = true;
    wake();
}

void TcpProxy::run() {
    std::vector<std::unique_ptr<Link>> links;
    char buffer[16384];
    while (!stop_) {
        if (dropRequested_.exchange(false)) links.clear();
        // Release what is due; compute how long poll may sleep until the next release.
        auto now = Clock::now();
        int timeoutMs = 200;
        for (auto& link : links) {
            while (!hold_ && !link->toClient.empty() && link->toClient.front().due <= now) {
                if (!sendAll(link->client, link->toClient.front().bytes))
                    link->toClient.clear();
                else
                    link->toClient.pop_front();
            }
            if (!hold_ && !link->toClient.empty()) {
                auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(
                                link->toClient.front().due - now)
                                .count() +
                            1;
                timeoutMs = std::min<int>(timeoutMs, static_cast<int>(wait));
            }
        }
        std::vector<pollfd> fds{{listenFd_, POLLIN, 0}, {wakePipe_[0], POLLIN, 0}};
        for (auto& link : links) {
            fds.push_back({link->client, POLLIN, 0});
            fds.push_back({link->server, POLLIN, 0});
        }
        if (poll(fds.data(), fds.size(), timeoutMs) < 0) continue;
        if (fds[1].revents) read(wakePipe_[0], buffer, sizeof buffer);
        std::vector<bool> dead(links.size(), false);
        for (std::size_t i = 0; i < links.size(); ++i) {
            Link& link = *links[i];
            if (fds[2 + 2 * i].revents) {  // client → server: passed on at once
                ssize_t n = recv(link.client, buffer, sizeof buffer, 0);
                if (n <= 0 || !sendAll(link.server, std::string(buffer, n))) dead[i] = true;
            }
            if (!dead[i] && fds[3 + 2 * i].revents) {  // server → client: may be held back
                ssize_t n = recv(link.server, buffer, sizeof buffer, 0);
                if (n <= 0) {
                    dead[i] = true;
                } else {
                    auto due = Clock::now() + std::chrono::milliseconds(delayMs_.load());
                    link.toClient.push_back({due, std::string(buffer, n)});
                }
            }
        }
        for (std::size_t i = links.size(); i-- > 0;)
            if (dead[i]) links.erase(links.begin() + static_cast<long>(i));
        if (fds[0].revents & POLLIN) {
            int client = accept4(listenFd_, nullptr, nullptr, SOCK_CLOEXEC);
            if (client < 0) continue;
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

}  // namespace lockscope::torture
