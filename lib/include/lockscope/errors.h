#pragma once
// The typed errors of LockScope's core. Every message names what failed and where
// (the endpoint and, for commands, the command), so the UI and CLI can show it as is.

#include <stdexcept>
#include <string>

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
};

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
// A write or a script reached the wire but its reply never came back (the connection
// dropped, the deadline passed): the server may or may not have run it. It is never re-sent
// blindly; the caller resolves it by reading the state back (the lock library looks for its
// own token), and the CLI and the audit log report it as "outcome unknown".
class OutcomeUnknownError : public IoError {
  public:
    explicit OutcomeUnknownError(const std::string& m) : IoError(ErrorKind::OutcomeUnknown, m) {}
};

// The server answered with an error reply: the connection itself is fine.
class ReplyError : public Error {
  public:
    explicit ReplyError(const std::string& m, ErrorKind kind = ErrorKind::Reply) : Error(kind, m) {}
};
class AuthenticationError : public ReplyError {
  public:
    explicit AuthenticationError(const std::string& m) : ReplyError(m, ErrorKind::Authentication) {}
};
class PermissionError : public ReplyError {
  public:
    explicit PermissionError(const std::string& m) : ReplyError(m, ErrorKind::PermissionDenied) {}
};

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
