#include "validation/sim/summary.h"

#include <algorithm>
#include <cmath>

namespace jobset {

double Percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const double rank = std::ceil(p * static_cast<double>(sorted.size()));
  const size_t i = rank < 1 ? 0 : static_cast<size_t>(rank) - 1;
  return sorted[std::min(i, sorted.size() - 1)];
}

void FillFinishTimes(FinishTimes* t) {
  std::vector<double>& v = t->samples;
  std::sort(v.begin(), v.end());
  if (v.empty()) return;
  t->p50 = Percentile(v, 0.50);
  t->p90 = Percentile(v, 0.90);
  t->p99 = Percentile(v, 0.99);
  t->min = v.front();
  t->max = v.back();
  t->histogram.assign(kHistogramBins, 0);
  t->bin_width = (t->max - t->min) / kHistogramBins;
  for (double x : v) {
    int bin = 0;
    if (t->bin_width > 0) {
      bin = std::min(kHistogramBins - 1, static_cast<int>((x - t->min) / t->bin_width));
    }
    t->histogram[bin] += 1;
  }
}

}  // namespace jobset
