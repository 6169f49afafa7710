#include "socket_connect.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <vector>

#include "lockscope/errors.h"

namespace lockscope::transport {
namespace {

struct AddrInfoFree {
    void operator()(addrinfo* a) const noexcept { freeaddrinfo(a); }
};

struct Address {
    sockaddr_storage storage{};
    socklen_t length = 0;
    int family = AF_UNSPEC;
};

std::vector<Address> resolve(const Endpoint& endpoint, const std::string& where) {
    std::vector<Address> out;
    if (endpoint.isUnix()) {
        Address a;
        auto* un = reinterpret_cast<sockaddr_un*>(&a.storage);
        un->sun_family = AF_UNIX;
        if (endpoint.unixPath.size() >= sizeof un->sun_path)
            throw InvalidArgumentError("the Unix socket path of " + where + " is too long");
        std::memcpy(un->sun_path, endpoint.unixPath.c_str(), endpoint.unixPath.size() + 1);
        a.length = sizeof(sockaddr_un);
        a.family = AF_UNIX;
        out.push_back(a);
        return out;
    }
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* raw = nullptr;
    std::string port = std::to_string(endpoint.port);
    int rc = getaddrinfo(endpoint.host.c_str(), port.c_str(), &hints, &raw);
    std::unique_ptr<addrinfo, AddrInfoFree> list(raw);
    if (rc == EAI_NONAME || rc == EAI_NODATA || rc == EAI_FAIL || rc == EAI_AGAIN)
        throw ConnectionRefusedError("connect to " + where + ": unknown host \"" + endpoint.host +
                                     "\"");
    if (rc != 0)
        throw ConnectionRefusedError("connect to " + where + ": cannot resolve \"" + endpoint.host +
                                     "\" (getaddrinfo code " + std::to_string(rc) + ")");
    for (addrinfo* a = list.get(); a; a = a->ai_next) {
        Address addr;
        std::memcpy(&addr.storage, a->ai_addr, a->ai_addrlen);
        addr.length = a->ai_addrlen;
        addr.family = a->ai_family;
        out.push_back(addr);
    }
    std::stable_partition(out.begin(), out.end(),
                          [](const Address& a) { return a.family == AF_INET; });
    return out;
}

// Returns the fd with a connect in progress or done, or -1 with errno set.
int startOne(const Address& address) {
    int fd = ::socket(address.family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (address.family != AF_UNIX) {
        int one = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        ::setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
    }
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&address.storage), address.length) == 0 ||
        errno == EINPROGRESS)
        return fd;
    int saved = errno;
    ::close(fd);
    errno = saved;
    return -1;
}

// Waits for a connect in progress. 0 when connected, else the errno that failed it;
// ETIMEDOUT when the deadline passed, ECANCELED when the caller asked to stop.
int waitConnected(int fd, const Deadline& deadline) {
    while (true) {
        if (deadline.cancelled()) return ECANCELED;
        pollfd p{fd, POLLOUT, 0};
        int ready = ::poll(&p, 1, deadline.pollMillis());
        if (ready < 0 && errno != EINTR) return errno;
        if (ready > 0) {
            int err = 0;
            socklen_t len = sizeof err;
            ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
            return err;
        }
        if (deadline.passed()) return ETIMEDOUT;
    }
}

[[noreturn]] void throwConnectFailure(int err, const Deadline& deadline, const std::string& where) {
    std::string prefix = "connect to " + where + ": ";
    if (err == ETIMEDOUT)
        throw TimeoutError(prefix + "no connection within " +
                           std::to_string(deadline.budget.count()) + " ms");
    if (err == ECANCELED) throw CancelledError(prefix + "cancelled");
    throw ConnectionRefusedError(prefix + describeErrno(err));
}

}  // namespace

std::string describeErrno(int err) {
    switch (err) {
        case ECONNREFUSED:
            return "connection refused (nothing listens there)";
        case ENOENT:
            return "no such socket file";
        case EACCES:
        case EPERM:
            return "permission denied";
        case EHOSTUNREACH:
            return "no route to host";
        case ENETUNREACH:
            return "network unreachable";
        case ECONNRESET:
            return "connection reset by the server";
        case EPIPE:
            return "the server closed the connection";
        case ETIMEDOUT:
            return "timed out";
        case EADDRNOTAVAIL:
            return "address not available";
        case EMFILE:
        case ENFILE:
            return "too many open files";
        case ENOBUFS:
        case ENOMEM:
            return "out of memory";
        default:
            return "system error " + std::to_string(err);
    }
}

int connectSocket(const Endpoint& endpoint, const Deadline& deadline, const std::string& where) {
    int lastError = ECONNREFUSED;
    for (const Address& address : resolve(endpoint, where)) {
        int fd = startOne(address);
        if (fd < 0) {
            lastError = errno;
            continue;
        }
        int err = waitConnected(fd, deadline);
        if (err == 0) return fd;
        ::close(fd);
        if (err == ETIMEDOUT || err == ECANCELED) throwConnectFailure(err, deadline, where);
        lastError = err;
    }
    throwConnectFailure(lastError, deadline, where);
}

int startConnectSocket(const Endpoint& endpoint, const std::string& where) {
    int lastError = ECONNREFUSED;
    for (const Address& address : resolve(endpoint, where)) {
        int fd = startOne(address);
        if (fd >= 0) return fd;
        lastError = errno;
    }
    throwConnectFailure(lastError, Deadline{}, where);
}

}  // namespace lockscope::transport
