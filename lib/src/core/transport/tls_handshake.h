#pragma once
// The client side of a TLS handshake on a connected socket, with the checks redis-cli makes
// (chain against the trust store, host name or IP address against the certificate, SNI per
// host), and errors that say what went wrong in the user's terms: unknown CA (naming the
// issuer), name mismatch (expected vs. the names in the certificate), expired (with the
// date), client certificate required, a plaintext port.

#include <string>

#include "deadline.h"
#include "lockscope/connection.h"
#include "stream.h"

namespace lockscope::transport {

// Runs the handshake until done or the deadline; on success the stream carries the session.
// Throws TlsError, TimeoutError or CancelledError naming `where`.
void runTlsHandshake(Stream& stream, const Endpoint& endpoint, const Deadline& deadline,
                     const std::string& where);

// Protocol, cipher and the server certificate's subject, issuer and expiry.
TlsSessionInfo describeTlsSession(const Stream& stream, bool verified);

// A TLS error met after the handshake (TLS 1.3 servers refuse a missing client certificate
// only then, on the first read), in the same terms. Empty when it is no special case.
std::string explainTlsFailure(unsigned long code, const TlsOptions& options);

}  // namespace lockscope::transport
