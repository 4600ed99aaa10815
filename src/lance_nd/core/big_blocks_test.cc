#include "lance_nd/core/internal/big_blocks.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

namespace lance_nd::internal {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

// Sets the recycling capacity for one test and restores it after.
class Recycling {
 public:
  explicit Recycling(std::size_t bytes) : before_(BigBlockRecycling()) {
    SetBigBlockRecycling(0);  // start with nothing kept
    SetBigBlockRecycling(bytes);
  }
  ~Recycling() { SetBigBlockRecycling(before_); }
  Recycling(const Recycling&) = delete;
  Recycling& operator=(const Recycling&) = delete;

 private:
  std::size_t before_;
};

TEST(BigBlocksTest, AFreedBlockServesTheNextRequestOfItsSize) {
  Recycling recycling(64 * kMiB);
  std::size_t capacity = 0;
  void* a = AllocateBigBlock(5 * kMiB + 3, &capacity);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a) % (2 * kMiB), 0u);
  EXPECT_EQ(capacity, 6 * kMiB);  // whole huge pages
  std::memset(a, 0xAB, capacity);
  FreeBigBlock(a);
  EXPECT_EQ(RecycledBigBlockBytes(), 6 * kMiB);
  void* b = AllocateBigBlock(5 * kMiB, &capacity);
  EXPECT_EQ(b, a);
  EXPECT_EQ(capacity, 6 * kMiB);
  EXPECT_EQ(RecycledBigBlockBytes(), 0u);
  FreeBigBlock(b);
}

TEST(BigBlocksTest, ABlockIsNotHandedOutForARequestMuchSmallerThanIt) {
  Recycling recycling(64 * kMiB);
  void* big = AllocateBigBlock(40 * kMiB);
  FreeBigBlock(big);
  std::size_t capacity = 0;
  void* small = AllocateBigBlock(8 * kMiB, &capacity);  // 40 MiB would waste 4/5 of it
  EXPECT_NE(small, big);
  EXPECT_EQ(capacity, 8 * kMiB);
  void* fits = AllocateBigBlock(34 * kMiB, &capacity);  // within a quarter: reused
  EXPECT_EQ(fits, big);
  EXPECT_EQ(capacity, 40 * kMiB);
  FreeBigBlock(small);
  FreeBigBlock(fits);
}

TEST(BigBlocksTest, KeptBlocksStayWithinTheCapacityOldestFreedFirst) {
  Recycling recycling(20 * kMiB);
  std::vector<void*> blocks;
  blocks.reserve(4);
  for (int i = 0; i < 4; ++i) blocks.push_back(AllocateBigBlock(8 * kMiB));
  for (void* b : blocks) FreeBigBlock(b);
  EXPECT_EQ(RecycledBigBlockBytes(), 16 * kMiB);  // the first two were freed for the last two
  void* again = AllocateBigBlock(8 * kMiB);
  EXPECT_TRUE(again == blocks[2] || again == blocks[3]);
  FreeBigBlock(again);
  void* too_big = AllocateBigBlock(30 * kMiB);
  FreeBigBlock(too_big);  // more than the capacity: freed at once
  EXPECT_LE(RecycledBigBlockBytes(), 20 * kMiB);
  SetBigBlockRecycling(0);
  EXPECT_EQ(RecycledBigBlockBytes(), 0u);
}

TEST(BigBlocksTest, BlocksBelowAHugePageAreWhole64KiB) {
  Recycling recycling(8 * kMiB);
  std::size_t capacity = 0;
  void* a = AllocateBigBlock(kBigBlockMin + 1, &capacity);
  constexpr std::size_t k64KiB = std::size_t{64} << 10;
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a) % k64KiB, 0u);
  EXPECT_EQ(capacity, kBigBlockMin + k64KiB);
  FreeBigBlock(a);
  void* b = AllocateBigBlock(kBigBlockMin + 100, &capacity);
  EXPECT_EQ(b, a);
  FreeBigBlock(b);
}

// Threads allocate and free blocks of generated sizes; each fills its block with its own
// pattern and checks it before freeing, so two live blocks never share memory.
TEST(BigBlocksTest, ConcurrentBlocksNeverOverlap) {
  Recycling recycling(48 * kMiB);
  auto worker = [](std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<std::pair<std::uint64_t*, std::size_t>> live;
    bool ok = true;
    for (int step = 0; step < 200; ++step) {
      if (live.empty() || (live.size() < 4 && rng() % 2 == 0)) {
        const std::size_t bytes = kBigBlockMin + rng() % (12 * kMiB);
        auto* p = static_cast<std::uint64_t*>(AllocateBigBlock(bytes));
        const std::size_t words = bytes / 8;
        for (std::size_t i = 0; i < words; i += 512) p[i] = seed * 1000003 + i;
        live.emplace_back(p, words);
        continue;
      }
      const std::size_t k = rng() % live.size();
      const auto [p, words] = live[k];
      for (std::size_t i = 0; i < words; i += 512) ok = ok && p[i] == seed * 1000003 + i;
      FreeBigBlock(p);
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
    }
    for (const auto& [p, words] : live) FreeBigBlock(p);
    return ok;
  };
  std::vector<char> ok(4, 0);
  std::vector<std::thread> threads;
  threads.reserve(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] { ok[static_cast<std::size_t>(t)] = worker(100 + t) ? 1 : 0; });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t) EXPECT_TRUE(ok[static_cast<std::size_t>(t)]) << "thread " << t;
  EXPECT_LE(RecycledBigBlockBytes(), 48 * kMiB);
}

}  // namespace
}  // namespace lance_nd::internal
