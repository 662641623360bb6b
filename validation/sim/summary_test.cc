#include "validation/sim/summary.h"

#include <doctest/doctest.h>

namespace jobset {

TEST_CASE("sim summary: nearest-rank percentiles, by hand") {
  // 10 samples: p50 is the 5th (ceil(5) = 5), p90 the 9th, p99 the 10th (ceil(9.9) = 10).
  const std::vector<double> ten = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  CHECK(Percentile(ten, 0.50) == 5);
  CHECK(Percentile(ten, 0.90) == 9);
  CHECK(Percentile(ten, 0.99) == 10);
  CHECK(Percentile(ten, 0.0) == 1);
  CHECK(Percentile(ten, 1.0) == 10);
  // 3 samples: p50 = ceil(1.5) = 2nd, p90 = ceil(2.7) = 3rd.
  CHECK(Percentile({10, 20, 30}, 0.50) == 20);
  CHECK(Percentile({10, 20, 30}, 0.90) == 30);
  CHECK(Percentile({}, 0.5) == 0);
}

TEST_CASE("sim summary: FillFinishTimes sorts, ranks and bins") {
  FinishTimes t;
  t.samples = {40, 0, 20, 10, 30};
  FillFinishTimes(&t);
  CHECK(t.samples == std::vector<double>{0, 10, 20, 30, 40});
  CHECK(t.p50 == 20);  // ceil(2.5) = 3rd
  CHECK(t.p90 == 40);  // ceil(4.5) = 5th
  CHECK(t.p99 == 40);
  CHECK(t.min == 0);
  CHECK(t.max == 40);
  CHECK(t.bin_width == 1);
  REQUIRE(t.histogram.size() == kHistogramBins);
  CHECK(t.histogram[0] == 1);
  CHECK(t.histogram[10] == 1);
  CHECK(t.histogram[20] == 1);
  CHECK(t.histogram[30] == 1);
  CHECK(t.histogram[39] == 1);  // The maximum falls in the last (closed) bin.

  FinishTimes same;
  same.samples = {5, 5};
  FillFinishTimes(&same);
  CHECK(same.bin_width == 0);
  CHECK(same.histogram[0] == 2);

  FinishTimes none;
  FillFinishTimes(&none);
  CHECK(none.histogram.empty());
  CHECK(none.p50 == 0);
}

}  // namespace jobset
