// Table scans over hand-built tables on an in-memory file system: multi-file fragments, later
// files winning, tombstones, fields missing from fragments (top-level and inside structs),
// deletions, projection, TakeRows, row addresses and damaged tables.
#include <gtest/gtest.h>

#include "lance_nd/array/builder.h"
#include "lance_nd/file/writer.h"
#include "lance_nd/table/deletion.h"
#include "lance_nd/table/scan.h"
#include "lance_nd/table/test_util.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::table {
namespace {

using array::ArrayPtr;
using std::optional;

ArrayPtr I64(std::vector<optional<std::int64_t>> v) {
  return array::MakePrimitiveArray<std::int64_t>(array::Int64(), v);
}
ArrayPtr F32(std::vector<optional<float>> v) {
  return array::MakePrimitiveArray<float>(array::Float32(), v);
}
ArrayPtr I32(std::vector<optional<std::int32_t>> v) {
  return array::MakePrimitiveArray<std::int32_t>(array::Int32(), v);
}

// Table: id int64 (0), s struct (1) {x float (2), y string (3)}, v int32 (4), w double (5).
std::vector<LanceField> TableFields() {
  return {{"id", 0, -1, "int64", false, {}}, {"s", 1, -1, "struct", true, {}},
          {"x", 2, 1, "float", true, {}},    {"y", 3, 1, "string", true, {}},
          {"v", 4, -1, "int32", true, {}},   {"w", 5, -1, "double", true, {}}};
}

class ScanTest : public ::testing::Test {
 protected:
  // Write data/<name> holding `columns` (top-level) with Lance field ids `ids`.
  DataFile WriteFile(const std::string& name, std::vector<array::FieldPtr> fields,
                     std::vector<ArrayPtr> columns, std::vector<std::int32_t> ids,
                     std::vector<std::int32_t> manifest_fields) {
    auto schema = array::MakeSchema(std::move(fields));
    const std::int64_t n = columns.at(0)->length;
    auto batch = array::RecordBatch::Make(schema, n, std::move(columns)).value();
    file::WriterOptions options;
    options.field_ids = std::move(ids);
    auto out = fs_->Create("/t/data/" + name).value();
    auto writer = file::FileWriter::Open(std::move(out), schema, options).value();
    EXPECT_TRUE(writer->Write(*batch).ok());
    file::WrittenFile written = writer->Finish().value();
    DataFile df;
    df.path = name;
    df.fields = std::move(manifest_fields);
    for (std::size_t i = 0; i < df.fields.size(); ++i) {
      df.column_indices.push_back(static_cast<std::int32_t>(i));
    }
    df.file_size_bytes = written.file_size;
    return df;
  }

  array::FieldPtr SField(bool with_y) {
    std::vector<array::FieldPtr> kids = {array::MakeField("x", array::Float32())};
    if (with_y) kids.push_back(array::MakeField("y", array::Utf8()));
    return array::MakeField("s", array::Struct(kids));
  }

  ArrayPtr SArray(std::vector<optional<float>> x, std::vector<bool> valid) {
    const auto n = static_cast<std::int64_t>(x.size());
    std::vector<std::uint8_t> bits(static_cast<std::size_t>((n + 7) / 8), 0);
    for (std::size_t i = 0; i < valid.size(); ++i) {
      if (valid[i]) bits[i / 8] |= static_cast<std::uint8_t>(1u << (i % 8));
    }
    return array::MakeArrayData(array::Struct({array::MakeField("x", array::Float32())}), n,
                                {array::Buffer::FromVector(bits)}, {F32(std::move(x))});
  }

  // Fragment 0 (4 rows): file a {id, s{x}}; file b {v} tombstoned (-2); file c {v} -> v.
  // Fragment 1 (3 rows): file d {id, s{x}}, file e {id} listed later -> id from e; no v.
  void MakeTable(std::optional<DeletionFile> deletion = std::nullopt) {
    Manifest m;
    m.version = 1;
    m.fields = TableFields();
    Fragment f0;
    f0.id = 0;
    f0.physical_rows = 4;
    f0.files.push_back(WriteFile(
        "a.lance", {array::MakeField("id", array::Int64(), false), SField(false)},
        {I64({0, 1, 2, 3}), SArray({0.5f, 1.5f, std::nullopt, 3.5f}, {true, true, true, false})},
        {0, 1, 2}, {0, 2}));
    f0.files.push_back(WriteFile("b.lance", {array::MakeField("v", array::Int32())},
                                 {I32({-1, -1, -1, -1})}, {4}, {-2}));
    f0.files.push_back(WriteFile("c.lance", {array::MakeField("v", array::Int32())},
                                 {I32({10, 11, std::nullopt, 13})}, {4}, {4}));
    f0.deletion_file = deletion;
    Fragment f1;
    f1.id = 5;
    f1.physical_rows = 3;
    f1.files.push_back(WriteFile(
        "d.lance", {array::MakeField("id", array::Int64(), false), SField(false)},
        {I64({-7, -7, -7}), SArray({4.f, 5.f, 6.f}, {true, true, true})}, {0, 1, 2}, {0, 2}));
    f1.files.push_back(WriteFile("e.lance", {array::MakeField("id", array::Int64(), false)},
                                 {I64({20, 21, 22})}, {0}, {0}));
    m.fragments = {f0, f1};
    m.max_fragment_id = 5;
    if (deletion) m.reader_feature_flags = m.writer_feature_flags = kFlagDeletionFiles;
    m.writer_library = "lance-nd";
    m.writer_version = "0.1.0";
    m.data_format_file_format = "lance";
    m.data_format_version = "2.2";
    auto bytes = SerializeManifestFile(m, nullptr).value();
    ASSERT_TRUE(
        testing::WriteBytes(*fs_, "/t/_versions/" + ManifestFileName(1, ManifestNaming::kV2), bytes)
            .ok());
  }

  Dataset Open() { return Dataset::Open(TableLocation(fs_, "/t")).value(); }

  std::shared_ptr<io::FileSystem> fs_ = io::MakeMemoryFileSystem();
};

std::string Render(const array::RecordBatch& b) {
  std::string out;
  for (int c = 0; c < b.num_columns(); ++c) {
    out += b.schema()->field(c)->name() + "=" + array::PrettyPrint(*b.column(c)) + "\n";
  }
  return out;
}

TEST_F(ScanTest, FilesMappedByFieldIdMissingFieldsNull) {
  MakeTable();
  Dataset ds = Open();
  LND_ASSERT_OK_AND_ASSIGN(auto batch, ReadTable(ds));
  LND_ASSERT_OK(batch->Validate());
  ASSERT_EQ(batch->num_rows(), 7);
  EXPECT_EQ(batch->schema()->ToString(), ds.schema()->ToString());
  auto expected = array::RecordBatch::Make(
      ds.schema(), 7,
      {I64({0, 1, 2, 3, 20, 21, 22}),
       array::MakeArrayData(ds.schema()->field(1)->type(), 7,
                            {array::Buffer::FromVector({0b1110111})},
                            {F32({0.5f, 1.5f, std::nullopt, 3.5f, 4.f, 5.f, 6.f}),
                             array::MakeArrayOfNulls(array::Utf8(), 7)}),
       I32({10, 11, std::nullopt, 13, std::nullopt, std::nullopt, std::nullopt}),
       array::MakeArrayOfNulls(array::Float64(), 7)});
  LND_ASSERT_OK(expected.status());
  EXPECT_TRUE(batch->Equals(**expected)) << Render(*batch) << "expected\n" << Render(**expected);
}

TEST_F(ScanTest, DeletionsRowAddressesAndBatches) {
  auto dv = DeletionVector({1, 3});
  DeletionFile df = WriteDeletionFile(TableLocation(fs_, "/t"), 0, 1, dv).value();
  MakeTable(df);
  Dataset ds = Open();
  EXPECT_EQ(ds.CountRows(), 5u);
  TableScanOptions o;
  o.projection = {"id"};
  o.with_row_address = true;
  o.batch_rows = 2;
  LND_ASSERT_OK_AND_ASSIGN(TableBatchReader reader, ScanTable(ds, o));
  EXPECT_EQ(reader.schema()->ToString(), "id: int64 not null\n_rowaddr: uint64 not null");
  std::vector<std::int64_t> ids;
  std::vector<std::uint64_t> addrs;
  std::vector<std::int64_t> sizes;
  while (true) {
    LND_ASSERT_OK_AND_ASSIGN(auto b, reader.Next());
    if (!b) break;
    sizes.push_back(b->num_rows());
    for (std::int64_t r = 0; r < b->num_rows(); ++r) {
      ids.push_back(b->column(0)->values<std::int64_t>()[r]);
      addrs.push_back(b->column(1)->values<std::uint64_t>()[r]);
    }
  }
  EXPECT_EQ(ids, (std::vector<std::int64_t>{0, 2, 20, 21, 22}));
  EXPECT_EQ(addrs,
            (std::vector<std::uint64_t>{0, 2, (5ull << 32), (5ull << 32) | 1, (5ull << 32) | 2}));
  EXPECT_EQ(sizes, (std::vector<std::int64_t>{2, 2, 1}));

  LND_ASSERT_OK_AND_ASSIGN(auto frag0, ReadFragment(ds, ds.fragments()[0], o));
  EXPECT_EQ(frag0->num_rows(), 2);
  EXPECT_EQ(frag0->column(1)->values<std::uint64_t>()[1], 2u);
}

TEST_F(ScanTest, TakeRowsByLogicalIndex) {
  DeletionFile df =
      WriteDeletionFile(TableLocation(fs_, "/t"), 0, 1, DeletionVector({0, 2})).value();
  MakeTable(df);
  Dataset ds = Open();  // live: id 1, 3 | 20, 21, 22
  TableScanOptions o;
  o.projection = {"id", "v"};
  const std::uint64_t rows[] = {4, 0, 1, 1, 2};
  LND_ASSERT_OK_AND_ASSIGN(auto b, TakeRows(ds, rows, o));
  ASSERT_EQ(b->num_rows(), 5);
  std::vector<std::int64_t> ids;
  for (std::int64_t r = 0; r < 5; ++r) ids.push_back(b->column(0)->values<std::int64_t>()[r]);
  EXPECT_EQ(ids, (std::vector<std::int64_t>{22, 1, 3, 3, 20}));
  EXPECT_TRUE(b->column(1)->IsNull(0));
  EXPECT_EQ(b->column(1)->values<std::int32_t>()[1], 11);
  const std::uint64_t bad[] = {5};
  LND_EXPECT_ERROR(TakeRows(ds, bad), StatusCode::kInvalidArgument,
                   "row 5 is out of range; the table has 5 rows");
}

TEST_F(ScanTest, FragmentTakerTakesManyTimesByLocalIndex) {
  DeletionFile df =
      WriteDeletionFile(TableLocation(fs_, "/t"), 0, 1, DeletionVector({0, 2})).value();
  MakeTable(df);
  Dataset ds = Open();  // live: id 1, 3 | 20, 21, 22
  TableScanOptions o;
  o.projection = {"id"};
  o.with_row_address = true;
  LND_ASSERT_OK_AND_ASSIGN(FragmentTaker first, FragmentTaker::Open(ds, ds.fragments()[0], o));
  LND_ASSERT_OK_AND_ASSIGN(FragmentTaker second, FragmentTaker::Open(ds, ds.fragments()[1], o));
  const auto ids = [](const array::RecordBatch& b) {
    std::vector<std::int64_t> out;
    for (std::int64_t r = 0; r < b.num_rows(); ++r) {
      out.push_back(b.column(0)->values<std::int64_t>()[r]);
    }
    return out;
  };
  const std::uint64_t a[] = {1, 0, 1};
  LND_ASSERT_OK_AND_ASSIGN(auto b1, first.Take(a));
  EXPECT_EQ(ids(*b1), (std::vector<std::int64_t>{3, 1, 3}));
  EXPECT_EQ(b1->column(1)->values<std::uint64_t>()[0], 3u);  // physical offset 3
  const std::uint64_t c[] = {2, 0};
  LND_ASSERT_OK_AND_ASSIGN(auto b2, second.Take(c));
  EXPECT_EQ(ids(*b2), (std::vector<std::int64_t>{22, 20}));
  LND_ASSERT_OK_AND_ASSIGN(auto b3, second.Take(std::span<const std::uint64_t>()));
  EXPECT_EQ(b3->num_rows(), 0);
  const std::uint64_t bad[] = {2};
  LND_EXPECT_ERROR(first.Take(bad), StatusCode::kInvalidArgument,
                   "row 2 is out of range; fragment 0 has 2 rows");
}

TEST_F(ScanTest, ProjectionByNameAndPath) {
  MakeTable();
  Dataset ds = Open();
  TableScanOptions o;
  o.projection = {"s.y", "id", "s.x"};
  LND_ASSERT_OK_AND_ASSIGN(auto b, ReadTable(ds, o));
  EXPECT_EQ(b->schema()->ToString(), "id: int64 not null\ns: struct<x: float, y: string>");
  o.projection = {"s.y"};
  LND_ASSERT_OK_AND_ASSIGN(b, ReadTable(ds, o));
  EXPECT_EQ(b->schema()->ToString(), "s: struct<y: string>");
  ASSERT_EQ(b->num_rows(), 7);
  // The struct's validity still comes from the files (row 3 of fragment 0 is a null struct),
  // even though only the missing child was asked for.
  EXPECT_TRUE(b->column(0)->IsNull(3)) << Render(*b);
  EXPECT_FALSE(b->column(0)->IsNull(2)) << Render(*b);
  EXPECT_TRUE(b->column(0)->children[0]->IsNull(0));
  o.projection = {"w"};
  LND_ASSERT_OK_AND_ASSIGN(b, ReadTable(ds, o));
  EXPECT_EQ(b->column(0)->null_count(), 7);
  o.projection = {"s.z"};
  LND_EXPECT_ERROR(ReadTable(ds, o), StatusCode::kInvalidArgument,
                   "projection 's.z': no field named 'z' in the struct");
  o.projection = {"id.q"};
  LND_EXPECT_ERROR(ReadTable(ds, o), StatusCode::kInvalidArgument, "'id' is not a struct");
  o.projection = {"_rowaddr"};
  LND_ASSERT_OK_AND_ASSIGN(b, ReadTable(ds, o));
  EXPECT_EQ(b->schema()->ToString(), "_rowaddr: uint64 not null");
  EXPECT_EQ(b->num_rows(), 7);
}

TEST_F(ScanTest, MissingDataFileNamesFragmentAndFile) {
  MakeTable();
  LND_ASSERT_OK(fs_->Delete("/t/data/c.lance"));
  Dataset ds = Open();
  LND_EXPECT_ERROR(ReadTable(ds), StatusCode::kNotFound,
                   "fragment 0: data file '/t/data/c.lance' does not exist; the table may be "
                   "damaged");
  // A projection that does not need the file still works.
  TableScanOptions o;
  o.projection = {"id"};
  LND_EXPECT_OK(ReadTable(ds, o).status());
}

TEST_F(ScanTest, CorruptDeletionFileIsReported) {
  DeletionFile df =
      WriteDeletionFile(TableLocation(fs_, "/t"), 0, 1, DeletionVector({1, 3})).value();
  df.num_deleted_rows = 3;  // the manifest disagrees with the file
  MakeTable(df);
  LND_EXPECT_ERROR(ReadTable(Open()), StatusCode::kCorrupt,
                   "holds 2 distinct deleted rows but the manifest says num_deleted_rows = 3");
  DeletionFile df2 =
      WriteDeletionFile(TableLocation(fs_, "/t"), 0, 1, DeletionVector({1, 9})).value();
  MakeTable(df2);
  LND_EXPECT_ERROR(ReadTable(Open()), StatusCode::kCorrupt,
                   "deletes row offset 9 but the fragment has only 4 physical rows");
}

TEST_F(ScanTest, RowCountMismatchIsCorrupt) {
  MakeTable();
  Dataset ds = Open();
  Fragment f = ds.fragments()[0];
  f.physical_rows = 5;
  LND_EXPECT_ERROR(ReadFragment(ds, f), StatusCode::kCorrupt,
                   "data file 'a.lance' holds 4 rows but the fragment says physical_rows = 5");
}

TEST_F(ScanTest, BadBatchRows) {
  MakeTable();
  TableScanOptions o;
  o.batch_rows = 0;
  LND_EXPECT_ERROR(ScanTable(Open(), o), StatusCode::kInvalidArgument, "batch_rows is 0");
}

}  // namespace
}  // namespace lance_nd::table
