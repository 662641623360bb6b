// The one random generator of the Monte Carlo simulations (validation/sim/driver.h): one
// xoshiro256** stream per simulated run, derived from the simulation's seed and the run's index,
// so that a run draws the same numbers whichever thread runs it and whatever ran before it.
// Every kind's model draws only from the Rng its run is given.
#pragma once

#include <cmath>
#include <cstdint>

namespace jobset {

/// SplitMix64's output function of `x` (a bijective 64-bit mixer, Steele, Lea and Flood).
inline uint64_t Mix64(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// xoshiro256** (Blackman and Vigna, https://prng.di.unimi.it/xoshiro256starstar.c), seeded
/// through SplitMix64 from (seed, run). Streams of different runs or seeds do not overlap in
/// practice (2^256 - 1 period; the four state words come from a bijective mixer).
class Rng {
 public:
  /// The generator of run `run` of a simulation with `seed`.
  Rng(uint64_t seed, uint64_t run) {
    uint64_t sm = Mix64(seed + 0x9E3779B97F4A7C15ull) ^ Mix64(~run);
    for (uint64_t& word : s_) {
      sm += 0x9E3779B97F4A7C15ull;
      word = Mix64(sm);
    }
  }

  /// The next 64 random bits.
  uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }

  /// Uniform in [0, 1), 53 random bits.
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

  /// Uniform in (0, 1]: its log is finite.
  double UniformPositive() { return static_cast<double>((Next() >> 11) + 1) * 0x1.0p-53; }

  /// Exponential with mean `mean` (> 0): the gap to the next event of a Poisson process of rate
  /// 1 / mean.
  double Exponential(double mean) { return -std::log(UniformPositive()) * mean; }

  /// Uniform integer in [0, n) for n >= 1 (by scaling 53 bits: the bias is below 2^-53 × n).
  int64_t Below(int64_t n) {
    const auto k = static_cast<int64_t>(Uniform() * static_cast<double>(n));
    return k < n ? k : n - 1;
  }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

/// A Binomial(n, p) draw: exact inversion for a mean below 30, else the normal approximation.
int64_t Binomial(Rng* rng, int64_t n, double p);

}  // namespace jobset
