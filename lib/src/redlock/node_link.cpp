#include "node_link.h"
#include "core/resp_request.h"

#include <hiredis/hiredis.h>

#include <array>

namespace lockscope::redlock_detail {

void NodeLink::ContextFree::operator()(redisContext* c) const noexcept {
    redisFree(c);
}

NodeLink::NodeLink(Endpoint endpoint)
    : endpoint_(std::move(endpoint)), where_(endpoint_.display()) {}
NodeLink::~NodeLink() = default;
NodeLink::NodeLink(NodeLink&&) noexcept = default;
NodeLink& NodeLink::operator=(NodeLink&&) noexcept = default;

int NodeLink::fd() const {
    return context_ ? context_->fd : -1;
}

std::optional<LinkFailure> NodeLink::open(int& handshakeReplies) {
    close();
    handshakeReplies = 0;
    redisContext* raw = endpoint_.isUnix()
                            ? redisConnectUnixNonBlock(endpoint_.unixPath.c_str())
                            : redisConnectNonBlock(endpoint_.host.c_str(), endpoint_.port);
    if (!raw)
        return LinkFailure{ErrorKind::ConnectionRefused,
                           "connect to " + where_ + ": out of memory"};
    context_.reset(raw);
    if (context_->err) {
        LinkFailure failure{ErrorKind::ConnectionRefused,
                            "connect to " + where_ + ": " + context_->errstr};
        close();
        return failure;
    }
    receivedAnything_ = false;
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
    context_.reset();
}

void NodeLink::appendEncoded(std::string_view request) {
    redisAppendFormattedCommand(context_.get(), request.data(), request.size());
}

bool NodeLink::flush(std::optional<LinkFailure>& failure) {
    int done = 0;
    if (redisBufferWrite(context_.get(), &done) != REDIS_OK) {
        failure = ioFailure("send to");
        return false;
    }
    return done != 0;
}

bool NodeLink::readAvailable(std::optional<LinkFailure>& failure) {
    if (redisBufferRead(context_.get()) != REDIS_OK) {
        failure = ioFailure("read from");
        return false;
    }
    return true;
}

bool NodeLink::takeReply(Reply& reply, std::optional<LinkFailure>& failure) {
    void* raw = nullptr;
    if (redisGetReplyFromReader(context_.get(), &raw) != REDIS_OK) {
        failure = ioFailure("parse reply from");
        return false;
    }
    if (!raw) return false;
    receivedAnything_ = true;
    reply = Reply(static_cast<redisReply*>(raw));
    return true;
}

LinkFailure NodeLink::ioFailure(std::string_view action) const {
    std::string text = context_ ? context_->errstr : "no connection";
    int err = context_ ? context_->err : REDIS_ERR_OTHER;
    std::string prefix = std::string(action) + " " + where_ + ": ";
    if (err == REDIS_ERR_PROTOCOL)
        return {ErrorKind::Protocol, prefix + "the reply is not RESP (" + text + ")"};
    if (err == REDIS_ERR_EOF)
        return {ErrorKind::ConnectionLost, prefix + "the server closed the connection"};
    // A fresh socket that fails before any reply never reached a server: nothing listens.
    if (!receivedAnything_ && text.find("refused") != std::string::npos)
        return {ErrorKind::ConnectionRefused, "connect to " + where_ + ": " + text};
    return {ErrorKind::ConnectionLost, prefix + text};
}

ErrorKind errorKindOfReply(std::string_view text) {
    if (text.starts_with("NOPERM")) return ErrorKind::PermissionDenied;
    if (text.starts_with("WRONGPASS") || text.starts_with("NOAUTH") ||
        text.starts_with("ERR invalid password") || text.starts_with("ERR AUTH") ||
        text.starts_with("ERR Client sent AUTH"))
        return ErrorKind::Authentication;
    return ErrorKind::Reply;
}

}  // namespace lockscope::redlock_detail
