#pragma once
// The simulator's only source of randomness: SplitMix64 seeded by the user, copied into
// every checkpoint, so the same seed always gives the same tokens and jitter. (Real lock
// tokens come from the OS CSPRNG; a seeded token is only fit for a replayable lesson.)

#include <cstdint>
#include <string>

namespace lockscope::sim {

class SeededRng {
  public:
    SeededRng() = default;
    explicit SeededRng(std::uint64_t seed) : state_(seed) {}

    std::uint64_t next();
    // Uniform in [0, bound); 0 when bound is 0.
    std::uint64_t below(std::uint64_t bound);
    // 32 lowercase hex digits, shaped like lockscope::randomToken().
    std::string token();

  private:
    std::uint64_t state_ = 1;
};

}  // namespace lockscope::sim
