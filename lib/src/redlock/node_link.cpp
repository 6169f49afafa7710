#include "node_link.h"

#include <array>
#include <cerrno>

#include "core/resp_request.h"
#include "core/transport/socket_connect.h"
#include "core/transport/tls_context.h"
#include "core/transport/tls_handshake.h"

namespace lockscope::redlock_detail {
namespace {

using transport::IoResult;
using transport::IoStatus;

constexpr std::size_t kMaxReplyBytes = 64u << 20;
constexpr std::size_t kReadChunk = std::size_t{16} * 1024;

}  // namespace

NodeLink::NodeLink(Endpoint endpoint)
    : endpoint_(std::move(endpoint)), where_(endpoint_.display()), reader_(kMaxReplyBytes) {}
NodeLink::~NodeLink() = default;
NodeLink::NodeLink(NodeLink&&) noexcept = default;
NodeLink& NodeLink::operator=(NodeLink&&) noexcept = default;

int NodeLink::fd() const {
    return stream_.fd();
}

std::optional<LinkFailure> NodeLink::open(int& handshakeReplies,
                                          std::chrono::milliseconds timeout) {
    close();
    handshakeReplies = 0;
    try {
        if (endpoint_.tls.enabled && !endpoint_.isUnix()) {
            auto deadline = transport::Deadline::in(timeout);
            stream_ = transport::Stream(transport::connectSocket(endpoint_, deadline, where_));
            transport::runTlsHandshake(stream_, endpoint_, deadline, where_);
        } else {
            stream_ = transport::Stream(transport::startConnectSocket(endpoint_, where_));
        }
    } catch (const Error& e) {
        close();
        return LinkFailure{
            e.kind() == ErrorKind::Timeout ? ErrorKind::Timeout : ErrorKind::ConnectionRefused,
            e.what()};
    }
    std::string handshake;
    if (!endpoint_.password.empty()) {
        if (endpoint_.user.empty()) {
            std::array<std::string_view, 2> auth{"AUTH", endpoint_.password};
            appendRespRequest(handshake, auth);
        } else {
            std::array<std::string_view, 3> auth{"AUTH", endpoint_.user, endpoint_.password};
            appendRespRequest(handshake, auth);
        }
        ++handshakeReplies;
    }
    if (endpoint_.db != 0) {
        std::string db = std::to_string(endpoint_.db);
        std::array<std::string_view, 2> select{"SELECT", db};
        appendRespRequest(handshake, select);
        ++handshakeReplies;
    }
    if (!handshake.empty()) appendEncoded(handshake);
    return std::nullopt;
}

void NodeLink::close() noexcept {
    stream_.close();
    reader_.reset();
    outgoing_.clear();
    outgoingSent_ = 0;
}

void NodeLink::appendEncoded(std::string_view request) {
    if (outgoingSent_ == outgoing_.size()) outgoing_.clear(), outgoingSent_ = 0;
    outgoing_.append(request);
}

bool NodeLink::flush(std::optional<LinkFailure>& failure) {
    while (outgoingSent_ < outgoing_.size()) {
        IoResult r =
            stream_.write(outgoing_.data() + outgoingSent_, outgoing_.size() - outgoingSent_);
        if (r.status == IoStatus::Progress) {
            outgoingSent_ += r.bytes;
            continue;
        }
        if (r.status == IoStatus::WantWrite || r.status == IoStatus::WantRead) return false;
        failure = failureOf(r, "send to");
        return false;
    }
    outgoing_.clear();
    outgoingSent_ = 0;
    return true;
}

bool NodeLink::readAvailable(std::optional<LinkFailure>& failure) {
    char chunk[kReadChunk];
    // Read until the socket has nothing more: a TLS session may hold decrypted bytes that
    // poll() would not announce again.
    while (true) {
        IoResult r = stream_.read(chunk, sizeof chunk);
        if (r.status == IoStatus::Progress) {
            if (auto error = reader_.feed(chunk, r.bytes)) {
                failure = LinkFailure{ErrorKind::Protocol, "read from " + where_ + ": " + *error};
                return false;
            }
            if (r.bytes < sizeof chunk && !stream_.hasBufferedInput()) return true;
            continue;
        }
        if (r.status == IoStatus::WantRead || r.status == IoStatus::WantWrite) return true;
        failure = failureOf(r, "read from");
        return false;
    }
}

bool NodeLink::takeReply(Reply& reply, std::optional<LinkFailure>& failure) {
    std::string error;
    auto next = reader_.next(error);
    if (!error.empty()) {
        failure = LinkFailure{ErrorKind::Protocol, "parse reply from " + where_ +
                                                       ": the reply is not RESP (" + error + ")"};
        return false;
    }
    if (!next) return false;
    reply = std::move(*next);
    return true;
}

LinkFailure NodeLink::failureOf(const IoResult& r, std::string_view action) const {
    std::string prefix = std::string(action) + " " + where_ + ": ";
    if (r.status == IoStatus::Closed)
        return {ErrorKind::ConnectionLost, prefix + "the server closed the connection"};
    // A fresh socket that fails before any reply never reached a server: nothing listens.
    if (!reader_.receivedAnything() && r.sysErrno == ECONNREFUSED)
        return {ErrorKind::ConnectionRefused,
                "connect to " + where_ + ": " + transport::describeErrno(r.sysErrno)};
    if (r.tlsError != 0) {
        std::string special = transport::explainTlsFailure(r.tlsError, endpoint_.tls);
        return {ErrorKind::ConnectionLost,
                prefix + (special.empty() ? "TLS error: " + transport::tlsErrorText(r.tlsError)
                                          : special)};
    }
    return {ErrorKind::ConnectionLost, prefix + transport::describeErrno(r.sysErrno)};
}

LinkFailure NodeLink::ioFailure(std::string_view action) const {
    return {ErrorKind::ConnectionLost, std::string(action) + " " + where_ + ": no connection"};
}

}  // namespace lockscope::redlock_detail
