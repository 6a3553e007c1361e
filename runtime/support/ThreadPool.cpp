#include "runtime/support/ThreadPool.hpp"

#include <algorithm>
#include <thread>

namespace pvi::support {

ThreadPool::ThreadPool(std::size_t threads) {
  const std::size_t n = std::max<std::size_t>(1, threads);
  workers_.reserve(n);
  for (std::size_t i = 0; i < n; ++i) workers_.emplace_back([this] { work(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  ready_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadPool::enqueue(std::function<void()> job) {
  {
    std::lock_guard lock(mutex_);
    jobs_.push_back(std::move(job));
  }
  ready_.notify_one();
}

void ThreadPool::work() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(mutex_);
      ready_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;  // stopping and drained
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    job();
  }
}

void forEachIndex(ThreadPool* pool, std::size_t n, const std::function<void(std::size_t)>& fn) {
  if (!pool || n <= 1) {
    for (std::size_t i = 0; i < n; ++i) fn(i);
    return;
  }
  // Contiguous runs of indices, a few per thread: one task per index cost more than the work on
  // small items (SFVI's 10,000 silos of 10 rows each, every iteration). Within a run every call is
  // made; the exception of the lowest index is the one rethrown.
  const std::size_t runs = std::min(n, kRunsPerThread * pool->size());
  std::vector<std::exception_ptr> failed(runs);
  std::vector<std::future<void>> done;
  done.reserve(runs);
  for (std::size_t r = 0; r < runs; ++r)
    done.push_back(pool->submit([&, r] {
      for (std::size_t i = r * n / runs; i < (r + 1) * n / runs; ++i) try {
          fn(i);
        } catch (...) {
          if (!failed[r]) failed[r] = std::current_exception();
        }
    }));
  for (auto& f : done) f.get();
  for (std::size_t r = 0; r < runs; ++r)
    if (failed[r]) std::rethrow_exception(failed[r]);  // runs are in index order
}

std::function<void(std::size_t, const std::function<void(std::size_t)>&)> forEachIndexOn(ThreadPool* pool) {
  if (!pool) return {};
  return [pool](std::size_t n, const std::function<void(std::size_t)>& fn) { forEachIndex(pool, n, fn); };
}

std::size_t threadsFor(std::size_t requested) {
  return requested != 0 ? requested : std::max<std::size_t>(1, std::thread::hardware_concurrency());
}

}  // namespace pvi::support
