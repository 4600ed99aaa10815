#include "lance_nd/table/dataset.h"

#include <gtest/gtest.h>

#include "lance_nd/table/test_util.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::table {
namespace {

using testing::SampleManifest;
using testing::WriteBytes;

Status PutVersion(io::FileSystem& fs, const std::string& table, const Manifest& m,
                  ManifestNaming naming) {
  LND_ASSIGN_OR_RETURN(auto bytes, SerializeManifestFile(m, nullptr));
  return WriteBytes(fs, table + "/_versions/" + ManifestFileName(m.version, naming), bytes);
}

class TableDatasetTest : public ::testing::Test {
 protected:
  std::shared_ptr<io::FileSystem> fs_ = io::MakeMemoryFileSystem();
  const std::string table_ = "db/t.lance";
};

TEST_F(TableDatasetTest, OpensLatestAndEachVersion) {
  for (std::uint64_t v = 1; v <= 3; ++v) {
    Manifest m = SampleManifest(v);
    m.fragments.resize(v == 1 ? 1 : 2);
    LND_ASSERT_OK(PutVersion(*fs_, table_, m, ManifestNaming::kV2));
  }
  // Staging / temp / hint names are invisible.
  LND_ASSERT_OK(WriteBytes(
      *fs_, table_ + "/_versions/" + ManifestFileName(4, ManifestNaming::kV2) + "#1", {1, 2, 3}));
  LND_ASSERT_OK(WriteBytes(*fs_, table_ + "/_versions/.tmpXYZ", {1}));
  LND_ASSERT_OK(WriteBytes(*fs_, table_ + "/_versions/latest_version_hint.json", {'{', '}'}));

  LND_ASSERT_OK_AND_ASSIGN(Dataset latest, Dataset::Open(fs_, table_));
  EXPECT_EQ(latest.version(), 3u);
  EXPECT_EQ(latest.versions().versions, (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_EQ(latest.versions().naming, ManifestNaming::kV2);
  EXPECT_EQ(latest.fragments().size(), 2u);
  EXPECT_EQ(latest.CountRows(), 13u);
  EXPECT_EQ(latest.schema()->num_fields(), 2);
  EXPECT_EQ(latest.manifest_path(), table_ + "/_versions/18446744073709551612.manifest");

  LND_ASSERT_OK_AND_ASSIGN(Dataset first, Dataset::Open(fs_, table_, 1));
  EXPECT_EQ(first.version(), 1u);
  EXPECT_EQ(first.CountRows(), 10u);

  LND_EXPECT_ERROR(Dataset::Open(fs_, table_, 7), StatusCode::kNotFound,
                   "has no version 7; its versions are 1..3");
}

TEST_F(TableDatasetTest, V1NamesWork) {
  LND_ASSERT_OK(PutVersion(*fs_, table_, SampleManifest(1), ManifestNaming::kV1));
  LND_ASSERT_OK(PutVersion(*fs_, table_, SampleManifest(2), ManifestNaming::kV1));
  LND_ASSERT_OK_AND_ASSIGN(Dataset ds, Dataset::Open(fs_, table_));
  EXPECT_EQ(ds.version(), 2u);
  EXPECT_EQ(ds.versions().naming, ManifestNaming::kV1);
  EXPECT_EQ(ds.manifest_path(), table_ + "/_versions/2.manifest");
}

TEST_F(TableDatasetTest, MixedNamingIsInvalid) {
  LND_ASSERT_OK(PutVersion(*fs_, table_, SampleManifest(1), ManifestNaming::kV2));
  LND_ASSERT_OK(PutVersion(*fs_, table_, SampleManifest(2), ManifestNaming::kV1));
  LND_EXPECT_ERROR(Dataset::Open(fs_, table_), StatusCode::kInvalidTable, "mixes V1");
}

TEST_F(TableDatasetTest, MissingTable) {
  LND_EXPECT_ERROR(Dataset::Open(fs_, "nowhere.lance"), StatusCode::kNotFound,
                   "no Lance table at 'nowhere.lance'");
  LND_ASSERT_OK(WriteBytes(*fs_, table_ + "/_versions/.tmp1", {1}));
  LND_EXPECT_ERROR(Dataset::Open(fs_, table_), StatusCode::kNotFound, "holds no committed");
}

TEST_F(TableDatasetTest, VersionMismatchAndUnsortedFragmentsAreCorrupt) {
  Manifest m = SampleManifest(5);
  LND_ASSERT_OK_AND_ASSIGN(auto bytes, SerializeManifestFile(m, nullptr));
  LND_ASSERT_OK(
      WriteBytes(*fs_, table_ + "/_versions/" + ManifestFileName(2, ManifestNaming::kV2), bytes));
  LND_EXPECT_ERROR(Dataset::Open(fs_, table_), StatusCode::kCorrupt,
                   "holds version 5 but its name says version 2");

  auto other = "db/u.lance";
  Manifest u = SampleManifest(1);
  std::swap(u.fragments[0], u.fragments[1]);
  LND_ASSERT_OK(PutVersion(*fs_, other, u, ManifestNaming::kV2));
  LND_EXPECT_ERROR(Dataset::Open(fs_, other), StatusCode::kCorrupt, "must be sorted");
}

TEST_F(TableDatasetTest, RefusesUnsupportedFeatures) {
  Manifest m = SampleManifest(1);
  m.reader_feature_flags = kFlagDeletionFiles | 1024;
  LND_ASSERT_OK(PutVersion(*fs_, table_, m, ManifestNaming::kV2));
  LND_EXPECT_ERROR(Dataset::Open(fs_, table_), StatusCode::kNotImplemented,
                   "reader feature flag bits lance-nd does not support: 1024");

  Manifest b = SampleManifest(1);
  b.branch = "dev";
  LND_ASSERT_OK(PutVersion(*fs_, "db/b.lance", b, ManifestNaming::kV2));
  LND_EXPECT_ERROR(Dataset::Open(fs_, "db/b.lance"), StatusCode::kNotImplemented, "branch 'dev'");
}

TEST_F(TableDatasetTest, ReadsStableRowIdTablesWritersRefuseThem) {
  Manifest m = SampleManifest(1);
  m.reader_feature_flags = m.writer_feature_flags = kFlagDeletionFiles | kFlagStableRowIds;
  LND_ASSERT_OK(PutVersion(*fs_, table_, m, ManifestNaming::kV2));
  LND_ASSERT_OK_AND_ASSIGN(Dataset ds, Dataset::Open(fs_, table_));
  EXPECT_EQ(ds.manifest().reader_feature_flags, kFlagDeletionFiles | kFlagStableRowIds);
  LND_EXPECT_ERROR(CheckWriterFeatureFlags(m.writer_feature_flags, "x.manifest"),
                   StatusCode::kNotImplemented,
                   "manifest 'x.manifest' sets writer feature flag bits lance-nd does not "
                   "support: 2 (stable row ids)");
  // Another unknown reader bit next to flag 2 is still refused.
  m.reader_feature_flags |= 1024;
  LND_ASSERT_OK(PutVersion(*fs_, "db/r2.lance", m, ManifestNaming::kV2));
  LND_EXPECT_ERROR(Dataset::Open(fs_, "db/r2.lance"), StatusCode::kNotImplemented,
                   "reader feature flag bits lance-nd does not support: 1024");
}

TEST_F(TableDatasetTest, CorruptManifestNamesTheFile) {
  LND_ASSERT_OK(WriteBytes(*fs_, table_ + "/_versions/1.manifest", {0, 1, 2, 3, 4}));
  LND_EXPECT_ERROR(Dataset::Open(fs_, table_), StatusCode::kCorrupt,
                   "_versions/1.manifest': file is 5 bytes");
}

}  // namespace
}  // namespace lance_nd::table
