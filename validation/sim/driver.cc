#include "validation/sim/driver.h"

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

namespace jobset {
namespace {

// A thread's count of runs done, alone on its cache line so that threads do not share one.
struct alignas(64) Counter {
  std::atomic<int64_t> done{0};
};

}  // namespace

int SimThreads(int threads, int64_t runs) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int64_t n_chunks = (std::max<int64_t>(0, runs) + kChunkRuns - 1) / kChunkRuns;
  return static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(threads, n_chunks)));
}

DriveResult DriveChunks(
    const SimOptions& options, int64_t n_chunks,
    const std::function<std::function<bool(int64_t chunk)>(std::atomic<int64_t>* done)>&
        make_worker) {
  const int threads = SimThreads(options.threads, options.runs);
  const int64_t total = std::max<int64_t>(0, options.runs);
  std::unique_ptr<Counter[]> counters(new Counter[threads]);
  std::atomic<int64_t> next_chunk{0};
  std::atomic<bool> stopped{false};
  std::mutex mu;
  std::condition_variable cv;
  int running = threads;
  const auto sum = [&] {
    int64_t done = 0;
    for (int t = 0; t < threads; ++t) done += counters[t].done.load(std::memory_order_relaxed);
    return done;
  };
  const auto work = [&](int t) {
    std::function<bool(int64_t)> worker = make_worker(&counters[t].done);
    for (;;) {
      const int64_t c = next_chunk.fetch_add(1, std::memory_order_relaxed);
      if (c >= n_chunks) break;
      if (!worker(c)) {
        stopped.store(true);
        break;
      }
    }
    {
      std::lock_guard<std::mutex> lock(mu);
      --running;
    }
    cv.notify_one();
  };

  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (int t = 0; t < threads; ++t) pool.emplace_back(work, t);
  {
    using Clock = std::chrono::steady_clock;
    constexpr auto kPeriod = std::chrono::milliseconds(50);
    auto last_report = Clock::now();
    std::unique_lock<std::mutex> lock(mu);
    while (running > 0) {
      cv.wait_for(lock, kPeriod, [&] { return running == 0; });
      if (running == 0 || !options.progress) continue;
      const auto now = Clock::now();
      if (now - last_report < kPeriod) continue;
      last_report = now;
      lock.unlock();
      options.progress(sum(), total);
      lock.lock();
    }
  }
  for (std::thread& t : pool) t.join();
  DriveResult result;
  result.runs_done = sum();
  result.stopped = stopped.load();
  if (options.progress) options.progress(result.runs_done, total);
  return result;
}

}  // namespace jobset
