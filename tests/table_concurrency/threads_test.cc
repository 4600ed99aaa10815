// In-process variant of the concurrency test: several threads append to one table at once
// (local disk and the in-memory file system); every commit must land exactly once.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "lance_nd/testing/status_matchers.h"
#include "table_rows.h"

namespace lance_nd::table_test {
namespace {

void ThreadsAppend(const std::shared_ptr<io::FileSystem>& fs, const std::string& path) {
  constexpr int kThreads = 4, kCommits = 8, kRows = 6;
  LND_ASSERT_OK(CreateRowsTable(fs, path, 3).status());
  std::vector<Status> results(kThreads);
  std::vector<int> retries(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int c = 0; c < kCommits; ++c) {
        auto r = AppendCommit(fs, path, t + 1, c, kRows);
        if (!r.ok()) {
          results[static_cast<std::size_t>(t)] = r.status();
          return;
        }
        retries[static_cast<std::size_t>(t)] += r->attempts - 1;
      }
    });
  }
  for (auto& th : threads) th.join();
  std::map<std::int32_t, WriterClaim> claims{{0, WriterClaim{1, 0, 3}}};
  for (int t = 0; t < kThreads; ++t) {
    LND_EXPECT_OK(results[static_cast<std::size_t>(t)]);
    claims[t + 1] = WriterClaim{kCommits, 0, kRows};
  }
  LND_ASSERT_OK_AND_ASSIGN(auto report, VerifyRowsTable(fs, path, claims));
  EXPECT_EQ(report.latest_version, 1u + kThreads * kCommits);
  EXPECT_EQ(report.rows, 3u + kThreads * kCommits * kRows);
  EXPECT_EQ(report.versions_checked, report.latest_version);
}

TEST(TableConcurrencyThreads, AppendsLocalDisk) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("lance_nd_threads_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  ThreadsAppend(io::LocalFileSystem(), (dir / "t.lance").string());
  std::filesystem::remove_all(dir);
}

TEST(TableConcurrencyThreads, AppendsMemory) { ThreadsAppend(io::MakeMemoryFileSystem(), "/t"); }

// The checker itself must catch a broken table: a commit missing from a writer's claim.
TEST(TableConcurrencyThreads, VerifyCatchesMissingCommit) {
  auto fs = io::MakeMemoryFileSystem();
  LND_ASSERT_OK(CreateRowsTable(fs, "/t", 3).status());
  LND_ASSERT_OK(AppendCommit(fs, "/t", 1, 0, 4).status());
  std::map<std::int32_t, WriterClaim> claims{{0, WriterClaim{1, 0, 3}}, {1, WriterClaim{2, 0, 4}}};
  LND_EXPECT_ERROR(VerifyRowsTable(fs, "/t", claims).status(), StatusCode::kCorrupt,
                   "writer 1 has 1 commits in the table, its log claims 2");
  claims[1] = WriterClaim{1, 0, 5};
  LND_EXPECT_ERROR(VerifyRowsTable(fs, "/t", claims).status(), StatusCode::kCorrupt,
                   "has 4 rows, expected 5");
}

}  // namespace
}  // namespace lance_nd::table_test
