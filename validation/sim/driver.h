// The one Monte Carlo driver of every kind (JobSet, Volcano Job, Framework): it runs a model's
// simulated runs on threads, with cancellation and progress, and hands back the model's sums in
// run order. A kind supplies only its model: what one run does given its generator (random.h).
//
// Guarantee: same seed, same result, any thread count. Run i draws from Rng(seed, i) only; runs
// are grouped in chunks of kChunkRuns (whatever the thread count), a chunk's sums are
// accumulated in run order by one thread, and the caller merges chunks in chunk order, so even
// floating-point sums do not depend on how chunks were spread over threads.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "validation/sim/random.h"

namespace jobset {

/// Runs per chunk: the unit of work of a thread and of merging.
inline constexpr int64_t kChunkRuns = 256;

/// Progress callback: runs done so far and runs requested.
using SimProgress = std::function<void(int64_t done, int64_t total)>;

/// How to run a simulation, whatever the model.
struct SimOptions {
  int64_t runs = 0;   ///< Runs requested (>= 0).
  uint64_t seed = 1;  ///< Same seed, same result.
  int threads = 0;    ///< <= 0: the hardware's.
  /// When it turns true, the runs in flight are dropped and the driver returns what finished.
  const std::atomic<bool>* cancel = nullptr;
  /// Called from the calling thread at most about 20 times a second, and once at the end.
  SimProgress progress;
};

/// Whether `cancel` asks to stop (a null flag never does). Models that may run long call it now
/// and then inside a run.
inline bool CancelRequested(const std::atomic<bool>* cancel) {
  return cancel != nullptr && cancel->load(std::memory_order_relaxed);
}

/// How a run handed to a model ended, as the model reports it.
enum class RunStatus {
  kDone,       ///< The run is over and its sums are in the chunk.
  kCancelled,  ///< Stopped by the cancel flag mid-run; the model added nothing to the chunk.
};

/// The sums of a simulation: one Chunk per kChunkRuns runs, in run order (the last may hold
/// fewer runs, or none when cancelled).
template <typename Chunk>
struct SimChunks {
  std::vector<Chunk> chunks;
  int64_t runs_done = 0;   ///< Runs that reported kDone.
  bool cancelled = false;  ///< Stopped by the cancel flag before every run was done.
};

/// The threads the driver uses for `runs` runs: `threads` (<= 0: the hardware's), at least 1,
/// at most one per chunk.
int SimThreads(int threads, int64_t runs);

/// The model-independent part of RunSimulation: calls `make_worker(done)` once on each thread,
/// then the worker it returns with chunk indices in increasing order until every chunk is
/// taken or a worker returns false (cancelled). Each thread's `done` counter holds the runs it
/// finished (it stores into it, relaxed, after every run). Reports progress from the calling
/// thread. Gives the runs done and whether a worker stopped.
struct DriveResult {
  int64_t runs_done = 0;  ///< Sum of the threads' counters.
  bool stopped = false;   ///< A worker returned false.
};
DriveResult DriveChunks(
    const SimOptions& options, int64_t n_chunks,
    const std::function<std::function<bool(int64_t chunk)>(std::atomic<int64_t>* done)>&
        make_worker);

/// Runs options.runs runs. `make_runner()` is called once per thread and gives that thread's
/// runner, a callable `RunStatus(Rng& rng, Chunk* chunk)` that simulates one run drawing from
/// `rng` only and adds it to `chunk` (its working memory lives in the runner, reused from run
/// to run). Chunk must be default-constructible; the caller merges the chunks in order.
template <typename Chunk, typename MakeRunner>
SimChunks<Chunk> RunSimulation(const SimOptions& options, MakeRunner make_runner) {
  SimChunks<Chunk> out;
  const int64_t total = std::max<int64_t>(0, options.runs);
  const int64_t n_chunks = (total + kChunkRuns - 1) / kChunkRuns;
  out.chunks.resize(static_cast<size_t>(n_chunks));
  const DriveResult d = DriveChunks(options, n_chunks, [&](std::atomic<int64_t>* done) {
    return [&options, &out, total, done, runner = make_runner()](int64_t c) mutable {
      Chunk& chunk = out.chunks[static_cast<size_t>(c)];
      const int64_t last = std::min(total, (c + 1) * kChunkRuns);
      for (int64_t run = c * kChunkRuns; run < last; ++run) {
        if (CancelRequested(options.cancel)) return false;
        Rng rng(options.seed, static_cast<uint64_t>(run));
        if (runner(rng, &chunk) == RunStatus::kCancelled) return false;
        done->store(done->load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
      }
      return true;
    };
  });
  out.runs_done = d.runs_done;
  out.cancelled = d.stopped && d.runs_done < total;
  return out;
}

}  // namespace jobset
