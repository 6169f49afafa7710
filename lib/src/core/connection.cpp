#include "lockscope/connection.h"

#include <vector>

#include "command_policy.h"
#include "command_text.h"
#include "connection_state.h"
#include "lockscope/errors.h"
#include "resp_request.h"

namespace lockscope {
namespace {
using Clock = std::chrono::steady_clock;
}  // namespace

using command_text::isSubscribe;
using command_text::upper;

Connection::Connection(std::unique_ptr<State> state) : state_(std::move(state)) {}
Connection::Connection(Connection&&) noexcept = default;
Connection& Connection::operator=(Connection&&) noexcept = default;
Connection::~Connection() = default;

Connection::State& Connection::live() const {
    // A moved-from connection has no state: a clear error, not a null dereference.
    if (!state_)
        throw InvalidArgumentError(
            "this Connection was moved from: it is not connected to "
            "anything (use the connection it was moved to)");
    return *state_;
}

Connection Connection::open(const Endpoint& endpoint, const ConnectionOptions& options) {
    auto state = std::make_unique<State>(endpoint, options);
    state->connect();
    return Connection(std::move(state));
}

Connection Connection::openSibling() const {
    return open(live().endpoint, live().options);
}

Reply Connection::command(Argv argv) {
    State& s = live();
    s.checkAllowed(argv);
    auto start = Clock::now();
    bool isWrite = !isReadOnlySafe(argv);
    if (isSubscribe(argv)) s.subscribed = true;
    ++s.commandsSent;
    Reply reply = s.withRetry(isWrite, [&] {
        Reply r = s.roundTrip(argv, s.commandDeadline());
        s.checkShape(argv, r);
        return r;
    });
    const std::string name = upper(argv[0]);
    if (name == "MULTI")
        s.queuing = !reply.isError();
    else if (name == "EXEC" || name == "DISCARD")
        s.queuing = false;
    s.notify(argv, reply, start);
    if (reply.isError()) s.throwReplyError(argv[0], reply.text());
    return reply;
}

std::vector<Reply> Connection::pipeline(const std::vector<std::vector<std::string>>& commands) {
    State& s = live();
    std::vector<std::vector<std::string_view>> views;
    views.reserve(commands.size());
    bool anyWrite = false;
    for (const auto& c : commands) {
        views.emplace_back(c.begin(), c.end());
        s.checkAllowed(views.back());
        anyWrite = anyWrite || !isReadOnlySafe(views.back());
    }
    s.commandsSent += commands.size();
    auto start = Clock::now();
    std::string action = "pipeline of " + std::to_string(commands.size()) + " commands";
    auto replies = s.withRetry(anyWrite, [&] {
        for (const auto& argv : views) appendRespRequest(s.channel.outgoing(), argv);
        // The commands leave together, so each reply is due within commandTimeout of that
        // write: one deadline that replies trickling in do not extend, as for streamed
        // commands flushed together. Before, each reply's deadline ran from the end of the
        // one before, and a server dripping bytes stretched N replies to N timeouts.
        const auto deadline = s.commandDeadline();
        std::vector<Reply> out;
        out.reserve(views.size());
        for (const auto& argv : views) {
            out.push_back(s.channel.readReply(deadline, action));
            s.checkShape(argv, out.back());
        }
        return out;
    });
    for (std::size_t i = 0; i < views.size(); ++i) s.notify(views[i], replies[i], start);
    return replies;
}

Reply Connection::eval(const Script& script, Argv keys, Argv args) {
    std::vector<std::string_view> argv;
    argv.reserve(3 + keys.size() + args.size());
    std::string numKeys = std::to_string(keys.size());
    argv.emplace_back("EVALSHA");
    argv.emplace_back(script.sha1());
    argv.emplace_back(numKeys);
    argv.insert(argv.end(), keys.begin(), keys.end());
    argv.insert(argv.end(), args.begin(), args.end());
    try {
        return command(argv);
    } catch (const ReplyError& e) {
        // NOSCRIPT: the script did not run, so sending it whole is safe.
        if (e.code() != ServerErrorCode::NoScript) throw;
    }
    argv[0] = "EVAL";
    argv[1] = script.source();
    return command(argv);
}

void Connection::reconnect() {
    live().connect();
}

void Connection::setCommandTimeout(std::chrono::milliseconds timeout) {
    live().options.commandTimeout = timeout;
}

void Connection::setConnectTimeout(std::chrono::milliseconds timeout) {
    live().options.connectTimeout = timeout;
}

std::chrono::milliseconds Connection::commandTimeout() const {
    return live().options.commandTimeout;
}
const Endpoint& Connection::endpoint() const {
    return live().endpoint;
}
const ConnectionOptions& Connection::options() const {
    return live().options;
}
void Connection::setObserver(CommandObserver observer) {
    live().observer = std::move(observer);
}
std::uint64_t Connection::commandsSent() const {
    return live().commandsSent;
}
void Connection::setStopToken(std::stop_token stop) {
    live().options.stop = std::move(stop);
}
std::optional<TlsSessionInfo> Connection::tlsSession() const {
    if (!live().endpoint.tls.enabled || !live().channel.isOpen()) return std::nullopt;
    return live().channel.tlsSession();
}

}  // namespace lockscope
