#include "tls_handshake.h"

#include <arpa/inet.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>

#include <cerrno>
#include <memory>

#include "lockscope/errors.h"
#include "socket_connect.h"
#include "tls_context.h"

namespace lockscope::transport {
namespace {

// What the verify callback saw of the first certificate that failed.
struct VerifyFailure {
    int error = X509_V_OK;
    std::string subject, issuer, notAfter, names;
};

int verifyIndex() {
    static int index = SSL_get_ex_new_index(0, nullptr, nullptr, nullptr, nullptr);
    return index;
}

std::string nameText(const X509_NAME* name) {
    if (!name) return {};
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), BIO_free);
    X509_NAME_print_ex(bio.get(), name, 0, XN_FLAG_ONELINE & ~ASN1_STRFLGS_ESC_MSB);
    char* data = nullptr;
    long len = BIO_get_mem_data(bio.get(), &data);
    return {data, static_cast<std::size_t>(len)};
}

std::string timeText(const ASN1_TIME* t) {
    if (!t) return {};
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), BIO_free);
    ASN1_TIME_print(bio.get(), t);  // "Jan  1 00:00:00 2025 GMT"
    char* data = nullptr;
    long len = BIO_get_mem_data(bio.get(), &data);
    return {data, static_cast<std::size_t>(len)};
}

// The DNS names and IP addresses the certificate is for (its subjectAltName), or its CN.
std::string certificateNames(X509* cert) {
    std::string out;
    auto* sans =
        static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(cert, NID_subject_alt_name, nullptr, nullptr));
    for (int i = 0; sans && i < sk_GENERAL_NAME_num(sans); ++i) {
        const GENERAL_NAME* n = sk_GENERAL_NAME_value(sans, i);
        std::string one;
        if (n->type == GEN_DNS) {
            one.assign(reinterpret_cast<const char*>(ASN1_STRING_get0_data(n->d.dNSName)),
                       ASN1_STRING_length(n->d.dNSName));
        } else if (n->type == GEN_IPADD && ASN1_STRING_length(n->d.iPAddress) == 4) {
            char buf[INET_ADDRSTRLEN];
            inet_ntop(AF_INET, ASN1_STRING_get0_data(n->d.iPAddress), buf, sizeof buf);
            one = buf;
        } else if (n->type == GEN_IPADD && ASN1_STRING_length(n->d.iPAddress) == 16) {
            char buf[INET6_ADDRSTRLEN];
            inet_ntop(AF_INET6, ASN1_STRING_get0_data(n->d.iPAddress), buf, sizeof buf);
            one = buf;
        }
        if (!one.empty()) out += (out.empty() ? "" : ", ") + one;
    }
    GENERAL_NAMES_free(sans);
    return out.empty() ? nameText(X509_get_subject_name(cert)) : out;
}

int onVerify(int ok, X509_STORE_CTX* store) {
    if (ok) return ok;
    auto* ssl =
        static_cast<SSL*>(X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx()));
    auto* failure = static_cast<VerifyFailure*>(SSL_get_ex_data(ssl, verifyIndex()));
    if (!failure || failure->error != X509_V_OK) return ok;
    failure->error = X509_STORE_CTX_get_error(store);
    if (X509* cert = X509_STORE_CTX_get_current_cert(store)) {
        failure->subject = nameText(X509_get_subject_name(cert));
        failure->issuer = nameText(X509_get_issuer_name(cert));
        failure->notAfter = timeText(X509_get0_notAfter(cert));
    }
    // The name check concerns the server's own certificate, whatever depth failed above.
    STACK_OF(X509)* chain = X509_STORE_CTX_get0_chain(store);
    X509* leaf =
        chain && sk_X509_num(chain) > 0 ? sk_X509_value(chain, 0) : X509_STORE_CTX_get0_cert(store);
    if (leaf) failure->names = certificateNames(leaf);
    return ok;
}

bool isIpLiteral(const std::string& host) {
    in6_addr buf{};
    return inet_pton(AF_INET, host.c_str(), &buf) == 1 ||
           inet_pton(AF_INET6, host.c_str(), &buf) == 1;
}

std::string checkedName(const Endpoint& e) {
    return e.tls.serverName.empty() ? e.host : e.tls.serverName;
}

void configureChecks(SSL* ssl, const Endpoint& e) {
    std::string name = checkedName(e);
    bool ip = isIpLiteral(name);
    if (!ip && !name.empty()) SSL_set_tlsext_host_name(ssl, name.c_str());  // SNI: names only
    if (e.tls.insecure) {
        SSL_set_verify(ssl, SSL_VERIFY_NONE, nullptr);
        return;
    }
    SSL_set_verify(ssl, SSL_VERIFY_PEER, onVerify);
    X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
    if (ip)
        X509_VERIFY_PARAM_set1_ip_asc(param, name.c_str());
    else
        SSL_set1_host(ssl, name.c_str());
}

std::string verifyMessage(const VerifyFailure& f, const Endpoint& e) {
    switch (f.error) {
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
        case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
        case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
        case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
            return "the server's certificate was issued by an unknown CA (issuer: " + f.issuer +
                   ") — pass that CA with --cacert, or --insecure to skip verification";
        case X509_V_ERR_HOSTNAME_MISMATCH:
        case X509_V_ERR_IP_ADDRESS_MISMATCH:
            return "host name mismatch: expected \"" + checkedName(e) +
                   "\" but the certificate is for " + f.names +
                   " — connect by one of those names or set --sni";
        case X509_V_ERR_CERT_HAS_EXPIRED:
            return "the certificate of " + f.subject + " expired on " + f.notAfter;
        case X509_V_ERR_CERT_NOT_YET_VALID:
            return "the certificate of " + f.subject + " is not valid yet";
        default:
            return std::string("certificate verification failed: ") +
                   X509_verify_cert_error_string(f.error);
    }
}

std::string hintForPlaintextPort() {
    return "the server did not answer the TLS handshake with TLS — is this a plaintext port? "
           "try redis://";
}

[[noreturn]] void throwHandshakeFailure(SSL* ssl, int rc, const VerifyFailure& verify,
                                        const Endpoint& e, const std::string& where) {
    int savedErrno = errno;
    int kind = SSL_get_error(ssl, rc);
    unsigned long code = ERR_peek_error();
    ERR_clear_error();
    std::string prefix = "TLS handshake with " + where + " failed: ";
    if (verify.error != X509_V_OK) throw TlsError(prefix + verifyMessage(verify, e));
    if (std::string special = explainTlsFailure(code, e.tls); !special.empty())
        throw TlsError(prefix + special);
    int reason = ERR_GET_REASON(code);
    if ((kind == SSL_ERROR_SYSCALL && code == 0) || reason == SSL_R_UNEXPECTED_EOF_WHILE_READING) {
        if (savedErrno != 0 && savedErrno != ECONNRESET)
            throw TlsError(prefix + describeErrno(savedErrno));
        throw TlsError(prefix + "the server closed the connection during the handshake — " +
                       "is this a TLS port? (or it refused our TLS version or certificate)");
    }
    if (reason == SSL_R_WRONG_VERSION_NUMBER || reason == SSL_R_PACKET_LENGTH_TOO_LONG ||
        reason == SSL_R_HTTP_REQUEST)
        throw TlsError(prefix + hintForPlaintextPort());
    throw TlsError(prefix + (code ? tlsErrorText(code) : "error " + std::to_string(kind)));
}

}  // namespace

std::string explainTlsFailure(unsigned long code, const TlsOptions& options) {
    switch (ERR_GET_REASON(code)) {
        case SSL_R_TLSV13_ALERT_CERTIFICATE_REQUIRED:
            return "the server requires a client certificate (mutual TLS): pass --cert and --key";
        case SSL_R_SSLV3_ALERT_HANDSHAKE_FAILURE:
            if (options.certFile.empty())
                return "the server refused the handshake (it may require a client certificate: "
                       "pass --cert and --key)";
            return {};
        case SSL_R_TLSV1_ALERT_UNKNOWN_CA:
        case SSL_R_SSLV3_ALERT_BAD_CERTIFICATE:
        case SSL_R_SSLV3_ALERT_CERTIFICATE_UNKNOWN:
            return "the server refused our client certificate \"" + options.certFile + "\" (" +
                   tlsErrorText(code) + ")";
        case SSL_R_TLSV1_ALERT_PROTOCOL_VERSION:
        case SSL_R_UNSUPPORTED_PROTOCOL:
            return "no common TLS version (LockScope requires TLS 1.2 or newer)";
        default:
            return {};
    }
}

void runTlsHandshake(Stream& stream, const Endpoint& e, const Deadline& deadline,
                     const std::string& where) {
    auto ctx = tlsContextFor(e.tls);
    SSL* ssl = SSL_new(ctx.get());
    if (!ssl) throw TlsError("TLS with " + where + ": cannot create a session");
    BIO* bio = BIO_new(const_cast<BIO_METHOD*>(noSigpipeSocketMethod()));
    BIO_set_fd(bio, stream.fd(), BIO_NOCLOSE);
    SSL_set_bio(ssl, bio, bio);
    stream.adoptTls(ssl);  // freed with the stream whatever happens below
    VerifyFailure verify;
    SSL_set_ex_data(ssl, verifyIndex(), &verify);
    configureChecks(ssl, e);
    while (true) {
        ERR_clear_error();
        errno = 0;
        int rc = SSL_connect(ssl);
        if (rc == 1) break;
        int kind = SSL_get_error(ssl, rc);
        if (kind != SSL_ERROR_WANT_READ && kind != SSL_ERROR_WANT_WRITE) {
            SSL_set_ex_data(ssl, verifyIndex(), nullptr);
            throwHandshakeFailure(ssl, rc, verify, e, where);
        }
        if (deadline.cancelled())
            throw CancelledError("TLS handshake with " + where + ": cancelled");
        if (deadline.passed())
            throw TimeoutError("TLS handshake with " + where + ": no answer within " +
                               std::to_string(deadline.budget.count()) +
                               " ms — is this a plaintext port? try redis://");
        pollfd p{stream.fd(), static_cast<short>(kind == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT),
                 0};
        ::poll(&p, 1, deadline.pollMillis());
    }
    SSL_set_ex_data(ssl, verifyIndex(), nullptr);
}

TlsSessionInfo describeTlsSession(const Stream& stream, bool verified) {
    TlsSessionInfo info;
    SSL* ssl = stream.ssl();
    if (!ssl) return info;
    info.protocol = SSL_get_version(ssl);
    info.cipher = SSL_get_cipher_name(ssl);
    info.verified = verified;
    if (X509* cert = SSL_get0_peer_certificate(ssl)) {
        info.subject = nameText(X509_get_subject_name(cert));
        info.issuer = nameText(X509_get_issuer_name(cert));
        info.notAfter = timeText(X509_get0_notAfter(cert));
        info.names = certificateNames(cert);
    }
    return info;
}

}  // namespace lockscope::transport
