#pragma once
// The blocking use of the transport, under lockscope::Connection: one stream (socket or
// TLS session), an output buffer of RESP requests, and a reply reader. Every wait is bound
// by the command's deadline (never extended by progress) and checks the caller's stop
// token every kCancelSlice. I/O failures throw typed errors decided by errno and OpenSSL
// codes, each naming the action and the endpoint.

#include <cstddef>
#include <string>

#include "deadline.h"
#include "lockscope/connection.h"
#include "reply_reader.h"
#include "stream.h"

namespace lockscope::transport {

class Channel {
  public:
    Channel(Endpoint endpoint, std::size_t maxReplyBytes);

    // Connects (and shakes hands over TLS) by the deadline.
    void open(const Deadline& deadline);
    bool isOpen() const { return stream_.isOpen(); }
    void close() noexcept;

    // Requests appended here are written by flush(), or before the next read.
    std::string& outgoing() { return outgoing_; }
    // Writes everything queued. Throws IoError subclasses; `action` names the command.
    void flush(const Deadline& deadline, const std::string& action);
    // Waits for the next complete reply.
    Reply readReply(const Deadline& deadline, const std::string& action);
    // True when a reply can be taken without waiting for the server, waiting up to timeout.
    bool waitReadable(std::chrono::milliseconds timeout);
    // Bytes waiting while no reply is expected: the server closed the idle socket (sending
    // on it would lose the command) or sent a reply twice (reading on would hand out a
    // stale reply as the answer to the next command). Costs one poll().
    bool hasUnexpectedInput() const;
    // Bytes handed to the socket since open(): 0 means no command reached the server.
    std::size_t bytesWritten() const { return written_; }
    TlsSessionInfo tlsSession() const;

  private:
    // `detail` is set when the bytes are the problem (not RESP, over the reply cap).
    [[noreturn]] void fail(const IoResult& r, const std::string& action,
                           const std::string& detail = {});
    [[noreturn]] void failTimeout(const Deadline& deadline, const std::string& action);
    void waitFor(short events, const Deadline& deadline, const std::string& action);
    std::string where() const;
    void releaseOutgoing() noexcept;

    Endpoint endpoint_;
    Stream stream_;
    ReplyReader reader_;
    std::string outgoing_;
    std::size_t written_ = 0;
};

}  // namespace lockscope::transport
