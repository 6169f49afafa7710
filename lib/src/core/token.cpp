#include "lockscope/token.h"

#include <sys/mman.h>
#include <sys/random.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <system_error>

namespace lockscope {
namespace {

constexpr std::size_t kTokenBytes = 16;

void fillFromKernel(unsigned char* out, std::size_t size) {
    std::size_t filled = 0;
    while (filled < size) {
        ssize_t n = getrandom(out + filled, size - filled, 0);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw std::system_error(errno, std::generic_category(), "getrandom");
        }
        filled += static_cast<std::size_t>(n);
    }
}

// getrandom() is one system call per token, and a Redlock acquire + release takes a few
// hundred microseconds, so each thread draws 252 tokens' worth at a time. The pool is one
// page marked MADV_WIPEONFORK: a forked child finds it zeroed (nothing left) and draws its
// own bytes, so a parent and its child can never hand out the same token. Bytes handed out
// are wiped at once, and each thread has its own pool, so no token is ever given twice.
struct PoolPage {
    std::size_t left;  // unused bytes, at the front of `bytes`
    std::array<unsigned char, 252 * kTokenBytes> bytes;
};
static_assert(sizeof(PoolPage) <= 4096);

class ThreadPool {
  public:
    ThreadPool() {
        void* page =
            mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (page == MAP_FAILED) return;
        // Without fork-wiping a child could repeat the parent's tokens: no pool at all then.
        if (madvise(page, 4096, MADV_WIPEONFORK) != 0) {
            munmap(page, 4096);
            return;
        }
        page_ = static_cast<PoolPage*>(page);
    }
    ~ThreadPool() {
        if (page_) munmap(page_, 4096);
    }
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    void take(unsigned char* out) {
        if (!page_) return fillFromKernel(out, kTokenBytes);
        if (page_->left < kTokenBytes) {
            fillFromKernel(page_->bytes.data(), page_->bytes.size());
            page_->left = page_->bytes.size();
        }
        page_->left -= kTokenBytes;
        unsigned char* source = page_->bytes.data() + page_->left;
        std::memcpy(out, source, kTokenBytes);
        explicit_bzero(source, kTokenBytes);
    }

  private:
    PoolPage* page_ = nullptr;
};

}  // namespace

std::string randomToken() {
    thread_local ThreadPool pool;
    std::array<unsigned char, kTokenBytes> bytes{};
    pool.take(bytes.data());
    std::string hex(2 * kTokenBytes, '0');
    static constexpr char digits[] = "0123456789abcdef";
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        hex[2 * i] = digits[bytes[i] >> 4];
        hex[2 * i + 1] = digits[bytes[i] & 0xf];
    }
    explicit_bzero(bytes.data(), bytes.size());
    return hex;
}

}  // namespace lockscope
