#pragma once
// Opening the socket under a connection: TCP (IPv4 addresses tried before IPv6, as hiredis
// does) or a Unix socket, non-blocking, with TCP_NODELAY. Errors are decided by errno and
// getaddrinfo's codes, never by message text, and name the endpoint.

#include <string>

#include "deadline.h"
#include "lockscope/endpoint.h"

namespace lockscope::transport {

// Connects and waits until the socket is connected or the deadline passes. Throws
// ConnectionRefusedError (nothing listens, unknown host), TimeoutError or CancelledError.
int connectSocket(const Endpoint& endpoint, const Deadline& deadline, const std::string& where);

// Starts connecting without waiting: the first write or read reports a refusal. Redlock
// starts every node's connect at once. Throws ConnectionRefusedError when the host is
// unknown or every address refused at once.
int startConnectSocket(const Endpoint& endpoint, const std::string& where);

// "connection refused", "no route to host", ...: a fixed English phrase per errno, so
// messages do not depend on the locale.
std::string describeErrno(int err);

}  // namespace lockscope::transport
