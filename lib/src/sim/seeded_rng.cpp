#include "lockscope/sim/seeded_rng.h"

namespace lockscope::sim {

std::uint64_t SeededRng::next() {
    // SplitMix64 (Steele, Lea, Flood): tiny state, full period, good enough for a lesson.
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

std::uint64_t SeededRng::below(std::uint64_t bound) {
    return bound == 0 ? 0 : next() % bound;
}

std::string SeededRng::token() {
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (int word = 0; word < 2; ++word) {
        std::uint64_t bits = next();
        for (int i = 0; i < 16; ++i, bits >>= 4) out.push_back(digits[bits & 0xf]);
    }
    return out;
}

}  // namespace lockscope::sim
