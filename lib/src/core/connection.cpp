#include "lockscope/connection.h"

#include <algorithm>
#include <cctype>
#include <deque>

#include "command_policy.h"
#include "lockscope/errors.h"
#include "lockscope/text_format.h"
#include "reply_shape.h"
#include "resp_request.h"
#include "transport/channel.h"
#include "transport/requests_in_flight.h"

namespace lockscope {
namespace {

using Clock = std::chrono::steady_clock;
using transport::Deadline;

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

bool isSubscribe(Connection::Argv argv) {
    std::string name = upper(argv[0]);
    return name == "SUBSCRIBE" || name == "PSUBSCRIBE" || name == "SSUBSCRIBE";
}

// What the observer needs to report a streamed command when its reply arrives.
struct StreamedCommand {
    std::string command;  // describe(argv); empty when sent while no observer was set
    Clock::time_point flushedAt;
    bool flushed = false;
};

// A write whose bytes left for the server but whose reply did not come back.
[[noreturn]] void throwOutcomeUnknown(const IoError& cause) {
    throw OutcomeUnknownError(std::string(cause.what()) +
                              " — it was sent and may have run; LockScope does not send it "
                              "again (read the state back to know)");
}

}  // namespace

struct Connection::State {
    Endpoint endpoint;
    ConnectionOptions options;
    transport::Channel channel;
    CommandObserver observer;
    // Streaming path: while an observer is set, one entry per command awaiting its reply.
    // Commands sent without an observer before any tracked one are just counted, so no
    // observer costs nothing but a counter.
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

    [[noreturn]] void throwReplyError(std::string_view command, std::string_view text) {
        throwServerError(upper(command) + " on " + where(), text);
    }

    // A new or dropped socket has no replies pending: forget what the stream awaited.
    void dropStream() {
        streamed.clear();
        untrackedAhead = 0;
        inFlight.clear();
        ready.clear();
        queuing = false;
    }

    // Checks that `reply` can answer `argv`; a reply of another shape resets the
    // connection (what follows it cannot be trusted either) and throws.
    void checkShape(Argv argv, const Reply& reply) {
        if (queuing) return;
        if (auto wrong = misfit(replyShapeOf(argv), reply)) {
            channel.close();
            throw MalformedReplyError(malformedMessage(upper(argv[0]), *wrong));
        }
    }

    std::string malformedMessage(const std::string& command, const std::string& wrong) const {
        return command + " on " + where() + ": the reply does not fit the command (" + wrong +
               "): the connection was reset and the value is unreadable";
    }

    void connect() {
        dropStream();
        subscribed = false;
        Deadline deadline = Deadline::in(options.connectTimeout, options.stop);
        channel.open(deadline);
        try {
            // Only AUTH, SELECT and, over TLS, PING: all a managed service must allow. The
            // PING makes a TLS 1.3 server's refusal of our client certificate, which comes
            // after the handshake, surface here rather than on the first command.
            // A user named without a password (redis://viewer@host) is honoured: AUTH with an
            // empty password, which an ACL user with nopass accepts.
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

    void handshake(std::initializer_list<std::string_view> argv, const Deadline& deadline) {
        Reply reply = roundTrip(Argv(argv.begin(), argv.size()), deadline);
        // Never echo the password: name the command only.
        if (reply.isError()) throwReplyError(*argv.begin(), reply.text());
    }

    Reply roundTrip(Argv argv, const Deadline& deadline) {
        appendRespRequest(channel.outgoing(), argv);
        return channel.readReply(deadline, upper(argv[0]));
    }

    // Runs `attempt` (which sends and reads) under the transport's contract: a failure
    // before any byte left is retried once on a fresh connection; a read that lost its
    // connection is retried once; a write that left is never re-sent.
    template <typename Attempt>
    auto withRetry(bool isWrite, Attempt attempt) {
        bool fresh = !channel.isOpen();
        // Closed while idle, or a reply came twice: start clean, nothing lost. Streamed
        // replies still pending (a caller stopped reading a stream) would be read as this
        // command's answer: they are dropped with the socket.
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

    // A read of the stream: I/O errors drop it (outcome unknown when it may have written).
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

    // The next streamed reply: from the oldest batch, read whole and checked first (see
    // RequestsInFlight); a subscriber's messages as they come.
    Reply nextStreamed() {
        if (ready.empty()) {
            if (subscribed || !inFlight.hasBatch())
                return guardedRead([&] { return channel.readReply(commandDeadline(), "read"); });
            readOldestBatch();
        }
        Reply reply = std::move(ready.front());
        ready.pop_front();
        return reply;
    }

    void readOldestBatch() {
        for (bool again = false;; again = true) {
            auto got = guardedRead([&] {
                return transport::readBatch(channel, inFlight.oldest(), commandDeadline());
            });
            if (got.markerRefused) markers = false;
            if (!got.wrong) {
                ready.assign(std::make_move_iterator(got.replies.begin()),
                             std::make_move_iterator(got.replies.end()));
                inFlight.answered();
                return;
            }
            resendOrThrow(malformedMessage("pipeline read", *got.wrong), again);
        }
    }

    // A batch could not be trusted. Reads only, and once: a fresh connection, and every
    // batch in flight sent again. Otherwise the stream is dropped and the error thrown
    // (outcome unknown when a command in flight may have written).
    void resendOrThrow(const std::string& message, bool again) {
        const bool mayWrite = inFlight.mayWrite();
        if (again || mayWrite) {
            channel.close();
            dropStream();
            if (mayWrite) throwOutcomeUnknown(MalformedReplyError(message));
            throw MalformedReplyError(message);
        }
        auto keep = std::move(inFlight);
        auto keepStreamed = std::move(streamed);
        const std::size_t keepUntracked = untrackedAhead;
        connect();  // drops the stream's bookkeeping, kept aside above
        inFlight = std::move(keep);
        streamed = std::move(keepStreamed);
        untrackedAhead = keepUntracked;
        channel.outgoing() = inFlight.allRequests();
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

void Connection::send(Argv argv) {
    State& s = live();
    s.checkAllowed(argv);
    // Bytes already waiting (a reply that came twice) are not dropped here: they would hide
    // a server that closed the idle socket (a restart) from the caller, and the batch's
    // closing PING finds them out of step anyway.
    if (!s.channel.isOpen()) s.connect();
    std::string& out = s.channel.outgoing();
    const std::size_t before = out.size();
    appendRespRequest(out, argv);
    ++s.commandsSent;
    s.inFlight.add(replyShapeOf(argv), std::string_view(out).substr(before), !isReadOnlySafe(argv));

    if (isSubscribe(argv)) s.subscribed = true;
    if (s.observer)
        s.streamed.push_back({describe(argv), {}, false});
    else if (s.streamed.empty())
        ++s.untrackedAhead;
    else
        s.streamed.push_back({});  // the observer was removed with replies pending
}

void Connection::flush() {
    State& s = live();
    if (!s.channel.isOpen()) return;
    if (!s.streamed.empty()) {
        // Latency counts from here: the time the command spent queued locally is ours.
        auto now = Clock::now();
        for (auto it = s.streamed.rbegin(); it != s.streamed.rend() && !it->flushed; ++it)
            it->flushedAt = now, it->flushed = true;
    }
    s.channel.outgoing() += s.inFlight.seal(s.markers && !s.subscribed);
    try {
        s.channel.flush(s.commandDeadline(), "pipeline write");
    } catch (const IoError& e) {
        bool hadWrite = s.inFlight.mayWrite();
        s.dropStream();
        if (hadWrite && e.kind() != ErrorKind::Cancelled) throwOutcomeUnknown(e);
        throw;
    }
}

Reply Connection::receive() {
    State& s = live();
    if (!s.channel.isOpen())
        throw ConnectionLostError("pipeline read on " + s.where() +
                                  ": the connection was reset, so no reply is pending");
    if (!s.channel.outgoing().empty()) flush();  // a reply cannot come for a command not sent
    Reply reply = s.nextStreamed();
    s.notifyStreamed(reply);
    return reply;
}

bool Connection::waitForReply(std::chrono::milliseconds timeout) {
    State& s = live();
    if (!s.channel.isOpen())
        throw ConnectionLostError("wait on " + s.where() + ": the connection was reset");
    return !s.ready.empty() || s.channel.waitReadable(timeout);
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
