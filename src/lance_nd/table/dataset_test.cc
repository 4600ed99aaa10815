#include "lance_nd/table/dataset.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "lance_nd/file/lance_schema.h"
#include "lance_nd/table/scan.h"
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

  LND_ASSERT_OK_AND_ASSIGN(Dataset latest, Dataset::Open(TableLocation(fs_, table_)));
  EXPECT_EQ(latest.version(), 3u);
  EXPECT_EQ(latest.versions().versions, (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_EQ(latest.versions().naming, ManifestNaming::kV2);
  EXPECT_EQ(latest.fragments().size(), 2u);
  EXPECT_EQ(latest.CountRows(), 13u);
  EXPECT_EQ(latest.schema()->num_fields(), 2);
  EXPECT_EQ(latest.manifest_path(), table_ + "/_versions/18446744073709551612.manifest");

  LND_ASSERT_OK_AND_ASSIGN(Dataset first, Dataset::Open(TableLocation(fs_, table_), 1));
  EXPECT_EQ(first.version(), 1u);
  EXPECT_EQ(first.CountRows(), 10u);

  LND_EXPECT_ERROR(Dataset::Open(TableLocation(fs_, table_), 7), StatusCode::kNotFound,
                   "has no version 7; its versions are 1..3");
}

TEST_F(TableDatasetTest, V1NamesWork) {
  LND_ASSERT_OK(PutVersion(*fs_, table_, SampleManifest(1), ManifestNaming::kV1));
  LND_ASSERT_OK(PutVersion(*fs_, table_, SampleManifest(2), ManifestNaming::kV1));
  LND_ASSERT_OK_AND_ASSIGN(Dataset ds, Dataset::Open(TableLocation(fs_, table_)));
  EXPECT_EQ(ds.version(), 2u);
  EXPECT_EQ(ds.versions().naming, ManifestNaming::kV1);
  EXPECT_EQ(ds.manifest_path(), table_ + "/_versions/2.manifest");
}

TEST_F(TableDatasetTest, MixedNamingIsInvalid) {
  LND_ASSERT_OK(PutVersion(*fs_, table_, SampleManifest(1), ManifestNaming::kV2));
  LND_ASSERT_OK(PutVersion(*fs_, table_, SampleManifest(2), ManifestNaming::kV1));
  LND_EXPECT_ERROR(Dataset::Open(TableLocation(fs_, table_)), StatusCode::kInvalidTable,
                   "mixes V1");
}

TEST_F(TableDatasetTest, MissingTable) {
  LND_EXPECT_ERROR(Dataset::Open(TableLocation(fs_, "nowhere.lance")), StatusCode::kNotFound,
                   "no Lance table at 'nowhere.lance'");
  LND_ASSERT_OK(WriteBytes(*fs_, table_ + "/_versions/.tmp1", {1}));
  LND_EXPECT_ERROR(Dataset::Open(TableLocation(fs_, table_)), StatusCode::kNotFound,
                   "holds no committed");
}

TEST_F(TableDatasetTest, VersionMismatchAndRepeatedFragmentIdsAreCorrupt) {
  Manifest m = SampleManifest(5);
  LND_ASSERT_OK_AND_ASSIGN(auto bytes, SerializeManifestFile(m, nullptr));
  LND_ASSERT_OK(
      WriteBytes(*fs_, table_ + "/_versions/" + ManifestFileName(2, ManifestNaming::kV2), bytes));
  LND_EXPECT_ERROR(Dataset::Open(TableLocation(fs_, table_)), StatusCode::kCorrupt,
                   "holds version 5 but its name says version 2");

  auto other = "db/u.lance";
  Manifest u = SampleManifest(1);
  u.fragments[1].id = u.fragments[0].id;
  LND_ASSERT_OK(PutVersion(*fs_, other, u, ManifestNaming::kV2));
  LND_EXPECT_ERROR(Dataset::Open(TableLocation(fs_, other)), StatusCode::kCorrupt,
                   "must be unique");
  // Ids need not increase along the list: after a compaction Lance puts the new fragments
  // where the old ones were, and the list is the table's row order.
  auto third = "db/v.lance";
  Manifest v = SampleManifest(1);
  std::swap(v.fragments[0], v.fragments[1]);
  LND_ASSERT_OK(PutVersion(*fs_, third, v, ManifestNaming::kV2));
  LND_ASSERT_OK_AND_ASSIGN(Dataset opened, Dataset::Open(TableLocation(fs_, third)));
  EXPECT_EQ(opened.fragments(), v.fragments);
}

TEST_F(TableDatasetTest, RefusesUnsupportedFeatures) {
  Manifest m = SampleManifest(1);
  m.reader_feature_flags = kFlagDeletionFiles | 1024;
  LND_ASSERT_OK(PutVersion(*fs_, table_, m, ManifestNaming::kV2));
  LND_EXPECT_ERROR(Dataset::Open(TableLocation(fs_, table_)), StatusCode::kNotImplemented,
                   "reader feature flag bits lance-nd does not support: 1024");

  Manifest b = SampleManifest(1);
  b.branch = "dev";
  LND_ASSERT_OK(PutVersion(*fs_, "db/b.lance", b, ManifestNaming::kV2));
  LND_EXPECT_ERROR(Dataset::Open(TableLocation(fs_, "db/b.lance")), StatusCode::kNotImplemented,
                   "branch 'dev'");
}

TEST_F(TableDatasetTest, ReadsStableRowIdTablesWritersRefuseThem) {
  Manifest m = SampleManifest(1);
  m.reader_feature_flags = m.writer_feature_flags = kFlagDeletionFiles | kFlagStableRowIds;
  LND_ASSERT_OK(PutVersion(*fs_, table_, m, ManifestNaming::kV2));
  LND_ASSERT_OK_AND_ASSIGN(Dataset ds, Dataset::Open(TableLocation(fs_, table_)));
  EXPECT_EQ(ds.manifest().reader_feature_flags, kFlagDeletionFiles | kFlagStableRowIds);
  LND_EXPECT_ERROR(CheckWriterFeatureFlags(m.writer_feature_flags, "x.manifest"),
                   StatusCode::kNotImplemented,
                   "manifest 'x.manifest' sets writer feature flag bits lance-nd does not "
                   "support: 2 (stable row ids)");
  // Another unknown reader bit next to flag 2 is still refused.
  m.reader_feature_flags |= 1024;
  LND_ASSERT_OK(PutVersion(*fs_, "db/r2.lance", m, ManifestNaming::kV2));
  LND_EXPECT_ERROR(Dataset::Open(TableLocation(fs_, "db/r2.lance")), StatusCode::kNotImplemented,
                   "reader feature flag bits lance-nd does not support: 1024");
}

TEST_F(TableDatasetTest, CorruptManifestNamesTheFile) {
  LND_ASSERT_OK(WriteBytes(*fs_, table_ + "/_versions/1.manifest", {0, 1, 2, 3, 4}));
  LND_EXPECT_ERROR(Dataset::Open(TableLocation(fs_, table_)), StatusCode::kCorrupt,
                   "_versions/1.manifest': file is 5 bytes");
}

TEST_F(TableDatasetTest, FromManifestChecksLikeOpen) {
  LND_ASSERT_OK(PutVersion(*fs_, table_, SampleManifest(1), ManifestNaming::kV1));
  LND_ASSERT_OK(PutVersion(*fs_, table_, SampleManifest(2), ManifestNaming::kV1));
  LND_ASSERT_OK_AND_ASSIGN(Dataset opened, Dataset::Open(TableLocation(fs_, table_)));
  ManifestFile file;
  file.manifest = opened.manifest();
  LND_ASSERT_OK_AND_ASSIGN(
      Dataset built, Dataset::FromManifest(TableLocation(fs_, table_), file, opened.versions()));
  EXPECT_EQ(built.version(), 2u);
  EXPECT_EQ(built.manifest_path(), opened.manifest_path());
  EXPECT_EQ(built.manifest_path(), table_ + "/_versions/2.manifest");
  EXPECT_EQ(built.fragments(), opened.fragments());
  EXPECT_TRUE(built.schema()->Equals(*opened.schema(), true));
  EXPECT_FALSE(built.transaction().has_value());

  VersionList wrong;
  wrong.versions = {1, 3};
  LND_EXPECT_ERROR(Dataset::FromManifest(TableLocation(fs_, table_), file, wrong),
                   StatusCode::kInvalidArgument, "does not contain the manifest's version 2");
  LND_EXPECT_ERROR(Dataset::FromManifest(TableLocation(nullptr, table_), file, opened.versions()),
                   StatusCode::kInvalidArgument, "needs a file system");
  ManifestFile repeated = file;
  repeated.manifest.fragments[1].id = repeated.manifest.fragments[0].id;
  LND_EXPECT_ERROR(Dataset::FromManifest(TableLocation(fs_, table_), repeated, opened.versions()),
                   StatusCode::kCorrupt, "must be unique");
  ManifestFile branch = file;
  branch.manifest.branch = "dev";
  LND_EXPECT_ERROR(Dataset::FromManifest(TableLocation(fs_, table_), branch, opened.versions()),
                   StatusCode::kNotImplemented, "branch 'dev'");
  ManifestFile flags = file;
  flags.manifest.reader_feature_flags |= 1024;
  LND_EXPECT_ERROR(Dataset::FromManifest(TableLocation(fs_, table_), flags, opened.versions()),
                   StatusCode::kNotImplemented, "not support: 1024");
  ManifestFile bad_tree = file;
  bad_tree.manifest.fields[0].logical_type = "list";  // a list without an item field
  LND_EXPECT_ERROR(Dataset::FromManifest(TableLocation(fs_, table_), bad_tree, opened.versions()),
                   StatusCode::kCorrupt, "is a list with 0 child fields");
  // A type lance-nd does not read does not block the table: the field is marked, and only a
  // scan that projects it is refused.
  ManifestFile odd_type = file;
  odd_type.manifest.fields[0].logical_type = "no-such-type";
  LND_ASSERT_OK_AND_ASSIGN(
      auto odd, Dataset::FromManifest(TableLocation(fs_, table_), odd_type, opened.versions()));
  const auto& odd_field = *odd.schema()->field(0);
  EXPECT_TRUE(file::UnsupportedFieldReason(odd_field).has_value());
  LND_EXPECT_ERROR(ReadTable(odd), StatusCode::kNotImplemented,
                   "logical type 'no-such-type' is not supported by lance-nd");
}

// The hint file is advisory: Open never takes a version from it (a stale hint would make a
// probing reader return an old version when versions above hint + 1 exist but hint + 1 was
// cleaned up), so stale, too-high and broken hints change nothing.
TEST_F(TableDatasetTest, HintFileNeverDecidesTheLatestVersion) {
  for (std::uint64_t v = 1; v <= 4; ++v) {
    LND_ASSERT_OK(PutVersion(*fs_, table_, SampleManifest(v), ManifestNaming::kV2));
  }
  // A gap: version 2 cleaned up (say version 1 is tagged), the hint left at 1.
  LND_ASSERT_OK(fs_->Delete(table_ + "/_versions/" + ManifestFileName(2, ManifestNaming::kV2)));
  for (const std::string hint :
       {R"({"version":1})", R"({"version":3})", R"({"version":99})", "{\"vers", "", "not json"}) {
    SCOPED_TRACE("hint '" + hint + "'");
    LND_ASSERT_OK(WriteBytes(*fs_, table_ + "/_versions/latest_version_hint.json",
                             std::vector<std::uint8_t>(hint.begin(), hint.end())));
    LND_ASSERT_OK_AND_ASSIGN(Dataset ds, Dataset::Open(TableLocation(fs_, table_)));
    EXPECT_EQ(ds.version(), 4u);
    EXPECT_EQ(ds.versions().versions, (std::vector<std::uint64_t>{1, 3, 4}));
  }
}

// On io::LocalFileSystem() `_versions/` is read with readdir instead of FileSystem::List: the
// same answers (directories, temp and hint names ignored; mixed schemes refused; missing
// directory NotFound).
TEST(TableDatasetLocalTest, LocalListingMatchesTheGenericOne) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("lance_nd_dataset_local_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const std::string table = (dir / "t.lance").string();
  auto local = io::LocalFileSystem();
  auto memory = io::MakeMemoryFileSystem();
  for (std::uint64_t v : {1u, 2u, 3u, 10u}) {
    LND_ASSERT_OK(PutVersion(*local, table, SampleManifest(v), ManifestNaming::kV2));
    LND_ASSERT_OK(PutVersion(*memory, table, SampleManifest(v), ManifestNaming::kV2));
  }
  for (const std::string& name :
       {std::string(".tmpABC"), std::string("latest_version_hint.json"),
        ManifestFileName(11, ManifestNaming::kV2) + "#1", std::string("d5.manifest")}) {
    LND_ASSERT_OK(WriteBytes(*local, table + "/_versions/" + name, {1}));
    LND_ASSERT_OK(WriteBytes(*memory, table + "/_versions/" + name, {1}));
  }
  // A directory with a manifest's name is not a manifest.
  std::filesystem::create_directories(table + "/_versions/" +
                                      ManifestFileName(12, ManifestNaming::kV2));
  LND_ASSERT_OK_AND_ASSIGN(VersionList on_disk, ListVersions(TableLocation(local, table)));
  LND_ASSERT_OK_AND_ASSIGN(VersionList in_memory, ListVersions(TableLocation(memory, table)));
  EXPECT_EQ(on_disk.versions, (std::vector<std::uint64_t>{1, 2, 3, 10}));
  EXPECT_EQ(on_disk.versions, in_memory.versions);
  EXPECT_EQ(on_disk.naming, ManifestNaming::kV2);
  LND_ASSERT_OK_AND_ASSIGN(Dataset ds, Dataset::Open(TableLocation(local, table)));
  EXPECT_EQ(ds.version(), 10u);

  LND_ASSERT_OK(PutVersion(*local, table, SampleManifest(4), ManifestNaming::kV1));
  LND_EXPECT_ERROR(ListVersions(TableLocation(local, table)), StatusCode::kInvalidTable,
                   "mixes V1");
  LND_EXPECT_ERROR(ListVersions(TableLocation(local, (dir / "none.lance").string())),
                   StatusCode::kNotFound, "does not exist; create the table first");
  std::filesystem::create_directories(dir / "empty.lance/_versions");
  LND_EXPECT_ERROR(ListVersions(TableLocation(local, (dir / "empty.lance").string())),
                   StatusCode::kNotFound, "holds no committed manifest");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace lance_nd::table
