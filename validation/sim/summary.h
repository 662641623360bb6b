// Summaries of a Monte Carlo simulation's samples: nearest-rank percentiles and the time to
// finish of the completed runs (percentiles, mean, range and histogram), the same for every kind.
#pragma once

#include <cstdint>
#include <vector>

namespace jobset {

/// Nearest rank: the smallest sample with at least a share `p` (in [0, 1]) of the samples at or
/// below it; 0 for no sample. `sorted` is ascending.
double Percentile(const std::vector<double>& sorted, double p);

/// The time to finish of the completed runs, in seconds (wall time: productive plus downtime).
struct FinishTimes {
  double p50 = 0, p90 = 0, p99 = 0;  ///< Nearest-rank percentiles; 0 when nothing completed.
  double mean = 0, min = 0, max = 0;
  std::vector<double> samples;  ///< One per completed run, sorted ascending.
  /// kHistogramBins equal bins from min to max (the last one closed); all in bin 0 when
  /// min == max; empty when nothing completed.
  std::vector<int64_t> histogram;
  double bin_width = 0;  ///< (max - min) / bins.
};

/// Bins of FinishTimes::histogram.
inline constexpr int kHistogramBins = 40;

/// Sorts t->samples and fills the percentiles, min, max and histogram from them (the mean is
/// the caller's: a sum kept in run order does not depend on the sort).
void FillFinishTimes(FinishTimes* t);

}  // namespace jobset
