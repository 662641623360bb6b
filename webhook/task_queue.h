// A task queue for cpp-httplib that gives each connection its own thread.
#pragma once

// cpp-httplib's compiled Debian build (0.11.4) exposes only the declarations; its own defaults
// (pool size, listen backlog) are baked into libcpp-httplib.so, see README.md.
#include <httplib.h>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <list>
#include <mutex>
#include <thread>

namespace jobset::webhook {

/// cpp-httplib runs one connection per task for the connection's whole life (keep-alive
/// included), so its fixed pool of max(8, cores - 1) threads lets a handful of idle
/// connections (the API server keeps its pool of them) starve every other client. This queue
/// starts a thread whenever no idle one is waiting, up to `max_threads`; above that, tasks
/// wait in order. Threads idle for `idle_timeout` end. shutdown() runs what is queued, then
/// joins every thread.
class ConnectionTaskQueue : public httplib::TaskQueue {
 public:
  /// At most `max_threads` (>= 1) threads; idle ones end after `idle_timeout`.
  ConnectionTaskQueue(size_t max_threads, std::chrono::milliseconds idle_timeout);
  /// Shuts down (runs what is queued, joins every thread).
  ~ConnectionTaskQueue() override;

  ConnectionTaskQueue(const ConnectionTaskQueue&) = delete;
  ConnectionTaskQueue& operator=(const ConnectionTaskQueue&) = delete;

  /// Runs `fn` on an idle thread, on a new one, or (at the cap) when a thread frees up.
  void enqueue(std::function<void()> fn) override;
  /// Lets queued and running tasks finish, then joins all threads. Idempotent.
  void shutdown() override;

  /// Threads alive now (for tests).
  size_t threads() const;

 private:
  using ThreadList = std::list<std::thread>;
  void Work(ThreadList::iterator self);
  void JoinFinished();

  const size_t max_threads_;
  const std::chrono::milliseconds idle_timeout_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> tasks_;
  ThreadList live_;      // Threads that may still take tasks.
  ThreadList finished_;  // Threads that ended on their own, to be joined.
  size_t idle_ = 0;
  bool shutdown_ = false;
};

}  // namespace jobset::webhook
