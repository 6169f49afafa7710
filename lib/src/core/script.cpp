#include "lockscope/script.h"

#include <openssl/evp.h>

#include <array>
#include <stdexcept>
#include <utility>

namespace lockscope {

// OpenSSL's SHA-1: the core links OpenSSL for TLS already, so the script names EVALSHA uses
// come from the same kept library instead of a hand-written digest.
std::string sha1Hex(std::string_view bytes) {
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int length = 0;
    if (EVP_Digest(bytes.data(), bytes.size(), digest.data(), &length, EVP_sha1(), nullptr) != 1)
        throw std::runtime_error("SHA-1 is not available from OpenSSL");
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex;
    hex.reserve(2 * std::size_t{length});
    for (unsigned int i = 0; i < length; ++i) {
        hex.push_back(kHex[digest[i] >> 4]);
        hex.push_back(kHex[digest[i] & 0xf]);
    }
    return hex;
}

Script::Script(std::string source) : source_(std::move(source)), sha1_(sha1Hex(source_)) {}

}  // namespace lockscope
