#pragma once
// One connected socket, plain or carrying a TLS session: non-blocking reads and writes that
// say what happened (progress, would block, closed, failed with errno or an OpenSSL error)
// instead of throwing, so both the blocking channel and Redlock's fan-out can use it.

#include <cstddef>
#include <string>

using SSL = struct ssl_st;

namespace lockscope::transport {

enum class IoStatus { Progress, WantRead, WantWrite, Closed, Failed };

struct IoResult {
    IoStatus status = IoStatus::Progress;
    std::size_t bytes = 0;
    int sysErrno = 0;            // set for Failed on a socket error
    unsigned long tlsError = 0;  // set for Failed on a TLS error (ERR_get_error code)
};

class Stream {
  public:
    Stream() = default;
    explicit Stream(int fd) : fd_(fd) {}
    ~Stream();
    Stream(Stream&& other) noexcept;
    Stream& operator=(Stream&& other) noexcept;

    bool isOpen() const { return fd_ >= 0; }
    int fd() const { return fd_; }
    bool isTls() const { return ssl_ != nullptr; }
    SSL* ssl() const { return ssl_; }
    // Takes ownership of a TLS session whose handshake is done (see tls_handshake.h).
    void adoptTls(SSL* ssl);

    IoResult read(char* buffer, std::size_t size);
    IoResult write(const char* data, std::size_t size);
    // Decrypted bytes waiting inside the TLS session: poll() would not report them.
    bool hasBufferedInput() const;
    void close() noexcept;

  private:
    int fd_ = -1;
    SSL* ssl_ = nullptr;
};

}  // namespace lockscope::transport
