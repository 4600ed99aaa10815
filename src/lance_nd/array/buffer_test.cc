#include "lance_nd/array/buffer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::array {
namespace {

bool Aligned(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 64 == 0; }

TEST(BufferTest, AllocateZeroedIsAlignedAndZero) {
  std::uint8_t* p = nullptr;
  auto b = Buffer::AllocateZeroed(100, &p);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(b->data(), p);
  EXPECT_EQ(b->size(), 100);
  EXPECT_TRUE(Aligned(b->data()));
  for (int i = 0; i < 100; ++i) EXPECT_EQ(p[i], 0);
  auto e = Buffer::AllocateZeroed(0, nullptr);
  EXPECT_EQ(e->size(), 0);
  EXPECT_NE(e->data(), nullptr);
}

TEST(BufferTest, CopyAndFromVector) {
  const char text[] = "hello";
  auto b = Buffer::Copy(text, 5);
  EXPECT_TRUE(Aligned(b->data()));
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(b->data()), 5), "hello");
  auto v = Buffer::FromVector({1, 2, 3});
  EXPECT_EQ(v->size(), 3);
  EXPECT_EQ(v->data()[2], 3);
  EXPECT_FALSE(b->Equals(*v));
  EXPECT_TRUE(v->Equals(*Buffer::Copy(std::vector<std::uint8_t>{1, 2, 3})));
  EXPECT_EQ(Buffer::Empty()->size(), 0);
  EXPECT_TRUE(Buffer::Empty()->Equals(*Buffer::AllocateZeroed(0, nullptr)));
}

TEST(BufferTest, SliceKeepsParentAlive) {
  BufferPtr slice;
  {
    auto b = Buffer::Copy(std::vector<std::uint8_t>{0, 1, 2, 3, 4, 5});
    LND_ASSERT_OK_AND_ASSIGN(slice, Buffer::Slice(b, 2, 3));
  }
  EXPECT_EQ(slice->size(), 3);
  EXPECT_EQ(slice->data()[0], 2);
  EXPECT_EQ(slice->data()[2], 4);
  auto b = Buffer::Copy(std::vector<std::uint8_t>{0, 1});
  LND_EXPECT_ERROR(Buffer::Slice(b, 1, 2), StatusCode::kInvalidArgument, "outside the buffer");
  LND_EXPECT_ERROR(Buffer::Slice(b, -1, 1), StatusCode::kInvalidArgument, "outside");
  LND_EXPECT_ERROR(Buffer::Slice(b, 1, INT64_MAX), StatusCode::kInvalidArgument, "outside");
  LND_EXPECT_ERROR(Buffer::Slice(nullptr, 0, 0), StatusCode::kInvalidArgument, "null buffer");
  LND_ASSERT_OK_AND_ASSIGN(auto empty, Buffer::Slice(b, 2, 0));
  EXPECT_EQ(empty->size(), 0);
}

TEST(BufferBuilderTest, AppendResizeFinish) {
  BufferBuilder bb;
  EXPECT_EQ(bb.size(), 0);
  bb.AppendValue<int32_t>(7);
  bb.AppendZeros(4);
  bb.Append("ab", 2);
  EXPECT_EQ(bb.size(), 10);
  EXPECT_GE(bb.capacity(), 10);
  bb.Resize(12);
  EXPECT_EQ(bb.mutable_data()[11], 0);
  for (int i = 0; i < 1000; ++i) bb.AppendValue<std::uint8_t>(static_cast<std::uint8_t>(i));
  auto buf = bb.Finish();
  EXPECT_EQ(bb.size(), 0);
  EXPECT_EQ(bb.capacity(), 0);
  EXPECT_EQ(buf->size(), 1012);
  EXPECT_TRUE(Aligned(buf->data()));
  EXPECT_EQ(buf->data_as<int32_t>()[0], 7);
  EXPECT_EQ(buf->data()[8], 'a');
  EXPECT_EQ(buf->data()[12 + 999], static_cast<std::uint8_t>(999));
  // Reusable after Finish, and moves transfer the bytes.
  bb.AppendValue<uint8_t>(5);
  BufferBuilder moved(std::move(bb));
  EXPECT_EQ(moved.size(), 1);
  EXPECT_EQ(moved.Finish()->data()[0], 5);
  EXPECT_EQ(BufferBuilder().Finish()->size(), 0);
}

// Buffers of generated sizes on both sides of the huge-page threshold (small ones are aligned
// by hand, large ones by aligned_alloc): aligned, zeroed where promised, filled and freed in any
// order, and builders that grow across the threshold or are move-assigned keep their bytes.
// Run under ASan, a size class freed the wrong way is reported here.
TEST(BufferTest, AllocationsOfAnySizeAreAlignedAndFreedCleanly) {
  std::mt19937_64 rng(11);
  std::vector<BufferPtr> live;
  for (int round = 0; round < 60; ++round) {
    const int64_t size = (round % 5 == 0) ? static_cast<int64_t>(rng() % (9u << 20))
                                          : static_cast<int64_t>(rng() % 9000);
    std::uint8_t* p = nullptr;
    BufferPtr b = (round % 2 == 0) ? Buffer::AllocateZeroed(size, &p)
                                   : Buffer::AllocateUninitialized(size, &p);
    ASSERT_TRUE(Aligned(p)) << size;
    if (round % 2 == 0) {
      for (int64_t i = 0; i < size; i += 97) ASSERT_EQ(p[i], 0) << size;
    }
    if (size > 0) {
      std::memset(p, 0xAB, static_cast<std::size_t>(size));  // every byte is ours
    }
    live.push_back(std::move(b));
    if (rng() % 3 == 0) live.erase(live.begin() + static_cast<std::ptrdiff_t>(rng() % live.size()));
  }
  for (int round = 0; round < 6; ++round) {
    BufferBuilder bb;
    std::vector<std::uint8_t> want;
    const std::size_t total = (round % 2 == 0) ? (5u << 20) + rng() % 4096 : rng() % 5000;
    while (want.size() < total) {
      std::vector<std::uint8_t> piece(1 + rng() % 70000);
      for (auto& x : piece) x = static_cast<std::uint8_t>(rng());
      bb.Append(piece.data(), static_cast<int64_t>(piece.size()));
      want.insert(want.end(), piece.begin(), piece.end());
    }
    BufferBuilder other;
    other.AppendValue<std::uint8_t>(1);
    other = std::move(bb);
    BufferPtr out = other.Finish();
    ASSERT_TRUE(Aligned(out->data()));
    ASSERT_EQ(out->size(), static_cast<int64_t>(want.size()));
    EXPECT_EQ(std::memcmp(out->data(), want.data(), want.size()), 0) << round;
  }
}

TEST(BitmapTest, CountSetBitsMatchesNaive) {
  std::mt19937_64 rng(42);
  std::vector<std::uint8_t> bits(64);
  for (auto& b : bits) b = static_cast<std::uint8_t>(rng());
  for (int64_t off = 0; off < 70; off += 3) {
    for (int64_t len = 0; off + len <= 512; len += 17) {
      int64_t naive = 0;
      for (int64_t i = off; i < off + len; ++i) naive += GetBit(bits.data(), i) ? 1 : 0;
      EXPECT_EQ(CountSetBits(bits.data(), off, len), naive) << off << " " << len;
    }
  }
  std::uint8_t x[2] = {0, 0};
  SetBitTo(x, 9, true);
  EXPECT_EQ(x[1], 2);
  SetBitTo(x, 9, false);
  EXPECT_EQ(x[1], 0);
  EXPECT_EQ(BytesForBits(0), 0);
  EXPECT_EQ(BytesForBits(9), 2);
  EXPECT_EQ(BytesForBits(16), 2);
}

}  // namespace
}  // namespace lance_nd::array
