// The Dataset a commit returns is built from the manifest in memory (Dataset::FromManifest),
// never read back: it must equal what Dataset::Open reads from the file that was written, for
// every kind of commit, on tables written by lance-nd and by Lance 12 (whose manifests carry
// fields lance-nd keeps only as unmodelled protobuf bytes).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "lance_nd/table/commit.h"
#include "lance_nd/table/maintenance.h"
#include "lance_nd/table/test_util.h"
#include "lance_nd/table/write.h"
#include "lance_nd/testing/status_matchers.h"
#include "lance_nd/testing/test_env.h"

namespace lance_nd::table {
namespace {

std::vector<std::uint8_t> Bytes(const Result<std::vector<std::uint8_t>>& r) {
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : std::vector<std::uint8_t>{};
}

// `committed` (as returned by a commit) against the same version opened from disk.
void ExpectSameAsOpened(const Dataset& committed) {
  SCOPED_TRACE("version " + std::to_string(committed.version()));
  ClearManifestCache();  // otherwise Open would reuse the commit's own parse
  LND_ASSERT_OK_AND_ASSIGN(Dataset opened,
                           Dataset::Open(committed.location(), committed.version()));
  EXPECT_EQ(committed.manifest_path(), opened.manifest_path());
  EXPECT_EQ(committed.versions().versions, opened.versions().versions);
  EXPECT_EQ(committed.versions().naming, opened.versions().naming);
  EXPECT_EQ(committed.CountRows(), opened.CountRows());
  EXPECT_EQ(committed.fragments(), opened.fragments());
  EXPECT_EQ(committed.manifest().fields, opened.manifest().fields);
  EXPECT_EQ(committed.manifest().unmodelled_proto, opened.manifest().unmodelled_proto);
  EXPECT_EQ(committed.manifest().index_section_blob, opened.manifest().index_section_blob);
  EXPECT_EQ(committed.manifest().index_section, opened.manifest().index_section);
  EXPECT_EQ(committed.manifest().transaction_section, opened.manifest().transaction_section);
  EXPECT_EQ(Bytes(SerializeManifestFile(committed.manifest(), nullptr)),
            Bytes(SerializeManifestFile(opened.manifest(), nullptr)));
  ASSERT_TRUE(committed.transaction().has_value());
  ASSERT_TRUE(opened.transaction().has_value());
  EXPECT_EQ(Bytes(SerializeTransaction(*committed.transaction())),
            Bytes(SerializeTransaction(*opened.transaction())));
  EXPECT_TRUE(committed.schema()->Equals(*opened.schema(), /*check_metadata=*/true));
  EXPECT_NE(committed.manifest_file(), opened.manifest_file());  // really parsed again
}

TEST(TableCommitResult, EveryOperationMatchesWhatOpenReads) {
  auto fs = io::MakeMemoryFileSystem();
  std::vector<array::RecordBatchPtr> rows = {testing::TestBatch(0, 10)};
  LND_ASSERT_OK_AND_ASSIGN(Dataset v1, WriteTable(TableLocation(fs, "t"), rows));
  ExpectSameAsOpened(v1);
  WriteOptions append;
  append.mode = WriteMode::kAppend;
  std::vector<array::RecordBatchPtr> more = {testing::TestBatch(10, 5)};
  LND_ASSERT_OK_AND_ASSIGN(Dataset v2, WriteTable(TableLocation(fs, "t"), more, append));
  ExpectSameAsOpened(v2);
  const std::vector<std::uint64_t> doomed = {1, 3, (std::uint64_t{1} << 32) | 2};
  LND_ASSERT_OK_AND_ASSIGN(DeleteResult v3_deleted, DeleteRows(v2, doomed));
  Dataset v3 = std::move(v3_deleted.dataset);
  EXPECT_EQ(v3.CountRows(), 12u);
  ExpectSameAsOpened(v3);
  LND_ASSERT_OK_AND_ASSIGN(Dataset v4, Restore(v1));
  EXPECT_EQ(v4.CountRows(), 10u);
  ExpectSameAsOpened(v4);
  WriteOptions overwrite;
  overwrite.mode = WriteMode::kOverwrite;
  LND_ASSERT_OK_AND_ASSIGN(Dataset v5, WriteTable(TableLocation(fs, "t"), more, overwrite));
  EXPECT_EQ(v5.version(), 5u);
  ExpectSameAsOpened(v5);
}

// A Lance 12 table (copied to a temp dir; the local disk lists _versions/ with readdir).
TEST(TableCommitResult, AppendAndDeleteOnALance12Table) {
  const std::filesystem::path golden =
      lance_nd::testing::SourcePath("src/lance_nd/table/testdata/lance12_nested.lance");
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("lance_nd_commit_result_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::filesystem::copy(golden, dir / "t.lance", std::filesystem::copy_options::recursive);
  const std::string path = (dir / "t.lance").string();
  auto fs = io::LocalFileSystem();
  LND_ASSERT_OK_AND_ASSIGN(Dataset v4, Dataset::Open(TableLocation(fs, path)));
  ASSERT_EQ(v4.version(), 4u);
  ASSERT_EQ(v4.manifest().writer_library, "lance");
  Transaction txn;
  txn.read_version = 4;
  Fragment again = v4.fragments().front();
  again.id = 0;  // the same data file again, as a new fragment
  again.deletion_file.reset();
  txn.operation = op::Append{{again}};
  LND_ASSERT_OK_AND_ASSIGN(Dataset v5, CommitTransaction({fs, path}, txn));
  EXPECT_EQ(v5.version(), 5u);
  EXPECT_EQ(v5.versions().versions, (std::vector<std::uint64_t>{1, 2, 3, 4, 5}));
  ExpectSameAsOpened(v5);
  const std::vector<std::uint64_t> doomed = {0};
  LND_ASSERT_OK_AND_ASSIGN(DeleteResult v6_deleted, DeleteRows(v5, doomed));
  Dataset v6 = std::move(v6_deleted.dataset);
  ExpectSameAsOpened(v6);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace lance_nd::table
