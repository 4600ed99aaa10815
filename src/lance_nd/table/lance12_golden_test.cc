// Manifests written by Lance 12 (LanceDB 0.39, tests/table_interop/make_lance_table.mjs):
// create 10 rows (v1), append 5 (v2), delete ids 3 and 12 (v3), add struct column extra (v4).
#include <gtest/gtest.h>

#include <cstdlib>

#include "lance_nd/table/dataset.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::table {
namespace {

std::string TablePath() {
  const char* src = std::getenv("LANCE_ND_SOURCE_DIR");
  return std::string(src ? src : ".") + "/src/lance_nd/table/testdata/lance12_nested.lance";
}

TEST(TableLance12Golden, VersionsAndCounts) {
  auto fs = io::LocalFileSystem();
  LND_ASSERT_OK_AND_ASSIGN(Dataset ds, Dataset::Open(fs, TablePath()));
  EXPECT_EQ(ds.version(), 4u);
  EXPECT_EQ(ds.versions().versions, (std::vector<std::uint64_t>{1, 2, 3, 4}));
  EXPECT_EQ(ds.versions().naming, ManifestNaming::kV2);
  EXPECT_EQ(ds.CountRows(), 13u);
  EXPECT_EQ(ds.manifest().data_format_version, "2.2");
  EXPECT_EQ(ds.manifest().writer_library, "lance");
  EXPECT_EQ(ds.manifest().max_fragment_id, std::optional<std::uint32_t>(1));
  EXPECT_EQ(ds.manifest().reader_feature_flags, kFlagDeletionFiles);
  ASSERT_TRUE(ds.transaction().has_value());
  EXPECT_EQ(ds.transaction()->operation, OperationType::kMerge);
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
    LND_ASSERT_OK_AND_ASSIGN(Dataset ds, Dataset::Open(fs, TablePath(), v));
    EXPECT_EQ(ds.CountRows(), expected_rows[v - 1]) << "version " << v;
    ASSERT_TRUE(ds.transaction().has_value());
    EXPECT_EQ(ds.transaction()->operation, expected_ops[v - 1]) << "version " << v;
    EXPECT_EQ(ds.transaction()->read_version, v - 1);
    EXPECT_EQ(ds.manifest().transaction_file.substr(0, 2), std::to_string(v - 1) + "-");
    EXPECT_EQ(ds.schema()->num_fields(), v == 4 ? 3 : 2);
  }
  LND_ASSERT_OK_AND_ASSIGN(Dataset v3, Dataset::Open(fs, TablePath(), 3));
  EXPECT_EQ(v3.transaction()->predicate, "id = 3 OR id = 12");
}

}  // namespace
}  // namespace lance_nd::table
