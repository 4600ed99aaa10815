// A writer killed by SIGKILL at a random moment leaves the table readable at its last version:
// a forked child appends deterministic rows in a loop (many small fragments, schema growing on
// the way); after the kill the table opens, holds the base rows plus a whole number of the
// child's appends in order, and takes the next append.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
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

WriteOptions SmallFragments() {
  WriteOptions o;
  o.target_fragment_bytes = 600;
  o.max_rows_per_group = 2;
  o.write_parallelism = 2;
  return o;
}

// One whole append `j` (open, write the rows, commit); the exit code says which step failed.
int AppendOnce(const std::string& dir, std::uint64_t trial, int j) {
  auto w = NdWriter::Append(dir, SmallFragments());
  if (!w.ok()) return 2;
  for (const auto& row : AppendRows(trial, j)) {
    if (!w->Write(row).ok()) return 3;
  }
  return w->Finish().ok() ? 0 : 4;
}

[[noreturn]] void AppendForever(const std::string& dir, std::uint64_t trial) {
  for (int j = 0;; ++j) {
    if (const int code = AppendOnce(dir, trial, j); code != 0) _exit(code);
  }
}

// How long a few appends take on this machine and build (sanitizers slow them several-fold),
// so the kills spread over the child's first commits wherever the test runs.
int KillWindowMillis(const std::filesystem::path& root, const nd::NdRecordBatch& base) {
  const std::string dir = (root / "calibrate").string();
  if (!Table::Write(dir, std::vector{base}).ok()) return 120;
  const auto start = std::chrono::steady_clock::now();
  for (int j = 0; j < 3; ++j) {
    if (AppendOnce(dir, 0, j) != 0) return 120;
  }
  const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - start);
  std::filesystem::remove_all(dir);
  return std::max(120, static_cast<int>(took.count()));
}

// Waits until the child's first append is visible: its schema extension (version 2) and its
// rows (version 3) are committed, so the kill that follows lands between or inside later ones.
void AwaitFirstAppend(const std::string& dir) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    auto t = Table::Open(dir);
    if (t.ok() && t->version() >= 3) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

TEST(NdWriterCrash, KilledWriterLeavesTheLastVersionReadable) {
  const auto root = std::filesystem::temp_directory_path() /
                    ("lance_nd_writer_crash_" + std::to_string(getpid()));
  std::filesystem::remove_all(root);
  Rng rng(2024);
  auto base = nd::testing::Unwrap(nd::NdRecordBatch::FromArrays(
      {{"base", nd::testing::Nd(nd::testing::F32({1, 2}), {{"x", 2}})}}));
  const int window_ms = KillWindowMillis(root, base);
  int trials_with_commits = 0;
  for (std::uint64_t trial = 0; trial < 40; ++trial) {
    SCOPED_TRACE(trial);
    const std::string dir = (root / ("t" + std::to_string(trial))).string();
    LND_ASSERT_OK(Table::Write(dir, std::vector{base}).status());

    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) AppendForever(dir, trial);
    // Odd trials kill after the first commit; even ones at any moment, the first included.
    if (trial % 2 == 1) AwaitFirstAppend(dir);
    std::this_thread::sleep_for(std::chrono::milliseconds(Uniform(rng, 0, window_ms)));
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
  EXPECT_GE(trials_with_commits, 20);  // the odd trials killed after a commit, mid-run
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace lance_nd
