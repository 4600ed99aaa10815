// ValueBuilder::AppendMany (bulk, parallel copy) must build exactly what Append in a loop
// builds, for every leaf kind; ParallelFor runs every index once.
#include "lance_nd/file/value_builder.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>

#include "lance_nd/array/type.h"
#include "lance_nd/testing/random_arrays.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::file::internal {
namespace {

namespace a = ::lance_nd::array;

a::BufferPtr RandomBytes(testing::Rng& rng, std::uint64_t n) {
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(rng.Next());
  return a::Buffer::Copy(v.data(), static_cast<int64_t>(v.size()));
}

// Random decoded blocks for a leaf of `width` bytes per value (0: variable width).
std::vector<DataBlock> RandomBlocks(testing::Rng& rng, std::uint64_t width, bool fsl_validity) {
  std::vector<DataBlock> blocks;
  const std::uint64_t count = 1 + rng.Below(8);
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t n = rng.Below(3000);
    if (width == 0) {
      std::vector<std::uint8_t> offsets;
      std::uint32_t at = 0;
      for (std::uint64_t k = 0; k <= n; ++k) {
        offsets.resize(offsets.size() + 4);
        std::memcpy(offsets.data() + k * 4, &at, 4);
        at += static_cast<std::uint32_t>(rng.Below(6));
      }
      at -= 0;
      std::uint32_t last;
      std::memcpy(&last, offsets.data() + n * 4, 4);
      blocks.push_back(DataBlock::Variable(
          32, n, a::Buffer::Copy(offsets.data(), static_cast<int64_t>(offsets.size())),
          RandomBytes(rng, last)));
      continue;
    }
    switch (rng.Below(6)) {
      case 0:
        blocks.push_back(DataBlock::AllNull(n));
        break;
      case 1:
        blocks.push_back(DataBlock::Constant(n, RandomBytes(rng, width)));
        break;
      default: {
        DataBlock b = DataBlock::Fixed(width * 8, n, RandomBytes(rng, n * width));
        if (fsl_validity) {
          b.items_per_value = 4;
          b.fsl.push_back({4, rng.Chance(0.5) ? RandomBytes(rng, (n * 4 + 7) / 8) : nullptr});
        }
        blocks.push_back(std::move(b));
      }
    }
  }
  return blocks;
}

TEST(ValueBuilderTest, AppendManyMatchesAppendLoop) {
  const a::DataTypePtr types[] = {
      a::Float32(),         a::Int64(), a::Int8(), a::Utf8(), a::FixedSizeList(a::Int16(), 4),
      a::FixedSizeBinary(3)};
  int bulk_checked = 0;
  for (std::uint64_t seed = 0; seed < 120; ++seed) {
    testing::Rng rng(seed);
    const a::DataTypePtr& type = types[seed % std::size(types)];
    const bool variable = type->id() == a::TypeId::kUtf8;
    const bool fsl = type->id() == a::TypeId::kFixedSizeList;
    const std::uint64_t width = variable ? 0
                                : fsl    ? 8
                                : type->id() == a::TypeId::kFixedSizeBinary
                                    ? 3
                                    : static_cast<std::uint64_t>(type->byte_width());
    // Mostly plain fixed blocks (the bulk path), sometimes mixed kinds (the fallback).
    std::vector<DataBlock> blocks = RandomBlocks(rng, width, fsl);
    if (!variable && rng.Chance(0.6)) {
      for (auto& b : blocks) {
        if (b.kind != DataBlock::Kind::kFixedWidth)
          b = DataBlock::Fixed(width * 8, b.num_values, RandomBytes(rng, b.num_values * width));
        if (fsl && b.fsl.empty()) {
          b.items_per_value = 4;
          b.fsl.push_back({4, nullptr});
        }
        if (fsl) b.fsl[0].validity = nullptr;
      }
      ++bulk_checked;
    }
    std::vector<ValueBuilder::Piece> pieces;
    for (const auto& b : blocks) {
      const std::uint64_t from = rng.Below(b.num_values + 1);
      pieces.push_back({&b, from, rng.Below(b.num_values - from + 1)});
    }
    LND_ASSERT_OK_AND_ASSIGN(ValueBuilder loop, ValueBuilder::Make(type));
    for (const auto& p : pieces) LND_ASSERT_OK(loop.Append(*p.block, p.from, p.count));
    for (int threads : {1, 2}) {
      LND_ASSERT_OK_AND_ASSIGN(ValueBuilder bulk, ValueBuilder::Make(type));
      LND_ASSERT_OK(bulk.AppendMany(pieces, threads));
      ASSERT_EQ(bulk.length(), loop.length());
      LND_ASSERT_OK_AND_ASSIGN(ValueBuilder again, ValueBuilder::Make(type));
      for (const auto& p : pieces) LND_ASSERT_OK(again.Append(*p.block, p.from, p.count));
      LND_ASSERT_OK_AND_ASSIGN(auto want, again.Finish(nullptr, 0));
      LND_ASSERT_OK_AND_ASSIGN(auto got, bulk.Finish(nullptr, 0));
      EXPECT_TRUE(a::ArrayEquals(*want, *got, false)) << "seed " << seed << " " << type->ToString();
    }
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(bulk_checked, 30);
}

TEST(ValueBuilderTest, AppendManyChecksEveryPieceBounds) {
  auto data = a::Buffer::Copy(std::vector<std::uint8_t>(40, 1));
  DataBlock b = DataBlock::Fixed(32, 10, data);
  LND_ASSERT_OK_AND_ASSIGN(ValueBuilder vb, ValueBuilder::Make(a::Float32()));
  std::vector<ValueBuilder::Piece> pieces{{&b, 0, 5}, {&b, 8, 3}};
  LND_EXPECT_ERROR(vb.AppendMany(pieces, 2), StatusCode::kCorrupt,
                   "value range [8, 11) is outside the decoded block of 10 values");
  // A block whose bytes are fewer than its value count claims: caught (by Append's check).
  DataBlock short_block = DataBlock::Fixed(32, 20, data);
  std::vector<ValueBuilder::Piece> bad{{&short_block, 0, 20}};
  LND_EXPECT_ERROR(vb.AppendMany(bad, 2), StatusCode::kCorrupt, "fewer than 20 values");
}

TEST(ValueBuilderTest, SinglePieceIsZeroCopyAndLaterAppendsStillWork) {
  testing::Rng rng(7);
  DataBlock b = DataBlock::Fixed(32, 100, RandomBytes(rng, 400));
  DataBlock c = DataBlock::Fixed(32, 10, RandomBytes(rng, 40));
  LND_ASSERT_OK_AND_ASSIGN(ValueBuilder bulk, ValueBuilder::Make(a::Float32()));
  std::vector<ValueBuilder::Piece> one{{&b, 5, 90}};
  LND_ASSERT_OK(bulk.AppendMany(one, 2));
  LND_ASSERT_OK_AND_ASSIGN(ValueBuilder copy, ValueBuilder::Make(a::Float32()));
  LND_ASSERT_OK(copy.AppendMany(one, 2));
  LND_ASSERT_OK_AND_ASSIGN(auto zero_copy, copy.Finish(nullptr, 0));
  EXPECT_EQ(zero_copy->buffers[1]->data(), b.data->data() + 20);  // a slice, not a copy
  LND_ASSERT_OK(bulk.Append(c, 1, 4));
  std::vector<ValueBuilder::Piece> more{{&c, 0, 10}, {&b, 0, 3}};
  LND_ASSERT_OK(bulk.AppendMany(more, 1));
  LND_ASSERT_OK_AND_ASSIGN(ValueBuilder loop, ValueBuilder::Make(a::Float32()));
  LND_ASSERT_OK(loop.Append(b, 5, 90));
  LND_ASSERT_OK(loop.Append(c, 1, 4));
  LND_ASSERT_OK(loop.Append(c, 0, 10));
  LND_ASSERT_OK(loop.Append(b, 0, 3));
  LND_ASSERT_OK_AND_ASSIGN(auto want, loop.Finish(nullptr, 0));
  LND_ASSERT_OK_AND_ASSIGN(auto got, bulk.Finish(nullptr, 0));
  EXPECT_EQ(got->length, 107);
  EXPECT_TRUE(a::ArrayEquals(*want, *got, false));
}

TEST(ValueBuilderTest, FixedSizeListBlockWithoutItemBytesMakesItemsNull) {
  // A block of 0 bits per value (items decoded from constant(null)) after plain rows: the
  // earlier items stay valid, the block's items are null.
  auto type = a::FixedSizeList(a::Float32(), 3);
  LND_ASSERT_OK_AND_ASSIGN(ValueBuilder b, ValueBuilder::Make(type));
  float first[3] = {1, 2, 3};
  DataBlock plain = DataBlock::Fixed(96, 1, a::Buffer::Copy(first, sizeof(first)));
  plain.items_per_value = 3;
  DataBlock no_items = DataBlock::Fixed(0, 2, a::Buffer::Empty());
  no_items.items_per_value = 3;
  LND_ASSERT_OK(b.Append(plain, 0, 1));
  LND_ASSERT_OK(b.Append(no_items, 0, 2));
  LND_ASSERT_OK_AND_ASSIGN(auto out, b.Finish(nullptr, 0));
  ASSERT_EQ(out->length, 3);
  const auto& items = *out->children[0];
  ASSERT_EQ(items.length, 9);
  for (int64_t i = 0; i < 9; ++i) EXPECT_EQ(items.IsValid(i), i < 3) << i;
}

TEST(ParallelForTest, RunsEveryIndexOnce) {
  for (int threads : {1, 2, 3}) {
    std::vector<std::atomic<int>> hits(1000);
    ParallelFor(hits.size(), threads, [&](std::size_t i) { hits[i].fetch_add(1); });
    for (auto& h : hits) ASSERT_EQ(h.load(), 1);
  }
}

// Pages decoded into one column buffer are taken as one zero-copy slice, but only when the
// pieces lie back to back inside that buffer; anything else is refused (and left unchanged).
TEST(ValueBuilderTest, AdoptContiguousOnlyTakesBackToBackSlicesOfTheColumn) {
  std::vector<std::int32_t> values(100);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::int32_t>(i * 3);
  a::BufferPtr column = a::Buffer::Copy(values.data(), 400);
  auto slice = [&](std::uint64_t from, std::uint64_t n) {
    return DataBlock::Fixed(32, n,
                            std::make_shared<const a::Buffer>(column->data() + from * 4,
                                                              static_cast<int64_t>(n * 4), column));
  };
  DataBlock p0 = slice(0, 40), p1 = slice(40, 60);
  LND_ASSERT_OK_AND_ASSIGN(ValueBuilder vb, ValueBuilder::Make(a::Int32()));
  // Rows 10..70: the tail of page 0 and the head of page 1.
  std::vector<ValueBuilder::Piece> pieces{{&p0, 10, 30}, {&p1, 0, 30}};
  ASSERT_TRUE(vb.AdoptContiguous(pieces, column));
  EXPECT_EQ(vb.length(), 60u);
  LND_ASSERT_OK_AND_ASSIGN(auto arr, vb.Finish(nullptr, 0));
  ASSERT_EQ(arr->buffers[1]->data(), column->data() + 40);  // no copy
  for (int i = 0; i < 60; ++i) EXPECT_EQ(arr->buffers[1]->data_as<std::int32_t>()[i], (10 + i) * 3);

  LND_ASSERT_OK_AND_ASSIGN(ValueBuilder gap, ValueBuilder::Make(a::Int32()));
  std::vector<ValueBuilder::Piece> with_gap{{&p0, 0, 39}, {&p1, 0, 10}};
  EXPECT_FALSE(gap.AdoptContiguous(with_gap, column));
  EXPECT_EQ(gap.length(), 0u);
  a::BufferPtr other = a::Buffer::Copy(values.data(), 400);
  EXPECT_FALSE(gap.AdoptContiguous(pieces, other));  // outside the given column
  std::vector<ValueBuilder::Piece> too_long{{&p0, 30, 20}};
  EXPECT_FALSE(gap.AdoptContiguous(too_long, column));  // past the block's values
  LND_ASSERT_OK_AND_ASSIGN(ValueBuilder wide, ValueBuilder::Make(a::Int64()));
  EXPECT_FALSE(wide.AdoptContiguous(pieces, column));  // 32-bit blocks for a 64-bit leaf
}

}  // namespace
}  // namespace lance_nd::file::internal
