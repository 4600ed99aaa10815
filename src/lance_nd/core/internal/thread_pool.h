// A process-wide pool of worker threads, and the parallel loops built on it.
//
// Encoders and decoders split their work into ranges that the calling thread and pool workers
// take from a shared counter. Workers are started once and kept, so per-thread caches (zstd
// contexts, scratch buffers) survive from one call to the next, and no thread is created per
// call. A loop never waits for a worker that has not started on it, so loops may nest inside
// pool tasks without deadlock: when every worker is busy, the caller does all the work.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

namespace lance_nd {

/// \brief The shared worker threads (as many as the machine has cores, at least 2).
class ThreadPool {
 public:
  /// \brief The process's pool, started on first use (again in a child after fork()).
  static ThreadPool& Shared();

  /// \brief Runs `task` on a worker. Returns false if it could not be queued (no worker could
  /// be started); the caller then runs it itself.
  bool Post(std::function<void()> task);

  /// \brief Number of worker threads.
  std::size_t size() const { return size_; }

  struct State;  // queue and workers; defined in thread_pool.cc

 private:
  explicit ThreadPool(std::size_t size);
  std::shared_ptr<State> state_;
  std::size_t size_ = 0;
};

namespace detail {

// One parallel loop: ranges are taken from `next`; `active` counts workers inside it, so that
// the caller waits for started workers only (`closed` and `active` are guarded by `mu`).
struct LoopState {
  std::atomic<std::uint64_t> next{0};
  std::mutex mu;
  std::condition_variable done;
  bool closed = false;
  int active = 0;
};

}  // namespace detail

/// \brief Calls fn(begin, end) on disjoint ranges covering [0, n), each at most `grain` items,
/// from the calling thread and up to `threads - 1` pool workers. Ranges are taken in order from
/// a shared counter, so the split adapts to a busy machine; `fn` must only write state owned
/// by its items (results are then deterministic). Returns when every range is done.
template <typename Fn>
void ParallelRanges(std::uint64_t n, std::uint64_t grain, int threads, Fn&& fn) {
  if (grain == 0) grain = 1;
  if (n <= grain || threads <= 1) {
    for (std::uint64_t b = 0; b < n; b += std::min(grain, n - b)) fn(b, b + std::min(grain, n - b));
    return;
  }
  auto state = std::make_shared<detail::LoopState>();
  auto work = [&fn, n, grain](detail::LoopState& s) {
    while (true) {
      const std::uint64_t begin = s.next.fetch_add(grain, std::memory_order_relaxed);
      if (begin >= n) return;
      fn(begin, std::min(n, begin + grain));
    }
  };
  const std::uint64_t ranges = (n + grain - 1) / grain;
  ThreadPool& pool = ThreadPool::Shared();
  const auto helpers = static_cast<std::size_t>(
      std::min<std::uint64_t>({ranges - 1, static_cast<std::uint64_t>(threads - 1), pool.size()}));
  for (std::size_t h = 0; h < helpers; ++h) {
    // `work` and `fn` live on the caller's stack: a helper touches them only while the loop is
    // open, and the caller waits for every helper that got in before it closed the loop.
    const bool posted = pool.Post([state, &work] {
      {
        std::lock_guard<std::mutex> lock(state->mu);
        if (state->closed) return;
        ++state->active;
      }
      work(*state);
      std::lock_guard<std::mutex> lock(state->mu);
      if (--state->active == 0) state->done.notify_all();
    });
    if (!posted) break;
  }
  work(*state);
  std::unique_lock<std::mutex> lock(state->mu);
  state->closed = true;
  state->done.wait(lock, [&] { return state->active == 0; });
}

/// \brief ParallelRanges with one item per range: fn(i) for i in [0, n).
template <typename Fn>
void ParallelEach(std::uint64_t n, int threads, Fn&& fn) {
  ParallelRanges(n, 1, threads, [&fn](std::uint64_t b, std::uint64_t e) {
    for (std::uint64_t i = b; i < e; ++i) fn(i);
  });
}

/// \brief A computation handed to the pool, whose value is collected later with Get(). Get()
/// runs it on the calling thread if no worker has started it yet, so waiting never deadlocks
/// (even on a pool worker) and a full queue never delays the caller more than doing the work.
/// Destroyed without Get(), a task that has not started never runs.
template <typename T>
class PoolTask {
 public:
  PoolTask() = default;
  explicit PoolTask(std::function<T()> fn) : s_(std::make_shared<S>()) {
    s_->fn = std::move(fn);
    std::shared_ptr<S> s = s_;
    ThreadPool::Shared().Post([s] { Run(*s); });  // not posted: Get() runs it
  }
  PoolTask(const PoolTask&) = delete;
  PoolTask& operator=(const PoolTask&) = delete;
  PoolTask(PoolTask&&) noexcept = default;
  PoolTask& operator=(PoolTask&&) noexcept = default;
  /// \brief A task never collected is skipped if no worker has started it, else waited for
  /// (nothing it uses may go away under it).
  ~PoolTask() {
    if (s_) Abandon(*s_);
  }

  bool valid() const { return s_ != nullptr; }

  /// \brief Runs the task on the calling thread if no worker has started it yet; returns at
  /// once otherwise. Lets a thread that is about to wait for one task do another instead.
  void RunHereIfNotStarted() {
    if (s_) Run(*s_);
  }

  /// \brief The task's value (once: the task is spent afterwards).
  T Get() {
    std::shared_ptr<S> s = std::move(s_);
    Wait(*s);
    return std::move(*s->value);
  }

 private:
  struct S {
    std::mutex mu;
    std::condition_variable cv;
    bool started = false, done = false;
    std::function<T()> fn;
    std::optional<T> value;
  };
  static void Run(S& s) {
    {
      std::lock_guard<std::mutex> lock(s.mu);
      if (s.started) return;
      s.started = true;
    }
    std::optional<T> v(s.fn());
    std::lock_guard<std::mutex> lock(s.mu);
    s.value = std::move(v);
    s.fn = nullptr;
    s.done = true;
    s.cv.notify_all();
  }
  static void Abandon(S& s) {
    std::unique_lock<std::mutex> lock(s.mu);
    if (!s.started) {
      s.started = s.done = true;
      s.fn = nullptr;
      return;
    }
    s.cv.wait(lock, [&] { return s.done; });
  }
  static void Wait(S& s) {
    Run(s);  // not started yet: run it here
    std::unique_lock<std::mutex> lock(s.mu);
    s.cv.wait(lock, [&] { return s.done; });
  }
  std::shared_ptr<S> s_;
};

}  // namespace lance_nd
