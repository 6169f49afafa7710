#pragma once
// A plain HTTP/1.0 GET over a real socket, for the exporter's tests: many at once from
// threads (500 curl processes would measure fork, not the exporter), with a deadline.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>

namespace lockscope::testing {

struct HttpReply {
    int status = 0;  // 0: no answer within the deadline
    std::string body;
    std::chrono::milliseconds took{0};
};

inline HttpReply httpGet(int port, const std::string& pathAndQuery,
                         std::chrono::milliseconds deadline = std::chrono::milliseconds(5000)) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    HttpReply reply;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return reply;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    std::string raw;
    if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
        const std::string request =
            "GET " + pathAndQuery + " HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
        if (send(fd, request.data(), request.size(), MSG_NOSIGNAL) ==
            static_cast<ssize_t>(request.size())) {
            char buf[8192];
            for (;;) {
                auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - (Clock::now() - start));
                pollfd p{fd, POLLIN, 0};
                if (left.count() <= 0 || poll(&p, 1, static_cast<int>(left.count())) <= 0) {
                    raw.clear();  // no whole answer in time
                    break;
                }
                ssize_t n = recv(fd, buf, sizeof buf, 0);
                if (n <= 0) break;
                raw.append(buf, static_cast<std::size_t>(n));
            }
        }
    }
    close(fd);
    reply.took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    if (raw.rfind("HTTP/1.", 0) == 0 && raw.size() > 12) reply.status = std::stoi(raw.substr(9, 3));
    if (auto body = raw.find("\r\n\r\n"); body != std::string::npos)
        reply.body = raw.substr(body + 4);
    return reply;
}

}  // namespace lockscope::testing
