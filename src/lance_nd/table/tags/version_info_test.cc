#include "lance_nd/table/version_info.h"

#include <gtest/gtest.h>

#include "lance_nd/table/tags/ops_test_util.h"
#include "lance_nd/table/test_util.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::table {
namespace {

using std::chrono::milliseconds;
using std::chrono::nanoseconds;

// What Lance 12's listVersions() printed for the table (make_tagged_table.mjs).
TEST(VersionInfoTest, MatchesLance12ListVersions) {
  auto local = io::LocalFileSystem();
  LND_ASSERT_OK_AND_ASSIGN(
      auto infos, ListVersionInfos(TableLocation(local, ops_testing::Lance12TaggedTable())));
  ASSERT_EQ(infos.size(), 3u);
  const char* ops[] = {"Overwrite", "Append", "Delete"};
  const std::uint64_t rows[] = {3, 5, 4}, frags[] = {1, 2, 2}, sizes[] = {638, 1276, 1276},
                      del_files[] = {0, 0, 1}, del_rows[] = {0, 0, 1}, phys[] = {3, 5, 5};
  // 2026-11-29T14:45:52.267Z, .291Z, .314Z (JS shows milliseconds).
  const std::int64_t ms[] = {1795963552267, 1795963552291, 1795963552314};
  for (std::size_t i = 0; i < 3; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(infos[i].version, i + 1);
    EXPECT_EQ(infos[i].operation, ops[i]);
    EXPECT_EQ(infos[i].num_rows, rows[i]);
    EXPECT_EQ(infos[i].num_fragments, frags[i]);
    EXPECT_EQ(infos[i].num_data_files, frags[i]);
    EXPECT_EQ(infos[i].total_files_size, sizes[i]);
    EXPECT_EQ(infos[i].num_deletion_files, del_files[i]);
    EXPECT_EQ(infos[i].num_deleted_rows, del_rows[i]);
    EXPECT_EQ(infos[i].num_physical_rows, phys[i]);
    EXPECT_EQ(std::chrono::floor<milliseconds>(infos[i].timestamp).time_since_epoch().count(),
              ms[i]);
  }
}

TEST(VersionInfoTest, OperationFromTxnFileOrNone) {
  auto fs = io::MakeMemoryFileSystem();
  const std::string table = "t.lance";
  // v1: transaction only in the .txn file; v2: no transaction at all.
  Manifest m1 = testing::SampleManifest(1);
  m1.transaction_file = "0-abc.txn";
  LND_ASSERT_OK_AND_ASSIGN(auto b1, SerializeManifestFile(m1, nullptr));
  LND_ASSERT_OK(testing::WriteBytes(
      *fs, table + "/_versions/" + ManifestFileName(1, ManifestNaming::kV2), b1));
  LND_ASSERT_OK_AND_ASSIGN(auto txn, SerializeTransaction(testing::SampleAppend(0)));
  LND_ASSERT_OK(testing::WriteBytes(*fs, table + "/_transactions/0-abc.txn", txn));
  Manifest m2 = testing::SampleManifest(2);
  m2.transaction_file = "1-missing.txn";
  LND_ASSERT_OK_AND_ASSIGN(auto b2, SerializeManifestFile(m2, nullptr));
  LND_ASSERT_OK(testing::WriteBytes(
      *fs, table + "/_versions/" + ManifestFileName(2, ManifestNaming::kV2), b2));
  LND_ASSERT_OK_AND_ASSIGN(auto infos, ListVersionInfos(TableLocation(fs, table)));
  ASSERT_EQ(infos.size(), 2u);
  EXPECT_EQ(infos[0].operation, "Append");
  EXPECT_EQ(infos[1].operation, "");
  EXPECT_EQ(infos[1].num_rows, 13u);
  EXPECT_EQ(infos[1].num_deleted_rows, 2u);
  EXPECT_EQ(infos[1].timestamp.time_since_epoch(),
            std::chrono::seconds(1'790'000'000) + nanoseconds(123));
}

TEST(VersionInfoTest, Errors) {
  auto fs = io::MakeMemoryFileSystem();
  LND_EXPECT_ERROR(ListVersionInfos(TableLocation(fs, "none.lance")), StatusCode::kNotFound,
                   "no Lance table");
  LND_ASSERT_OK(testing::WriteBytes(
      *fs, "t.lance/_versions/" + ManifestFileName(1, ManifestNaming::kV2), {1, 2, 3}));
  LND_EXPECT_ERROR(ListVersionInfos(TableLocation(fs, "t.lance")), StatusCode::kCorrupt, "");
}

}  // namespace
}  // namespace lance_nd::table
