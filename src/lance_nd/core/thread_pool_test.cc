#include "lance_nd/core/internal/thread_pool.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

namespace lance_nd {
namespace {

TEST(ThreadPool, HasAtLeastTwoWorkers) { EXPECT_GE(ThreadPool::Shared().size(), 2u); }

TEST(ParallelRanges, CoversEveryItemExactlyOnce) {
  for (std::uint64_t n : {0u, 1u, 5u, 64u, 65u, 1000u, 4097u}) {
    for (std::uint64_t grain : {0u, 1u, 7u, 64u, 5000u}) {
      for (int threads : {1, 2, 3, 8}) {
        std::vector<std::atomic<int>> hits(n);
        std::atomic<std::uint64_t> calls{0};
        ParallelRanges(n, grain, threads, [&](std::uint64_t b, std::uint64_t e) {
          ASSERT_LT(b, e);
          ASSERT_LE(e - b, std::max<std::uint64_t>(grain, 1));
          for (std::uint64_t i = b; i < e; ++i) hits[i].fetch_add(1);
          calls.fetch_add(1);
        });
        for (std::uint64_t i = 0; i < n; ++i) {
          ASSERT_EQ(hits[i].load(), 1) << "n " << n << " grain " << grain << " item " << i;
        }
        if (n > 0) {
          EXPECT_GE(calls.load(), 1u);
        }
      }
    }
  }
}

TEST(ParallelRanges, UsesAWorkerBesideTheCaller) {
  // Each range waits until two distinct threads have been seen (or a generous deadline): with
  // a helper it returns at once, without one the test would take the whole deadline.
  std::atomic<int> distinct{0};
  const auto caller = std::this_thread::get_id();
  std::atomic<bool> other_seen{false};
  const auto start = std::chrono::steady_clock::now();
  ParallelRanges(2, 1, 2, [&](std::uint64_t, std::uint64_t) {
    if (std::this_thread::get_id() != caller) other_seen = true;
    distinct.fetch_add(1);
    while (!other_seen && std::chrono::steady_clock::now() - start < std::chrono::seconds(10)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
  EXPECT_TRUE(other_seen.load());
  EXPECT_EQ(distinct.load(), 2);
}

TEST(PoolTask, ReturnsItsValue) {
  PoolTask<int> task([] { return 41 + 1; });
  EXPECT_TRUE(task.valid());
  EXPECT_EQ(task.Get(), 42);
  EXPECT_FALSE(task.valid());
}

TEST(PoolTask, NestedTasksAndLoopsNeverDeadlock) {
  // More tasks than workers, each waiting for tasks of its own that run loops: waiting runs a
  // task that has not started, and a loop never waits for a worker that has not joined it.
  constexpr int kOuter = 16, kInner = 8;
  std::vector<PoolTask<std::uint64_t>> outer;
  for (int o = 0; o < kOuter; ++o) {
    outer.emplace_back([o] {
      std::vector<PoolTask<std::uint64_t>> inner;
      for (int i = 0; i < kInner; ++i) {
        inner.emplace_back([o, i] {
          std::atomic<std::uint64_t> sum{0};
          ParallelRanges(1000, 10, 2, [&](std::uint64_t b, std::uint64_t e) {
            for (std::uint64_t k = b; k < e; ++k) sum.fetch_add(k);
          });
          return sum.load() + static_cast<std::uint64_t>(o * kInner + i);
        });
      }
      std::uint64_t total = 0;
      for (auto& t : inner) total += t.Get();
      return total;
    });
  }
  std::uint64_t total = 0;
  for (auto& t : outer) total += t.Get();
  const std::uint64_t n = kOuter * kInner;
  EXPECT_EQ(total, n * 499500u + n * (n - 1) / 2);
}

TEST(PoolTask, DestructorWaitsForARunningTask) {
  std::atomic<bool> started{false}, finished{false};
  {
    PoolTask<int> task([&] {
      started = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      finished = true;
      return 0;
    });
    while (!started) std::this_thread::yield();
  }
  EXPECT_TRUE(finished.load());
}

TEST(PoolTask, DestructorSkipsATaskNoWorkerStarted) {
  // Every worker is held by a blocker, so the next task stays queued until it is destroyed.
  const std::size_t workers = ThreadPool::Shared().size();
  std::atomic<std::size_t> holding{0};
  std::atomic<bool> release{false};
  std::vector<PoolTask<int>> blockers;
  for (std::size_t i = 0; i < workers; ++i) {
    blockers.emplace_back([&] {
      holding.fetch_add(1);
      while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      return 0;
    });
  }
  while (holding.load() < workers) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::atomic<bool> ran{false};
  {
    PoolTask<int> queued([&] {
      ran = true;
      return 0;
    });
  }
  release = true;
  for (auto& b : blockers) EXPECT_EQ(b.Get(), 0);
  // the workers are free again and have dequeued the abandoned task by now
  PoolTask<int> after([] { return 7; });
  EXPECT_EQ(after.Get(), 7);
  EXPECT_FALSE(ran.load());
}

TEST(ThreadPool, WorksInAForkedChild) {
  // The parent's pool exists before the fork, and its workers have run and gone idle: a worker
  // still starting up can hold an allocator lock at the fork, which then stays locked in the
  // child for good (AddressSanitizer's allocator has no fork handlers).
  ThreadPool& pool = ThreadPool::Shared();
  for (int round = 0; round < 4; ++round) {
    std::atomic<int> ran{0};
    ParallelRanges(pool.size() + 1, 1, static_cast<int>(pool.size()) + 1,
                   [&](std::uint64_t, std::uint64_t) { ran.fetch_add(1); });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    PoolTask<int> task([] {
      std::atomic<int> sum{0};
      ParallelRanges(100, 1, 2,
                     [&](std::uint64_t b, std::uint64_t) { sum.fetch_add(static_cast<int>(b)); });
      return sum.load();
    });
    _exit(task.Get() == 4950 && ThreadPool::Shared().size() >= 2 ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace lance_nd
