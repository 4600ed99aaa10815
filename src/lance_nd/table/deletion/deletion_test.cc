#include <gtest/gtest.h>

#include <numeric>

#include "lance_nd/array/builder.h"
#include "lance_nd/array/ipc.h"
#include "lance_nd/table/deletion.h"
#include "lance_nd/table/deletion/roaring_portable.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::table {
namespace {

std::vector<std::uint8_t> Le16(std::initializer_list<std::uint16_t> values) {
  std::vector<std::uint8_t> out;
  for (std::uint16_t v : values) {
    out.push_back(static_cast<std::uint8_t>(v & 0xFF));
    out.push_back(static_cast<std::uint8_t>(v >> 8));
  }
  return out;
}

void Append(std::vector<std::uint8_t>& out, const std::vector<std::uint8_t>& more) {
  out.insert(out.end(), more.begin(), more.end());
}

TEST(DeletionVectorTest, SortedUniqueOperations) {
  DeletionVector dv({7, 3, 3, 9});
  EXPECT_EQ(dv.offsets(), (std::vector<std::uint32_t>{3, 7, 9}));
  EXPECT_TRUE(dv.Contains(7));
  EXPECT_FALSE(dv.Contains(8));
  EXPECT_TRUE(dv.Insert(8));
  EXPECT_FALSE(dv.Insert(8));
  const std::uint32_t more[] = {1, 9, 20, 1};
  dv.InsertMany(more);
  EXPECT_EQ(dv.offsets(), (std::vector<std::uint32_t>{1, 3, 7, 8, 9, 20}));
  dv.Union(DeletionVector({0, 21}));
  EXPECT_EQ(dv.size(), 8u);
  EXPECT_EQ(dv.CountBelow(8), 4u);
  EXPECT_EQ(dv.CountBelow(0), 0u);
  EXPECT_EQ(*dv.begin(), 0u);
}

TEST(DeletionFileTest, PreferredFormFollowsLance) {
  EXPECT_EQ(PreferredDeletionFileType(1), DeletionFileType::kArrowArray);
  EXPECT_EQ(PreferredDeletionFileType(5000), DeletionFileType::kArrowArray);
  EXPECT_EQ(PreferredDeletionFileType(5001), DeletionFileType::kBitmap);
}

TEST(DeletionFileTest, WriteReadBothForms) {
  auto fs = io::MakeMemoryFileSystem();
  for (std::size_t n : {std::size_t{3}, std::size_t{6000}}) {
    std::vector<std::uint32_t> offsets(n);
    for (std::size_t i = 0; i < n; ++i) offsets[i] = static_cast<std::uint32_t>(i * 7 + 1);
    DeletionVector dv(offsets);
    LND_ASSERT_OK_AND_ASSIGN(DeletionFile file,
                             WriteDeletionFile(TableLocation(fs, "/t"), 4, 9, dv));
    EXPECT_EQ(file.file_type,
              n <= 5000 ? DeletionFileType::kArrowArray : DeletionFileType::kBitmap);
    EXPECT_EQ(file.read_version, 9u);
    EXPECT_EQ(file.num_deleted_rows, n);
    const std::string rel = file.RelativePath(4);
    EXPECT_EQ(rel, "_deletions/4-9-" + std::to_string(file.id) + (n <= 5000 ? ".arrow" : ".bin"));
    LND_ASSERT_OK_AND_ASSIGN(bool exists, fs->Exists("/t/" + rel));
    EXPECT_TRUE(exists);
    LND_ASSERT_OK_AND_ASSIGN(DeletionVector back,
                             ReadDeletionFile(TableLocation(fs, "/t"), 4, file, 7 * n + 1));
    EXPECT_EQ(back, dv);
    Fragment frag;
    frag.id = 4;
    frag.physical_rows = 7 * n + 1;
    frag.deletion_file = file;
    LND_ASSERT_OK_AND_ASSIGN(back, ReadFragmentDeletions(TableLocation(fs, "/t"), frag));
    EXPECT_EQ(back, dv);
  }
}

TEST(DeletionFileTest, ExplicitBitmapForSmallVector) {
  auto fs = io::MakeMemoryFileSystem();
  DeletionVector dv({1, 2});
  LND_ASSERT_OK_AND_ASSIGN(DeletionFile file, WriteDeletionFile(TableLocation(fs, "/t"), 0, 1, dv,
                                                                DeletionFileType::kBitmap));
  EXPECT_EQ(file.RelativePath(0).substr(file.RelativePath(0).size() - 4), ".bin");
  LND_ASSERT_OK_AND_ASSIGN(DeletionVector back,
                           ReadDeletionFile(TableLocation(fs, "/t"), 0, file, 3));
  EXPECT_EQ(back, dv);
}

TEST(DeletionFileTest, EmptyVectorRefused) {
  auto fs = io::MakeMemoryFileSystem();
  LND_EXPECT_ERROR(WriteDeletionFile(TableLocation(fs, "/t"), 0, 1, DeletionVector()),
                   StatusCode::kInvalidArgument, "no deleted rows");
}

TEST(DeletionFileTest, MissingFileNamesItAndSaysDamaged) {
  auto fs = io::MakeMemoryFileSystem();
  DeletionFile file{DeletionFileType::kArrowArray, 3, 77, 1, std::nullopt};
  LND_EXPECT_ERROR(ReadDeletionFile(TableLocation(fs, "/t"), 2, file, 10), StatusCode::kNotFound,
                   "'/t/_deletions/2-3-77.arrow' of fragment 2 does not exist; the table may be "
                   "damaged");
}

TEST(DeletionFileTest, OffsetBeyondPhysicalRowsIsCorrupt) {
  for (auto type : {DeletionFileType::kArrowArray, DeletionFileType::kBitmap}) {
    LND_ASSERT_OK_AND_ASSIGN(auto bytes, SerializeDeletionVector(DeletionVector({2, 10}), type));
    LND_EXPECT_ERROR(ParseDeletionFile(bytes, type, 10, 2, "x"), StatusCode::kCorrupt,
                     "'x' deletes row offset 10 but the fragment has only 10 physical rows");
    LND_EXPECT_OK(ParseDeletionFile(bytes, type, 11, 2, "x").status());
  }
}

TEST(DeletionFileTest, CountMismatchIsCorrupt) {
  for (auto type : {DeletionFileType::kArrowArray, DeletionFileType::kBitmap}) {
    LND_ASSERT_OK_AND_ASSIGN(auto bytes, SerializeDeletionVector(DeletionVector({2, 5}), type));
    LND_EXPECT_ERROR(ParseDeletionFile(bytes, type, 10, 3, "x"), StatusCode::kCorrupt,
                     "holds 2 distinct deleted rows but the manifest says num_deleted_rows = 3");
    // 0 = unknown (older Lance versions): no count check.
    LND_EXPECT_OK(ParseDeletionFile(bytes, type, 10, 0, "x").status());
  }
}

TEST(DeletionFileTest, TruncatedFilesAreCorrupt) {
  for (auto type : {DeletionFileType::kArrowArray, DeletionFileType::kBitmap}) {
    LND_ASSERT_OK_AND_ASSIGN(auto bytes, SerializeDeletionVector(DeletionVector({2, 5, 9}), type));
    for (std::size_t cut : {std::size_t{0}, std::size_t{3}, bytes.size() / 2, bytes.size() - 1}) {
      std::vector<std::uint8_t> part(bytes.begin(), bytes.begin() + static_cast<long>(cut));
      auto r = ParseDeletionFile(part, type, 10, 3, "_deletions/0-1-2.x");
      ASSERT_FALSE(r.ok()) << "cut " << cut;
      EXPECT_EQ(r.status().code(), StatusCode::kCorrupt) << r.status().ToString();
      EXPECT_NE(r.status().message().find("_deletions/0-1-2.x"), std::string::npos)
          << r.status().ToString();
    }
  }
}

TEST(DeletionFileTest, ArrowSchemaMustBeNonNullUInt32RowId) {
  auto check = [](array::FieldPtr field, array::ArrayPtr column, const std::string& msg) {
    auto schema = array::MakeSchema({field});
    auto batch = array::RecordBatch::Make(schema, column->length, {column}).value();
    const array::RecordBatchPtr batches[] = {batch};
    auto bytes = array::ipc::WriteIpcFileBytes(schema, batches).value();
    LND_EXPECT_ERROR(ParseDeletionFile(bytes, DeletionFileType::kArrowArray, 10, 0, "f.arrow"),
                     StatusCode::kCorrupt, msg);
  };
  check(array::MakeField("row_id", array::Int32(), false),
        array::MakePrimitiveArray<std::int32_t>(array::Int32(), {1, 2}),
        "found schema {row_id: int32 not null}, expected exactly one field 'row_id: uint32 not "
        "null'");
  check(array::MakeField("row_id", array::UInt32(), true),
        array::MakePrimitiveArray<std::uint32_t>(array::UInt32(), {1, std::nullopt}),
        "found schema {row_id: uint32}");
  check(array::MakeField("rows", array::UInt32(), false),
        array::MakePrimitiveArray<std::uint32_t>(array::UInt32(), {1}), "found schema {rows");
}

TEST(DeletionFileTest, GarbageArrowIsCorrupt) {
  const std::vector<std::uint8_t> junk = {'A', 'R', 'R', 'O', 'W', '1', 0, 0, 1, 2, 3};
  LND_EXPECT_ERROR(ParseDeletionFile(junk, DeletionFileType::kArrowArray, 10, 0, "j.arrow"),
                   StatusCode::kCorrupt, "Arrow deletion file 'j.arrow': cannot be read");
}

// Hand-made portable Roaring files.
std::vector<std::uint8_t> NoRunHeader(std::uint32_t n) {
  std::vector<std::uint8_t> out = {0x3a, 0x30, 0, 0};
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(n >> (8 * i)));
  return out;
}

TEST(RoaringPortableTest, ArrayContainersAcrossKeys) {
  auto bytes = NoRunHeader(2);
  Append(bytes, Le16({0, 1, 1, 0}));        // key 0 card 2, key 1 card 1
  Append(bytes, {0, 0, 0, 0, 0, 0, 0, 0});  // offsets (ignored)
  Append(bytes, Le16({3, 9}));
  Append(bytes, Le16({4}));
  LND_ASSERT_OK_AND_ASSIGN(auto values, internal::ParseRoaringPortable(bytes, "a.bin", 100000));
  EXPECT_EQ(values, (std::vector<std::uint32_t>{3, 9, 65536 + 4}));
}

TEST(RoaringPortableTest, RunContainers) {
  // Cookie 12347, one container (no offsets below 4 containers), flagged as run.
  std::vector<std::uint8_t> bytes = {0x3b, 0x30, 0x00, 0x00, 0x01};
  Append(bytes, Le16({0, 5}));             // key 0, card 6
  Append(bytes, Le16({2, 10, 2, 20, 2}));  // 2 runs: [10,12], [20,22]
  LND_ASSERT_OK_AND_ASSIGN(auto values, internal::ParseRoaringPortable(bytes, "r.bin", 100));
  EXPECT_EQ(values, (std::vector<std::uint32_t>{10, 11, 12, 20, 21, 22}));
  LND_ASSERT_OK_AND_ASSIGN(DeletionVector dv,
                           ParseDeletionFile(bytes, DeletionFileType::kBitmap, 23, 6, "r.bin"));
  EXPECT_EQ(dv.size(), 6u);

  auto overlap = bytes;
  overlap[overlap.size() - 4] = 11;  // second run starts at 11, inside the first
  LND_EXPECT_ERROR(internal::ParseRoaringPortable(overlap, "r.bin", 100), StatusCode::kCorrupt,
                   "runs are unsorted or overlap");
  auto bad_card = bytes;
  bad_card[7] = 6;  // header says 7 values
  LND_EXPECT_ERROR(internal::ParseRoaringPortable(bad_card, "r.bin", 100), StatusCode::kCorrupt,
                   "its runs hold 6 values but its header says 7");
}

TEST(RoaringPortableTest, BitmapContainerAndCardinality) {
  std::vector<std::uint32_t> values(5000);
  std::iota(values.begin(), values.end(), 100);
  LND_ASSERT_OK_AND_ASSIGN(auto bytes, internal::SerializeRoaringPortable(values));
  LND_ASSERT_OK_AND_ASSIGN(auto back, internal::ParseRoaringPortable(bytes, "b.bin", 5000));
  EXPECT_EQ(back, values);
  LND_EXPECT_ERROR(internal::ParseRoaringPortable(bytes, "b.bin", 4999), StatusCode::kCorrupt,
                   "header says 5000 values, expected at most 4999");
  auto flipped = bytes;
  ASSERT_FALSE(flipped.empty());
  flipped.back() ^= 0x80;  // one more bit set in the bitmap container
  LND_EXPECT_ERROR(internal::ParseRoaringPortable(flipped, "b.bin", 10000), StatusCode::kCorrupt,
                   "its bitmap holds 5001 values but its header says 5000");
}

TEST(RoaringPortableTest, MalformedHeaders) {
  const std::vector<std::uint8_t> cookie = {1, 2, 3, 4};
  LND_EXPECT_ERROR(internal::ParseRoaringPortable(cookie, "c.bin", 10), StatusCode::kCorrupt,
                   "found cookie 513, expected 12346 or 12347");
  auto unsorted = NoRunHeader(1);
  Append(unsorted, Le16({0, 1}));
  Append(unsorted, {0, 0, 0, 0});
  Append(unsorted, Le16({9, 3}));
  LND_EXPECT_ERROR(internal::ParseRoaringPortable(unsorted, "u.bin", 10), StatusCode::kCorrupt,
                   "array values are not strictly increasing (3 after 9)");
  auto keys = NoRunHeader(2);
  Append(keys, Le16({1, 0, 1, 0}));
  LND_EXPECT_ERROR(internal::ParseRoaringPortable(keys, "k.bin", 10), StatusCode::kCorrupt,
                   "container keys are not strictly increasing");
  auto trailing = NoRunHeader(1);
  Append(trailing, Le16({0, 0}));
  Append(trailing, {0, 0, 0, 0});
  Append(trailing, Le16({5, 0}));
  LND_EXPECT_ERROR(internal::ParseRoaringPortable(trailing, "t.bin", 10), StatusCode::kCorrupt,
                   "found 2 trailing bytes");
  auto many = NoRunHeader(70000);
  LND_EXPECT_ERROR(internal::ParseRoaringPortable(many, "m.bin", 10), StatusCode::kCorrupt,
                   "70000 containers");
}

}  // namespace
}  // namespace lance_nd::table
