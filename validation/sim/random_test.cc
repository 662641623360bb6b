#include "validation/sim/random.h"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

namespace jobset {

TEST_CASE("sim random: a run's stream depends on (seed, run) only") {
  Rng a(7, 3), b(7, 3), other_run(7, 4), other_seed(8, 3);
  bool differs_run = false, differs_seed = false;
  for (int i = 0; i < 16; ++i) {
    const uint64_t x = a.Next();
    CHECK(x == b.Next());
    differs_run = differs_run || x != other_run.Next();
    differs_seed = differs_seed || x != other_seed.Next();
  }
  CHECK(differs_run);
  CHECK(differs_seed);
}

TEST_CASE("sim random: xoshiro256** seeded through SplitMix64, pinned") {
  // The first output for (seed 1, run 0): a change of the generator changes every kind's
  // Monte Carlo results (and goldens) and must be deliberate.
  // Computed by hand from the reference algorithms.
  Rng rng(1, 0);
  CHECK(rng.Next() == 0x68B02A87B58AD621ull);
  CHECK(rng.Next() == 0x5153DE78D62694CAull);
  CHECK(Mix64(0) == 0);
  CHECK(Mix64(1) == 0x5692161D100B05E5ull);  // SplitMix64's mixer (Vigna's splitmix64.c).
}

TEST_CASE("sim random: ranges and moments") {
  Rng rng(42, 0);
  constexpr int kN = 200000;
  double sum_u = 0, sum_e = 0;
  std::vector<int64_t> below(5, 0);
  bool in_range = true;
  for (int i = 0; i < kN; ++i) {
    const double u = rng.Uniform();
    const double p = rng.UniformPositive();
    const int64_t k = rng.Below(5);
    in_range = in_range && u >= 0 && u < 1 && p > 0 && p <= 1 && k >= 0 && k < 5;
    if (!in_range) break;
    sum_u += u;
    sum_e += rng.Exponential(3.0);
    ++below[static_cast<size_t>(k)];
  }
  CHECK(in_range);
  // Means within 4 standard errors: U(0,1) sd 0.289, Exp(mean 3) sd 3.
  CHECK(std::abs(sum_u / kN - 0.5) < 4 * 0.289 / std::sqrt(kN));
  CHECK(std::abs(sum_e / kN - 3.0) < 4 * 3.0 / std::sqrt(kN));
  for (int64_t c : below) CHECK(std::abs(c - kN / 5) < 4 * std::sqrt(kN * 0.2 * 0.8));
  CHECK(rng.Below(1) == 0);
}

TEST_CASE("sim random: Binomial edges and mean (exact and normal branches)") {
  Rng rng(5, 0);
  CHECK(Binomial(&rng, 0, 0.5) == 0);
  CHECK(Binomial(&rng, 10, 0) == 0);
  CHECK(Binomial(&rng, 10, 1) == 10);
  for (const auto& [n, p] : {std::pair<int64_t, double>{50, 0.1}, {10000, 0.01}}) {
    double sum = 0;
    constexpr int kDraws = 20000;
    bool in_range = true;
    for (int i = 0; i < kDraws; ++i) {
      const int64_t k = Binomial(&rng, n, p);
      in_range = in_range && k >= 0 && k <= n;
      sum += static_cast<double>(k);
    }
    CHECK(in_range);
    const double mean = static_cast<double>(n) * p;
    CHECK(std::abs(sum / kDraws - mean) < 4 * std::sqrt(mean * (1 - p) / kDraws));
  }
}

}  // namespace jobset
