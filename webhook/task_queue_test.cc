// Tests of the thread-per-connection task queue.
#include "webhook/task_queue.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <future>

namespace jobset::webhook {

using namespace std::chrono_literals;

TEST_CASE("task queue: long tasks do not starve others (more than cpp-httplib's 8 threads)") {
  ConnectionTaskQueue q(64, 5000ms);
  std::promise<void> release;
  std::shared_future<void> gate = release.get_future().share();
  std::atomic<int> started{0};
  for (int i = 0; i < 40; ++i) {
    q.enqueue([&] {
      ++started;
      gate.wait();
    });
  }
  // 40 blocked "keep-alive connections" and still a new one runs at once.
  std::promise<void> ran;
  q.enqueue([&] { ran.set_value(); });
  CHECK(ran.get_future().wait_for(5s) == std::future_status::ready);
  for (int i = 0; i < 200 && started < 40; ++i) std::this_thread::sleep_for(10ms);
  CHECK(started == 40);
  CHECK(q.threads() >= 41);
  release.set_value();
  q.shutdown();
  CHECK(q.threads() == 0);
}

TEST_CASE("task queue: at the cap, tasks wait in order; shutdown runs them all") {
  ConnectionTaskQueue q(2, 5000ms);
  std::atomic<int> done{0};
  for (int i = 0; i < 50; ++i) {
    q.enqueue([&] {
      std::this_thread::sleep_for(1ms);
      ++done;
    });
  }
  CHECK(q.threads() <= 2);
  q.shutdown();
  CHECK(done == 50);
  q.shutdown();  // Idempotent.
}

TEST_CASE("task queue: idle threads end and are joined") {
  ConnectionTaskQueue q(8, 50ms);
  std::atomic<int> done{0};
  for (int i = 0; i < 4; ++i) q.enqueue([&] { ++done; });
  for (int i = 0; i < 200 && q.threads() > 0; ++i) std::this_thread::sleep_for(10ms);
  CHECK(q.threads() == 0);
  q.enqueue([&] { ++done; });  // Joins the finished ones, starts a new one.
  q.shutdown();
  CHECK(done == 5);
}

}  // namespace jobset::webhook
