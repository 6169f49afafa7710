#include "replication_gate.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "lockscope/errors.h"

namespace lockscope::sim {

namespace {

sockaddr_in loopback(int port) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    return addr;
}

// Writes all of data; false when the peer is gone.
bool writeAll(int fd, const char* data, std::size_t size) {
    while (size > 0) {
        ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
        if (n <= 0) return false;
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

// The wake pipe carries no data, only "look again": one byte in, everything out.
void signal(int fd) {
    if (fd >= 0 && ::write(fd, "x", 1) < 0) return;  // full: a wake-up is pending anyway
}

void drain(int fd) {
    char bytes[64];
    while (::read(fd, bytes, sizeof bytes) > 0) {  // non-blocking: stops when empty
    }
}

void closeFd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

}  // namespace

ReplicationGate::ReplicationGate(int primaryPort) : primaryPort_(primaryPort) {
    // Close-on-exec: a server spawned meanwhile must not inherit the gate and keep it open.
    listenFd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr = loopback(0);
    socklen_t len = sizeof addr;
    if (listenFd_ < 0 || ::bind(listenFd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        ::listen(listenFd_, 4) != 0 ||
        ::getsockname(listenFd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0 ||
        ::pipe2(wakePipe_, O_NONBLOCK | O_CLOEXEC) != 0) {
        closeFd(listenFd_);
        throw ProcessError("cannot open a replication gate on 127.0.0.1");
    }
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] { run(); });
}

ReplicationGate::~ReplicationGate() {
    cut();
}

void ReplicationGate::holdFrom(std::uint64_t position) {
    std::lock_guard lock(mutex_);
    if (limit_ == UINT64_MAX) limit_ = std::max(position, forwarded_);
}

void ReplicationGate::releaseTo(std::uint64_t position) {
    {
        std::lock_guard lock(mutex_);
        if (limit_ != UINT64_MAX) limit_ = std::max(limit_, position);
    }
    wake();
}

void ReplicationGate::open() {
    {
        std::lock_guard lock(mutex_);
        limit_ = UINT64_MAX;
    }
    wake();
}

void ReplicationGate::waitForwarded(std::uint64_t position) {
    std::unique_lock lock(mutex_);
    forwardedChanged_.wait_for(lock, std::chrono::seconds(2),
                               [&] { return replicaFd_ < 0 || forwarded_ >= position; });
}

std::uint64_t ReplicationGate::forwardedBytes() {
    std::lock_guard lock(mutex_);
    return forwarded_;
}

void ReplicationGate::cut() {
    if (thread_.joinable()) {
        stop_ = true;
        wake();
        thread_.join();
    }
    closeConnections();
    closeFd(listenFd_);
    closeFd(wakePipe_[0]);
    closeFd(wakePipe_[1]);
    std::lock_guard lock(mutex_);
    held_.clear();
}

void ReplicationGate::wake() {
    signal(wakePipe_[1]);
}

void ReplicationGate::run() {
    while (!stop_) relayOnce();
}

void ReplicationGate::relayOnce() {
    pollfd fds[4] = {{listenFd_, POLLIN, 0},
                     {wakePipe_[0], POLLIN, 0},
                     {replicaFd_, POLLIN, 0},
                     {primaryFd_, POLLIN, 0}};
    if (::poll(fds, 4, 100) < 0) return;
    char buffer[16384];
    if (fds[1].revents & POLLIN) drain(wakePipe_[0]);
    if (fds[0].revents & POLLIN) acceptReplica();
    // The replica's side (handshake, REPLCONF ACK) is never held: WAIT counts those acks.
    if (replicaFd_ >= 0 && (fds[2].revents & (POLLIN | POLLHUP | POLLERR))) {
        ssize_t n = ::recv(replicaFd_, buffer, sizeof buffer, 0);
        if (n <= 0 || !writeAll(primaryFd_, buffer, static_cast<std::size_t>(n))) {
            closeConnections();
            return;
        }
    }
    if (primaryFd_ >= 0 && (fds[3].revents & (POLLIN | POLLHUP | POLLERR))) {
        ssize_t n = ::recv(primaryFd_, buffer, sizeof buffer, 0);
        if (n <= 0) {
            closeConnections();
            return;
        }
        std::lock_guard lock(mutex_);
        held_.append(buffer, static_cast<std::size_t>(n));
        received_ += static_cast<std::uint64_t>(n);
    }
    forwardReleased();
}

void ReplicationGate::acceptReplica() {
    int replica = ::accept4(listenFd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (replica < 0) return;
    // A replica reconnecting starts a new stream: what the old one held is gone with it.
    closeConnections();
    int primary = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr = loopback(primaryPort_);
    if (primary < 0 || ::connect(primary, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        if (primary >= 0) ::close(primary);
        ::close(replica);
        return;
    }
    int one = 1;
    ::setsockopt(replica, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    ::setsockopt(primary, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    std::lock_guard lock(mutex_);
    replicaFd_ = replica;
    primaryFd_ = primary;
    held_.clear();
    received_ = forwarded_ = 0;
    limit_ = UINT64_MAX;
}

void ReplicationGate::forwardReleased() {
    std::string chunk;
    {
        std::lock_guard lock(mutex_);
        const std::uint64_t allowed = std::min(limit_, received_) - forwarded_;
        if (allowed == 0 || replicaFd_ < 0) return;
        chunk = held_.substr(0, static_cast<std::size_t>(allowed));
        held_.erase(0, chunk.size());
    }
    const bool written = writeAll(replicaFd_, chunk.data(), chunk.size());
    {
        std::lock_guard lock(mutex_);
        forwarded_ += chunk.size();  // counted once on the wire: waitForwarded means sent
    }
    if (!written) closeConnections();
    forwardedChanged_.notify_all();
}

void ReplicationGate::closeConnections() {
    {
        std::lock_guard lock(mutex_);  // flush() reads replicaFd_ from another thread
        closeFd(replicaFd_);
        closeFd(primaryFd_);
    }
    forwardedChanged_.notify_all();
}

}  // namespace lockscope::sim
