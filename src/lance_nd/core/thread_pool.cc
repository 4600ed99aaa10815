#include "lance_nd/core/internal/thread_pool.h"

#include <pthread.h>

#include <deque>
#include <system_error>
#include <thread>
#include <vector>

namespace lance_nd {

struct ThreadPool::State {
  std::mutex mu;
  std::condition_variable wake;
  std::deque<std::function<void()>> queue;
  std::size_t workers = 0;  // started
};

namespace {

void WorkerLoop(const std::shared_ptr<ThreadPool::State>& s) {
  while (true) {
    std::function<void()> task;
    {
      std::unique_lock<std::mutex> lock(s->mu);
      s->wake.wait(lock, [&] { return !s->queue.empty(); });
      task = std::move(s->queue.front());
      s->queue.pop_front();
    }
    task();
  }
}

// The pool is never destroyed: workers wait for work until the process exits, so no static
// destructor can pull it away from a late user. After fork() the child has none of the
// parent's threads: it starts a pool of its own on first use.
std::atomic<ThreadPool*> g_pool{nullptr};
std::mutex g_pool_mu;
std::once_flag g_atfork_once;

}  // namespace

ThreadPool::ThreadPool(std::size_t size) : state_(std::make_shared<State>()) {
  for (std::size_t i = 0; i < size; ++i) {
    try {
      std::thread([s = state_] { WorkerLoop(s); }).detach();
      ++state_->workers;
    } catch (const std::system_error&) {
      break;  // fewer workers; Post() fails when there are none
    }
  }
  size_ = state_->workers;
}

ThreadPool& ThreadPool::Shared() {
  ThreadPool* pool = g_pool.load(std::memory_order_acquire);
  if (pool != nullptr) return *pool;
  std::call_once(g_atfork_once, [] {
    pthread_atfork(nullptr, nullptr, [] { g_pool.store(nullptr, std::memory_order_release); });
  });
  std::lock_guard<std::mutex> lock(g_pool_mu);
  pool = g_pool.load(std::memory_order_acquire);
  if (pool == nullptr) {
    const std::size_t cores = std::thread::hardware_concurrency();
    pool = new ThreadPool(std::max<std::size_t>(cores, 2));  // intentionally never freed
    g_pool.store(pool, std::memory_order_release);
  }
  return *pool;
}

bool ThreadPool::Post(std::function<void()> task) {
  if (size_ == 0) return false;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    state_->queue.push_back(std::move(task));
  }
  state_->wake.notify_one();
  return true;
}

}  // namespace lance_nd
