// A writer killed by SIGKILL at a random moment leaves the table readable at its last version:
// a forked child appends deterministic rows in a loop (many small fragments, schema growing on
// the way); after the kill the table opens, holds the base rows plus a whole number of the
// child's appends in order, and takes the next append.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "lance_nd/api/api_test_util.h"
#include "lance_nd/api/nd_writer.h"
#include "lance_nd/api/table.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd {
namespace {

using api_testing::RandomRows;
using api_testing::RandomUniverse;
using api_testing::ReadRows;
using nd::testing::Rng;
using nd::testing::Uniform;

constexpr int kRowsPerAppend = 6;

// The rows of the child's append `j` (the same in parent and child).
std::vector<nd::NdRecordBatch> AppendRows(std::uint64_t trial, int j) {
  Rng rng(trial * 7919 + 1);
  auto u = RandomUniverse(rng, 12);
  u.vars.resize(static_cast<std::size_t>(std::min(j + 1, 12)));  // a new variable per append
  Rng rows_rng(trial * 104729 + static_cast<std::uint64_t>(j));
  return RandomRows(rows_rng, u, kRowsPerAppend, 0.7);
}

[[noreturn]] void AppendForever(const std::string& dir, std::uint64_t trial) {
  WriteOptions o;
  o.target_fragment_bytes = 600;
  o.max_rows_per_group = 2;
  o.write_parallelism = 2;
  for (int j = 0;; ++j) {
    auto w = NdWriter::Append(dir, o);
    if (!w.ok()) _exit(2);
    for (const auto& row : AppendRows(trial, j)) {
      if (!w->Write(row).ok()) _exit(3);
    }
    if (!w->Finish().ok()) _exit(4);
  }
}

TEST(NdWriterCrash, KilledWriterLeavesTheLastVersionReadable) {
  const auto root = std::filesystem::temp_directory_path() /
                    ("lance_nd_writer_crash_" + std::to_string(getpid()));
  std::filesystem::remove_all(root);
  Rng rng(2024);
  int trials_with_commits = 0;
  for (std::uint64_t trial = 0; trial < 40; ++trial) {
    SCOPED_TRACE(trial);
    const std::string dir = (root / ("t" + std::to_string(trial))).string();
    auto base = nd::testing::Unwrap(nd::NdRecordBatch::FromArrays(
        {{"base", nd::testing::Nd(nd::testing::F32({1, 2}), {{"x", 2}})}}));
    LND_ASSERT_OK(Table::Write(dir, std::vector{base}).status());

    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) AppendForever(dir, trial);
    std::this_thread::sleep_for(std::chrono::milliseconds(Uniform(rng, 0, 120)));
    kill(pid, SIGKILL);
    int wstatus = 0;
    waitpid(pid, &wstatus, 0);
    ASSERT_TRUE(WIFSIGNALED(wstatus)) << "the child ended by itself: " << wstatus;

    LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Open(dir));
    LND_ASSERT_OK_AND_ASSIGN(auto got, ReadRows(t.dataset()));
    ASSERT_EQ((got.size() - 1) % kRowsPerAppend, 0u) << got.size() << " rows: a partial append";
    const int appends = static_cast<int>((got.size() - 1) / kRowsPerAppend);
    if (appends > 0) ++trials_with_commits;
    std::vector<nd::NdRecordBatch> want = {base};
    for (int j = 0; j < appends; ++j) {
      auto rows = AppendRows(trial, j);
      want.insert(want.end(), rows.begin(), rows.end());
    }
    api_testing::ExpectSameRows(want, got);
    // The table takes the next append.
    auto next = AppendRows(trial, appends);
    LND_ASSERT_OK(t.Append(next));
    LND_ASSERT_OK_AND_ASSIGN(auto after, ReadRows(t.dataset()));
    want.insert(want.end(), next.begin(), next.end());
    api_testing::ExpectSameRows(want, after);
  }
  EXPECT_GT(trials_with_commits, 5);  // the kills landed mid-run, not only before the first commit
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace lance_nd
