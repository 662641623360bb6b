#include "validation/sim/random.h"

#include <algorithm>

namespace jobset {

int64_t Binomial(Rng* rng, int64_t n, double p) {
  if (n <= 0 || p <= 0) return 0;
  if (p >= 1) return n;
  const double q = 1 - p;
  const double mean = static_cast<double>(n) * p;
  if (mean < 30) {
    double pk = std::pow(q, static_cast<double>(n));
    double cdf = pk;
    const double u = rng->Uniform();
    int64_t k = 0;
    while (u > cdf && k < n) {
      pk *= static_cast<double>(n - k) / static_cast<double>(k + 1) * p / q;
      ++k;
      cdf += pk;
    }
    return k;
  }
  const double z = std::sqrt(-2 * std::log(rng->UniformPositive())) *
                   std::cos(2 * 3.14159265358979323846 * rng->Uniform());
  const double k = std::round(mean + z * std::sqrt(mean * q));
  return static_cast<int64_t>(std::clamp(k, 0.0, static_cast<double>(n)));
}

}  // namespace jobset
