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

TEST(BigBlocksTest, BlocksBelowAHugePageShareAHugePageSlab) {
  Recycling recycling(64 * kMiB);
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200; ++i) {
    const std::size_t bytes = kBigBlockMin + rng() % (2 * kMiB - kBigBlockMin);
    std::size_t capacity = 0;
    void* a = AllocateBigBlock(bytes, &capacity);
    const auto at = reinterpret_cast<std::uintptr_t>(a);
    ASSERT_GE(capacity, bytes);
    EXPECT_LT(capacity, 2 * bytes) << bytes;  // at most one block of slack
    EXPECT_EQ(at % 64, 0u);
    // Inside one 2 MiB-aligned slab: one huge page backs the whole block.
    EXPECT_EQ(at / (2 * kMiB), (at + capacity - 1) / (2 * kMiB)) << bytes;
    std::memset(a, 0x5A, capacity);
    FreeBigBlock(a);
    std::size_t again_capacity = 0;
    void* b = AllocateBigBlock(bytes, &again_capacity);
    EXPECT_EQ(b, a) << "a freed block serves the next request of its size";
    EXPECT_EQ(again_capacity, capacity);
    FreeBigBlock(b);
  }
}

TEST(BigBlocksTest, ASlabIsFreedOnceNoneOfItsBlocksIsInUse) {
  Recycling recycling(64 * kMiB);
  std::vector<void*> blocks;
  blocks.reserve(4);
  for (int i = 0; i < 4; ++i) blocks.push_back(AllocateBigBlock(512 << 10));
  const auto slab = reinterpret_cast<std::uintptr_t>(blocks[0]) / (2 * kMiB);
  for (void* b : blocks) EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b) / (2 * kMiB), slab);
  EXPECT_EQ(RecycledBigBlockBytes(), 0u);  // the slab's four blocks are all in use
  for (std::size_t i = 0; i < 3; ++i) FreeBigBlock(blocks[i]);
  EXPECT_EQ(RecycledBigBlockBytes(), 3 * (512u << 10));
  SetBigBlockRecycling(0);  // one block is still in use: the slab stays
  EXPECT_EQ(RecycledBigBlockBytes(), 3 * (512u << 10));
  FreeBigBlock(blocks[3]);  // the last one: the whole slab goes
  EXPECT_EQ(RecycledBigBlockBytes(), 0u);
}

TEST(BigBlocksTest, FreedSlabsBeyondTheCapacityGoBack) {
  Recycling recycling(4 * kMiB);
  std::mt19937_64 rng(11);
  std::vector<void*> blocks;
  blocks.reserve(96);
  for (int i = 0; i < 96; ++i) {
    blocks.push_back(AllocateBigBlock(kBigBlockMin + rng() % (2 * kMiB - kBigBlockMin)));
  }
  std::shuffle(blocks.begin(), blocks.end(), rng);
  for (void* b : blocks) FreeBigBlock(b);
  // Every slab is empty now: those past the capacity went back to the system.
  EXPECT_LE(RecycledBigBlockBytes(), 4 * kMiB);
}

// A request that no kept block fits takes the pages of the kept blocks smaller than it (moved,
// not copied: their old bytes show through) instead of new memory beside them; issue 34, where
// the write's kept blocks sat unused while the scan faulted in its 130 MB column.
TEST(BigBlocksTest, KeptBlocksSmallerThanARequestLendItTheirPages) {
  Recycling recycling(64 * kMiB);
  void* a = AllocateBigBlock(4 * kMiB);
  void* b = AllocateBigBlock(6 * kMiB);
  std::memset(a, 0xAB, 4 * kMiB);
  std::memset(b, 0xCD, 6 * kMiB);
  FreeBigBlock(a);
  FreeBigBlock(b);
  ASSERT_EQ(RecycledBigBlockBytes(), 10 * kMiB);
  std::size_t capacity = 0;
  auto* c = static_cast<unsigned char*>(AllocateBigBlock(16 * kMiB, &capacity));
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(c) % (2 * kMiB), 0u);
  EXPECT_EQ(capacity, 16 * kMiB);
  EXPECT_EQ(RecycledBigBlockBytes(), 0u) << "both kept blocks went into the new one";
  EXPECT_EQ(std::count(c, c + capacity, 0xCD), static_cast<std::ptrdiff_t>(6 * kMiB));
  EXPECT_EQ(std::count(c, c + capacity, 0xAB), static_cast<std::ptrdiff_t>(4 * kMiB));
  std::memset(c, 0x11, capacity);  // all of it is writable
  FreeBigBlock(c);
  EXPECT_EQ(RecycledBigBlockBytes(), 16 * kMiB);
}

// A new slab is a kept huge page when there is one.
TEST(BigBlocksTest, ANewSlabIsAKeptHugePage) {
  Recycling recycling(64 * kMiB);
  void* page = AllocateBigBlock(2 * kMiB);
  FreeBigBlock(page);
  ASSERT_EQ(RecycledBigBlockBytes(), 2 * kMiB);
  void* share = AllocateBigBlock(512 << 10);
  EXPECT_EQ(share, page);
  EXPECT_EQ(RecycledBigBlockBytes(), 2 * kMiB - (512u << 10));  // the slab's three free shares
  FreeBigBlock(share);
}

TEST(BigBlocksTest, WithoutRecyclingBlocksBelowAHugePageAreWhole64KiB) {
  Recycling recycling(0);
  std::size_t capacity = 0;
  void* a = AllocateBigBlock(kBigBlockMin + 1, &capacity);
  constexpr std::size_t k64KiB = std::size_t{64} << 10;
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a) % k64KiB, 0u);
  EXPECT_EQ(capacity, kBigBlockMin + k64KiB);
  FreeBigBlock(a);
  EXPECT_EQ(RecycledBigBlockBytes(), 0u);
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
        // Half below a huge page (slab blocks), half up to 12 MiB.
        const std::size_t bytes = kBigBlockMin + rng() % (rng() % 2 == 0 ? 2 * kMiB : 12 * kMiB);
        auto* p = static_cast<std::uint64_t*>(AllocateBigBlock(bytes));
        const std::size_t words = bytes / 8;
        for (std::size_t i = 0; i < words; i += 512) p[i] = seed * 1000003 + i;
        p[words - 1] = seed * 1000003 + words - 1;
        live.emplace_back(p, words);
        continue;
      }
      const std::size_t k = rng() % live.size();
      const auto [p, words] = live[k];
      for (std::size_t i = 0; i < words; i += 512) ok = ok && p[i] == seed * 1000003 + i;
      ok = ok && p[words - 1] == seed * 1000003 + words - 1;
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
