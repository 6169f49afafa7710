#pragma once
// The typed errors of LockScope's core. Every message names what failed and where
// (the endpoint and, for commands, the command), so the UI and CLI can show it as is.

#include <stdexcept>
#include <string>
#include <string_view>

namespace lockscope {

enum class ErrorKind {
    InvalidArgument,    // bad input from the caller: a malformed URL, an empty lock name
    ConnectionRefused,  // nothing listens at the endpoint, or the host is unknown
    Timeout,            // connect or a command took longer than its timeout
    ConnectionLost,     // the server closed the connection or an I/O error occurred
    Protocol,           // the peer answered with something that is not RESP
    Authentication,     // wrong password / user, or AUTH required
    PermissionDenied,   // NOPERM: the ACL user may not run this command or touch this key
    ReadOnly,           // a write was refused because the connection is read-only
    Reply,              // any other error reply from the server
    Storage,            // the SQLite fenced store failed
    Process,            // starting or stopping a local redis-server failed
    OutcomeUnknown,     // a write or script was sent but its reply was lost: it may have run
    Cancelled,          // the caller asked to stop (Ctrl+C, Cancel) while a command waited
};

// The code at the front of a server's error reply ("NOSCRIPT No matching script..."), so
// callers test a code instead of searching the message text.
enum class ServerErrorCode {
    Other,           // any prefix not listed below
    Err,             // the generic "ERR ..." (except the unknown-command form below)
    UnknownCommand,  // "ERR unknown command ..." (a renamed or missing command)
    NoScript,
    NoAuth,
    WrongPass,
    NoPerm,
    ReadOnly,
    Loading,
    Busy,
    Moved,
    Ask,
    TryAgain,
    ClusterDown,
    MasterDown,
    WrongType,
    ExecAbort,
};

ServerErrorCode serverErrorCodeOf(std::string_view replyText);
// The error kind a server error reply maps to: Authentication for NOAUTH, WRONGPASS and
// the older "ERR invalid password"; PermissionDenied for NOPERM; Reply otherwise.
ErrorKind errorKindOfServerError(std::string_view replyText);

const char* toString(ErrorKind kind);

class Error : public std::runtime_error {
  public:
    Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
    ErrorKind kind() const noexcept { return kind_; }

  private:
    ErrorKind kind_;
};

// Connection-level failures: the command may or may not have reached the server.
class IoError : public Error {
    using Error::Error;
};
class ConnectionRefusedError : public IoError {
  public:
    explicit ConnectionRefusedError(const std::string& m)
        : IoError(ErrorKind::ConnectionRefused, m) {}
};
// The TLS handshake failed (unknown CA, host name mismatch, expired certificate, client
// certificate required, plaintext port...): like a refused connection, nothing was sent.
class TlsError : public ConnectionRefusedError {
  public:
    using ConnectionRefusedError::ConnectionRefusedError;
};
class TimeoutError : public IoError {
  public:
    explicit TimeoutError(const std::string& m) : IoError(ErrorKind::Timeout, m) {}
};
class ConnectionLostError : public IoError {
  public:
    explicit ConnectionLostError(const std::string& m) : IoError(ErrorKind::ConnectionLost, m) {}
};
class ProtocolError : public IoError {
  public:
    explicit ProtocolError(const std::string& m) : IoError(ErrorKind::Protocol, m) {}
};
// A reply of the wrong shape for its command (a nil for PTTL, three values for an MGET of
// two keys): not an answer to it. The connection was reset (the replies after it cannot be
// trusted to answer the commands after it either); a read is tried once more on a fresh
// connection before this is thrown, and what it would have read is unreadable, never shown.
class MalformedReplyError : public ProtocolError {
  public:
    using ProtocolError::ProtocolError;
};
// A write or a script reached the wire but its reply never came back (the connection
// dropped, the deadline passed): the server may or may not have run it. It is never re-sent
// blindly; the caller resolves it by reading the state back (the lock library looks for its
// own token), and the CLI and the audit log report it as "outcome unknown".
class OutcomeUnknownError : public IoError {
  public:
    explicit OutcomeUnknownError(const std::string& m) : IoError(ErrorKind::OutcomeUnknown, m) {}
};

// The caller's stop token fired while a command waited: the connection is dropped, and a
// write or script that was already sent may have run (as with OutcomeUnknownError).
class CancelledError : public IoError {
  public:
    explicit CancelledError(const std::string& m) : IoError(ErrorKind::Cancelled, m) {}
};

// The server answered with an error reply: the connection itself is fine. code() is the
// reply's prefix (NOSCRIPT, READONLY, MOVED...), for callers to test.
class ReplyError : public Error {
  public:
    explicit ReplyError(const std::string& m, ErrorKind kind = ErrorKind::Reply,
                        ServerErrorCode code = ServerErrorCode::Other)
        : Error(kind, m), code_(code) {}
    ServerErrorCode code() const noexcept { return code_; }

  private:
    ServerErrorCode code_;
};
class AuthenticationError : public ReplyError {
  public:
    explicit AuthenticationError(const std::string& m,
                                 ServerErrorCode code = ServerErrorCode::Other)
        : ReplyError(m, ErrorKind::Authentication, code) {}
};
class PermissionError : public ReplyError {
  public:
    explicit PermissionError(const std::string& m, ServerErrorCode code = ServerErrorCode::NoPerm)
        : ReplyError(m, ErrorKind::PermissionDenied, code) {}
};

// Throws the typed error for a server's error reply: `context` says which command on which
// endpoint ("SET on redis://127.0.0.1:6379"), `replyText` is the reply as the server sent it.
[[noreturn]] void throwServerError(const std::string& context, std::string_view replyText);

class InvalidArgumentError : public Error {
  public:
    explicit InvalidArgumentError(const std::string& m) : Error(ErrorKind::InvalidArgument, m) {}
};
class ReadOnlyError : public Error {
  public:
    explicit ReadOnlyError(const std::string& m) : Error(ErrorKind::ReadOnly, m) {}
};
class StorageError : public Error {
  public:
    explicit StorageError(const std::string& m) : Error(ErrorKind::Storage, m) {}
};
class ProcessError : public Error {
  public:
    explicit ProcessError(const std::string& m) : Error(ErrorKind::Process, m) {}
};

}  // namespace lockscope
