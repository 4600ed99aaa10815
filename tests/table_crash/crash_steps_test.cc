// Deterministic crashes at every step of a commit (FaultFileSystem), and leftovers of crashed
// writers (temp manifests, orphan data and transaction files, stale or broken hint files):
// the table must open at its last committed version with every committed row exactly once,
// and the next write must succeed.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "fault_file_system.h"
#include "lance_nd/table/versions.h"
#include "lance_nd/table/write.h"
#include "lance_nd/testing/status_matchers.h"
#include "lance_nd/testing/test_env.h"
#include "table_rows.h"

namespace lance_nd::table_test {
namespace {

using lance_nd::testing::TempDir;

std::map<std::int32_t, WriterClaim> BaseClaims() { return {{0, WriterClaim{1, 0, 3}}}; }

// Count the mutating operations of one append, then crash at each of them in turn.
void CrashAtEveryStep(const std::shared_ptr<io::FileSystem>& disk, const std::string& root) {
  int total = 0;
  {
    const std::string path = root + "/count.lance";
    LND_ASSERT_OK(CreateRowsTable(disk, path, 3).status());
    auto counter = std::make_shared<FaultFileSystem>(disk, 0);
    LND_ASSERT_OK(AppendCommit(counter, path, 1, 0, 4).status());
    total = counter->operations();
  }
  ASSERT_GT(total, 2) << "an append should create at least a data file and a manifest";
  int committed_before_error = 0;
  for (int k = 1; k <= total; ++k) {
    SCOPED_TRACE("crash at mutating operation " + std::to_string(k) + " of " +
                 std::to_string(total));
    const std::string path = root + "/k" + std::to_string(k) + ".lance";
    LND_ASSERT_OK(CreateRowsTable(disk, path, 3).status());
    auto faulty = std::make_shared<FaultFileSystem>(disk, k);
    auto r = AppendCommit(faulty, path, 1, 0, 4, /*max_attempts=*/1);
    ASSERT_TRUE(faulty->crashed());
    SCOPED_TRACE("crash point: " + faulty->crash_point());
    if (r.ok()) {
      // A crash after the commit point (e.g. the hint file) may be reported as success.
      ++committed_before_error;
    } else {
      EXPECT_EQ(r.status().code(), StatusCode::kIOError) << r.status().ToString();
    }
    auto claims = BaseClaims();
    claims[1] = WriterClaim{r.ok() ? 1 : 0, 1, 4};
    LND_ASSERT_OK_AND_ASSIGN(auto report, VerifyRowsTable(disk, path, claims));
    const bool present = report.commits == 2;
    EXPECT_EQ(report.latest_version, present ? 2u : 1u);
    // Once the manifest exists the commit happened: reporting an error then would make a
    // retrying caller append the same rows twice.
    EXPECT_TRUE(!present || r.ok())
        << "the commit landed but the append reported " << r.status().ToString();
    // The next write succeeds (on the healthy file system) and the table stays consistent.
    LND_ASSERT_OK_AND_ASSIGN(auto next, AppendCommit(disk, path, 2, 0, 4, 1));
    EXPECT_EQ(next.version, report.latest_version + 1);
    EXPECT_EQ(next.attempts, 1);
    claims[1] = WriterClaim{present ? 1 : 0, 0, 4};
    claims[2] = WriterClaim{1, 0, 4};
    LND_ASSERT_OK_AND_ASSIGN(auto after, VerifyRowsTable(disk, path, claims));
    EXPECT_EQ(after.rows, 3u + (present ? 8u : 4u));
  }
  std::printf(
      "crashed an append at each of its %d mutating operations (%d after the commit "
      "point)\n",
      total, committed_before_error);
}

TEST(TableCrashSteps, AppendCrashAtEveryStepLocalDisk) {
  TempDir dir("steps");
  CrashAtEveryStep(io::LocalFileSystem(), dir.path());
}

TEST(TableCrashSteps, AppendCrashAtEveryStepMemory) {
  CrashAtEveryStep(io::MakeMemoryFileSystem(), "/mem");
}

TEST(TableCrashSteps, DataFilesWrittenButNeverCommitted) {
  TempDir dir("orphans");
  auto disk = io::LocalFileSystem();
  const std::string path = dir.path() + "/t.lance";
  LND_ASSERT_OK_AND_ASSIGN(auto ds, CreateRowsTable(disk, path, 3));
  LND_ASSERT_OK_AND_ASSIGN(auto fields, table::FieldsFromSchema(*RowsSchema()));
  LND_ASSERT_OK_AND_ASSIGN(auto batch, MakeCommitBatch(7, 0, 5));
  std::vector<array::RecordBatchPtr> batches{batch};
  table::WriteOptions options;
  options.mode = table::WriteMode::kAppend;
  LND_ASSERT_OK_AND_ASSIGN(auto fragments, table::WriteFragments(table::TableLocation(disk, path),
                                                                 fields, batches, options));
  ASSERT_FALSE(fragments.empty());
  // A leftover transaction file of the same dead writer.
  LND_ASSERT_OK(disk->CreateDir(path + "/_transactions"));
  {
    LND_ASSERT_OK_AND_ASSIGN(auto out, disk->Create(path + "/_transactions/1-dead.txn"));
    const std::uint8_t junk[3] = {1, 2, 3};
    LND_ASSERT_OK(out->Write(junk));
    LND_ASSERT_OK(out->Close());
  }
  auto claims = BaseClaims();
  LND_ASSERT_OK_AND_ASSIGN(auto report, VerifyRowsTable(disk, path, claims));
  EXPECT_EQ(report.latest_version, 1u);
  EXPECT_EQ(report.rows, 3u);
  LND_ASSERT_OK_AND_ASSIGN(auto next, AppendCommit(disk, path, 1, 0, 4, 1));
  EXPECT_EQ(next.version, 2u);
  claims[1] = WriterClaim{1, 0, 4};
  LND_ASSERT_OK_AND_ASSIGN(auto after, VerifyRowsTable(disk, path, claims));
  EXPECT_EQ(after.rows, 7u);
}

TEST(TableCrashSteps, LeftoverTempManifestsAreIgnored) {
  TempDir dir("tempmanifest");
  auto disk = io::LocalFileSystem();
  const std::string path = dir.path() + "/t.lance";
  LND_ASSERT_OK_AND_ASSIGN(auto ds, CreateRowsTable(disk, path, 3));
  LND_ASSERT_OK_AND_ASSIGN(auto v1_file, disk->OpenForRead(ds.manifest_path()));
  LND_ASSERT_OK_AND_ASSIGN(auto v1_bytes, io::ReadWholeFile(*v1_file));
  const std::string v2 =
      path + "/_versions/" + table::ManifestFileName(2, table::ManifestNaming::kV2);
  // Staging names of crashed writers: Lance's "<final>#1", ours ".tmp-*", Lance's ".tmpXXXXXX",
  // the external-store form "<final>-<uuid>"; each holds half a manifest.
  const std::vector<std::string> leftovers = {v2 + "#1", v2 + ".tmp-123",
                                              path + "/_versions/.tmpAbC123", v2 + "-8a1b2c3d"};
  std::vector<std::uint8_t> half(
      v1_bytes->begin(), v1_bytes->begin() + static_cast<std::ptrdiff_t>(v1_bytes->size() / 2));
  for (const auto& f : leftovers) {
    LND_ASSERT_OK_AND_ASSIGN(auto out, disk->Create(f));
    LND_ASSERT_OK(out->Write(half));
    LND_ASSERT_OK(out->Close());
  }
  auto claims = BaseClaims();
  LND_ASSERT_OK_AND_ASSIGN(auto report, VerifyRowsTable(disk, path, claims));
  EXPECT_EQ(report.latest_version, 1u);
  LND_ASSERT_OK_AND_ASSIGN(auto next, AppendCommit(disk, path, 1, 0, 4, 1));
  EXPECT_EQ(next.version, 2u);
  claims[1] = WriterClaim{1, 0, 4};
  LND_ASSERT_OK_AND_ASSIGN(auto after, VerifyRowsTable(disk, path, claims));
  EXPECT_EQ(after.latest_version, 2u);
  for (const auto& f : leftovers) {
    LND_ASSERT_OK_AND_ASSIGN(bool still, disk->Exists(f));
    EXPECT_TRUE(still) << f << ": a writer must not delete other writers' staging files";
  }
}

TEST(TableCrashSteps, StaleOrBrokenHintFile) {
  TempDir dir("hint");
  auto disk = io::LocalFileSystem();
  const std::string path = dir.path() + "/t.lance";
  LND_ASSERT_OK(CreateRowsTable(disk, path, 3).status());
  LND_ASSERT_OK(AppendCommit(disk, path, 1, 0, 4, 1).status());
  LND_ASSERT_OK(AppendCommit(disk, path, 1, 1, 4, 1).status());
  auto claims = BaseClaims();
  std::int64_t commits = 2;
  std::uint64_t version = 3;
  for (const std::string hint : {R"({"version":1})", R"({"version":99})", "{\"vers", ""}) {
    SCOPED_TRACE("hint file: '" + hint + "'");
    const std::string hint_path = path + "/_versions/latest_version_hint.json";
    {
      LND_ASSERT_OK_AND_ASSIGN(auto out, disk->Create(hint_path));
      LND_ASSERT_OK(out->Write(std::span<const std::uint8_t>(
          reinterpret_cast<const std::uint8_t*>(hint.data()), hint.size())));
      LND_ASSERT_OK(out->Close());
    }
    LND_ASSERT_OK_AND_ASSIGN(auto ds, table::Dataset::Open(table::TableLocation(disk, path)));
    EXPECT_EQ(ds.version(), version);
    LND_ASSERT_OK_AND_ASSIGN(auto next, AppendCommit(disk, path, 1, commits, 4, 1));
    EXPECT_EQ(next.version, ++version);
    ++commits;
    claims[1] = WriterClaim{commits, 0, 4};
    LND_ASSERT_OK_AND_ASSIGN(auto report, VerifyRowsTable(disk, path, claims));
    EXPECT_EQ(report.latest_version, version);
  }
}

}  // namespace
}  // namespace lance_nd::table_test
