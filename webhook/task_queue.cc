#include "webhook/task_queue.h"

#include <algorithm>
#include <utility>

namespace jobset::webhook {

ConnectionTaskQueue::ConnectionTaskQueue(size_t max_threads, std::chrono::milliseconds idle_timeout)
    : max_threads_(std::max<size_t>(1, max_threads)), idle_timeout_(idle_timeout) {}

ConnectionTaskQueue::~ConnectionTaskQueue() { shutdown(); }

void ConnectionTaskQueue::enqueue(std::function<void()> fn) {
  JoinFinished();
  std::lock_guard<std::mutex> lock(mu_);
  tasks_.push_back(std::move(fn));
  // Every waiting task needs a waiting thread; start one when there are too few.
  if (tasks_.size() > idle_ && live_.size() < max_threads_) {
    auto it = live_.emplace(live_.end());
    // The new thread takes the lock first thing, so `*it` is set before it looks at it.
    *it = std::thread([this, it] { Work(it); });
  }
  cv_.notify_one();
}

void ConnectionTaskQueue::Work(ThreadList::iterator self) {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    ++idle_;
    bool woke = cv_.wait_for(lock, idle_timeout_, [&] { return !tasks_.empty() || shutdown_; });
    --idle_;
    if (!tasks_.empty()) {
      std::function<void()> task = std::move(tasks_.front());
      tasks_.pop_front();
      lock.unlock();
      task();
      lock.lock();
      continue;
    }
    if (shutdown_) return;  // shutdown() joins us from `live_`.
    if (!woke) {
      // Idle for too long: leave, and let the next enqueue (or shutdown) join us.
      finished_.splice(finished_.end(), live_, self);
      return;
    }
  }
}

void ConnectionTaskQueue::JoinFinished() {
  ThreadList done;
  {
    std::lock_guard<std::mutex> lock(mu_);
    done.swap(finished_);
  }
  for (std::thread& t : done) t.join();
}

void ConnectionTaskQueue::shutdown() {
  ThreadList live;
  {
    std::lock_guard<std::mutex> lock(mu_);
    shutdown_ = true;
    cv_.notify_all();
  }
  // Threads leave only once the queue is empty; join them all (the list can still change
  // while idle threads time out, so take it under the lock, then join outside).
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      live.splice(live.end(), live_);
    }
    if (live.empty()) break;
    for (std::thread& t : live) t.join();
    live.clear();
  }
  JoinFinished();
}

size_t ConnectionTaskQueue::threads() const {
  std::lock_guard<std::mutex> lock(mu_);
  return live_.size();
}

}  // namespace jobset::webhook
