#include "validation/sim/driver.h"

#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
#include <vector>

namespace jobset {
namespace {

// A toy model: each run draws a count and a duration; a chunk keeps their sums and the
// durations in run order.
struct ToyChunk {
  int64_t count = 0;
  double sum = 0;
  std::vector<double> samples;
};

struct ToyResult {
  int64_t runs_done = 0, count = 0;
  double sum = 0;
  std::vector<double> samples;
  bool cancelled = false;
};

ToyResult RunToy(int64_t runs, uint64_t seed, int threads,
                 const std::atomic<bool>* cancel = nullptr, SimProgress progress = nullptr) {
  SimOptions o;
  o.runs = runs;
  o.seed = seed;
  o.threads = threads;
  o.cancel = cancel;
  o.progress = std::move(progress);
  SimChunks<ToyChunk> chunks = RunSimulation<ToyChunk>(o, [] {
    return [](Rng& rng, ToyChunk* c) {
      c->count += rng.Below(1000);
      const double x = rng.Exponential(2.5);
      c->sum += x;
      c->samples.push_back(x);
      return RunStatus::kDone;
    };
  });
  ToyResult r;
  r.runs_done = chunks.runs_done;
  r.cancelled = chunks.cancelled;
  for (const ToyChunk& c : chunks.chunks) {
    r.count += c.count;
    r.sum += c.sum;
    r.samples.insert(r.samples.end(), c.samples.begin(), c.samples.end());
  }
  return r;
}

}  // namespace

TEST_CASE("sim driver: same seed, same result on 1, 2 and 4 threads") {
  // 10,000 runs: 40 chunks, the last one partial.
  const ToyResult one = RunToy(10000, 9, 1);
  CHECK(one.runs_done == 10000);
  CHECK_FALSE(one.cancelled);
  REQUIRE(one.samples.size() == 10000);
  for (int threads : {2, 4}) {
    CAPTURE(threads);
    const ToyResult many = RunToy(10000, 9, threads);
    CHECK(many.runs_done == one.runs_done);
    CHECK(many.count == one.count);
    CHECK(many.sum == one.sum);  // Bit for bit: chunks are summed in run order.
    CHECK(many.samples == one.samples);
  }
  // Run i draws from Rng(seed, i), whatever came before.
  Rng run_17(9, 17);
  run_17.Below(1000);
  CHECK(one.samples[17] == run_17.Exponential(2.5));
  // Another seed, other numbers.
  CHECK(RunToy(10000, 10, 2).samples != one.samples);
}

TEST_CASE("sim driver: threads and chunks") {
  CHECK(SimThreads(8, 300) == 2);  // 300 runs are 2 chunks.
  CHECK(SimThreads(3, 1'000'000) == 3);
  CHECK(SimThreads(4, 0) == 1);
  CHECK(SimThreads(0, 1'000'000) >= 1);  // The hardware's.
  const ToyResult none = RunToy(0, 1, 4);
  CHECK(none.runs_done == 0);
  CHECK_FALSE(none.cancelled);
  // Each thread builds its runner once and reuses it for every chunk it takes.
  std::atomic<int> runners{0};
  SimOptions o;
  o.runs = 5000;
  o.threads = 2;
  RunSimulation<ToyChunk>(o, [&] {
    ++runners;
    return [](Rng&, ToyChunk*) { return RunStatus::kDone; };
  });
  CHECK(runners == 2);
}

TEST_CASE("sim driver: cancellation keeps what finished; progress ends with it") {
  std::atomic<bool> cancel{true};
  ToyResult r = RunToy(100000, 1, 2, &cancel);
  CHECK(r.cancelled);
  CHECK(r.runs_done == 0);

  // Cancelled from the progress callback: a partial result, reported last.
  cancel = false;
  int64_t last = -1;
  bool monotonic = true;
  SimOptions o;
  o.runs = 50'000'000;
  o.threads = 2;
  o.cancel = &cancel;
  o.progress = [&](int64_t done, int64_t total) {
    CHECK(total == 50'000'000);
    monotonic = monotonic && done >= last;
    last = done;
    cancel = true;
  };
  SimChunks<ToyChunk> partial = RunSimulation<ToyChunk>(o, [] {
    return [](Rng& rng, ToyChunk* c) {
      c->sum += rng.Uniform();
      c->count += 1;
      return RunStatus::kDone;
    };
  });
  CHECK(partial.cancelled);
  CHECK(partial.runs_done > 0);
  CHECK(partial.runs_done < o.runs);
  CHECK(monotonic);
  CHECK(last == partial.runs_done);
  int64_t counted = 0;
  for (const ToyChunk& c : partial.chunks) counted += c.count;
  CHECK(counted == partial.runs_done);

  // A run the model stops mid-way (it saw the flag) is not counted.
  cancel = false;
  o.runs = 1000;
  o.progress = nullptr;
  std::atomic<int64_t> started{0};
  SimChunks<ToyChunk> stopped = RunSimulation<ToyChunk>(o, [&] {
    return [&](Rng&, ToyChunk* c) {
      if (++started > 300) {
        cancel = true;
        return RunStatus::kCancelled;
      }
      c->count += 1;
      return RunStatus::kDone;
    };
  });
  CHECK(stopped.cancelled);
  CHECK(stopped.runs_done == 300);
}

}  // namespace jobset
