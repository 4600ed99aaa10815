// Kill-a-writer harness: fork+exec a table_writer_tool that appends commits in a loop, SIGKILL
// it after a random delay, then check the table, many times.
//   table_crash_harness --tool TOOL --work DIR [--trials N] [--seed S] [--max-delay-ms M]
//                       [--rows R] [--reset-every K]
// After each kill:
//  - Dataset::Open opens the latest version, which is at least the child's last logged
//    commit's version (a committed version never disappears);
//  - the parent appends one more commit (the next write succeeds);
//  - VerifyRowsTable: versions contiguous 1..N, every row of every commit exactly once and
//    complete (no partial rows), each version adds exactly one commit, each killed writer has
//    its logged commits and at most one more (committed, killed before logging).
// The table is recreated every K trials so a trial's cost stays bounded.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <thread>

#include "table_rows.h"

namespace {

namespace tt = lance_nd::table_test;

struct Args {
  std::string tool, work;
  int trials = 200;
  unsigned seed = 1;
  int max_delay_ms = 40;
  int rows = 10;
  int reset_every = 25;
};

int Fail(const std::string& msg) {
  std::cerr << "FAIL: " << msg << "\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--tool")
      a.tool = v;
    else if (k == "--work")
      a.work = v;
    else if (k == "--trials")
      a.trials = std::atoi(v.c_str());
    else if (k == "--seed")
      a.seed = static_cast<unsigned>(std::atol(v.c_str()));
    else if (k == "--max-delay-ms")
      a.max_delay_ms = std::atoi(v.c_str());
    else if (k == "--rows")
      a.rows = std::atoi(v.c_str());
    else if (k == "--reset-every")
      a.reset_every = std::atoi(v.c_str());
    else
      return Fail("unknown argument " + k);
  }
  if (a.tool.empty() || a.work.empty() || a.reset_every < 1) {
    std::cerr << "usage: table_crash_harness --tool TOOL --work DIR [--trials N] [--seed S]"
                 " [--max-delay-ms M] [--rows R] [--reset-every K]\n";
    return 2;
  }
  auto fs = lance_nd::io::LocalFileSystem();
  std::mt19937 rng(a.seed);
  std::uniform_int_distribution<int> delay_us(0, a.max_delay_ms * 1000);
  const auto start = std::chrono::steady_clock::now();
  std::string table;
  std::map<std::int32_t, tt::WriterClaim> claims;
  long kills_mid_run = 0, commits_total = 0, unlogged_commits = 0, versions_checked = 0;
  for (int trial = 0; trial < a.trials; ++trial) {
    if (trial % a.reset_every == 0) {
      table = a.work + "/t" + std::to_string(trial / a.reset_every) + ".lance";
      std::filesystem::remove_all(table);
      std::filesystem::create_directories(a.work);
      auto created = tt::CreateRowsTable(fs, table, 3);
      if (!created.ok()) return Fail("create: " + created.status().ToString());
      claims.clear();
      claims[0] = tt::WriterClaim{1, 0, 3};
    }
    const std::int32_t writer = 1 + 2 * trial;  // the killed child
    const std::int32_t after = 2 + 2 * trial;   // the parent's next write
    const std::string log = a.work + "/w" + std::to_string(writer) + ".log";
    std::filesystem::remove(log);
    const pid_t pid = fork();
    if (pid < 0) return Fail("fork failed");
    if (pid == 0) {
      const std::string w = std::to_string(writer), r = std::to_string(a.rows);
      execl(a.tool.c_str(), a.tool.c_str(), "append", table.c_str(), w.c_str(), "1000000",
            r.c_str(), log.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(delay_us(rng)));
    kill(pid, SIGKILL);
    int wstatus = 0;
    waitpid(pid, &wstatus, 0);
    if (!WIFSIGNALED(wstatus)) {
      return Fail("trial " + std::to_string(trial) + ": writer exited by itself (status " +
                  std::to_string(WEXITSTATUS(wstatus)) + "), see its stderr above");
    }
    auto logged = tt::ReadWriterLog(log);
    if (!logged.ok()) return Fail(logged.status().ToString());
    if (*logged > 0) ++kills_mid_run;

    // The table opens at (at least) the last logged version.
    auto opened = lance_nd::table::Dataset::Open(lance_nd::table::TableLocation(fs, table));
    if (!opened.ok()) {
      return Fail("trial " + std::to_string(trial) +
                  ": table does not open after the kill: " + opened.status().ToString());
    }
    claims[writer] = tt::WriterClaim{*logged, 1, a.rows};
    // The next write succeeds.
    auto next = tt::AppendCommit(fs, table, after, 0, a.rows);
    if (!next.ok()) {
      return Fail("trial " + std::to_string(trial) +
                  ": the write after the kill failed: " + next.status().ToString());
    }
    claims[after] = tt::WriterClaim{1, 0, a.rows};
    auto report = tt::VerifyRowsTable(fs, table, claims);
    if (!report.ok()) {
      return Fail("trial " + std::to_string(trial) + " (table " + table +
                  "): " + report.status().ToString());
    }
    // Pin what the table holds of the killed writer for later trials on this table.
    std::int64_t present = 0;
    for (const auto& k : report->keys) {
      if (k.writer == writer && k.row == 0) ++present;
    }
    unlogged_commits += present - *logged;
    claims[writer] = tt::WriterClaim{present, 0, a.rows};
    commits_total += present + 1;
    versions_checked += static_cast<long>(report->versions_checked);
  }
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "PASS: %d trials (SIGKILL after 0..%d ms), %ld killed after >=1 logged commit, %ld commits "
      "verified, %ld committed-but-unlogged commits found intact, %ld version checks, %.1f s\n",
      a.trials, a.max_delay_ms, kills_mid_run, commits_total, unlogged_commits, versions_checked,
      secs);
  return 0;
}
