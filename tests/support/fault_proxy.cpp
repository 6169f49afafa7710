#include "fault_proxy.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>

namespace lockscope::testing {
namespace {

int listenOnLoopback(int& port) {
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(fd, 16) != 0)
        throw std::runtime_error("fault proxy: cannot listen on loopback");
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    port = ntohs(addr.sin_port);
    return fd;
}

int connectTo(const Endpoint& e) {
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(e.port));
    ::inet_pton(AF_INET, e.host.c_str(), &addr.sin_addr);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

bool sendAll(int fd, const char* data, std::size_t size) {
    while (size > 0) {
        ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
        if (n <= 0) return false;
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

// Every SCAN request in a chunk of requests starts over at cursor 0: the server answers
// with a cursor the client has already had, again and again.
std::string restartScans(std::string requests) {
    const std::string scan = "$4\r\nSCAN\r\n$";
    for (std::size_t at = requests.find(scan); at != std::string::npos;
         at = requests.find(scan, at + 1)) {
        std::size_t bulk = at + scan.size() - 1;  // the cursor's "$<n>\r\n<cursor>\r\n"
        std::size_t header = requests.find("\r\n", bulk);
        if (header == std::string::npos) break;
        std::size_t length = std::stoul(requests.substr(bulk + 1, header - bulk - 1));
        requests.replace(bulk, header + 2 + length + 2 - bulk, "$1\r\n0\r\n");
    }
    return requests;
}

// Streams filler after a header until the client goes away or the proxy stops.
void sendEndless(int client, const std::string& header, const std::atomic<bool>& stopping) {
    if (!sendAll(client, header.data(), header.size())) return;
    std::string filler(64 * 1024, 'x');
    while (!stopping.load() && sendAll(client, filler.data(), filler.size())) {
    }
}

}  // namespace

FaultProxy::FaultProxy(Endpoint upstream) : upstream_(std::move(upstream)) {
    listenFd_ = listenOnLoopback(port_);
    acceptor_ = std::thread([this] { acceptLoop(); });
}

FaultProxy::~FaultProxy() {
    stopping_.store(true);
    ::shutdown(listenFd_, SHUT_RDWR);
    ::close(listenFd_);
    acceptor_.join();
    for (auto& t : sessions_) t.join();
}

Endpoint FaultProxy::endpoint() const {
    Endpoint e = upstream_;
    e.host = "127.0.0.1";
    e.port = port_;
    return e;
}

void FaultProxy::acceptLoop() {
    while (!stopping_.load()) {
        int client = ::accept4(listenFd_, nullptr, nullptr, SOCK_CLOEXEC);
        if (client < 0) return;
        ++accepted_;
        sessions_.emplace_back([this, client] { serve(client); });
    }
}

bool FaultProxy::forwardReply(int client, const char* data, std::size_t size) {
    Fault f = fault_.load();
    if (f == Fault::DripReplies) {
        for (std::size_t i = 0; i < size && !stopping_.load(); ++i) {
            if (!sendAll(client, data + i, 1)) return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(dripMs_.load()));
        }
        return true;
    }
    if (f == Fault::ReplyTwice && fault_.compare_exchange_strong(f, Fault::None))
        return sendAll(client, data, size) && sendAll(client, data, size);
    return sendAll(client, data, size);
}

void FaultProxy::serve(int client) {
    int server = connectTo(upstream_);
    if (server < 0) {
        ::close(client);
        return;
    }
    char buf[64 * 1024];
    bool open = true;
    while (open && !stopping_.load()) {
        pollfd fds[2] = {{client, POLLIN, 0}, {server, POLLIN, 0}};
        if (::poll(fds, 2, 50) <= 0) continue;
        if (fds[0].revents) {
            ssize_t n = ::recv(client, buf, sizeof buf, 0);
            if (n <= 0) break;
            Fault f = fault_.load();
            if (f == Fault::HugeBulk && fault_.compare_exchange_strong(f, Fault::None)) {
                sendEndless(client, "$999999999999\r\n", stopping_);
                break;
            }
            if (f == Fault::HugeNestedBulk && fault_.compare_exchange_strong(f, Fault::None)) {
                sendEndless(client, "*1\r\n$500000000\r\n", stopping_);
                break;
            }
            if (f == Fault::NotResp && fault_.compare_exchange_strong(f, Fault::None)) {
                sendAll(client, "HTTP/1.1 400 Bad Request\r\n\r\n", 28);
                continue;
            }
            if (f == Fault::LoseNextReply && fault_.compare_exchange_strong(f, Fault::None)) {
                // The request reaches the server and runs; its reply never comes back.
                sendAll(server, buf, static_cast<std::size_t>(n));
                pollfd wait{server, POLLIN, 0};
                ::poll(&wait, 1, 2000);
                break;
            }
            if (f == Fault::EndlessCursor) {
                std::string rewritten = restartScans(std::string(buf, static_cast<std::size_t>(n)));
                if (!sendAll(server, rewritten.data(), rewritten.size())) break;
                continue;
            }
            if (!sendAll(server, buf, static_cast<std::size_t>(n))) break;
        }
        if (fds[1].revents) {
            ssize_t n = ::recv(server, buf, sizeof buf, 0);
            if (n <= 0) break;
            open = forwardReply(client, buf, static_cast<std::size_t>(n));
        }
    }
    ::close(server);
    ::close(client);
}

}  // namespace lockscope::testing
