// Decoding stable row id sequences: every segment kind, and corrupt sequences.
#include "lance_nd/table/rowids/row_ids.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lance_nd/table/rowids/row_id_test_util.h"
#include "lance_nd/table/test_util.h"
#include "lance_nd/testing/status_matchers.h"
#include "rowids.pb.h"
#include "table.pb.h"

namespace lance_nd::table::internal {
namespace {

using lance::table::EncodedU64Array;
using lance::table::RowIdSequence;
using lance::table::U64Segment;

using rowid_testing::Le;

void Range(RowIdSequence* s, std::uint64_t start, std::uint64_t end) {
  auto* r = s->add_segments()->mutable_range();
  r->set_start(start);
  r->set_end(end);
}

TEST(RowIdSequenceTest, DecodesEverySegmentKind) {
  RowIdSequence s;
  Range(&s, 10, 13);  // 10 11 12
  auto* h = s.add_segments()->mutable_range_with_holes();
  h->set_start(20);
  h->set_end(25);
  h->mutable_holes()->mutable_u64_array()->set_values(Le({21, 23}, 8));  // 20 22 24
  auto* b = s.add_segments()->mutable_range_with_bitmap();
  b->set_start(30);
  b->set_end(40);
  b->set_bitmap(std::string("\x05\x02", 2));  // bits 0, 2, 9: 30 32 39
  auto* sorted = s.add_segments()->mutable_sorted_array()->mutable_u16_array();
  sorted->set_base(100);
  sorted->set_offsets(Le({1, 5}, 2));  // 101 105
  auto* any = s.add_segments()->mutable_array()->mutable_u32_array();
  any->set_base(1000);
  any->set_offsets(Le({70000, 3}, 4));  // 71000 1003
  LND_ASSERT_OK_AND_ASSIGN(auto ids, DecodeRowIdSequence(s.SerializeAsString(), 7, 13));
  EXPECT_EQ(
      ids, (std::vector<std::uint64_t>{10, 11, 12, 20, 22, 24, 30, 32, 39, 101, 105, 71000, 1003}));
  LND_ASSERT_OK_AND_ASSIGN(ids, DecodeRowIdSequence("", 7, 0));
  EXPECT_TRUE(ids.empty());
}

TEST(RowIdSequenceTest, CorruptSequencesNameTheFragment) {
  LND_EXPECT_ERROR(DecodeRowIdSequence(std::string("\x0a\xff", 2), 4, 1), StatusCode::kCorrupt,
                   "row id sequence of fragment 4 (2 bytes) is not a valid RowIdSequence");
  RowIdSequence s;
  Range(&s, 0, 10);
  LND_EXPECT_ERROR(DecodeRowIdSequence(s.SerializeAsString(), 4, 9), StatusCode::kCorrupt,
                   "fragment 4, segment 0: holds more row ids than the fragment's 9 physical rows");
  LND_EXPECT_ERROR(DecodeRowIdSequence(s.SerializeAsString(), 4, 11), StatusCode::kCorrupt,
                   "fragment 4 holds 10 row ids but the fragment has 11 physical rows");
  // A huge range must be refused before it is expanded.
  RowIdSequence huge;
  Range(&huge, 0, ~std::uint64_t{0});
  LND_EXPECT_ERROR(DecodeRowIdSequence(huge.SerializeAsString(), 4, 3), StatusCode::kCorrupt,
                   "holds more row ids than the fragment's 3 physical rows");

  RowIdSequence back;
  Range(&back, 5, 2);
  LND_EXPECT_ERROR(DecodeRowIdSequence(back.SerializeAsString(), 2, 3), StatusCode::kCorrupt,
                   "fragment 2, segment 0: range end 2 is before its start 5");

  RowIdSequence holes;
  auto* h = holes.add_segments()->mutable_range_with_holes();
  h->set_start(0);
  h->set_end(4);
  h->mutable_holes()->mutable_u64_array()->set_values(Le({9}, 8));
  LND_EXPECT_ERROR(DecodeRowIdSequence(holes.SerializeAsString(), 2, 3), StatusCode::kCorrupt,
                   "hole 9 is outside the range [0, 4)");
  h->mutable_holes()->mutable_u64_array()->set_values(Le({1}, 8) + "x");
  LND_EXPECT_ERROR(DecodeRowIdSequence(holes.SerializeAsString(), 2, 3), StatusCode::kCorrupt,
                   "u64 array of 9 bytes is not a multiple of 8");
  h->clear_holes();
  LND_EXPECT_ERROR(DecodeRowIdSequence(holes.SerializeAsString(), 2, 3), StatusCode::kCorrupt,
                   "encoded array has no values");

  RowIdSequence bits;
  auto* b = bits.add_segments()->mutable_range_with_bitmap();
  b->set_start(0);
  b->set_end(20);
  b->set_bitmap("ab");
  LND_EXPECT_ERROR(DecodeRowIdSequence(bits.SerializeAsString(), 6, 3), StatusCode::kCorrupt,
                   "fragment 6, segment 0: bitmap of 2 bytes for a range of 20 values (expected 3");

  RowIdSequence sorted;
  sorted.add_segments()->mutable_sorted_array()->mutable_u16_array()->set_offsets(Le({3, 2}, 2));
  LND_EXPECT_ERROR(DecodeRowIdSequence(sorted.SerializeAsString(), 6, 2), StatusCode::kCorrupt,
                   "sorted array is not strictly increasing at value 2");

  RowIdSequence overflow;
  auto* o = overflow.add_segments()->mutable_array()->mutable_u32_array();
  o->set_base(~std::uint64_t{0});
  o->set_offsets(Le({1}, 4));
  LND_EXPECT_ERROR(DecodeRowIdSequence(overflow.SerializeAsString(), 6, 1), StatusCode::kCorrupt,
                   "u32 value overflows");

  RowIdSequence empty;
  empty.add_segments();
  LND_EXPECT_ERROR(DecodeRowIdSequence(empty.SerializeAsString(), 6, 1), StatusCode::kCorrupt,
                   "segment has no known encoding");
}

TEST(RowIdSequenceTest, FragmentInlineAndMissingIds) {
  auto fs = io::MakeMemoryFileSystem();
  Fragment f;
  f.id = 3;
  f.physical_rows = 2;
  LND_ASSERT_OK_AND_ASSIGN(FragmentRowIds none, ReadFragmentRowIds(TableLocation(fs, "/t"), f));
  EXPECT_FALSE(none.present);

  RowIdSequence s;
  Range(&s, 40, 42);
  lance::table::DataFragment proto;
  proto.set_inline_row_ids(s.SerializeAsString());
  f.has_row_ids = true;
  f.unmodelled_proto = proto.SerializeAsString();
  LND_ASSERT_OK_AND_ASSIGN(FragmentRowIds ids, ReadFragmentRowIds(TableLocation(fs, "/t"), f));
  EXPECT_TRUE(ids.present);
  EXPECT_EQ(ids.ids, (std::vector<std::uint64_t>{40, 41}));

  f.unmodelled_proto.clear();
  LND_EXPECT_ERROR(ReadFragmentRowIds(TableLocation(fs, "/t"), f), StatusCode::kCorrupt,
                   "fragment 3 is marked as carrying row ids but none are stored");

  proto.mutable_external_row_ids()->set_path("_rowids/x.bin");
  proto.mutable_external_row_ids()->set_offset(0);
  proto.mutable_external_row_ids()->set_size(100);
  f.unmodelled_proto = proto.SerializeAsString();
  LND_EXPECT_ERROR(ReadFragmentRowIds(TableLocation(fs, "/t"), f), StatusCode::kNotFound,
                   "external row ids of fragment 3");

  // The sequence at offset 5 of an external file.
  const std::string seq = s.SerializeAsString();
  std::vector<std::uint8_t> file(5, 0xee);
  file.insert(file.end(), seq.begin(), seq.end());
  LND_ASSERT_OK(testing::WriteBytes(*fs, "/t/_rowids/x.bin", file));
  proto.mutable_external_row_ids()->set_offset(5);
  proto.mutable_external_row_ids()->set_size(seq.size());
  f.unmodelled_proto = proto.SerializeAsString();
  LND_ASSERT_OK_AND_ASSIGN(ids, ReadFragmentRowIds(TableLocation(fs, "/t"), f));
  EXPECT_EQ(ids.ids, (std::vector<std::uint64_t>{40, 41}));
  proto.mutable_external_row_ids()->set_size(seq.size() + 1);
  f.unmodelled_proto = proto.SerializeAsString();
  LND_EXPECT_ERROR(ReadFragmentRowIds(TableLocation(fs, "/t"), f), StatusCode::kCorrupt,
                   "external row ids of fragment 3 at offset 5, size " +
                       std::to_string(seq.size() + 1) + " lie past the end of '/t/_rowids/x.bin'");
}

}  // namespace
}  // namespace lance_nd::table::internal
