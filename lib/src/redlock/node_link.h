#pragma once
// One non-blocking link to one Redlock node over the core's transport (socket or TLS
// session, hiredis's reader for replies). Redlock must send a command to every node before
// it reads any reply, which lockscope::Connection (blocking, one round trip per call)
// cannot do, so the node set appends to every link, then waits on all sockets at once with
// ppoll(). Errors are mapped as Connection maps them (errno, OpenSSL codes, reply codes).

#include <chrono>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "lockscope/endpoint.h"
#include "lockscope/errors.h"
#include "lockscope/reply.h"

#include "core/transport/reply_reader.h"
#include "core/transport/stream.h"

namespace lockscope::redlock_detail {

// Why one node did not answer: the error kind and a message that names the node.
struct LinkFailure {
    ErrorKind kind;
    std::string message;
};

class NodeLink {
  public:
    explicit NodeLink(Endpoint endpoint);
    ~NodeLink();
    NodeLink(NodeLink&&) noexcept;
    NodeLink& operator=(NodeLink&&) noexcept;

    const Endpoint& endpoint() const { return endpoint_; }
    const std::string& where() const { return where_; }
    bool isOpen() const { return stream_.isOpen(); }
    int fd() const;

    // Opens a non-blocking socket and queues AUTH and SELECT in front of whatever is
    // appended next, so a reconnect costs no extra round trip. Returns how many handshake
    // replies will precede the caller's replies, or the failure when the socket cannot open.
    // Over TLS the connect and the handshake are waited for here, within `timeout`.
    std::optional<LinkFailure> open(int& handshakeReplies,
                                    std::chrono::milliseconds timeout = std::chrono::milliseconds{
                                        2000});
    void close() noexcept;

    // Queues commands already encoded with appendRespRequest() (binary-safe). Nothing is sent
    // until flush(). A round encodes its commands once and queues the same bytes on every node.
    void appendEncoded(std::string_view request);
    // Writes what the socket takes now. true: everything queued has been written.
    bool flush(std::optional<LinkFailure>& failure);
    // Reads what has arrived. false with failure set on EOF or an I/O error.
    bool readAvailable(std::optional<LinkFailure>& failure);
    // Takes one complete reply from what was read, if there is one.
    bool takeReply(Reply& reply, std::optional<LinkFailure>& failure);

    // A failure built from the socket's current error (after flush/read returned an error).
    LinkFailure ioFailure(std::string_view action) const;

  private:
    LinkFailure failureOf(const transport::IoResult& r, std::string_view action) const;

    Endpoint endpoint_;
    std::string where_;
    transport::Stream stream_;
    transport::ReplyReader reader_;
    std::string outgoing_;
    std::size_t outgoingSent_ = 0;  // bytes of outgoing_ already written
};

// The error kind of an error reply, as Connection classifies it (NOPERM, WRONGPASS, ...).
inline ErrorKind errorKindOfReply(std::string_view text) {
    return errorKindOfServerError(text);
}

}  // namespace lockscope::redlock_detail
