#include "channel.h"

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <utility>

#include "lockscope/errors.h"
#include "socket_connect.h"
#include "tls_context.h"
#include "tls_handshake.h"

namespace lockscope::transport {
namespace {

constexpr std::size_t kReadChunk = std::size_t{16} * 1024;
// A written batch's buffer is kept for the next one up to this size. A poll of 20,000 locks
// leaves a 2 MB one, and an exporter's fifty targets kept 70 MB of them between polls
// (issue 36): larger ones go back to the system, a fresh one costs one allocation a batch.
constexpr std::size_t kOutgoingKeep = std::size_t{64} * 1024;

bool looksLikeTlsRecord(int firstByte) {
    return firstByte == 0x15 || firstByte == 0x16;  // TLS alert or handshake record
}

}  // namespace

Channel::Channel(Endpoint endpoint, std::size_t maxReplyBytes)
    : endpoint_(std::move(endpoint)), reader_(maxReplyBytes) {}

std::string Channel::where() const {
    return endpoint_.display();
}

void Channel::open(const Deadline& deadline) {
    close();
    written_ = 0;
    stream_ = Stream(connectSocket(endpoint_, deadline, where()));
    if (endpoint_.tls.enabled && !endpoint_.isUnix()) {
        try {
            runTlsHandshake(stream_, endpoint_, deadline, where());
        } catch (...) {
            close();
            throw;
        }
    }
}

void Channel::close() noexcept {
    stream_.close();
    reader_.reset();
    releaseOutgoing();  // written_ stays: after a failure it tells whether a command left
}

void Channel::releaseOutgoing() noexcept {
    if (outgoing_.capacity() > kOutgoingKeep)
        std::string().swap(outgoing_);
    else
        outgoing_.clear();
}

void Channel::flush(const Deadline& deadline, const std::string& action) {
    std::size_t done = 0;
    while (done < outgoing_.size()) {
        IoResult r = stream_.write(outgoing_.data() + done, outgoing_.size() - done);
        if (r.status == IoStatus::Progress) {
            done += r.bytes;
            written_ += r.bytes;
            continue;
        }
        if (r.status == IoStatus::WantWrite || r.status == IoStatus::WantRead) {
            waitFor(r.status == IoStatus::WantWrite ? POLLOUT : POLLIN, deadline, action);
            continue;
        }
        fail(r, action);
    }
    releaseOutgoing();
}

Reply Channel::readReply(const Deadline& deadline, const std::string& action) {
    if (!outgoing_.empty()) flush(deadline, action);
    char chunk[kReadChunk];
    std::string error;
    while (true) {
        if (auto reply = reader_.next(error)) return std::move(*reply);
        if (!error.empty()) fail(IoResult{IoStatus::Failed}, action, error);
        IoResult r = stream_.read(chunk, sizeof chunk);
        if (r.status == IoStatus::Progress) {
            if (auto capError = reader_.feed(chunk, r.bytes))
                fail(IoResult{IoStatus::Failed}, action, *capError);
            continue;
        }
        if (r.status == IoStatus::WantRead || r.status == IoStatus::WantWrite) {
            waitFor(r.status == IoStatus::WantRead ? POLLIN : POLLOUT, deadline, action);
            continue;
        }
        fail(r, action);
    }
}

void Channel::waitFor(short events, const Deadline& deadline, const std::string& action) {
    while (true) {
        if (deadline.cancelled()) {
            close();
            throw CancelledError(action + " on " + where() + ": cancelled");
        }
        if (deadline.passed()) failTimeout(deadline, action);
        pollfd p{stream_.fd(), events, 0};
        int ready = ::poll(&p, 1, deadline.pollMillis());
        if (ready > 0) return;  // errors and hang-ups surface in the next read or write
        if (ready < 0 && errno != EINTR) fail(IoResult{IoStatus::Failed, 0, errno}, action);
    }
}

bool Channel::waitReadable(std::chrono::milliseconds timeout) {
    if (!outgoing_.empty()) flush(Deadline::in(std::max(timeout, kCancelSlice * 40)), "write");
    if (stream_.hasBufferedInput() || reader_.buffered() > 0) return true;
    pollfd p{stream_.fd(), POLLIN, 0};
    int ready =
        ::poll(&p, 1, static_cast<int>(std::clamp<std::int64_t>(timeout.count(), 0, 3'600'000)));
    if (ready < 0 && errno != EINTR) fail(IoResult{IoStatus::Failed, 0, errno}, "wait");
    return ready > 0;
}

bool Channel::hasUnexpectedInput() const {
    if (!stream_.isOpen()) return false;
    if (reader_.buffered() > 0 || stream_.hasBufferedInput()) return true;
    pollfd p{stream_.fd(), POLLIN, 0};
    return ::poll(&p, 1, 0) > 0;
}

TlsSessionInfo Channel::tlsSession() const {
    return describeTlsSession(stream_, !endpoint_.tls.insecure);
}

void Channel::failTimeout(const Deadline& deadline, const std::string& action) {
    close();
    throw TimeoutError(action + " on " + where() + ": no reply within " +
                       std::to_string(deadline.budget.count()) + " ms");
}

void Channel::fail(const IoResult& r, const std::string& action, const std::string& detail) {
    bool plaintext = !stream_.isTls();
    bool silentSoFar = !reader_.receivedAnything();
    int firstByte = reader_.firstByte();
    close();
    std::string prefix = action + " on " + where() + ": ";
    if (!detail.empty()) {
        if (plaintext && looksLikeTlsRecord(firstByte))
            throw ProtocolError(prefix +
                                "the server answered with TLS — this is a TLS port: "
                                "try rediss:// (or --tls)");
        throw ProtocolError(prefix + "the reply is not valid RESP (" + detail + ")");
    }
    bool closed =
        r.status == IoStatus::Closed || (r.status == IoStatus::Failed && r.sysErrno == ECONNRESET);
    if (closed && silentSoFar && plaintext && !endpoint_.isUnix())
        throw ConnectionLostError(prefix +
                                  "the server closed the connection before answering — is "
                                  "this a TLS port? try rediss://");
    if (closed && silentSoFar && !plaintext)
        throw TlsError(prefix +
                       (endpoint_.tls.certFile.empty()
                            ? "the server closed the connection right after the TLS "
                              "handshake: it requires a client certificate (mutual "
                              "TLS): pass --cert and --key"
                            : "the server closed the connection right after the TLS "
                              "handshake: it refused our client certificate \"" +
                                  endpoint_.tls.certFile + "\" (not signed by a CA it trusts?)"));
    if (r.status == IoStatus::Closed)
        throw ConnectionLostError(prefix + "the server closed the connection");
    if (r.tlsError != 0) {
        std::string special = explainTlsFailure(r.tlsError, endpoint_.tls);
        if (!special.empty()) throw TlsError(prefix + special);
        throw ConnectionLostError(prefix + "TLS error: " + tlsErrorText(r.tlsError));
    }
    throw ConnectionLostError(prefix + describeErrno(r.sysErrno));
}

}  // namespace lockscope::transport
