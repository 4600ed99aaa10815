// Writing stable row ids: the segment forms Lance 12 picks, round trips through the validated
// decoder, masking deleted rows, re-chunking into new fragments, version runs.
#include "lance_nd/table/rowids/row_id_codec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "lance_nd/io/file_system.h"
#include "lance_nd/table/rowids/row_id_test_util.h"
#include "lance_nd/table/rowids/row_ids.h"
#include "lance_nd/testing/status_matchers.h"
#include "rowids.pb.h"
#include "table.pb.h"

namespace lance_nd::table::internal {
namespace {

using lance::table::EncodedU64Array;
using lance::table::U64Segment;

using rowid_testing::Le;

SegmentValues Iota(std::uint64_t from, std::uint64_t to) {
  SegmentValues v(static_cast<std::size_t>(to - from));
  std::iota(v.begin(), v.end(), from);
  return v;
}

// The single segment Lance would write for `values`.
U64Segment One(const SegmentValues& values) {
  lance::table::RowIdSequence seq;
  EXPECT_TRUE(seq.ParseFromString(EncodeRowIdSegments({values})));
  EXPECT_EQ(seq.segments_size(), 1);
  return seq.segments_size() == 1 ? seq.segments(0) : U64Segment();
}

TEST(RowIdCodecTest, ContiguousValuesAreARange) {
  const U64Segment s = One(Iota(10, 13));
  ASSERT_EQ(s.segment_case(), U64Segment::kRange);
  EXPECT_EQ(s.range().start(), 10u);
  EXPECT_EQ(s.range().end(), 13u);
  const U64Segment empty = One({});
  ASSERT_EQ(empty.segment_case(), U64Segment::kRange);
  EXPECT_EQ(empty.range().end(), 0u);
  EXPECT_EQ(EncodeRowIdRange(10, 13), EncodeRowIdSegments({Iota(10, 13)}));
}

TEST(RowIdCodecTest, FewHolesAreListedAsValues) {
  SegmentValues v = Iota(0, 100);
  std::erase_if(v, [](std::uint64_t x) { return x == 5 || x == 50; });
  // holes 24 + 8 = 32 bytes < bitmap 24 + 13 < sorted array 24 + 196.
  const U64Segment s = One(v);
  ASSERT_EQ(s.segment_case(), U64Segment::kRangeWithHoles);
  EXPECT_EQ(s.range_with_holes().start(), 0u);
  EXPECT_EQ(s.range_with_holes().end(), 100u);
  ASSERT_EQ(s.range_with_holes().holes().array_case(), EncodedU64Array::kU16Array);
  EXPECT_EQ(s.range_with_holes().holes().u16_array().base(), 5u);
  EXPECT_EQ(s.range_with_holes().holes().u16_array().offsets(), Le({0, 45}, 2));
}

TEST(RowIdCodecTest, DenseHolesAreABitmapLeastSignificantBitFirst) {
  SegmentValues even;
  for (std::uint64_t x = 0; x < 200; x += 2) even.push_back(x);
  // 99 holes: holes 420 bytes, bitmap 24 + 25, sorted array 224.
  const U64Segment s = One(even);
  ASSERT_EQ(s.segment_case(), U64Segment::kRangeWithBitmap);
  EXPECT_EQ(s.range_with_bitmap().start(), 0u);
  EXPECT_EQ(s.range_with_bitmap().end(), 199u);
  const std::string& bits = s.range_with_bitmap().bitmap();
  ASSERT_EQ(bits.size(), 25u);
  EXPECT_EQ(static_cast<unsigned char>(bits[0]), 0x55);
  EXPECT_EQ(static_cast<unsigned char>(bits[24]), 0x55 & 0x7f);  // 199 slots: bit 7 unused
}

TEST(RowIdCodecTest, SparseAndUnsortedValuesAreArrays) {
  U64Segment s = One({0, 1000, 2000});
  ASSERT_EQ(s.segment_case(), U64Segment::kSortedArray);
  EXPECT_EQ(s.sorted_array().u16_array().offsets(), Le({0, 1000, 2000}, 2));
  s = One({5, 3, 9});
  ASSERT_EQ(s.segment_case(), U64Segment::kArray);
  EXPECT_EQ(s.array().u16_array().base(), 3u);
  EXPECT_EQ(s.array().u16_array().offsets(), Le({2, 0, 6}, 2));
  s = One({7, 100007});
  ASSERT_EQ(s.segment_case(), U64Segment::kSortedArray);
  EXPECT_EQ(s.sorted_array().u32_array().base(), 7u);
  EXPECT_EQ(s.sorted_array().u32_array().offsets(), Le({0, 100000}, 4));
  s = One({std::uint64_t{1} << 40, 1});
  ASSERT_EQ(s.segment_case(), U64Segment::kArray);
  EXPECT_EQ(s.array().u64_array().values(), Le({std::uint64_t{1} << 40, 1}, 8));
}

TEST(RowIdCodecTest, RandomSequencesRoundTripThroughTheDecoder) {
  std::mt19937_64 rng(42);
  for (int round = 0; round < 300; ++round) {
    SegmentList segments;
    std::uint64_t total = 0;
    const int n_segments = static_cast<int>(rng() % 4);
    for (int s = 0; s < n_segments; ++s) {
      SegmentValues v;
      const std::uint64_t start = rng() % (std::uint64_t{1} << (rng() % 50));
      const std::uint64_t n = rng() % 300;
      const int kind = static_cast<int>(rng() % 4);
      std::uint64_t next = start;
      for (std::uint64_t i = 0; i < n; ++i) {
        if (kind == 0) v.push_back(start + i);                                    // range
        if (kind == 1 && rng() % 10 != 0) v.push_back(start + i);                 // few holes
        if (kind == 2) v.push_back(next += 1 + rng() % (rng() % 2 ? 3 : 70000));  // sparse
        if (kind == 3) v.push_back(start + i * 37);
      }
      if (kind == 3) std::shuffle(v.begin(), v.end(), rng);  // unsorted
      total += v.size();
      segments.push_back(std::move(v));
    }
    const std::string bytes = EncodeRowIdSegments(segments);
    LND_ASSERT_OK_AND_ASSIGN(SegmentList back, DecodeRowIdSegments(bytes, 1, total));
    ASSERT_EQ(back, segments) << "round " << round;
  }
}

TEST(RowIdCodecTest, MaskDropsPositionsAndEmptiedSegments) {
  SegmentList s = {Iota(0, 3), Iota(10, 12), Iota(20, 22)};
  const std::vector<std::uint64_t> positions = {1, 3, 4, 4, 99};
  MaskSegments(&s, positions);
  EXPECT_EQ(s, (SegmentList{{0, 2}, {20, 21}}));
}

TEST(RowIdCodecTest, RechunkSlicesAndMergesAdjacentRanges) {
  const SegmentList in = {Iota(0, 5), Iota(5, 10), {20, 22, 23}};
  const std::vector<std::uint64_t> sizes = {3, 9, 1};
  LND_ASSERT_OK_AND_ASSIGN(auto out, RechunkSegments(in, sizes));
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0], (SegmentList{Iota(0, 3)}));
  EXPECT_EQ(out[1], (SegmentList{Iota(3, 10), {20, 22}}));  // 3..5 + 5..10 merged
  EXPECT_EQ(out[2], (SegmentList{{23}}));
  const std::vector<std::uint64_t> too_many = {14};
  LND_EXPECT_ERROR(RechunkSegments(in, too_many), StatusCode::kInvalidArgument,
                   "too few row ids for new fragment 0 of 14 rows (1 rows missing)");
  const std::vector<std::uint64_t> too_few = {12};
  LND_EXPECT_ERROR(RechunkSegments(in, too_few), StatusCode::kInvalidArgument,
                   "too many row ids for 1 new fragments");
}

TEST(RowIdCodecTest, VersionRunsMaskRechunkAndRoundTrip) {
  VersionRuns runs = UniformVersionRuns(5, 3);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].span, Iota(0, 5));
  runs.push_back({Iota(0, 2), 7});
  const std::vector<std::uint64_t> positions = {1};
  MaskVersionRuns(&runs, positions);
  const std::vector<std::uint64_t> sizes = {2, 4};
  LND_ASSERT_OK_AND_ASSIGN(auto chunks, RechunkVersionRuns(runs, sizes));
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(chunks[0], (VersionRuns{{{0, 2}, 3}}));  // spans keep the old offsets, as in Lance
  EXPECT_EQ(chunks[1], (VersionRuns{{{3, 4}, 3}, {{0, 1}, 7}}));
  LND_ASSERT_OK_AND_ASSIGN(VersionRuns back, DecodeVersionRuns(EncodeVersionRuns(chunks[1]), 4, 4));
  EXPECT_EQ(back, chunks[1]);
  EXPECT_TRUE(UniformVersionRuns(0, 1).empty());
  EXPECT_EQ(EncodeUniformVersionRuns(5, 3), EncodeVersionRuns(UniformVersionRuns(5, 3)));
  EXPECT_EQ(EncodeUniformVersionRuns(0, 3), EncodeVersionRuns({}));
  LND_EXPECT_ERROR(DecodeVersionRuns(EncodeVersionRuns(chunks[1]), 4, 3), StatusCode::kCorrupt,
                   "more row ids than the fragment's 3 physical rows");
}

TEST(RowIdCodecTest, FragmentMetaIsSetAndReadBack) {
  Fragment f;
  f.id = 3;
  f.physical_rows = 4;
  lance::table::DataFragment other;
  other.set_inline_row_ids("stale");
  f.unmodelled_proto = other.SerializeAsString();
  const std::string ids = EncodeRowIdSegments({{9, 8}, Iota(20, 22)});
  const std::string created = EncodeVersionRuns(UniformVersionRuns(4, 2));
  LND_ASSERT_OK(SetFragmentRowIdMeta(&f, ids, &created, nullptr));
  EXPECT_TRUE(f.has_row_ids);
  auto fs = io::LocalFileSystem();
  LND_ASSERT_OK_AND_ASSIGN(FragmentRowIdMeta meta,
                           ReadFragmentRowIdMeta(TableLocation(fs, "/nowhere"), f));
  EXPECT_TRUE(meta.has_row_ids);
  EXPECT_EQ(meta.row_ids, (SegmentList{{9, 8}, {20, 21}}));
  EXPECT_TRUE(meta.has_created_at);
  EXPECT_EQ(meta.created_at, UniformVersionRuns(4, 2));
  EXPECT_FALSE(meta.has_last_updated_at);
  LND_ASSERT_OK_AND_ASSIGN(auto flat, ReadFragmentRowIds(TableLocation(fs, "/nowhere"), f));
  EXPECT_EQ(flat.ids, (std::vector<std::uint64_t>{9, 8, 20, 21}));
  f.physical_rows = 5;
  LND_EXPECT_ERROR(ReadFragmentRowIdMeta(TableLocation(fs, "/nowhere"), f), StatusCode::kCorrupt,
                   "holds 4 row ids but the fragment has 5 physical rows");
}

}  // namespace
}  // namespace lance_nd::table::internal
