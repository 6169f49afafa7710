#include "lockscope/script.h"

#include <array>
#include <cstdint>
#include <cstdio>

namespace lockscope {
namespace {

// SHA-1 (FIPS 180-4), written here because the only consumer is naming Lua scripts for
// EVALSHA and pulling in OpenSSL for 40 lines was not worth a dependency.
class Sha1 {
  public:
    void update(std::string_view bytes) {
        for (unsigned char c : bytes) {
            block_[blockLen_++] = c;
            if (blockLen_ == 64) compress();
        }
        bitLength_ += 8 * bytes.size();
    }

    std::string hexDigest() {
        std::uint64_t bits = bitLength_;
        block_[blockLen_++] = 0x80;
        if (blockLen_ > 56) {
            while (blockLen_ < 64) block_[blockLen_++] = 0;
            compress();
        }
        while (blockLen_ < 56) block_[blockLen_++] = 0;
        for (int i = 7; i >= 0; --i)
            block_[blockLen_++] = static_cast<unsigned char>(bits >> (8 * i));
        compress();
        std::string hex;
        char buf[9];
        for (std::uint32_t word : h_) {
            std::snprintf(buf, sizeof buf, "%08x", word);
            hex += buf;
        }
        return hex;
    }

  private:
    static std::uint32_t rotl(std::uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

    void compress() {
        std::array<std::uint32_t, 80> w{};
        for (int i = 0; i < 16; ++i)
            w[i] = std::uint32_t(block_[4 * i]) << 24 | std::uint32_t(block_[4 * i + 1]) << 16 |
                   std::uint32_t(block_[4 * i + 2]) << 8 | std::uint32_t(block_[4 * i + 3]);
        for (int i = 16; i < 80; ++i) w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
        auto [a, b, c, d, e] = h_;
        for (int i = 0; i < 80; ++i) {
            std::uint32_t f, k;
            if (i < 20)
                f = (b & c) | (~b & d), k = 0x5A827999;
            else if (i < 40)
                f = b ^ c ^ d, k = 0x6ED9EBA1;
            else if (i < 60)
                f = (b & c) | (b & d) | (c & d), k = 0x8F1BBCDC;
            else
                f = b ^ c ^ d, k = 0xCA62C1D6;
            std::uint32_t t = rotl(a, 5) + f + e + k + w[i];
            e = d, d = c, c = rotl(b, 30), b = a, a = t;
        }
        h_[0] += a, h_[1] += b, h_[2] += c, h_[3] += d, h_[4] += e;
        blockLen_ = 0;
    }

    std::array<std::uint32_t, 5> h_{0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
    std::array<unsigned char, 64> block_{};
    std::size_t blockLen_ = 0;
    std::uint64_t bitLength_ = 0;
};

}  // namespace

std::string sha1Hex(std::string_view bytes) {
    Sha1 sha;
    sha.update(bytes);
    return sha.hexDigest();
}

Script::Script(std::string source) : source_(std::move(source)), sha1_(sha1Hex(source_)) {}

}  // namespace lockscope
