// Manifests written by Lance 12 (LanceDB 0.39, tests/table_interop/make_lance_table.mjs):
// create 10 rows (v1), append 5 (v2), delete ids 3 and 12 (v3), add struct column extra (v4).
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>

#include "lance_nd/table/dataset.h"
#include "lance_nd/table/deletion.h"
#include "lance_nd/table/scan.h"
#include "lance_nd/testing/status_matchers.h"
#include "lance_nd/testing/test_env.h"

namespace lance_nd::table {
namespace {

std::string TablePath() {
  return lance_nd::testing::SourcePath("src/lance_nd/table/testdata/lance12_nested.lance");
}

TEST(TableLance12Golden, VersionsAndCounts) {
  auto fs = io::LocalFileSystem();
  LND_ASSERT_OK_AND_ASSIGN(Dataset ds, Dataset::Open(TableLocation(fs, TablePath())));
  EXPECT_EQ(ds.version(), 4u);
  EXPECT_EQ(ds.versions().versions, (std::vector<std::uint64_t>{1, 2, 3, 4}));
  EXPECT_EQ(ds.versions().naming, ManifestNaming::kV2);
  EXPECT_EQ(ds.CountRows(), 13u);
  EXPECT_EQ(ds.manifest().data_format_version, "2.2");
  EXPECT_EQ(ds.manifest().writer_library, "lance");
  EXPECT_EQ(ds.manifest().max_fragment_id, std::optional<std::uint32_t>(1));
  EXPECT_EQ(ds.manifest().reader_feature_flags, kFlagDeletionFiles);
  ASSERT_TRUE(ds.transaction().has_value());
  EXPECT_EQ(ds.transaction()->type(), OperationType::kMerge);
  EXPECT_EQ(ds.transaction()->read_version, 3u);

  ASSERT_EQ(ds.schema()->num_fields(), 3);
  EXPECT_EQ(ds.schema()->field(0)->ToString(), "id: int64 not null");
  EXPECT_EQ(ds.schema()->field(1)->type()->ToString(),
            "struct<x: float, tags: list<item: string>>");
  EXPECT_EQ(ds.schema()->field(2)->type()->ToString(), "struct<note: string>");

  ASSERT_EQ(ds.fragments().size(), 2u);
  const Fragment& f0 = ds.fragments()[0];
  EXPECT_EQ(f0.id, 0u);
  EXPECT_EQ(f0.physical_rows, 10u);
  ASSERT_EQ(f0.files.size(), 1u);
  EXPECT_EQ(f0.files[0].fields, (std::vector<std::int32_t>{0, 2, 4}));
  EXPECT_EQ(f0.files[0].column_indices, (std::vector<std::int32_t>{0, 1, 2}));
  EXPECT_EQ(f0.files[0].file_minor_version, 2u);
  ASSERT_TRUE(f0.deletion_file.has_value());
  EXPECT_EQ(f0.deletion_file->file_type, DeletionFileType::kArrowArray);
  EXPECT_EQ(f0.deletion_file->num_deleted_rows, 1u);
  EXPECT_EQ(f0.deletion_file->read_version, 2u);
  LND_ASSERT_OK_AND_ASSIGN(bool exists,
                           fs->Exists(TablePath() + "/" + f0.deletion_file->RelativePath(f0.id)));
  EXPECT_TRUE(exists);
  LND_ASSERT_OK_AND_ASSIGN(exists, fs->Exists(TablePath() + "/data/" + f0.files[0].path));
  EXPECT_TRUE(exists);
}

TEST(TableLance12Golden, OlderVersions) {
  auto fs = io::LocalFileSystem();
  const std::uint64_t expected_rows[] = {10, 15, 13, 13};
  const OperationType expected_ops[] = {OperationType::kOverwrite, OperationType::kAppend,
                                        OperationType::kDelete, OperationType::kMerge};
  for (std::uint64_t v = 1; v <= 4; ++v) {
    LND_ASSERT_OK_AND_ASSIGN(Dataset ds, Dataset::Open(TableLocation(fs, TablePath()), v));
    EXPECT_EQ(ds.CountRows(), expected_rows[v - 1]) << "version " << v;
    ASSERT_TRUE(ds.transaction().has_value());
    EXPECT_EQ(ds.transaction()->type(), expected_ops[v - 1]) << "version " << v;
    EXPECT_EQ(ds.transaction()->read_version, v - 1);
    EXPECT_EQ(ds.manifest().transaction_file.substr(0, 2), std::to_string(v - 1) + "-");
    EXPECT_EQ(ds.schema()->num_fields(), v == 4 ? 3 : 2);
  }
  LND_ASSERT_OK_AND_ASSIGN(Dataset v3, Dataset::Open(TableLocation(fs, TablePath()), 3));
  ASSERT_NE(v3.transaction()->get<op::Delete>(), nullptr);
  EXPECT_EQ(v3.transaction()->get<op::Delete>()->predicate, "id = 3 OR id = 12");
}

// Rows as the generating script (make_lance_table.mjs) defines them: id i, s = {x: i * 0.5,
// tags: ["t<i>", "k"]}, and from version 4 a struct column `extra` that is null everywhere.
std::string ExpectedRow(std::int64_t i, bool with_extra) {
  std::ostringstream out;
  out << i << "|" << static_cast<float>(i) * 0.5f << "|[t" << i << ",k]";
  if (with_extra) out << "|null";
  return out.str();
}

std::vector<std::string> RenderRows(const array::RecordBatch& b) {
  std::vector<std::string> rows;
  const array::ArrayData& id = *b.column(0);
  const array::ArrayData& s = *b.column(1);
  const array::ArrayData& x = *s.children.at(0);
  const array::ArrayData& tags = *s.children.at(1);
  const array::ArrayData& item = *tags.children.at(0);
  for (std::int64_t r = 0; r < b.num_rows(); ++r) {
    std::ostringstream out;
    out << id.values<std::int64_t>()[r] << "|";
    if (s.IsNull(r) || x.IsNull(r)) {
      out << "null";
    } else {
      out << x.values<float>()[r];
    }
    out << "|[";
    const auto* list_offsets = tags.values<std::int32_t>(1);
    const auto* str_offsets = item.values<std::int32_t>(1);
    const char* chars = reinterpret_cast<const char*>(item.buffers.at(2)->data());
    for (std::int32_t j = list_offsets[r]; j < list_offsets[r + 1]; ++j) {
      out << (j > list_offsets[r] ? "," : "")
          << std::string(chars + str_offsets[j], chars + str_offsets[j + 1]);
    }
    out << "]";
    if (b.num_columns() > 2) out << "|" << (b.column(2)->IsNull(r) ? "null" : "set");
    rows.push_back(out.str());
  }
  return rows;
}

TEST(TableLance12Golden, ScanEveryVersion) {
  auto fs = io::LocalFileSystem();
  const std::vector<std::int64_t> live_v3 = {0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14};
  for (std::uint64_t v = 1; v <= 4; ++v) {
    LND_ASSERT_OK_AND_ASSIGN(Dataset ds, Dataset::Open(TableLocation(fs, TablePath()), v));
    std::vector<std::int64_t> ids;
    if (v == 1) {
      for (std::int64_t i = 0; i < 10; ++i) ids.push_back(i);
    } else if (v == 2) {
      for (std::int64_t i = 0; i < 15; ++i) ids.push_back(i);
    } else {
      ids = live_v3;
    }
    std::vector<std::string> expected;
    for (std::int64_t i : ids) expected.push_back(ExpectedRow(i, v == 4));
    TableScanOptions o;
    o.batch_rows = 4;
    LND_ASSERT_OK_AND_ASSIGN(auto batch, ReadTable(ds, o));
    LND_ASSERT_OK(batch->Validate());
    EXPECT_EQ(batch->schema()->ToString(), ds.schema()->ToString()) << "version " << v;
    EXPECT_EQ(RenderRows(*batch), expected) << "version " << v;
    EXPECT_EQ(static_cast<std::uint64_t>(batch->num_rows()), ds.CountRows());
  }
}

TEST(TableLance12Golden, DeletionFilesAndTake) {
  auto fs = io::LocalFileSystem();
  LND_ASSERT_OK_AND_ASSIGN(Dataset ds, Dataset::Open(TableLocation(fs, TablePath())));
  LND_ASSERT_OK_AND_ASSIGN(
      DeletionVector d0, ReadFragmentDeletions(TableLocation(fs, TablePath()), ds.fragments()[0]));
  EXPECT_EQ(d0.offsets(), (std::vector<std::uint32_t>{3}));  // id 3
  LND_ASSERT_OK_AND_ASSIGN(
      DeletionVector d1, ReadFragmentDeletions(TableLocation(fs, TablePath()), ds.fragments()[1]));
  EXPECT_EQ(d1.offsets(), (std::vector<std::uint32_t>{2}));  // id 12
  const std::uint64_t rows[] = {11, 3, 9, 0};
  LND_ASSERT_OK_AND_ASSIGN(auto taken, TakeRows(ds, rows));
  EXPECT_EQ(RenderRows(*taken),
            (std::vector<std::string>{ExpectedRow(13, true), ExpectedRow(4, true),
                                      ExpectedRow(10, true), ExpectedRow(0, true)}));
  TableScanOptions o;
  o.projection = {"extra.note", "id"};
  o.with_row_address = true;
  LND_ASSERT_OK_AND_ASSIGN(auto b, ReadTable(ds, o));
  EXPECT_EQ(b->schema()->ToString(),
            "id: int64 not null\nextra: struct<note: string>\n_rowaddr: uint64 not null");
  EXPECT_EQ(b->column(1)->null_count(), 13);
  EXPECT_EQ(b->column(2)->values<std::uint64_t>()[3], 4u);                 // id 4 at offset 4
  EXPECT_EQ(b->column(2)->values<std::uint64_t>()[11], (1ull << 32) | 3);  // id 13
}

}  // namespace
}  // namespace lance_nd::table

namespace lance_nd::table {
namespace {

// tests/table_read_testdata/make_deletions_table.mjs: deletion files of both forms (a 5010-row
// bitmap in fragment 0, a 2-row Arrow file in fragment 1) and a key added to struct s.
std::string DeletionsTablePath() {
  return lance_nd::testing::SourcePath("src/lance_nd/table/testdata/lance12_deletions.lance");
}

std::vector<std::string> RenderIdSRows(const array::RecordBatch& b) {
  std::vector<std::string> rows;
  const array::ArrayData& id = *b.column(0);
  const array::ArrayData& s = *b.column(1);
  for (std::int64_t r = 0; r < b.num_rows(); ++r) {
    std::string row = std::to_string(id.values<std::int32_t>()[r]) + "|";
    const array::ArrayData& a = *s.children.at(0);
    row += s.IsNull(r) || a.IsNull(r) ? "null" : std::to_string(a.values<std::int32_t>()[r]);
    if (s.children.size() > 1) {
      const array::ArrayData& bcol = *s.children[1];
      if (bcol.IsNull(r)) {
        row += "|null";
      } else {
        const auto* off = bcol.values<std::int32_t>(1);
        const char* chars = reinterpret_cast<const char*>(bcol.buffers.at(2)->data());
        row += "|" + std::string(chars + off[r], chars + off[r + 1]);
      }
    }
    rows.push_back(row);
  }
  return rows;
}

TEST(TableLance12Golden, BothDeletionFormsAndStructChildEvolution) {
  auto fs = io::LocalFileSystem();
  std::vector<std::int32_t> live;
  for (std::int32_t i = 5010; i < 5210; ++i) {
    if (i != 5201 && i != 5203) live.push_back(i);
  }
  for (std::uint64_t v : {3, 4, 5}) {
    LND_ASSERT_OK_AND_ASSIGN(Dataset ds, Dataset::Open(TableLocation(fs, DeletionsTablePath()), v));
    if (v == 3) {
      ASSERT_EQ(ds.fragments().size(), 2u);
      EXPECT_EQ(ds.fragments()[0].deletion_file->file_type, DeletionFileType::kBitmap);
      EXPECT_EQ(ds.fragments()[1].deletion_file->file_type, DeletionFileType::kArrowArray);
    }
    std::vector<std::string> expected;
    for (std::int32_t i : live) {
      expected.push_back(std::to_string(i) + "|" + std::to_string(i * 2) + (v >= 4 ? "|null" : ""));
    }
    if (v == 5) {
      for (std::int32_t i = 6000; i < 6003; ++i) {
        expected.push_back(std::to_string(i) + "|" + std::to_string(i * 2) + "|b" +
                           std::to_string(i));
      }
    }
    TableScanOptions o;
    o.batch_rows = 64;
    LND_ASSERT_OK_AND_ASSIGN(auto batch, ReadTable(ds, o));
    LND_ASSERT_OK(batch->Validate());
    EXPECT_EQ(RenderIdSRows(*batch), expected) << "version " << v;
    EXPECT_EQ(static_cast<std::uint64_t>(batch->num_rows()), ds.CountRows());
    if (v == 5) {
      // Only the new key: old fragments give null children inside non-null structs (Lance 12
      // itself fails this projection while old fragments exist).
      o.projection = {"s.b"};
      LND_ASSERT_OK_AND_ASSIGN(auto only_b, ReadTable(ds, o));
      EXPECT_EQ(only_b->schema()->ToString(), "s: struct<b: string>");
      EXPECT_EQ(only_b->column(0)->null_count(), 0);
      EXPECT_EQ(only_b->column(0)->children[0]->null_count(),
                static_cast<std::int64_t>(live.size()));
    }
  }
}

}  // namespace
}  // namespace lance_nd::table
