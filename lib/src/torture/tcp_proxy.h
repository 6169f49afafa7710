#pragma once
// A loopback TCP proxy between clients and one Redis server, the torture run's network:
// it can hold the server's replies back (a network delay), hold them until further notice
// (replication held back before a failover), cut every link and refuse new ones (a
// partition), and send new connections to another server (a failover's new primary).
// One thread polls every socket of the proxy; it listens on 127.0.0.1 only.

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

namespace lockscope::torture {

class TcpProxy {
  public:
    explicit TcpProxy(int upstreamPort);  // listens on a free port on 127.0.0.1
    ~TcpProxy();                          // closes every socket and joins the thread
    TcpProxy(const TcpProxy&) = delete;
    TcpProxy& operator=(const TcpProxy&) = delete;

    int port() const { return port_; }
    void setUpstream(int port);                  // for connections accepted from now on
    void setDelay(std::chrono::milliseconds d);  // server → client bytes wait this long
    void setHold(bool hold);                     // server → client bytes wait until released
    void setPartitioned(bool partitioned);       // true: cut every link, refuse new ones
    void dropAll();                              // cut every link now (they may reconnect)

  private:
    void run();
    void wake();

    int listenFd_ = -1;
    int wakePipe_[2] = {-1, -1};
    int port_ = 0;
    std::atomic<int> upstreamPort_;
    std::atomic<long long> delayMs_{0};
    std::atomic<bool> hold_{false}, partitioned_{false}, dropRequested_{false}, stop_{false};
    std::thread thread_;
};

}  // namespace lockscope::torture
