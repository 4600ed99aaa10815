// Lance 12 reads and appends to a table lance-nd wrote, and lance-nd rebases its own append /
// delete over Lance's concurrent one. Needs the oracle (LND_NEED_ORACLE).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "lance_nd/table/commit.h"
#include "lance_nd/table/maintenance.h"
#include "lance_nd/table/test_util.h"
#include "lance_nd/table/write.h"
#include "lance_nd/testing/status_matchers.h"
#include "lance_nd/testing/test_env.h"

namespace lance_nd::table {
namespace {

// Runs the node script: its stdout, or "exit N: " and its output.
std::string RunNode(const std::string& db, const std::string& mode) {
  return lance_nd::testing::RunNode(
      lance_nd::testing::SourcePath("src/lance_nd/table/commit/lance_interop.mjs"),
      db + " t " + mode);
}

std::int64_t JsonInt(const std::string& json, const std::string& key) {
  const auto at = json.find("\"" + key + "\":");
  if (at == std::string::npos) return -1;
  return std::atoll(json.c_str() + at + key.size() + 3);
}

TEST(TableCommitLanceInterop, Lance12ReadsAppendsAndWeRebase) {
  LND_NEED_ORACLE();
  const auto dir = std::filesystem::temp_directory_path() /
                   ("lance_nd_commit_interop_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const std::string db = dir.string();
  const std::string path = db + "/t.lance";
  auto fs = io::LocalFileSystem();
  std::vector<array::RecordBatchPtr> first = {testing::TestBatch(0, 5)};
  LND_ASSERT_OK(WriteTable(TableLocation(fs, path), first).status());
  WriteOptions append;
  append.mode = WriteMode::kAppend;
  std::vector<array::RecordBatchPtr> second = {testing::TestBatch(5, 3)};
  LND_ASSERT_OK_AND_ASSIGN(Dataset v2, WriteTable(TableLocation(fs, path), second, append));
  // Our next append, planned at version 2 but committed after Lance's.
  std::vector<array::RecordBatchPtr> third = {testing::TestBatch(10, 4)};
  LND_ASSERT_OK_AND_ASSIGN(
      auto planned,
      WriteFragments(TableLocation(fs, path), v2.manifest().fields, third, WriteOptions{}));

  const std::string lance = RunNode(db, "add");
  ASSERT_EQ(JsonInt(lance, "rows"), 8) << lance;
  EXPECT_EQ(JsonInt(lance, "idsum"), 28) << lance;  // 0..7
  EXPECT_EQ(JsonInt(lance, "version"), 3) << lance;
  EXPECT_EQ(JsonInt(lance, "after"), 10) << lance;

  Transaction txn;
  txn.read_version = 2;
  txn.operation = op::Append{planned};
  LND_ASSERT_OK_AND_ASSIGN(Dataset v4, CommitTransaction({fs, path}, txn));
  EXPECT_EQ(v4.version(), 4u);
  EXPECT_EQ(v4.CountRows(), 14u);
  ASSERT_EQ(v4.fragments().size(), 4u);
  EXPECT_EQ(v4.fragments()[3].id, 3u);

  const std::string check = RunNode(db, "count");
  EXPECT_EQ(JsonInt(check, "rows"), 14) << check;
  EXPECT_EQ(JsonInt(check, "version"), 4) << check;
  EXPECT_EQ(JsonInt(check, "idsum"), 28 + 1001 + 46) << check;  // + 500, 501 + 10..13
  std::filesystem::remove_all(dir);
}

// Lance deletes a row of fragment 0 while our DeleteRows of another row of it is planned at the
// version before: ours rebases by merging Lance's deletion file, and both rows are gone.
TEST(TableCommitLanceInterop, OurDeleteMergesWithLancesConcurrentDelete) {
  LND_NEED_ORACLE();
  const auto dir = std::filesystem::temp_directory_path() /
                   ("lance_nd_commit_interop_del_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const std::string db = dir.string();
  const std::string path = db + "/t.lance";
  auto fs = io::LocalFileSystem();
  std::vector<array::RecordBatchPtr> rows = {testing::TestBatch(0, 5)};
  LND_ASSERT_OK_AND_ASSIGN(Dataset v1, WriteTable(TableLocation(fs, path), rows));
  ASSERT_EQ(v1.fragments().size(), 1u);

  const std::string lance = RunNode(db, "delete");
  ASSERT_EQ(JsonInt(lance, "after"), 4) << lance;
  EXPECT_EQ(JsonInt(lance, "version"), 2) << lance;  // its delete committed version 2

  const std::vector<std::uint64_t> ours = {3};  // fragment 0, offset 3: id 3
  LND_ASSERT_OK_AND_ASSIGN(DeleteResult v3_deleted, DeleteRows(v1, ours));
  Dataset v3 = std::move(v3_deleted.dataset);
  EXPECT_EQ(v3.version(), 3u);
  EXPECT_EQ(v3.CountRows(), 3u);

  const std::string check = RunNode(db, "count");
  EXPECT_EQ(JsonInt(check, "rows"), 3) << check;
  EXPECT_EQ(JsonInt(check, "version"), 3) << check;
  EXPECT_EQ(JsonInt(check, "idsum"), 0 + 2 + 4) << check;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace lance_nd::table
