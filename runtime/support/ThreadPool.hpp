#pragma once
// A fixed pool of std::threads running submitted tasks in FIFO order (synchronous PVI runs the
// clients' local optimisations on it). submit returns a std::future for the task's result;
// an exception thrown by a task is stored in its future. The destructor finishes the queued
// tasks and joins the threads.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace pvi::support {

class ThreadPool {
 public:
  explicit ThreadPool(std::size_t threads);  // at least 1
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  std::size_t size() const { return workers_.size(); }

  template <class F>
  std::future<std::invoke_result_t<F>> submit(F task) {
    using R = std::invoke_result_t<F>;
    auto packaged = std::make_shared<std::packaged_task<R()>>(std::move(task));
    std::future<R> result = packaged->get_future();
    enqueue([packaged] { (*packaged)(); });
    return result;
  }

 private:
  void enqueue(std::function<void()> job);
  void work();

  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

// fn(0), ..., fn(n - 1): on `pool` when there is one (as at most kRunsPerThread contiguous runs
// of indices per thread), else in order on this thread. Every call finishes before the exception
// of the lowest index is rethrown, since the calls may use the caller's frame.
inline constexpr std::size_t kRunsPerThread = 4;
void forEachIndex(ThreadPool* pool, std::size_t n, const std::function<void(std::size_t)>& fn);

// forEachIndex on `pool` as a callable (for options that take one); empty when pool is null.
std::function<void(std::size_t, const std::function<void(std::size_t)>&)> forEachIndexOn(ThreadPool* pool);

// The threads a user's count asks for: `requested`, or every core when it is 0 (at least 1).
std::size_t threadsFor(std::size_t requested);

}  // namespace pvi::support
