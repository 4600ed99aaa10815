#include "lance_nd/file/encoding/fastlanes.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace lance_nd::file::internal::encoding {
namespace {

template <typename T>
void RoundTripAllWidths() {
  constexpr std::size_t kBits = sizeof(T) * 8;
  std::mt19937_64 rng(42 + kBits);
  for (std::size_t w = 0; w <= kBits; ++w) {
    std::vector<T> in(kFastLanesBlock);
    const std::uint64_t mask = w == 64 ? ~0ull : ((1ull << w) - 1);
    for (auto& v : in) v = static_cast<T>(rng() & mask);
    std::vector<T> packed(FastLanesPackedWords<T>(w) + 1, T{0x5A});
    FastLanesPack<T>(in.data(), w, packed.data());
    EXPECT_EQ(packed.back(), T{0x5A}) << "pack wrote past its words at width " << w;
    std::vector<T> out(kFastLanesBlock, T{1});
    FastLanesUnpack<T>(packed.data(), w, out.data());
    ASSERT_EQ(in, out) << "T=" << kBits << " W=" << w;
  }
}

TEST(FastLanes, RoundTripU8AllWidths) { RoundTripAllWidths<std::uint8_t>(); }
TEST(FastLanes, RoundTripU16AllWidths) { RoundTripAllWidths<std::uint16_t>(); }
TEST(FastLanes, RoundTripU32AllWidths) { RoundTripAllWidths<std::uint32_t>(); }
TEST(FastLanes, RoundTripU64AllWidths) { RoundTripAllWidths<std::uint64_t>(); }

// Known answers computed with the validated Python reference (pyref decode.fl_pack) for the
// input value[i] = (7 i + 3) mod 2^W.
template <typename T>
std::vector<T> PackPattern(std::size_t w) {
  std::vector<T> in(kFastLanesBlock);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<T>((i * 7 + 3) % (1ull << w));
  std::vector<T> packed(FastLanesPackedWords<T>(w));
  FastLanesPack<T>(in.data(), w, packed.data());
  return packed;
}

__extension__ typedef unsigned __int128 U128;

// sum((k + 1) * p[k]) mod 2^61, as computed in Python.
template <typename T>
std::uint64_t Checksum(const std::vector<T>& p) {
  U128 acc = 0;
  for (std::size_t k = 0; k < p.size(); ++k) acc += static_cast<U128>(p[k]) * (k + 1);
  return static_cast<std::uint64_t>(acc % (static_cast<U128>(1) << 61));
}

TEST(FastLanes, KnownAnswerU8W3) {
  auto p = PackPattern<std::uint8_t>(3);
  ASSERT_EQ(p.size(), 384u);
  EXPECT_EQ(p[0], 0xdb);
  EXPECT_EQ(p[1], 0x92);
  EXPECT_EQ(p[2], 0x49);
  EXPECT_EQ(p[3], 0x00);
  EXPECT_EQ(p[4], 0xff);
  EXPECT_EQ(p[5], 0xb6);
  EXPECT_EQ(Checksum(p), 0x8fef80u);
}

TEST(FastLanes, KnownAnswerU16W3) {
  auto p = PackPattern<std::uint16_t>(3);
  ASSERT_EQ(p.size(), 192u);
  EXPECT_EQ(p[0], 0xb6db);
  EXPECT_EQ(p[1], 0x2492);
  EXPECT_EQ(p[4], 0xffff);
  EXPECT_EQ(p[5], 0x6db6);
  EXPECT_EQ(Checksum(p), 0x243fdbc0u);
}

TEST(FastLanes, KnownAnswerU32W5) {
  auto p = PackPattern<std::uint32_t>(5);
  ASSERT_EQ(p.size(), 160u);
  EXPECT_EQ(p[0], 0xc6318c63u);
  EXPECT_EQ(p[1], 0x94a5294au);
  EXPECT_EQ(p[3], 0x318c6318u);
  EXPECT_EQ(p[5], 0x8c6318c6u);
  EXPECT_EQ(Checksum(p), 0x192fffffe6d0ull);
}

TEST(FastLanes, KnownAnswerU64W7) {
  auto p = PackPattern<std::uint64_t>(7);
  ASSERT_EQ(p.size(), 112u);
  EXPECT_EQ(p[0], 0xc3060c183060c183ull);
  EXPECT_EQ(p[1], 0x4a142850a142850aull);
  EXPECT_EQ(p[4], 0xdf3e7cf9f3e7cf9full);
  EXPECT_EQ(Checksum(p), 0x546571f03097e45ull);
}

TEST(FastLanes, LayoutOfFirstLane) {
  // Value r of lane 0 is element FL_ORDER[r/8]*16 + (r%8)*128: with W = T every value is a
  // word, so packed word r of lane 0 (index r * LANES) equals that element.
  std::vector<std::uint16_t> in(kFastLanesBlock);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<std::uint16_t>(i);
  std::vector<std::uint16_t> packed(FastLanesPackedWords<std::uint16_t>(16));
  FastLanesPack<std::uint16_t>(in.data(), 16, packed.data());
  const std::size_t order[8] = {0, 4, 2, 6, 1, 5, 3, 7};
  for (std::size_t r = 0; r < 16; ++r) {
    EXPECT_EQ(packed[r * 64], order[r / 8] * 16 + (r % 8) * 128) << r;
  }
  EXPECT_EQ(packed[1], 1);  // lane 1 of row 0 is element 1
}

TEST(FastLanes, BitWidthOfMax) {
  std::vector<std::uint32_t> v{0, 0, 0};
  EXPECT_EQ(BitWidthOfMax(v.data(), v.size()), 0u);
  v[1] = 5;
  EXPECT_EQ(BitWidthOfMax(v.data(), v.size()), 3u);
  v[2] = 0xFFFFFFFFu;
  EXPECT_EQ(BitWidthOfMax(v.data(), v.size()), 32u);
}

}  // namespace
}  // namespace lance_nd::file::internal::encoding
