#pragma once
// A canned-reply proxy on loopback (not the byte-level FaultProxy of tests/support): relays every
// client's bytes to a real redis-server, except requests that contain a chosen command name (EVAL,
// EVALSHA...), which are answered with a canned reply instead and never reach the server, as a
// faulty proxy or server might. Requests are matched per read, which suffices for one request in
// flight at a time (what LockScope's actions send).

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace lockscope::testing {

class CannedReplyProxy {
  public:
    // needle: the bytes of the command name as sent in RESP (e.g. "EVAL" matches EVALSHA too).
    CannedReplyProxy(int serverPort, std::string needle, std::string cannedReply)
        : serverPort_(serverPort), needle_(std::move(needle)), canned_(std::move(cannedReply)) {
        listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(listener_, reinterpret_cast<sockaddr*>(&a), sizeof a);
        ::listen(listener_, 16);
        socklen_t len = sizeof a;
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &len);
        port_ = ntohs(a.sin_port);
        acceptor_ = std::thread([this] { acceptLoop(); });
    }
    ~CannedReplyProxy() {
        stop_ = true;
        acceptor_.join();
        for (auto& t : relays_) t.join();
        ::close(listener_);
    }
    int port() const { return port_; }
    int intercepted() const { return intercepted_; }

  private:
    void acceptLoop() {
        while (!stop_) {
            pollfd p{listener_, POLLIN, 0};
            if (::poll(&p, 1, 50) <= 0) continue;
            int client = ::accept(listener_, nullptr, nullptr);
            if (client < 0) continue;
            relays_.emplace_back([this, client] { relay(client); });
        }
    }

    void relay(int client) {
        int server = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        a.sin_port = htons(static_cast<uint16_t>(serverPort_));
        if (::connect(server, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
            ::close(client);
            ::close(server);
            return;
        }
        char buf[65536];
        while (!stop_) {
            pollfd p[2] = {{client, POLLIN, 0}, {server, POLLIN, 0}};
            if (::poll(p, 2, 50) <= 0) continue;
            if (p[0].revents) {
                ssize_t n = ::read(client, buf, sizeof buf);
                if (n <= 0) break;
                if (std::string_view(buf, n).find(needle_) != std::string_view::npos) {
                    ++intercepted_;
                    if (::write(client, canned_.data(), canned_.size()) < 0) break;
                } else if (::write(server, buf, n) != n) {
                    break;
                }
            }
            if (p[1].revents) {
                ssize_t n = ::read(server, buf, sizeof buf);
                if (n <= 0 || ::write(client, buf, n) != n) break;
            }
        }
        ::close(client);
        ::close(server);
    }

    int serverPort_;
    std::string needle_, canned_;
    int listener_ = -1;
    int port_ = 0;
    std::atomic<bool> stop_{false};
    std::atomic<int> intercepted_{0};
    std::thread acceptor_;
    std::vector<std::thread> relays_;
};

}  // namespace lockscope::testing
