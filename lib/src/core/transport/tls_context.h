#pragma once
// The OpenSSL client context for a set of TLS options: TLS 1.2 or newer, the trust store
// (system default, --cacert, --cacertdir), the client certificate and key for mutual TLS.
// Contexts are shared by every connection with the same options (loading the system
// store takes milliseconds; Redlock opens five links at once).

#include <memory>
#include <string>

#include "lockscope/endpoint.h"

using SSL_CTX = struct ssl_ctx_st;
using BIO_METHOD = struct bio_method_st;

namespace lockscope::transport {

// Throws InvalidArgumentError when a file cannot be read or the key does not match the
// certificate, naming the file.
std::shared_ptr<SSL_CTX> tlsContextFor(const TlsOptions& options);

// A socket BIO whose writes never raise SIGPIPE (send with MSG_NOSIGNAL): OpenSSL's own
// socket BIO uses write(), and a server that went away must not kill the process.
const BIO_METHOD* noSigpipeSocketMethod();

// The text of an OpenSSL error code, e.g. "certificate verify failed": OpenSSL's fixed
// English reason string, not the locale's.
std::string tlsErrorText(unsigned long code);

}  // namespace lockscope::transport
