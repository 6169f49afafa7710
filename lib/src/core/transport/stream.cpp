#include "stream.h"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

namespace lockscope::transport {
namespace {

IoResult fromSocket(ssize_t n) {
    if (n > 0) return {IoStatus::Progress, static_cast<std::size_t>(n)};
    if (n == 0) return {IoStatus::Closed};
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return {IoStatus::WantRead};
    return {IoStatus::Failed, 0, errno};
}

IoResult fromTls(SSL* ssl, int n, bool writing) {
    if (n > 0) return {IoStatus::Progress, static_cast<std::size_t>(n)};
    int savedErrno = errno;
    switch (SSL_get_error(ssl, n)) {
        case SSL_ERROR_WANT_READ:
            return {IoStatus::WantRead};
        case SSL_ERROR_WANT_WRITE:
            return {IoStatus::WantWrite};
        case SSL_ERROR_ZERO_RETURN:
            return {IoStatus::Closed};
        case SSL_ERROR_SYSCALL: {
            unsigned long e = ERR_get_error();
            if (e != 0) return {IoStatus::Failed, 0, 0, e};
            // OpenSSL 3 reports a peer that closed without close_notify as an SSL error
            // (unexpected EOF); older paths leave errno at 0.
            if (savedErrno == 0) return {IoStatus::Closed};
            return {IoStatus::Failed, 0, savedErrno};
        }
        default: {
            unsigned long e = ERR_get_error();
            ERR_clear_error();
            if (ERR_GET_REASON(e) == SSL_R_UNEXPECTED_EOF_WHILE_READING) return {IoStatus::Closed};
            (void)writing;
            return {IoStatus::Failed, 0, 0, e};
        }
    }
}

}  // namespace

Stream::~Stream() {
    close();
}

Stream::Stream(Stream&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), ssl_(std::exchange(other.ssl_, nullptr)) {}

Stream& Stream::operator=(Stream&& other) noexcept {
    if (this != &other) {
        close();
        fd_ = std::exchange(other.fd_, -1);
        ssl_ = std::exchange(other.ssl_, nullptr);
    }
    return *this;
}

void Stream::adoptTls(SSL* ssl) {
    if (ssl_) SSL_free(ssl_);
    ssl_ = ssl;
}

IoResult Stream::read(char* buffer, std::size_t size) {
    if (ssl_) {
        ERR_clear_error();
        errno = 0;
        return fromTls(ssl_, SSL_read(ssl_, buffer, static_cast<int>(size)), false);
    }
    return fromSocket(::recv(fd_, buffer, size, 0));
}

IoResult Stream::write(const char* data, std::size_t size) {
    if (ssl_) {
        ERR_clear_error();
        errno = 0;
        return fromTls(ssl_, SSL_write(ssl_, data, static_cast<int>(size)), true);
    }
    // MSG_NOSIGNAL: a peer that went away is an error to report, not a SIGPIPE that kills
    // the whole process.
    IoResult r = fromSocket(::send(fd_, data, size, MSG_NOSIGNAL));
    if (r.status == IoStatus::WantRead) r.status = IoStatus::WantWrite;
    if (r.status == IoStatus::Closed) r.status = IoStatus::WantWrite;  // wrote 0 of >0 bytes
    return r;
}

bool Stream::hasBufferedInput() const {
    // SSL_has_pending also sees read-ahead bytes not yet decrypted (SSL_pending does not).
    return ssl_ && SSL_has_pending(ssl_) == 1;
}

void Stream::close() noexcept {
    if (ssl_) {
        SSL_free(ssl_);  // no close_notify: Redis does not wait for one, and it costs a write
        ssl_ = nullptr;
    }
    if (fd_ >= 0) {
        ::close(fd_);
        fd_ = -1;
    }
}

}  // namespace lockscope::transport
