#include "tls_context.h"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>
#include <tuple>

#include "lockscope/errors.h"

namespace lockscope::transport {
namespace {

struct CtxFree {
    void operator()(SSL_CTX* c) const noexcept { SSL_CTX_free(c); }
};

bool readable(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
}

[[noreturn]] void badFile(const std::string& what, const std::string& path,
                          const std::string& why) {
    ERR_clear_error();
    throw InvalidArgumentError("TLS: cannot use the " + what + " \"" + path + "\": " + why);
}

std::string lastTlsError() {
    unsigned long e = ERR_peek_last_error();
    return e ? tlsErrorText(e) : "unknown OpenSSL error";
}

void loadTrust(SSL_CTX* ctx, const TlsOptions& o) {
    if (o.caFile.empty() && o.caDir.empty()) {
        if (SSL_CTX_set_default_verify_paths(ctx) != 1)
            throw InvalidArgumentError("TLS: cannot load the system's trusted certificates: " +
                                       lastTlsError());
        return;
    }
    if (!o.caFile.empty() && !readable(o.caFile))
        badFile("CA file (--cacert)", o.caFile, "no such file");
    if (!o.caDir.empty() && !readable(o.caDir))
        badFile("CA directory (--cacertdir)", o.caDir, "no such directory");
    if (SSL_CTX_load_verify_locations(ctx, o.caFile.empty() ? nullptr : o.caFile.c_str(),
                                      o.caDir.empty() ? nullptr : o.caDir.c_str()) != 1)
        badFile(o.caFile.empty() ? "CA directory (--cacertdir)" : "CA file (--cacert)",
                o.caFile.empty() ? o.caDir : o.caFile,
                "not PEM certificates (" + lastTlsError() + ")");
}

// OpenSSL asks for an encrypted key's passphrase through this callback; without one it
// would prompt on the terminal, which a window does not have and a script cannot answer.
struct PassphraseRequest {
    const std::string* passphrase;
    bool asked = false;
};

int answerPassphrase(char* buffer, int size, int /*writing*/, void* userdata) {
    auto* request = static_cast<PassphraseRequest*>(userdata);
    if (!request) return -1;
    request->asked = true;
    const std::string& p = *request->passphrase;
    if (p.empty() || p.size() > static_cast<std::size_t>(size)) return -1;
    std::copy_n(p.data(), p.size(), buffer);  // OpenSSL takes the length, not a terminator
    return static_cast<int>(p.size());
}

void loadClientCertificate(SSL_CTX* ctx, const TlsOptions& o) {
    if (o.certFile.empty() && o.keyFile.empty()) return;
    if (o.certFile.empty() || o.keyFile.empty())
        throw InvalidArgumentError(
            "TLS: a client certificate needs both --cert and --key (got only " +
            std::string(o.certFile.empty() ? "--key" : "--cert") + ")");
    if (!readable(o.certFile)) badFile("client certificate (--cert)", o.certFile, "no such file");
    if (!readable(o.keyFile)) badFile("client key (--key)", o.keyFile, "no such file");
    if (SSL_CTX_use_certificate_chain_file(ctx, o.certFile.c_str()) != 1)
        badFile("client certificate (--cert)", o.certFile,
                "not a PEM certificate (" + lastTlsError() + ")");
    PassphraseRequest passphrase{&o.keyPassphrase};
    SSL_CTX_set_default_passwd_cb(ctx, answerPassphrase);
    SSL_CTX_set_default_passwd_cb_userdata(ctx, &passphrase);
    const bool loaded = SSL_CTX_use_PrivateKey_file(ctx, o.keyFile.c_str(), SSL_FILETYPE_PEM) == 1;
    SSL_CTX_set_default_passwd_cb_userdata(ctx, nullptr);  // `passphrase` ends here
    if (!loaded) {
        if (ERR_GET_REASON(ERR_peek_last_error()) == X509_R_KEY_VALUES_MISMATCH)
            badFile("client key (--key)", o.keyFile,
                    "the key does not match the certificate \"" + o.certFile + "\"");
        if (passphrase.asked)
            badFile("client key (--key)", o.keyFile,
                    o.keyPassphrase.empty() ? "the key is encrypted and no passphrase was given"
                                            : "the passphrase does not decrypt the key");
        badFile("client key (--key)", o.keyFile, "not a PEM private key (" + lastTlsError() + ")");
    }
    if (SSL_CTX_check_private_key(ctx) != 1)
        badFile("client key (--key)", o.keyFile,
                "the key does not match the certificate \"" + o.certFile + "\"");
}

std::shared_ptr<SSL_CTX> makeContext(const TlsOptions& o) {
    std::shared_ptr<SSL_CTX> ctx(SSL_CTX_new(TLS_client_method()), CtxFree{});
    if (!ctx) throw InvalidArgumentError("TLS: cannot create a context: " + lastTlsError());
    SSL_CTX_set_min_proto_version(ctx.get(), TLS1_2_VERSION);
    // Non-blocking writes are retried with the same bytes, possibly from a moved buffer.
    SSL_CTX_set_mode(ctx.get(),
                     SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_ENABLE_PARTIAL_WRITE);
    // One recv per reply instead of one for each record's header and one for its body: a
    // round trip over TLS on loopback cost 1.8x a plaintext one with two reads per record.
    SSL_CTX_set_read_ahead(ctx.get(), 1);
    loadTrust(ctx.get(), o);
    loadClientCertificate(ctx.get(), o);
    return ctx;
}

int noSigpipeWrite(BIO* bio, const char* data, size_t size, size_t* written) {
    int fd = -1;
    BIO_get_fd(bio, &fd);
    BIO_clear_retry_flags(bio);
    ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
    if (n >= 0) {
        *written = static_cast<size_t>(n);
        return 1;
    }
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) BIO_set_retry_write(bio);
    *written = 0;
    return 0;
}

BIO_METHOD* buildNoSigpipeMethod() {
    const BIO_METHOD* socket = BIO_s_socket();
    BIO_METHOD* m = BIO_meth_new(BIO_TYPE_SOCKET, "lockscope socket");
    BIO_meth_set_write_ex(m, noSigpipeWrite);
    BIO_meth_set_read(m, BIO_meth_get_read(socket));
    BIO_meth_set_puts(m, BIO_meth_get_puts(socket));
    BIO_meth_set_ctrl(m, BIO_meth_get_ctrl(socket));
    BIO_meth_set_create(m, BIO_meth_get_create(socket));
    BIO_meth_set_destroy(m, BIO_meth_get_destroy(socket));
    return m;
}

}  // namespace

std::string tlsErrorText(unsigned long code) {
    const char* reason = ERR_reason_error_string(code);
    return reason ? reason : "OpenSSL error " + std::to_string(ERR_GET_REASON(code));
}

const BIO_METHOD* noSigpipeSocketMethod() {
    static BIO_METHOD* method = buildNoSigpipeMethod();  // lives as long as the process
    return method;
}

std::shared_ptr<SSL_CTX> tlsContextFor(const TlsOptions& o) {
    static std::mutex mutex;
    // The passphrase is part of the key: a wrong one must fail even after a right one.
    static std::map<std::tuple<std::string, std::string, std::string, std::string, std::string>,
                    std::shared_ptr<SSL_CTX>>
        cache;
    auto key = std::make_tuple(o.caFile, o.caDir, o.certFile, o.keyFile, o.keyPassphrase);
    std::lock_guard lock(mutex);
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
    auto ctx = makeContext(o);
    cache.emplace(key, ctx);
    return ctx;
}

}  // namespace lockscope::transport
