#pragma once
// One client's link through the LoopbackProxy and the bytes waiting for that client; shared by
// the proxy's loop (loopback_proxy.cpp) and its faults (proxy_faults.cpp).

#include <unistd.h>

#include <chrono>
#include <deque>
#include <string>

#include "core/transport/resp_frames.h"

#include "lockscope/proxy/loopback_proxy.h"

namespace lockscope {

// Bytes for the client, released at `due`.
struct ProxyChunk {
    using Clock = std::chrono::steady_clock;
    Clock::time_point due;
    std::string bytes;
};

struct LoopbackProxy::Link {
    int client = -1, server = -1;
    std::deque<ProxyChunk> toClient;
    bool loseReply = false;  // the request went through; its reply is dropped, then the link cut
    std::string endless;     // non-empty: this header, then filler until the client goes away
    std::size_t endlessSent = 0;
    // Reply rewriting (reply_rewrite.cpp): the names of the requests not answered yet, the
    // framing of both streams, and the part of a reply held until it is complete.
    transport::RespFrames requests, replies;
    std::string requestHead;  // the first bytes of the request being received
    std::deque<std::string> awaiting;
    std::string held;
    bool passThrough = false;  // the reply being received is forwarded as it comes
    bool untracked = false;    // the framing was lost: forward everything as is
    ~Link() {
        if (client >= 0) close(client);
        if (server >= 0) close(server);
    }
    bool streamsEndlessly() const { return !endless.empty(); }
};

}  // namespace lockscope
