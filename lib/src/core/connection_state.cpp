#include "connection_state.h"

#include "command_policy.h"
#include "command_text.h"
#include "reply_shape.h"
#include "resp_request.h"

namespace lockscope {

using command_text::describe;
using command_text::upper;

void throwOutcomeUnknown(const IoError& cause) {
    throw OutcomeUnknownError(std::string(cause.what()) +
                              " — it was sent and may have run; LockScope does not send it "
                              "again (read the state back to know)");
}

void Connection::State::throwReplyError(std::string_view command, std::string_view text) {
    throwServerError(upper(command) + " on " + where(), text);
}

void Connection::State::checkShape(Argv argv, const Reply& reply) {
    if (queuing) return;
    if (auto wrong = misfit(replyShapeOf(argv), reply)) {
        channel.close();
        throw MalformedReplyError(malformedMessage(upper(argv[0]), *wrong));
    }
}

std::string Connection::State::malformedMessage(const std::string& command,
                                                const std::string& wrong) const {
    return command + " on " + where() + ": the reply does not fit the command (" + wrong +
           "): the connection was reset and the value is unreadable";
}

void Connection::State::connect() {
    dropStream();
    subscribed = false;
    Deadline deadline = Deadline::in(options.connectTimeout, options.stop);
    channel.open(deadline);
    try {
        // Only AUTH, SELECT and, over TLS, PING: all a managed service must allow.
        // The PING makes a TLS 1.3 server's refusal of our client certificate,
        // which comes after the handshake, surface here rather than on the first
        // command. A user named without a password (redis://viewer@host) is
        // honoured: AUTH with an empty password, which an ACL user with nopass
        // accepts.
        if (!endpoint.user.empty())
            handshake({"AUTH", endpoint.user, endpoint.password}, deadline);
        else if (!endpoint.password.empty())
            handshake({"AUTH", endpoint.password}, deadline);
        if (endpoint.db != 0) handshake({"SELECT", std::to_string(endpoint.db)}, deadline);
        if (endpoint.tls.enabled && endpoint.password.empty() && endpoint.user.empty() &&
            endpoint.db == 0)
            handshake({"PING"}, deadline);
    } catch (...) {
        channel.close();
        throw;
    }
}

void Connection::State::handshake(std::initializer_list<std::string_view> argv,
                                  const Deadline& deadline) {
    Reply reply = roundTrip(Argv(argv.begin(), argv.size()), deadline);
    // Never echo the password: name the command only.
    if (reply.isError()) throwReplyError(*argv.begin(), reply.text());
}

Reply Connection::State::roundTrip(Argv argv, const Deadline& deadline) {
    appendRespRequest(channel.outgoing(), argv);
    return channel.readReply(deadline, upper(argv[0]));
}

void Connection::State::checkAllowed(Argv argv) const {
    if (argv.empty()) throw InvalidArgumentError("empty command for " + where());
    if (options.readOnly && !isReadOnlySafe(argv))
        throw ReadOnlyError(upper(argv[0]) + " refused: the connection to " + where() +
                            " is read-only, so LockScope sends no writes on it");
}

void Connection::State::notify(Argv argv, const Reply& reply, Clock::time_point start) {
    if (!observer) return;
    observer(
        CommandEvent{describe(argv), reply.summary(),
                     std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start)});
}

}  // namespace lockscope
