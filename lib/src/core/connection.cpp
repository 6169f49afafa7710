#include "lockscope/connection.h"

#include <hiredis/hiredis.h>
#include <poll.h>
#include <sys/time.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <deque>

#include "command_policy.h"
#include "lockscope/errors.h"
#include "lockscope/text_format.h"
#include "resp_request.h"

namespace lockscope {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kReaderBufferKeep = 1 << 20;

struct ContextFree {
    void operator()(redisContext* c) const noexcept { redisFree(c); }
};
using ContextPtr = std::unique_ptr<redisContext, ContextFree>;

timeval toTimeval(std::chrono::milliseconds ms) {
    auto count = std::max<std::int64_t>(ms.count(), 1);
    return timeval{static_cast<time_t>(count / 1000),
                   static_cast<suseconds_t>((count % 1000) * 1000)};
}

std::string upper(std::string_view s) {
    std::string out(s.substr(0, 32));
    for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

// "EVALSHA 3f2c… 2 lock:{a} fence:{a} …" with binary and long arguments abbreviated.
std::string describe(Connection::Argv argv) {
    std::string out;
    for (std::size_t i = 0; i < argv.size() && i < 8; ++i) {
        if (i) out += ' ';
        out += i == 0 ? upper(argv[i]) : printable(argv[i], 48);
    }
    if (argv.size() > 8) out += " … (" + std::to_string(argv.size()) + " args)";
    return out;
}

bool isTimeoutText(std::string_view s) {
    return s.find("temporarily unavailable") != std::string_view::npos ||
           s.find("timed out") != std::string_view::npos ||
           s.find("Timeout") != std::string_view::npos;
}

// What the observer needs to report a streamed command when its reply arrives.
struct StreamedCommand {
    std::string command;  // describe(argv); empty when sent while no observer was set
    Clock::time_point flushedAt;
    bool flushed = false;
};

}  // namespace

struct Connection::State {
    Endpoint endpoint;
    ConnectionOptions options;
    ContextPtr context;
    CommandObserver observer;
    // Streaming path: the RESP of commands sent but not yet handed to hiredis, and, only
    // while an observer is set, one entry per command awaiting its reply. Commands sent
    // without an observer before any tracked one are just counted, so no observer costs
    // nothing but a counter.
    std::string outgoing;
    std::deque<StreamedCommand> streamed;
    std::size_t untrackedAhead = 0;

    std::string where() const { return endpoint.display(); }

    // Throws the typed error for a context that failed at connect or during I/O, and drops
    // the context so the next command reconnects.
    [[noreturn]] void throwIoError(const std::string& action) {
        int err = context ? context->err : REDIS_ERR_OTHER;
        std::string text = context ? context->errstr : "cannot allocate a connection";
        context.reset();
        dropStream();
        std::string message = action + " on " + where() + ": ";
        if (err == REDIS_ERR_PROTOCOL)
            throw ProtocolError(message + "the server's reply is not RESP (" + text + ")");
        if (err == REDIS_ERR_EOF)
            throw ConnectionLostError(message + "the server closed the connection");
        if (isTimeoutText(text))
            throw TimeoutError(message + "no reply within " +
                               std::to_string((action == "connect" ? options.connectTimeout
                                                                   : options.commandTimeout)
                                                  .count()) +
                               " ms");
        if (action == "connect") throw ConnectionRefusedError(message + text);
        throw ConnectionLostError(message + text);
    }

    [[noreturn]] void throwReplyError(std::string_view command, std::string_view text) {
        std::string message = upper(command) + " on " + where() + ": " + std::string(text);
        if (text.starts_with("NOPERM")) throw PermissionError(message);
        if (text.starts_with("WRONGPASS") || text.starts_with("NOAUTH") ||
            text.starts_with("ERR invalid password") || text.starts_with("ERR AUTH"))
            throw AuthenticationError(message);
        throw ReplyError(message);
    }

    void applyTimeout(std::chrono::milliseconds timeout) {
        if (context && redisSetTimeout(context.get(), toTimeval(timeout)) != REDIS_OK)
            throwIoError("set timeout");
    }

    // Hands what send() formatted to hiredis' output buffer, ahead of anything sent later.
    void pushOutgoing() {
        if (outgoing.empty() || !context) return;
        if (redisAppendFormattedCommand(context.get(), outgoing.data(), outgoing.size()) !=
            REDIS_OK)
            throwIoError("pipeline write");
        outgoing.clear();
    }

    // A new or dropped socket has no replies pending: forget what the stream awaited.
    void dropStream() {
        outgoing.clear();
        streamed.clear();
        untrackedAhead = 0;
    }

    void connect() {
        context.reset();
        dropStream();
        timeval tv = toTimeval(options.connectTimeout);
        context.reset(endpoint.isUnix()
                          ? redisConnectUnixWithTimeout(endpoint.unixPath.c_str(), tv)
                          : redisConnectWithTimeout(endpoint.host.c_str(), endpoint.port, tv));
        if (!context || context->err) throwIoError("connect");
        // hiredis frees its read buffer whenever more than 16 KB of it is unused and grows
        // it again for the next pipeline; a scan's replies refill it every round trip.
        if (context->reader) context->reader->maxbuf = kReaderBufferKeep;
        applyTimeout(options.connectTimeout);  // the handshake below is part of connecting
        // A user named without a password (redis://viewer@host) is honoured: AUTH with an
        // empty password, which an ACL user with nopass accepts.
        if (!endpoint.user.empty())
            handshake({"AUTH", endpoint.user, endpoint.password});
        else if (!endpoint.password.empty())
            handshake({"AUTH", endpoint.password});
        if (endpoint.db != 0) handshake({"SELECT", std::to_string(endpoint.db)});
        applyTimeout(options.commandTimeout);
    }

    void handshake(std::initializer_list<std::string_view> argv) {
        Reply reply = roundTrip(Argv(argv.begin(), argv.size()));
        if (reply.isError()) {
            // Never echo the password: name the command only.
            throwReplyError(*argv.begin(), reply.text());
        }
    }

    Reply roundTrip(Argv argv) {
        std::array<const char*, 16> smallArgs;
        std::array<std::size_t, 16> smallLens;
        std::vector<const char*> args;
        std::vector<std::size_t> lens;
        const char** a = smallArgs.data();
        std::size_t* l = smallLens.data();
        if (argv.size() > smallArgs.size()) {
            args.resize(argv.size());
            lens.resize(argv.size());
            a = args.data();
            l = lens.data();
        }
        for (std::size_t i = 0; i < argv.size(); ++i) a[i] = argv[i].data(), l[i] = argv[i].size();
        pushOutgoing();
        void* raw = redisCommandArgv(context.get(), static_cast<int>(argv.size()), a, l);
        if (!raw) throwIoError(upper(argv[0]));
        return Reply(static_cast<redisReply*>(raw));
    }

    void ensureConnected() {
        if (!context) connect();
    }

    void checkAllowed(Argv argv) const {
        if (argv.empty()) throw InvalidArgumentError("empty command for " + where());
        if (options.readOnly && !isReadOnlySafe(argv))
            throw ReadOnlyError(upper(argv[0]) + " refused: the connection to " + where() +
                                " is read-only, so LockScope sends no writes on it");
    }

    // Reports the streamed command this reply answers, if it was sent with an observer set.
    void notifyStreamed(const Reply& reply) {
        if (untrackedAhead > 0) {
            --untrackedAhead;
            return;
        }
        if (streamed.empty()) return;
        StreamedCommand sent = std::move(streamed.front());
        streamed.pop_front();
        if (!observer || sent.command.empty()) return;
        auto latency = sent.flushed ? Clock::now() - sent.flushedAt : Clock::duration{0};
        observer(CommandEvent{std::move(sent.command), reply.summary(),
                              std::chrono::duration_cast<std::chrono::microseconds>(latency)});
    }

    void notify(Argv argv, const Reply& reply, Clock::time_point start) {
        if (!observer) return;
        observer(CommandEvent{
            describe(argv), reply.summary(),
            std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start)});
    }
};

Connection::Connection(std::unique_ptr<State> state) : state_(std::move(state)) {}
Connection::Connection(Connection&&) noexcept = default;
Connection& Connection::operator=(Connection&&) noexcept = default;
Connection::~Connection() = default;

Connection Connection::open(const Endpoint& endpoint, const ConnectionOptions& options) {
    auto state = std::make_unique<State>();
    state->endpoint = endpoint;
    state->options = options;
    state->connect();
    return Connection(std::move(state));
}

Connection Connection::openSibling() const {
    Connection sibling = open(state_->endpoint, state_->options);
    return sibling;
}

Reply Connection::command(Argv argv) {
    state_->checkAllowed(argv);
    auto start = Clock::now();
    bool fresh = !state_->context;
    state_->ensureConnected();
    Reply reply;
    try {
        reply = state_->roundTrip(argv);
    } catch (const ConnectionLostError&) {
        // An idle socket found dead (the server restarted or closed us): connect again and
        // send once more. Never after a timeout, when the first send may still execute.
        if (fresh) throw;
        state_->connect();
        reply = state_->roundTrip(argv);
    }
    state_->notify(argv, reply, start);
    if (reply.isError()) state_->throwReplyError(argv[0], reply.text());
    return reply;
}

std::vector<Reply> Connection::pipeline(const std::vector<std::vector<std::string>>& commands) {
    std::vector<std::vector<std::string_view>> views;
    views.reserve(commands.size());
    for (const auto& c : commands) {
        views.emplace_back(c.begin(), c.end());
        state_->checkAllowed(views.back());
    }
    auto start = Clock::now();
    state_->ensureConnected();
    state_->pushOutgoing();
    std::vector<const char*> args;
    std::vector<std::size_t> lens;
    for (const auto& argv : views) {
        args.clear();
        lens.clear();
        for (auto a : argv) args.push_back(a.data()), lens.push_back(a.size());
        if (redisAppendCommandArgv(state_->context.get(), static_cast<int>(argv.size()),
                                   args.data(), lens.data()) != REDIS_OK)
            state_->throwIoError("pipeline");
    }
    std::vector<Reply> replies;
    replies.reserve(commands.size());
    for (const auto& argv : views) {
        void* raw = nullptr;
        if (redisGetReply(state_->context.get(), &raw) != REDIS_OK || !raw)
            state_->throwIoError("pipeline of " + std::to_string(commands.size()) + " commands");
        replies.emplace_back(static_cast<redisReply*>(raw));
        state_->notify(argv, replies.back(), start);
    }
    return replies;
}

void Connection::send(Argv argv) {
    state_->checkAllowed(argv);
    state_->ensureConnected();
    appendRespRequest(state_->outgoing, argv);
    if (state_->observer)
        state_->streamed.push_back({describe(argv), {}, false});
    else if (state_->streamed.empty())
        ++state_->untrackedAhead;
    else
        state_->streamed.push_back({});  // the observer was removed with replies pending
}

void Connection::flush() {
    if (!state_->context) return;
    State& s = *state_;
    s.pushOutgoing();
    if (!s.streamed.empty()) {
        // Latency counts from here: the time the command spent queued locally is ours.
        auto now = Clock::now();
        for (auto it = s.streamed.rbegin(); it != s.streamed.rend() && !it->flushed; ++it)
            it->flushedAt = now, it->flushed = true;
    }
    int done = 0;
    while (!done)
        if (redisBufferWrite(s.context.get(), &done) != REDIS_OK) s.throwIoError("pipeline write");
}

Reply Connection::receive() {
    if (!state_->context)
        throw ConnectionLostError("pipeline read on " + state_->where() +
                                  ": the connection was reset, so no reply is pending");
    if (!state_->outgoing.empty()) flush();  // a reply cannot come for a command not sent
    void* raw = nullptr;
    if (redisGetReply(state_->context.get(), &raw) != REDIS_OK || !raw)
        state_->throwIoError("pipeline read");
    Reply reply(static_cast<redisReply*>(raw));
    state_->notifyStreamed(reply);
    return reply;
}

bool Connection::waitForReply(std::chrono::milliseconds timeout) {
    redisContext* c = state_->context.get();
    if (!c) throw ConnectionLostError("wait on " + state_->where() + ": the connection was reset");
    if (!state_->outgoing.empty()) flush();
    if (c->reader && c->reader->len > c->reader->pos) return true;  // bytes already buffered
    pollfd p{c->fd, POLLIN, 0};
    int ready =
        ::poll(&p, 1, static_cast<int>(std::clamp<std::int64_t>(timeout.count(), 0, 3'600'000)));
    if (ready < 0 && errno != EINTR) state_->throwIoError("wait");
    return ready > 0;
}

Reply Connection::eval(const Script& script, Argv keys, Argv args) {
    std::vector<std::string_view> argv;
    argv.reserve(3 + keys.size() + args.size());
    std::string numKeys = std::to_string(keys.size());
    argv.push_back("EVALSHA");
    argv.push_back(script.sha1());
    argv.push_back(numKeys);
    argv.insert(argv.end(), keys.begin(), keys.end());
    argv.insert(argv.end(), args.begin(), args.end());
    try {
        return command(argv);
    } catch (const ReplyError& e) {
        if (std::string_view(e.what()).find(": NOSCRIPT") == std::string_view::npos) throw;
    }
    argv[0] = "EVAL";
    argv[1] = script.source();
    return command(argv);
}

void Connection::reconnect() {
    state_->connect();
}

void Connection::setCommandTimeout(std::chrono::milliseconds timeout) {
    state_->options.commandTimeout = timeout;
    state_->applyTimeout(timeout);
}

void Connection::setConnectTimeout(std::chrono::milliseconds timeout) {
    state_->options.connectTimeout = timeout;
}

std::chrono::milliseconds Connection::commandTimeout() const {
    return state_->options.commandTimeout;
}
const Endpoint& Connection::endpoint() const {
    return state_->endpoint;
}
const ConnectionOptions& Connection::options() const {
    return state_->options;
}
void Connection::setObserver(CommandObserver observer) {
    state_->observer = std::move(observer);
}

}  // namespace lockscope
