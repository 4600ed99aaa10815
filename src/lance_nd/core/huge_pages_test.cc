#include "lance_nd/core/internal/huge_pages.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace lance_nd {
namespace {

using HugeVector = std::vector<std::uint16_t, HugePageAllocator<std::uint16_t>>;

// Vectors on the allocator hold what a std::vector holds through reserve, growth past the
// reservation, copies and moves, at generated sizes on both sides of the huge-page threshold.
TEST(HugePageAllocatorTest, VectorsKeepTheirValuesAtAnySize) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 24; ++round) {
    const std::size_t n = (round % 3 == 0) ? rng() % 1000 : (rng() % (3u << 20));
    HugeVector v;
    std::vector<std::uint16_t> want;
    if (round % 2 == 0) v.reserve(n / 2);
    for (std::size_t i = 0; i < n; ++i) {
      const auto x = static_cast<std::uint16_t>(rng());
      v.push_back(x);
      want.push_back(x);
    }
    ASSERT_EQ(v.size(), want.size());
    EXPECT_TRUE(std::equal(v.begin(), v.end(), want.begin())) << "round " << round;
    HugeVector copy = v;
    HugeVector moved = std::move(v);
    EXPECT_EQ(copy, moved);
  }
}

// Allocations of a huge page or more start on a huge-page boundary (so that the kernel can back
// them with huge pages); big blocks below that on a 64 KiB boundary; smaller ones are ordinary
// allocations.
TEST(HugePageAllocatorTest, LargeAllocationsAreHugePageAligned) {
  HugePageAllocator<std::uint64_t> alloc;
  for (const std::size_t bytes :
       {HugePageAllocator<std::uint64_t>::kMinBytes,
        HugePageAllocator<std::uint64_t>::kMinBytes * 3 + 8, kHugePageSize, kHugePageSize * 5}) {
    const std::size_t n = bytes / sizeof(std::uint64_t);
    std::uint64_t* p = alloc.allocate(n);
    const std::size_t alignment = bytes >= kHugePageSize ? kHugePageSize : std::size_t{64} << 10;
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % alignment, 0u) << bytes;
    for (std::size_t i = 0; i < n; ++i) p[i] = i;  // the whole range is usable
    EXPECT_EQ(p[n - 1], n - 1);
    alloc.deallocate(p, n);
  }
  std::uint64_t* small = alloc.allocate(3);
  EXPECT_NE(small, nullptr);  // not ASSERT: freed below either way
  alloc.deallocate(small, 3);
  EXPECT_THROW((void)alloc.allocate(static_cast<std::size_t>(-1) / 4), std::bad_array_new_length);
}

}  // namespace
}  // namespace lance_nd
