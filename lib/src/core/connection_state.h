#pragma once
// What a Connection is made of: its endpoint and options, its channel, and the
// bookkeeping of the streamed commands awaiting replies, with the transport's
// contract for a command (the retry rules of withRetry) and for a stream
// (guardedRead). Internal to lockscope_core: connection.cpp sends commands and
// pipelines through it, connection_stream.cpp streams.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <string>
#include <string_view>

#include "lockscope/connection.h"
#include "lockscope/errors.h"
#include "transport/channel.h"
#include "transport/requests_in_flight.h"

namespace lockscope {

// What the observer needs to report a streamed command when its reply arrives.
struct StreamedCommand {
    std::string command;  // describe(argv); empty when sent while no observer was set
    std::chrono::steady_clock::time_point flushedAt;
    bool flushed = false;
};

// A write whose bytes left for the server but whose reply did not come back.
[[noreturn]] void throwOutcomeUnknown(const IoError& cause);

struct Connection::State {
    using Clock = std::chrono::steady_clock;
    using Deadline = transport::Deadline;

    Endpoint endpoint;
    ConnectionOptions options;
    transport::Channel channel;
    CommandObserver observer;
    // Streaming path: while an observer is set, one entry per command awaiting
    // its reply. Commands sent without an observer before any tracked one are
    // just counted, so no observer costs nothing but a counter.
    std::deque<StreamedCommand> streamed;
    std::size_t untrackedAhead = 0;
    transport::RequestsInFlight inFlight;  // streamed commands sent and not yet answered
    std::deque<Reply> ready;               // the oldest batch's replies, checked, not yet received
    bool markers = true;             // batches end with PING <nonce> (off when PING is refused)
    bool subscribed = false;         // (P)SUBSCRIBE sent: messages arrive unasked
    bool queuing = false;            // between MULTI and EXEC: replies are QUEUED, not answers
    std::uint64_t commandsSent = 0;  // every command written, for a watcher's load figures

    State(const Endpoint& e, const ConnectionOptions& o)
        : endpoint(e), options(o), channel(e, o.maxReplyBytes) {}

    std::string where() const { return endpoint.display(); }
    Deadline commandDeadline() const { return Deadline::in(options.commandTimeout, options.stop); }

    [[noreturn]] void throwReplyError(std::string_view command, std::string_view text);

    // A new or dropped socket has no replies pending: forget what the stream
    // awaited.
    void dropStream() {
        streamed.clear();
        untrackedAhead = 0;
        inFlight.clear();
        ready.clear();
        queuing = false;
    }

    // Checks that `reply` can answer `argv`; a reply of another shape resets the
    // connection (what follows it cannot be trusted either) and throws.
    void checkShape(Argv argv, const Reply& reply);
    std::string malformedMessage(const std::string& command, const std::string& wrong) const;

    void connect();
    void handshake(std::initializer_list<std::string_view> argv, const Deadline& deadline);
    Reply roundTrip(Argv argv, const Deadline& deadline);

    // Runs `attempt` (which sends and reads) under the transport's contract: a
    // failure before any byte left is retried once on a fresh connection; a read
    // that lost its connection is retried once; a write that left is never
    // re-sent.
    template <typename Attempt>
    auto withRetry(bool isWrite, Attempt attempt) {
        bool fresh = !channel.isOpen();
        // Closed while idle, or a reply came twice: start clean, nothing lost.
        // Streamed replies still pending (a caller stopped reading a stream) would
        // be read as this command's answer: they are dropped with the socket.
        if (fresh ||
            (!subscribed && (!inFlight.empty() || !ready.empty() || channel.hasUnexpectedInput())))
            connect();
        std::size_t before = channel.bytesWritten();
        try {
            return attempt();
        } catch (const TlsError&) {
            throw;
        } catch (const CancelledError&) {
            throw;
        } catch (const IoError& e) {
            dropStream();
            bool sent = channel.bytesWritten() > before;
            if (sent && isWrite) throwOutcomeUnknown(e);
            // A malformed reply is read again once, even on a connection just opened.
            bool malformed = dynamic_cast<const MalformedReplyError*>(&e) != nullptr;
            bool retry = !sent || malformed || (e.kind() == ErrorKind::ConnectionLost && !fresh);
            if (!retry) throw;
        }
        connect();
        std::size_t again = channel.bytesWritten();
        try {
            return attempt();
        } catch (const OutcomeUnknownError&) {
            throw;
        } catch (const IoError& e) {
            if (isWrite && channel.bytesWritten() > again && e.kind() != ErrorKind::Cancelled)
                throwOutcomeUnknown(e);
            throw;
        }
    }

    void checkAllowed(Argv argv) const;

    // Reports the streamed command this reply answers, if it was sent with an
    // observer set.
    void notifyStreamed(const Reply& reply);

    // A read of the stream: I/O errors drop it (outcome unknown when it may have
    // written).
    template <typename Read>
    auto guardedRead(Read read) {
        try {
            return read();
        } catch (const IoError& e) {
            bool hadWrite = inFlight.mayWrite();
            dropStream();
            if (hadWrite && e.kind() != ErrorKind::Cancelled) throwOutcomeUnknown(e);
            throw;
        }
    }

    // The next streamed reply: from the oldest batch, read whole and checked
    // first (see RequestsInFlight); a subscriber's messages as they come.
    Reply nextStreamed();
    void readOldestBatch();
    // A batch could not be trusted. Reads only, and once: a fresh connection, and
    // every batch in flight sent again. Otherwise the stream is dropped and the
    // error thrown (outcome unknown when a command in flight may have written).
    void resendOrThrow(const std::string& message, bool again);

    void notify(Argv argv, const Reply& reply, Clock::time_point start);
};

}  // namespace lockscope
