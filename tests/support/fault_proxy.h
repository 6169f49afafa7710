#pragma once
// A fault-injecting TCP proxy on loopback, between a client under test and a real
// redis-server: it forwards bytes both ways and, when told, breaks the server's replies the
// way networks and hostile peers do. Used to check the transport's contract (never re-send a
// write whose reply was lost, one deadline per command, a cap on reply size).

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "lockscope/endpoint.h"

namespace lockscope::testing {

enum class Fault {
    None,            // forward faithfully
    LoseNextReply,   // forward the request, drop the server's reply, close the client
    DripReplies,     // forward replies one byte per dripInterval
    HugeBulk,        // answer the next request with "$999999999999\r\n" and endless bytes
    HugeNestedBulk,  // answer with an array holding a 500 MB bulk, streamed endlessly
    ReplyTwice,      // forward the next reply twice
    NotResp,         // answer the next request with bytes that are not RESP
    EndlessCursor,   // until cleared, every SCAN asks for cursor 0: the cursors come back
                     // and the scan would never reach its end
};

class FaultProxy {
  public:
    explicit FaultProxy(Endpoint upstream);
    ~FaultProxy();
    FaultProxy(const FaultProxy&) = delete;
    FaultProxy& operator=(const FaultProxy&) = delete;

    // The endpoint clients connect to: the upstream's credentials on the proxy's port.
    Endpoint endpoint() const;
    void inject(Fault fault) { fault_.store(fault); }
    Fault pending() const { return fault_.load(); }
    void setDripInterval(std::chrono::milliseconds interval) { dripMs_.store(interval.count()); }
    // Client connections accepted so far (a retry on a fresh connection adds one).
    int accepted() const { return accepted_.load(); }

  private:
    void acceptLoop();
    void serve(int client);
    bool forwardReply(int client, const char* data, std::size_t size);

    Endpoint upstream_;
    int listenFd_ = -1;
    int port_ = 0;
    std::atomic<Fault> fault_{Fault::None};
    std::atomic<long> dripMs_{100};
    std::atomic<int> accepted_{0};
    std::atomic<bool> stopping_{false};
    std::thread acceptor_;
    std::vector<std::thread> sessions_;
};

}  // namespace lockscope::testing
