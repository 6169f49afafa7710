#pragma once
// A blocking connection to one Redis server over LockScope's transport (a TCP or Unix
// socket, or a TLS session with OpenSSL; hiredis parses the replies): RAII, AUTH and
// SELECT at connect, binary-safe argv commands, pipelines, scripts with EVALSHA→EVAL
// fallback, and typed errors that name the endpoint and the command.
//
// Never wrong after a fault: a read whose connection dropped is sent once more on a fresh
// connection; a write or script that reached the wire is never re-sent — its lost reply
// is an OutcomeUnknownError. Each command has one deadline (commandTimeout, not reset by
// progress), one reply may not grow past maxReplyBytes, and a stop token interrupts a wait
// within 50 ms. Not thread-safe: one thread owns a connection; other threads open their
// own (see openSibling()). Moved-from: every member but the destructor and assignment
// throws InvalidArgumentError.

#include <chrono>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "lockscope/endpoint.h"
#include "lockscope/reply.h"
#include "lockscope/script.h"

namespace lockscope {

struct ConnectionOptions {
    std::chrono::milliseconds connectTimeout{2000};
    // The whole command, from sending to its complete reply: a server that drips bytes
    // cannot stretch it.
    std::chrono::milliseconds commandTimeout{2000};
    // A read-only connection refuses write commands locally (ReadOnlyError) and never
    // sends them.
    bool readOnly = false;
    // One reply larger than this fails with a ProtocolError instead of growing the client
    // (the inspector shows at most a few MB of any value).
    std::size_t maxReplyBytes = 64u << 20;
    // Stops a connect or command that waits (CancelledError within 50 ms).
    std::stop_token stop{};
};

// What the Test button of the connection dialog reports about a TLS connection.
struct TlsSessionInfo {
    std::string protocol;  // "TLSv1.3"
    std::string cipher;    // "TLS_AES_256_GCM_SHA384"
    std::string subject;   // the server certificate's subject, e.g. "CN = localhost"
    std::string issuer;
    std::string notAfter;   // "Dec  1 00:00:00 2027 GMT"
    std::string names;      // DNS names and addresses it is for
    bool verified = false;  // false with --insecure
};

// Observes every command sent: the command log drawer and tests use it.
struct CommandEvent {
    std::string command;  // argv joined with spaces, long or binary arguments abbreviated
    std::string replySummary;
    std::chrono::microseconds latency{0};
};
using CommandObserver = std::function<void(const CommandEvent&)>;

class Connection {
  public:
    using Argv = std::span<const std::string_view>;

    // Connects, authenticates and selects the database. Throws IoError subclasses when the
    // server cannot be reached and AuthenticationError when the credentials are refused.
    static Connection open(const Endpoint& endpoint, const ConnectionOptions& options = {});

    Connection(Connection&&) noexcept;
    Connection& operator=(Connection&&) noexcept;
    ~Connection();

    // A new connection to the same server with the same options (for another thread).
    Connection openSibling() const;

    // Sends one command and waits for its reply. Error replies are thrown as
    // ReplyError / PermissionError / AuthenticationError.
    Reply command(Argv argv);
    Reply command(std::initializer_list<std::string_view> argv) {
        return command(Argv(argv.begin(), argv.size()));
    }

    // Sends all commands, then reads all replies (one round trip). Error replies are
    // returned in place, not thrown, so the caller can judge each one.
    std::vector<Reply> pipeline(const std::vector<std::vector<std::string>>& commands);

    // A streaming pipeline for callers that overlap round trips (the inspector's scanner
    // sends the next SCAN before it decodes the previous batch): send() queues a command
    // without waiting (the read-only rule applies), flush() writes everything queued,
    // receive() waits for the next reply in order (and flushes first if something is still
    // queued). Error replies are returned in place; I/O errors throw and drop every pending
    // reply. The observer hears each streamed command when its reply arrives, with the time
    // from flush() to that reply as latency; without an observer this costs nothing.
    void send(Argv argv);
    void send(std::initializer_list<std::string_view> argv) {
        send(Argv(argv.begin(), argv.size()));
    }
    void flush();
    Reply receive();
    // Waits up to timeout until a reply can be read without blocking (a subscriber's next
    // message). true: receive() will not wait for the server.
    bool waitForReply(std::chrono::milliseconds timeout);

    // EVALSHA, then EVAL when the server answers NOSCRIPT (after SCRIPT FLUSH, a restart
    // or a failover).
    Reply eval(const Script& script, Argv keys, Argv args);
    Reply eval(const Script& script, std::initializer_list<std::string_view> keys,
               std::initializer_list<std::string_view> args) {
        return eval(script, Argv(keys.begin(), keys.size()), Argv(args.begin(), args.size()));
    }

    // Drops the current socket and connects again (AUTH and SELECT included).
    void reconnect();

    void setCommandTimeout(std::chrono::milliseconds timeout);
    void setConnectTimeout(std::chrono::milliseconds timeout);
    std::chrono::milliseconds commandTimeout() const;
    const Endpoint& endpoint() const;
    const ConnectionOptions& options() const;
    bool isReadOnly() const { return options().readOnly; }
    void setObserver(CommandObserver observer);
    // How many commands this connection has sent (a retry of a read counts once): a watcher
    // turns the differences into commands per second without observing each command.
    std::uint64_t commandsSent() const;
    // A stop token for the commands that follow (Ctrl+C, --for, Cancel in the window).
    void setStopToken(std::stop_token stop);
    // Protocol, cipher and certificate of a TLS connection; nullopt over plaintext.
    std::optional<TlsSessionInfo> tlsSession() const;

  private:
    struct State;
    explicit Connection(std::unique_ptr<State> state);
    State& live() const;  // throws InvalidArgumentError when moved from
    std::unique_ptr<State> state_;
};

}  // namespace lockscope
