#pragma once
// A TCP proxy on loopback between clients and one Redis server, for the torture run's network
// and the tests' faults: it forwards bytes both ways and, when told, misbehaves as networks,
// failovers and hostile peers do.
//   * Network (torture): hold the server's replies back by a delay or until released, cut
//     every link and refuse new ones (a partition), send new links to another server.
//   * Faults (tests): lose a reply after the server ran the request, drip replies, answer
//     with endless or non-RESP bytes, send a reply twice, answer requests that contain a
//     chosen command name with a canned reply that never reaches the server.
// One thread polls every socket of the proxy; it listens and connects on 127.0.0.1 only.
//
// Thread rules: every member may be called from any thread while the proxy runs.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

#include "lockscope/endpoint.h"

namespace lockscope {

enum class ProxyFault {
    None,            // forward faithfully
    LoseNextReply,   // forward the next request, drop the server's reply, cut the link
    DripReplies,     // from now on, release replies one byte per drip interval
    HugeBulk,        // answer the next request with "$999999999999\r\n" and endless bytes
    HugeNestedBulk,  // answer the next request with an array holding an endless 500 MB bulk
    ReplyTwice,      // forward the next reply twice
    NotResp,         // answer the next request with bytes that are not RESP
    EndlessCursor,   // until cleared, every SCAN asks for cursor 0: the cursors come back
                     // and the scan would never reach its end
};

// How rewriteReplies() changes the reply to a chosen command (the server still runs it).
enum class ReplyRewrite {
    Replace,  // the reply becomes the given bytes
    Twice,    // the reply comes twice
    Append,   // the reply, then the given bytes: a reply no request asked for
};

class LoopbackProxy {
  public:
    // Listens on a free port on 127.0.0.1 and forwards to 127.0.0.1:upstreamPort. Throws
    // ProcessError when no socket can be opened.
    explicit LoopbackProxy(int upstreamPort);
    // The same, keeping the upstream's credentials for endpoint(); only its port is used to
    // connect (never another host).
    explicit LoopbackProxy(Endpoint upstream);
    ~LoopbackProxy();  // closes every socket and joins the thread
    LoopbackProxy(const LoopbackProxy&) = delete;
    LoopbackProxy& operator=(const LoopbackProxy&) = delete;

    int port() const { return port_; }
    // What clients connect to: the upstream's credentials on the proxy's port.
    Endpoint endpoint() const;
    int accepted() const { return accepted_.load(); }  // client links accepted so far

    // The network.
    void setUpstream(int port);                  // for links accepted from now on
    void setDelay(std::chrono::milliseconds d);  // server → client bytes wait this long
    void setHold(bool hold);                     // server → client bytes wait until released
    // true: cut every link, refuse new ones. Returns once the links are cut.
    void setPartitioned(bool partitioned);
    void dropAll();  // cuts every link and returns once they are cut (clients may reconnect)

    // Faults. One-shot faults clear themselves when they fire; pending() says which waits.
    void inject(ProxyFault fault) { fault_.store(fault); }
    ProxyFault pending() const { return fault_.load(); }
    void setDripInterval(std::chrono::milliseconds interval) { dripMs_.store(interval.count()); }
    // From now on, a request whose bytes contain `needle` (e.g. "EVAL", which matches EVALSHA
    // too) is answered with `reply` and never reaches the server. Matched per read, which
    // suffices for one request in flight at a time.
    void answerMatching(std::string needle, std::string reply);
    int intercepted() const { return intercepted_.load(); }
    // From now on (for links opened from now on), the replies to commands named `command`
    // (any case) are changed as `how` says: every one, or the first `times` when positive.
    // Requests and replies are told apart by their RESP framing, so each command of a
    // pipeline gets its own reply's fate. `bytes` must be whole RESP replies.
    void rewriteReplies(const std::string& command, ReplyRewrite how, std::string bytes = {},
                        int times = 0);
    void clearRewrites() { rewriteReplies({}, ReplyRewrite::Replace); }
    int rewritten() const { return rewritten_.load(); }

  private:
    struct Link;
    void run();
    void wake();
    void cutEveryLink();    // asks the thread to cut every link and waits until it did
    bool takeCutRequest();  // on the thread: true when links must be cut (then call cutDone)
    void cutDone();
    // What to do with bytes a client sent; false: nothing goes to the server.
    bool fromClient(Link& link, std::string& bytes);
    void fromServer(Link& link, std::string bytes);
    bool takeFault(ProxyFault fault);  // true (and cleared) when `fault` is pending
    // The rewriting of replies (reply_rewrite.cpp): requests forwarded are remembered by
    // name, and each complete reply is matched with the oldest one.
    void noteRequests(Link& link, const std::string& bytes);
    std::string rewrite(Link& link, std::string bytes);
    std::string changed(const std::string& command, std::string reply);
    bool rewriting() const;

    Endpoint upstream_;
    int listenFd_ = -1;
    int wakePipe_[2] = {-1, -1};
    int port_ = 0;
    std::atomic<int> upstreamPort_;
    std::atomic<long long> delayMs_{0};
    std::atomic<long long> dripMs_{100};
    std::atomic<bool> hold_{false}, partitioned_{false}, stop_{false};
    std::mutex cutMutex_;  // guards the two counters: callers wait until the thread cut
    std::condition_variable cutDone_;
    std::uint64_t cutsRequested_ = 0, cutsDone_ = 0;
    std::atomic<ProxyFault> fault_{ProxyFault::None};
    std::atomic<int> accepted_{0}, intercepted_{0};
    mutable std::mutex matchMutex_;  // guards needle_ and canned_
    std::string needle_, canned_;
    std::string rewriteCommand_, rewriteBytes_;  // guarded by matchMutex_ too
    ReplyRewrite rewriteHow_ = ReplyRewrite::Replace;
    int rewriteTimes_ = 0;
    std::atomic<int> rewritten_{0};
    std::thread thread_;  // last: it starts once everything it uses exists
};

}  // namespace lockscope
